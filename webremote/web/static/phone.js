// The phone: join a room with a name, then show this seat's private view,
// whose turn it is and what the player can do, as big buttons.
import { tick, $, h, fill, toast, turnText, waitingText, viewEl, eventsEl, timersEl, noteServerTime, headParts } from "/static/ui.js";
import { api, roomFromPath, connect, eventLog, loadGame } from "/static/client.js";
import { movesEl } from "/static/moves.js";
import { hearingEl } from "/static/hearing.js";

const room = roomFromPath();
const key = "tableref.seat." + room;
const app = $("#app");
let conn = null, last = null, wasMyTurn = false, game = {};
// result is what this phone's last move did, shown as a banner across the
// top for a few seconds: {e: the event, until: ms}.
let result = null;

function joinForm(message) {
  const name = h("input", { id: "name", maxlength: "24", autocomplete: "nickname", placeholder: "Your name", required: true });
  const said = h("p.joinerror", { id: "join-error", role: "alert" });
  const form = h("form", { onsubmit: async (e) => {
    e.preventDefault();
    const r = await api("POST", `/api/rooms/${room}/join`, { name: name.value.trim() });
    if (r.status !== 201) { said.textContent = r.data.error || "could not join"; return; }
    localStorage.setItem(key, r.data.token);
    start(r.data.token);
  } }, h("label", { for: "name" }, "Your name"), name, said, h("button.primary", { type: "submit", id: "join" }, "Join"));
  const about = h("p.muted", { id: "join-about" });
  fill(app, h("h1", `Room ${room}`), message ? h("p.muted", message) : null, about, h("div.panel", form));
  name.focus();
  // What the room is, and whether a newcomer may still sit down.
  api("GET", `/api/rooms/${room}/table`).then((t) => {
    if (t.status !== 200) { about.textContent = t.data.error || ""; return; }
    const r = t.data.room, joined = r.players.filter((p) => !p.vacant).length;
    const vacant = r.players.some((p) => p.vacant);
    let say = `${r.name}: ${joined} joined.`;
    if (r.status === "lobby") say = `${r.name}: ${joined} of ${r.seats} seats taken; the host starts the game.`;
    else if (t.data.over || r.status === "over") say = `${r.name}: the game is over. The host may start a new one.`;
    else if (vacant) say = `${r.name} is under way, and a seat is free.`;
    else if (r.late_join) say = `${r.name} is under way; you can still sit down.`;
    else say = `${r.name} has started and cannot take a new player mid-game: ask the host to start a new game.`;
    about.textContent = say;
  });
}

// ---- keeping the screen awake during a game ----
// The Screen Wake Lock works only in a secure context (https, or the
// laptop's own localhost); phones open the remote over plain http on the
// home network, where navigator.wakeLock does not exist. There, as when
// the lock is refused, a tiny muted looping inline video plays: a playing
// video keeps a phone's screen on. Browsers may want a tap before playing
// it; the phone then says so, and says too when nothing works.
// document.body.dataset.awake tells which: wakelock, video, tap or none.
const awake = { want: false, lock: null, video: null, armed: false };

function lockUsable() { return window.isSecureContext && "wakeLock" in navigator; }

function awakeSays(how) {
  document.body.dataset.awake = how;
  const el = $("#awake");
  const say = {
    tap: "Tap anywhere to keep this screen on during the game.",
    none: "This phone may turn its screen off during the game: set a longer screen timeout in its settings.",
  }[how] || "";
  el.textContent = say;
  el.classList.toggle("show", !!say && awake.want);
}

function awakeVideo() {
  if (awake.video) return awake.video;
  const v = h("video", { id: "awake-video", muted: true, loop: true, playsinline: true, "webkit-playsinline": true, "aria-hidden": "true", title: "keeps the screen on" },
    h("source", { src: "/static/awake.mp4", type: "video/mp4" }), h("source", { src: "/static/awake.webm", type: "video/webm" }));
  v.muted = true; // the attribute alone is not enough for some browsers' autoplay rules
  document.body.append(v);
  awake.video = v;
  return v;
}

async function playVideo() {
  if (!awake.want) return;
  const v = awakeVideo();
  try {
    await v.play();
    awakeSays("video");
  } catch (e) {
    if (e && e.name === "NotAllowedError") { awakeSays("tap"); armTap(); } // needs a tap first
    else awakeSays("none"); // the video cannot play at all
  }
}

// armTap starts the video on the next tap anywhere (a user gesture).
function armTap() {
  if (awake.armed) return;
  awake.armed = true;
  const go = () => {
    ["pointerdown", "touchend", "click", "keydown"].forEach((t) => document.removeEventListener(t, go, true));
    awake.armed = false;
    playVideo();
  };
  ["pointerdown", "touchend", "click", "keydown"].forEach((t) => document.addEventListener(t, go, true));
}

async function keepAwake(on) {
  awake.want = on;
  if (!on) {
    if (awake.lock) { const l = awake.lock; awake.lock = null; try { await l.release(); } catch (e) { /* gone already */ } }
    if (awake.video) awake.video.pause();
    awakeSays(document.body.dataset.awake || "");
    return;
  }
  if (awake.lock || (awake.video && !awake.video.paused)) return;
  if (lockUsable()) {
    try {
      awake.lock = await navigator.wakeLock.request("screen");
      awake.lock.addEventListener("release", () => { awake.lock = null; });
      awakeSays("wakelock");
      return;
    } catch (e) { /* refused (a policy, the page hidden): the video instead */ }
  }
  await playVideo();
}
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible" && last) keepAwake(last.room.status === "playing"); });

