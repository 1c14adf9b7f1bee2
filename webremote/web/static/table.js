// The table screen (the host's laptop, or a TV): the public state, large
// enough to read across a room; the room code, QR code and join address
// while people join; the announcements. With the host's key (kept from
// creating the room) it also has the host's controls, folded away; without
// it, it is a read-only view of the public table (a TV: /t/CODE).
import { tick, $, h, fill, toast, turnText, viewEl, eventsEl, timersEl, seatColour, noteServerTime, headParts } from "/static/ui.js";
import { api, roomFromPath, connect, eventLog, loadGame } from "/static/client.js";
import { hearingEl } from "/static/hearing.js";

const room = roomFromPath();
const key = "tableref.host." + room;
const app = $("#app");
let token = localStorage.getItem(key);
const frag = new URLSearchParams(location.hash.slice(1));
if (frag.get("host")) { token = frag.get("host"); localStorage.setItem(key, token); history.replaceState(null, "", location.pathname); }
let hostOpen = false; // the host panel stays as the host left it across redraws
const timerForm = { name: "sand", seconds: "60" };

async function host(action, body, confirmText) {
  if (confirmText && !confirm(confirmText)) return;
  const r = await api("POST", `/api/rooms/${room}/${action}`, body || {}, token);
  if (r.status !== 200) toast(r.data.error || action + " failed");
}

// The announcements accumulate; the game's page module is loaded before its
// first state is shown.
const events = eventLog();
let log = [], game = {}, seen = null, wasOver = false;
async function onState(st) {
  const before = seen;
  log = events(st.events);
  seen = new Set(log);
  game = await loadGame(st.room.game);
  render(st);
  if (before) stage(log.filter((e) => !before.has(e)), st);
  wasOver = !!st.over;
}

// ---- the stage: what just happened, huge, for a few seconds ----

// stage shows the news of a state as a headline across the screen: what
// the referee says out loud (a wrong code, a card won, the alarm), the
// game's end, and more quietly the room's own news (a join, a swap, a
// phone back). Nothing is staged for the first state (a reload).
function stage(fresh, st) {
  const loud = fresh.filter((e) => e.say);
  const e = loud[loud.length - 1];
  if (st.over && !wasOver) headline({ head: st.result ? st.result.text : "Game over", more: "" }, "over", 7000);
  else if (e) headline(headParts(e), e.tone || "", 4500);
  else {
    const room = fresh.filter((x) => x.n && ["joined", "swapped", "back", "removed"].includes(x.type));
    const last = room[room.length - 1] || fresh.filter((x) => x.type === "sat").pop();
    if (last) headline({ head: last.text, more: "" }, "minor", 3000);
  }
}

// headline shows a headline, its size by its length so that it fits the
// screen whole, with the rest of the news under it.
let headlineTimer;
function headline({ head, more }, tone, ms) {
  let el = $("#headline");
  if (!el) { el = h("div", { id: "headline", role: "status", "aria-live": "assertive" }); document.body.append(el); }
  const size = head.length <= 24 ? "" : head.length <= 60 ? " long" : " longer";
  el.className = "show" + (tone ? " " + tone : "") + size;
  fill(el, h("div.head", head), more ? h("div.more", more) : null);
  clearTimeout(headlineTimer);
  headlineTimer = setTimeout(() => el.classList.remove("show"), ms);
}

