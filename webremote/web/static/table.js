// The table screen (the host's laptop or a TV): the public view, large; the
// room code and QR while people join; the host's controls.
import { tick, $, h, fill, api, roomFromPath, connect, toast, turnText, viewEl, eventsEl, hearingEl, timersEl, named } from "/static/common.js";

const room = roomFromPath();
const key = "tableref.host." + room;
const app = $("#app");
let token = localStorage.getItem(key);
const frag = new URLSearchParams(location.hash.slice(1));
if (frag.get("host")) { token = frag.get("host"); localStorage.setItem(key, token); history.replaceState(null, "", location.pathname); }

async function host(action, body, confirmText) {
  if (confirmText && !confirm(confirmText)) return;
  const r = await api("POST", `/api/rooms/${room}/${action}`, body || {}, token);
  if (r.status !== 200) toast(r.data.error || action + " failed");
}

let log = [];
function render(st) {
  const seen = new Set(log.map((e) => e.seq + "|" + e.type + "|" + e.text));
  for (const e of st.events || []) if (!seen.has(e.seq + "|" + e.type + "|" + e.text)) log.push(e);
  log = log.slice(-60);
  const r = st.room;
  const lobby = r.status === "lobby";
  // The server's join address (its LAN address), as in the QR code: this
  // screen's own origin may be 127.0.0.1, which phones cannot reach.
  const joinURL = r.join_url || `${location.origin}/j/${r.code}`;
  const players = h("div.players", r.players.map((p) => h("div.player" + ((st.turn || []).includes(p.seat) && !lobby ? ".turn" : ""),
    h("span.dot" + (p.connected ? ".on" : "")), p.name, p.vacant ? " (left)" : "",
    h("button", { title: "remove " + p.name, onclick: () => host("kick", { seat: p.seat }, `Remove ${p.name} from the room?`) }, "✕"))));
  const controls = h("div.row",
    lobby ? h("button.primary", { id: "start", onclick: () => host("start") }, "Start the game") : null,
    h("button", { id: "lock", onclick: () => host("lock", { locked: !r.locked }) }, r.locked ? "Unlock the room" : "Lock the room"),
    !lobby && r.status !== "over" ? h("button", { id: "pause", onclick: () => host("pause", { paused: r.status !== "paused" }) }, r.status === "paused" ? "Resume" : "Pause") : null,
    !lobby ? h("button", { id: "restart", onclick: () => host("restart", {}, "Start a new game with the same players?") }, "New game") : null,
    h("button.danger", { id: "end", onclick: () => host("end", {}, "End this room for everyone?") }, "End the room"));
  const tname = h("input", { id: "timer-name", placeholder: "timer name", value: "sand", maxlength: "24" });
  const tsecs = h("input", { id: "timer-seconds", type: "number", min: "1", max: "7200", value: "60" });
  const timer = (action) => host("timers", { name: tname.value, action, seconds: +tsecs.value });
  const timers = h("div.panel", h("h2", "Timers"), h("div.row", tname, tsecs),
    h("div.row", ["create", "start", "pause", "flip", "reset", "delete"].map((a) => h("button", { "data-timer-action": a, onclick: () => timer(a) }, a))));
  const join = h("div.panel", { id: "join" },
    h("div.muted", "Room"), h("div.code", r.code),
    h("img.qr", { src: `/api/rooms/${r.code}/qr.png`, alt: "QR code to join" }),
    h("div.joinurl", "Join at ", h("strong", joinURL)));
  const main = h("div",
    h("div", { class: "banner" + (st.over ? " over" : r.status === "paused" ? " paused" : ""), id: "banner" }, turnText(st)),
    timersEl(st), hearingEl(st), viewEl(st, true),
    st.result ? h("div.panel", h("h2", "Result"), named(st.result.text, st.names)) : null,
    h("div.panel", h("h2", "Players"), players));
  fill(app, 
    h("h1", `${r.name} · room ${r.code}`),
    h("div.tablegrid",
      h("div", lobby ? h("div.panel", h("h2", `Players (${r.players.length} of ${r.seats})`), players, h("p.muted", "Scan the code with your phone to join.")) : main),
      h("div", join, h("div.panel", h("h2", "Host"), controls), timers, h("div.panel", h("h2", "Announcements"), eventsEl(log, st.names, 10)))));
}

function boot() {
  if (!token) {
    fill(app, h("h1", `Room ${room}`), h("p", "This screen does not hold the host's key for this room. Open the room from the computer that created it, or create a new one."), h("a.btn", { href: "/" }, "Create a room"));
    return;
  }
  connect(room, token, { onState: render, onOnline: (on) => $("#offline").classList.toggle("show", !on),
    onRevoked: () => fill(app, h("h1", `Room ${room} has ended`), h("a.btn", { href: "/" }, "Create a room")) });
  setInterval(tick, 250);
}
boot();