function render(st) {
  last = st;
  const r = st.room;
  // What the page shows, for tests and scripts: the game's seq and the
  // room's status.
  document.body.dataset.seq = st.seq;
  document.body.dataset.status = r.status;
  const playing = r.status === "playing" && !st.over;
  // A game without turns (the dealer) never says "your turn" nor buzzes.
  const mine = (st.turn || []).includes(r.you) && playing && !r.free_play;
  if (mine && !wasMyTurn && navigator.vibrate) navigator.vibrate([120, 60, 120]);
  wasMyTurn = mine;
  keepAwake(r.status === "playing");
  const name = st.names && st.names[r.you] || (r.players.find((p) => p.seat === r.you) || {}).name || "";
  let bannerClass = "banner";
  if (st.over) bannerClass += " over"; else if (r.status === "paused") bannerClass += " paused"; else if (mine) bannerClass += " you";
  const banner = h("div", { class: bannerClass, id: "banner" }, mine ? ["Your turn — ", h("bdi", name)]
    : r.free_play && playing ? [h("bdi", name), " — play any time"] : turnText(st));
  const send = (m) => conn.send(typeof m === "string" ? m : { action: m.action, args: m.args || [] }, st.seq).then(answered);
  const moves = movesEl(st, send, game);
  // The seat's own secret (the trainer's card, a hand) comes first: it is
  // what the player looks at; the microphone's news comes after the moves.
  const view = viewEl(st, false, game);
  let mineFirst = view && view.querySelector(".panel.mine");
  if (mineFirst) mineFirst.remove();
  if (moves && moves.querySelector(".cardpick")) mineFirst = null; // the hand is in the moves already
  // The prompt first: what this seat may do now (or whom it waits for),
  // under what its last move did and what just happened; the state below.
  fill(app,
    banner,
    resultEl(),
    newsEl(st),
    moves,
    playing && !moves ? h("p.waiting", { id: "waiting" }, waitingText(st)) : null,
    mineFirst,
    timersEl(st),
    r.status === "lobby" ? h("div.panel", h("h2", "Players"), h("ul.events", r.players.map((p) => h("li", h("bdi", p.name)))),
      h("p.muted", "The game starts when the host starts it.")) : null,
    view,
    hearingEl(st),
    st.result ? h("div.panel", h("h2", "Result"), st.result.text) : null,
    h("div.panel", h("h2", "What happened"), eventsEl(st.events_all || st.events)),
    h("p.muted", `Room ${r.code} · ${r.name} · you are `, h("strong", { id: "me" }, h("bdi", name))));
}

// ---- what a move did, and what just happened ----

// answered shows what this phone's move did, once the server has accepted
// it: the move's most telling event (a wrong guess, a card won) as a
// full-width banner for a few seconds, with a buzz. Its events came with
// the state the server pushed just before the answer.
function answered(f) {
  if (!f || f.type !== "ack" || !last) return;
  const mine = log().filter((e) => e.seq === f.seq && !e.n);
  const e = mine.find((x) => x.tone === "bad") || telling(mine);
  if (!e) return;
  result = { e, until: Date.now() + 5000 };
  if (navigator.vibrate) navigator.vibrate(e.tone === "bad" ? [300, 100, 300] : e.tone === "good" ? [80, 50, 80] : 60);
  render(last);
  setTimeout(() => { if (result && Date.now() >= result.until) { result = null; if (last) render(last); } }, 5100);
}

const MARK = { bad: "✗ ", good: "✓ ", alarm: "⏰ " };

function resultEl() {
  if (!result || Date.now() >= result.until) return null;
  const e = result.e;
  const { head, more } = headParts(e);
  return h("div.result" + (e.tone ? "." + e.tone : ""), { id: "result", role: "status" },
    h("div.head", (MARK[e.tone] || "") + head), more ? h("div.more", more) : null);
}

// news is what happened last at the table that matters most (what the
// referee says out loud, a sound, else the last event), kept until more
// happens; newsEl shows it in one line to the phones that did not make it
// happen.
let news = null;
const telling = (evs) => evs.find((x) => x.say) || evs.find((x) => x.tone) || evs[evs.length - 1];

function newsEl(st) {
  const e = news;
  if (!e || (result && (result.e === e || result.e.seq === e.seq)) || st.room.status === "lobby") return null;
  return h("p.news" + (e.tone ? "." + e.tone : ""), { id: "news" }, (MARK[e.tone] || "") + (e.say || e.text));
}

// events accumulate: each state carries what came after the last one. The
// game's page module is loaded before its first state is shown.
const log = eventLog();
async function onState(st) {
  const before = new Set(log());
  st.events_all = log(st.events);
  const fresh = st.events_all.filter((e) => !before.has(e));
  if (fresh.length) news = telling(fresh);
  game = await loadGame(st.room.game);
  render(st);
}

function start(token) {
  fill(app, h("p.muted", "Connecting…"));
  if (conn) conn.close();
  conn = connect(room, token, {
    onState,
    onOnline: (on) => $("#offline").classList.toggle("show", !on),
    onRevoked: () => { localStorage.removeItem(key); keepAwake(false); joinForm("You were removed from the room, or it ended. Join again?"); },
  });
}

async function boot() {
  if (!room) { fill(app, h("p", "No room in this address.")); return; }
  const token = localStorage.getItem(key);
  if (!token) return joinForm();
  const r = await api("GET", `/api/rooms/${room}/view`, undefined, token);
  if (r.status === 401 || r.status === 404) { localStorage.removeItem(key); return joinForm(r.data.error); }
  noteServerTime(r.data.now);
  start(token);
}
setInterval(tick, 250);
boot();