function render(st) {
  const r = st.room;
  // What the page shows, for tests and scripts: the game's seq and the
  // room's status.
  document.body.dataset.seq = st.seq;
  document.body.dataset.status = r.status;
  const isHost = !!r.host;
  const lobby = r.status === "lobby";
  // The server's join address (its LAN address), as in the QR code: this
  // screen's own origin may be 127.0.0.1, which phones cannot reach.
  const joinURL = r.join_url || `${location.origin}/j/${r.code}`;
  const taken = r.players.map((p) => p.seat);
  const players = h("div.players", r.players.map((p, i) => h("div.player.seatchip" + ((st.turn || []).includes(p.seat) && !lobby ? ".turn" : "") + (p.connected ? "" : ".away"), { "data-seat": p.seat },
    h("bdi.who", { style: `--c:${seatColour(i)}`, title: p.name }, p.name), p.vacant ? " (left)" : !p.connected ? " (offline)" : "",
    isHost && lobby && i > 0 ? h("button.small", { title: `move ${p.name} earlier`, "data-move-earlier": p.seat, onclick: () => host("seat", { seat: p.seat, to: taken[i - 1] }) }, "◀") : null,
    isHost && lobby && i < taken.length - 1 ? h("button.small", { title: `move ${p.name} later`, onclick: () => host("seat", { seat: p.seat, to: taken[i + 1] }) }, "▶") : null,
    isHost ? h("button.small", { title: "remove " + p.name, onclick: () => host("kick", { seat: p.seat }, `Remove ${p.name} from the room?`) }, "✕") : null)));

  // While people join, the code and the QR code are the screen; later
  // they keep a corner for latecomers.
  const join = h("div.panel.join" + (lobby ? ".big" : ""), { id: "join" },
    h("div.joincode", h("div.muted", "Room"), h("div.code", r.code)),
    h("img.qr" + (lobby ? "" : ".small"), { src: `/api/rooms/${r.code}/qr.png`, alt: "QR code to join" }),
    h("div.joinurl", "Join at ", h("strong", { id: "join-url" }, urlParts(joinURL))));

  const main = lobby
    ? h("div",
      h("div", { class: "banner", id: "banner" }, isHost ? "Scan the code to join" : "Scan the code to join — the host starts the game"),
      join,
      h("div.panel", h("h2", `Players: ${r.players.length} joined, ${r.seats} seats`), players,
        isHost ? h("p.muted", "The order here is the order of play (◀ ▶ to change it).") : null,
        isHost ? (r.players.length < (r.min_players || 1)
          ? h("button.primary.big", { id: "start", disabled: true }, `Waiting for players: ${r.players.length} of at least ${r.min_players}`)
          : h("button.primary.big", { id: "start", onclick: () => host("start") }, `Start with ${r.players.length} player${r.players.length === 1 ? "" : "s"}`)) : null))
    : h("div",
      h("div.toprow", h("div", { class: "banner" + (st.over ? " over" : r.status === "paused" ? " paused" : ""), id: "banner" }, turnText(st)), timersEl(st)),
      viewEl(st, true, game), offerEl(st, isHost), micCheckEl(st, false), hearingEl(st),
      st.result ? h("div.panel", h("h2", "Result"), st.result.text) : null);

  fill(app,
    h("h1", `${r.name} · room ${r.code}`),
    h("div.tablegrid",
      main,
      h("div.side", lobby ? null : join, lobby ? null : h("div.panel", h("h2", "Players"), players, sealEl(r)), lobby ? micCheckEl(st, isHost) : null,
        h("div.panel", h("h2", "Announcements"), eventsEl(log, 8)),
        isHost ? hostPanel(st) : h("p.muted.small", "This screen shows the public table. The host's controls are on the screen that created the room."))));
}

// sealEl is the game's seal (a commitment to its seed, shown from the
// start) and, once the game is over, the seed: anyone can then replay the
// draws from the room's journal (tableref verify) and compare.
function sealEl(r) {
  if (!r.seal) return null;
  return h("p.muted.small", { id: "seal" }, "Draws sealed: ", h("code", r.seal),
    r.seed ? [" · seed ", h("code", r.seed), " (check: tableref verify)"] : null);
}

// urlParts splits an address where a line may break: before its path, so
// that the server's address and the room's part each stay whole.
function urlParts(url) {
  const i = url.indexOf("/", url.indexOf("//") + 2);
  return i < 0 ? [h("span.part", url)] : [h("span.part", url.slice(0, i)), h("span.part", url.slice(i))];
}

// micCheckEl is the microphone check: the host's button to start it (in the
// lobby), what it asks for while it listens, and its verdict.
function micCheckEl(st, isHost) {
  const live = st.live && st.live.hearing;
  const c = live && live.check;
  const mic = live && live.mic;
  if (!c && !isHost) return null;
  const start = isHost ? h("button" + (c ? "" : ".primary"), { id: "mic-check", onclick: () => host("miccheck") }, c ? "Check again" : "Check the microphone") : null;
  if (!c) {
    return h("div.panel.miccheck", { id: "miccheck" }, h("h2", "Microphone"),
      h("p.muted", mic && !mic.listening ? (mic.message || "The microphone is off.") : "Before the game, check that the referee hears the table: two claps, then two bangs."), start);
  }
  const heard = h("div.gestures", c.heard ? [...c.heard].map((k) => h("span.g." + (k === "B" ? "bang" : "clap"), k === "B" ? "BANG" : "CLAP")) : h("span.muted", "…"));
  if (c.state === "listening") {
    return h("div.panel.miccheck.on", { id: "miccheck" }, h("h2", "Microphone check"),
      h("p.big", c.say), checkSteps(c), heard, h("p.muted", `${c.left} s left`));
  }
  const problems = c.problems || [];
  // A check heard wrongly that taught the referee this table went well.
  const title = c.ok ? "Microphone check: all right" : c.learned ? "Microphone check: learned this table" : "Microphone check: not right";
  return h("div.panel.miccheck" + (c.ok || c.learned ? ".ok" : ".bad"), { id: "miccheck" }, h("h2", title),
    checkSteps(c), h("p", { id: "miccheck-say" }, c.say),
    c.learn ? h("p", { id: "miccheck-learn", class: c.learned ? "learned" : "muted" }, c.learn) : null,
    problems.length ? h("ul.micwarn", problems.map((q) => h("li", { "data-kind": q.kind }, q.say))) : null, start);
}

