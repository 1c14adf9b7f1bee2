// The phone: join a room with a name, then show this seat's private view,
// whose turn it is and what the player can do, as big buttons.
import { tick, $, h, fill, api, roomFromPath, connect, toast, turnText, viewEl, movesEl, eventsEl, hearingEl, timersEl, named } from "/static/common.js";

const room = roomFromPath();
const key = "tableref.seat." + room;
const app = $("#app");
let conn = null, last = null, wasMyTurn = false, wakeLock = null;

function joinForm(message) {
  const name = h("input", { id: "name", maxlength: "24", autocomplete: "nickname", placeholder: "Your name", required: true });
  const form = h("form", { onsubmit: async (e) => {
    e.preventDefault();
    const r = await api("POST", `/api/rooms/${room}/join`, { name: name.value.trim() });
    if (r.status !== 201) { toast(r.data.error || "could not join"); return; }
    localStorage.setItem(key, r.data.token);
    start(r.data.token);
  } }, h("label", { for: "name" }, "Your name"), name, h("button.primary", { type: "submit", id: "join" }, "Join"));
  fill(app, h("h1", `Room ${room}`), message ? h("p.muted", message) : null, h("div.panel", form));
  name.focus();
}

async function keepAwake(on) {
  try {
    if (on && !wakeLock && "wakeLock" in navigator) {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    } else if (!on && wakeLock) { await wakeLock.release(); wakeLock = null; }
  } catch (e) { /* not allowed now: tried again on the next state */ }
}
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible" && last) keepAwake(last.room.status === "playing"); });

function render(st) {
  last = st;
  const r = st.room;
  const mine = (st.turn || []).includes(r.you) && r.status === "playing" && !st.over;
  if (mine && !wasMyTurn && navigator.vibrate) navigator.vibrate([120, 60, 120]);
  wasMyTurn = mine;
  keepAwake(r.status === "playing");
  const name = st.names && st.names[r.you] || (r.players.find((p) => p.seat === r.you) || {}).name || "";
  let bannerClass = "banner";
  if (st.over) bannerClass += " over"; else if (r.status === "paused") bannerClass += " paused"; else if (mine) bannerClass += " you";
  const banner = h("div", { class: bannerClass, id: "banner" }, mine ? "Your turn — " + name : turnText(st));
  const send = (m) => conn.send(typeof m === "string" ? m : { action: m.action, args: m.args || [] }, st.seq);
  fill(app, 
    banner,
    h("p.muted", `Room ${r.code} · ${r.name} · you are `, h("strong", { id: "me" }, name)),
    r.status === "lobby" ? h("div.panel", h("h2", "Players"), h("ul.events", r.players.map((p) => h("li", p.name))),
      h("p.muted", "The game starts when the host starts it.")) : null,
    timersEl(st),
    hearingEl(st),
    movesEl(st, send, r.game),
    viewEl(st, false),
    st.result ? h("div.panel", h("h2", "Result"), named(st.result.text, st.names)) : null,
    h("div.panel", h("h2", "What happened"), eventsEl(st.events_all || st.events, st.names)));
}

// events accumulate: each state carries what came after the last one.
let log = [];
function onState(st) {
  const seen = new Set(log.map((e) => e.seq + "|" + e.type + "|" + e.text));
  for (const e of st.events || []) if (!seen.has(e.seq + "|" + e.type + "|" + e.text)) log.push(e);
  log = log.slice(-60);
  st.events_all = log;
  render(st);
}

function start(token) {
  fill(app, h("p.muted", "Connecting…"));
  if (conn) conn.close();
  conn = connect(room, token, {
    onState,
    onOnline: (on) => $("#offline").classList.toggle("show", !on),
    onRevoked: () => { localStorage.removeItem(key); joinForm("You were removed from the room, or it ended. Join again?"); },
  });
}

async function boot() {
  if (!room) { fill(app, h("p", "No room in this address.")); return; }
  const token = localStorage.getItem(key);
  if (!token) return joinForm();
  const r = await api("GET", `/api/rooms/${room}/view`, undefined, token);
  if (r.status === 401 || r.status === 404) { localStorage.removeItem(key); return joinForm(r.data.error); }
  start(token);
}
setInterval(tick, 250);
boot();