// checkSteps shows the check's steps: clap 1, clap 2, bang 1, bang 2 (as
// it asks for them, c.want), each with what was heard for it, the one it
// waits for marked while it listens. A gesture is the step's by its place:
// the check learns the table from them even when it named one wrongly.
function checkSteps(c) {
  const want = String(c.want || "CCBB"), heard = String(c.heard || "");
  const count = { C: 0, B: 0 };
  const name = (k) => (k === "B" ? "bang" : "clap");
  return h("ol.checksteps", { id: "miccheck-steps" }, [...want].map((k, i) => {
    const label = `${name(k)} ${++count[k]}`;
    const got = heard[i];
    const now = c.state === "listening" && i === heard.length;
    return h("li" + (got ? (got === k ? ".right" : ".wrong") : now ? ".now" : ""), { "data-step": i + 1 },
      label, got ? ` — heard a ${name(got)}` : now ? " — now" : "");
  }), heard.length > want.length ? h("li.wrong", `and ${heard.length - want.length} more`) : null);
}

// offerEl is the referee's offer of the check when a game that hears
// gestures is under way and it has not learned this table yet: the host
// runs it or skips it, and the game goes on meanwhile.
function offerEl(st, isHost) {
  const live = st.live && st.live.hearing;
  const o = live && live.offer;
  if (!o) return null;
  return h("div.panel.miccheck.offer", { id: "teach" }, h("h2", "Teach me this table"),
    h("p.big", o.say), h("p.muted", "The referee learns these hands and this microphone from them. The game goes on meanwhile."),
    isHost ? h("div.row", h("button.primary", { id: "teach-start", onclick: () => host("miccheck") }, "Teach me"),
      h("button", { id: "teach-skip", onclick: () => host("miccheck", { skip: true }) }, "Skip")) : h("p.muted", "The host starts it or skips it."));
}

// hostPanel holds the host's controls, folded away so that the public
// state has the screen.
function hostPanel(st) {
  const r = st.room;
  const lobby = r.status === "lobby";
  const controls = h("div.row",
    h("button", { id: "lock", onclick: () => host("lock", { locked: !r.locked }) }, r.locked ? "Unlock the room" : "Lock the room"),
    !lobby && r.status !== "over" ? h("button", { id: "pause", onclick: () => host("pause", { paused: r.status !== "paused" }) }, r.status === "paused" ? "Resume" : "Pause") : null,
    !lobby ? h("button", { id: "restart", onclick: () => host("restart", {}, "Start a new game with the same players?") }, "New game") : null,
    h("button.danger", { id: "end", onclick: () => host("end", {}, "End this room for everyone?") }, "End the room"));
  // The form keeps what the host typed across redraws.
  const tname = h("input", { id: "timer-name", placeholder: "timer name", value: timerForm.name, maxlength: "24", oninput: () => { timerForm.name = tname.value; } });
  const tsecs = h("input", { id: "timer-seconds", type: "number", min: "1", max: "7200", value: timerForm.seconds, oninput: () => { timerForm.seconds = tsecs.value; } });
  const timer = (action) => host("timers", { name: tname.value, action, seconds: +tsecs.value });
  const timers = h("div", h("h2", "Timers"), h("div.row.timerform", tname, tsecs),
    h("div.row", ["create", "start", "pause", "flip", "reset", "delete"].map((a) => h("button.small", { "data-timer-action": a, onclick: () => timer(a) }, a))));
  const tv = h("div", { id: "tv" }, h("h2", "Show the table on a TV"),
    h("p", "Open this address on the TV (no host powers there): ", h("strong.urlparts", { id: "table-url" }, urlParts(r.table_url || `${location.origin}/t/${r.code}`))),
    h("img.qr.small", { src: `/api/rooms/${r.code}/qr.png?for=table`, alt: "QR code of the table's address" }));
  const d = h("details.panel.hostpanel", { id: "host-panel", open: hostOpen }, h("summary", "Host controls"), controls, timers, tv);
  d.addEventListener("toggle", () => { hostOpen = d.open; });
  return d;
}

async function boot() {
  if (!token) {
    // A TV: the public table, read-only, needs no key.
    const r = await api("GET", `/api/rooms/${room}/table`);
    if (r.status !== 200) { fill(app, h("h1", `Room ${room}`), h("p", r.data.error || "no such room"), h("a.btn", { href: "/" }, "Create a room")); return; }
    noteServerTime(r.data.now);
    await onState(r.data);
  }
  connect(room, token, { onState, onOnline: (on) => $("#offline").classList.toggle("show", !on),
    onRevoked: () => fill(app, h("h1", `Room ${room} has ended`), h("a.btn", { href: "/" }, "Create a room")) });
  setInterval(tick, 250);
}
boot();
