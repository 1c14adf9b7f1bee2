// tableref web remote: shared code for the host, table and phone pages.
// Everything shown comes from the server's state for this token: the page
// never computes or stores another seat's secrets.

export const $ = (sel, el = document) => el.querySelector(sel);

// h builds an element: h("div.panel", {onclick}, "text", child, [more]).
export function h(spec, attrs, ...kids) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) { kids.unshift(attrs); attrs = null; }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  const add = (k) => {
    if (k === null || k === undefined || k === false) return;
    if (Array.isArray(k)) return k.forEach(add);
    el.append(k instanceof Node ? k : document.createTextNode(String(k)));
  };
  kids.forEach(add);
  return el;
}

// fill replaces el's children, skipping empty ones.
export function fill(el, ...kids) {
  el.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
}

export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = "Bearer " + token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    return { status: 0, data: { error: "cannot reach the server (is the laptop still on the wifi?)" } };
  }
  let data = {};
  try { data = await res.json(); } catch (e) { /* empty body */ }
  return { status: res.status, data };
}

export function roomFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return (parts[1] || "").toUpperCase();
}

// named replaces seat references "{2}" with the players' names.
export function named(text, names) {
  return String(text ?? "").replace(/\{(\d+)\}/g, (m, n) => (names && names[+n]) || "player " + (+n + 1));
}

let toastTimer;
export function toast(msg) {
  let t = $("#toast");
  if (!t) { t = h("div.toast", { id: "toast", role: "alert" }); document.body.append(t); }
  t.textContent = msg;
  t.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.classList.remove("show"), 4000);
}

// The server's clock: every state carries "now" (Unix ms), and timers count
// down against it, so a phone whose own clock is wrong shows the right time.
let skew = 0;
export function serverNow() { return Date.now() + skew; }
export function noteServerTime(now) { if (typeof now === "number" && now > 0) skew = now - Date.now(); }

// connect keeps a websocket to the room open, reconnecting with backoff and
// asking for what was missed (since). Moves not yet acknowledged are sent
// again with the same id after a reconnect, so none is applied twice.
// Without a token the socket watches the public table (a TV).
export function connect(room, token, { onState, onOnline, onRevoked }) {
  let ws, seq = 0, backoff = 500, closed = false, nextId = 1;
  const pending = new Map(); // id -> {frame, resolve}
  const prefix = Math.random().toString(36).slice(2, 8);
  const who = token ? `token=${encodeURIComponent(token)}` : "watch=1";
  function open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/${room}?${who}&since=${seq}`);
    ws.onopen = () => {
      backoff = 500;
      onOnline && onOnline(true);
      for (const p of pending.values()) ws.send(JSON.stringify(p.frame));
    };
    ws.onmessage = (m) => {
      let f;
      try { f = JSON.parse(m.data); } catch (e) { return; }
      if (f.type === "state") { seq = f.seq; noteServerTime(f.now); onState(f); }
      else if (f.type === "ack" || f.type === "error") {
        const p = pending.get(f.id);
        pending.delete(f.id);
        if (f.type === "error") toast(f.error);
        p && p.resolve(f);
      }
    };
    ws.onclose = (ev) => {
      onOnline && onOnline(false);
      if (ev.code === 4001) { closed = true; onRevoked && onRevoked(); return; }
      if (closed) return;
      setTimeout(open, backoff);
      backoff = Math.min(backoff * 2, 8000);
    };
  }
  open();
  return {
    send(move, atSeq) {
      const id = `${prefix}-${nextId++}`;
      const frame = { type: "move", move, seq: atSeq, id };
      return new Promise((resolve) => {
        pending.set(id, { frame, resolve });
        if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
      });
    },
    close() { closed = true; ws && ws.close(); },
  };
}

// confirmButton is a button for a move that touches everyone (ending the
// game, dealing again): the first tap arms it, a second tap within four
// seconds does it.
export function confirmButton(spec, attrs, label, sure, action) {
  let armed = null;
  const b = h(spec, { ...attrs, onclick: () => {
    if (armed) { clearTimeout(armed); armed = null; b.classList.remove("armed"); b.textContent = label; action(); return; }
    b.classList.add("armed");
    b.textContent = sure;
    armed = setTimeout(() => { armed = null; b.classList.remove("armed"); b.textContent = label; }, 4000);
  } }, label);
  return b;
}

// seatColour is a seat's own colour, the same on every screen.
const COLOURS = ["#ffb020", "#58a6ff", "#3ecf6e", "#ff6bcb", "#b48cff", "#ff7a45", "#2ee6d6", "#f5f5f5", "#c3e88d", "#ff5c5c"];
export const seatColour = (s) => COLOURS[((s % COLOURS.length) + COLOURS.length) % COLOURS.length];

// ---- cards ----
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
export function isCard(s) { return typeof s === "string" && /^(10|[2-9AJQK])[CDHS]$|^[RB]J$/.test(s); }
export function cardEl(s, extra) {
  if (s === "RJ" || s === "BJ") return h("span.card" + (s === "RJ" ? ".red" : ""), { title: s === "RJ" ? "red joker" : "black joker" }, h("span.r", "J"), h("span.s", "★"), h("span.r2", "J"));
  const rank = s.slice(0, -1), suit = s.slice(-1);
  const red = suit === "D" || suit === "H";
  return h("span.card" + (red ? ".red" : "") + (extra ? "." + extra : ""), { title: s }, h("span.r", rank), h("span.s", SUITS[suit] || suit), h("span.r2", rank));
}
export function wordCard(w) { return h("span.card.word", w); }
export function cards(list) { return h("div.cards", (list || []).map((c) => (isCard(c) ? cardEl(c) : wordCard(c)))); }

// ---- events ----
export function eventsEl(events, names, limit = 12) {
  const list = (events || []).slice(-limit).reverse();
  if (!list.length) return h("p.muted", "Nothing has happened yet.");
  return h("ul.events", list.map((e) => h("li" + (e.to && e.to.length ? ".private" : ""), named(e.text, names))));
}

// ---- whose turn ----
export function turnText(st) {
  const r = st.room || {};
  if (r.status === "lobby") return "Waiting for the host to start";
  if (r.status === "paused") return "Paused";
  if (r.status === "ended") return "The room has ended";
  if (st.over) return st.result ? named(st.result.text, st.names) : "Game over";
  const who = (st.turn || []).map((s) => st.names[s]);
  if (!who.length) return "";
  if (who.length === (st.names || []).length && who.length > 1) return "Everyone may act";
  return who.join(", ") + (who.length > 1 ? " may act" : "'s turn");
}

// waitingText is what a phone with nothing to do says, and for whom it
// waits.
export function waitingText(st) {
  const r = st.room || {};
  if (r.status !== "playing" || st.over) return "";
  const others = (st.turn || []).filter((s) => s !== r.you).map((s) => nm(st, s));
  if (!others.length) return "Nothing to do now.";
  const list = others.length > 1 ? others.slice(0, -1).join(", ") + " and " + others[others.length - 1] : others[0];
  return `Nothing to do now — waiting for ${list}.`;
}

// ---- the moves a seat may make, as buttons ----
const VERB = {
  code: "Give the code", guess: "Guess", pass: "Pass", play: "Play", discard: "Discard", draw: "Draw a card",
  move: "Move", stomp: "Stomp", pickup: "Pick up", club: "Club", throw: "Throw", shovel: "Shovel", lay: "Lay", rest: "Rest",
  look: "Look", step: "Step", fast: "Dash", shove: "Shove", end: "End the game", take: "Take back", reshuffle: "Reshuffle", deal: "Deal again",
  roll: "Roll", first: "Who goes first?", answer: "Answer", show: "Show",
};
const verb = (a) => VERB[a] || a.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());
// Moves that change things for everyone ask for a second tap.
const SURE = { deck: { end: "Tap again: end the game for everyone", deal: "Tap again: take back every card and deal" } };

function argLabel(a, st, action, game) {
  const names = st.names;
  if (isCard(a)) return cardEl(a);
  if (!/^\d+$/.test(a) || !names) return a;
  if (game === "deck" && action === "pass" && names[+a]) return "to " + names[+a]; // a seat, from 0 as everywhere
  if (game === "celestial" && action === "attack" && names[+a]) return names[+a]; // a seat
  if (game === "insomnia" && action === "show") {
    const voice = (parseView(st).voices || []).find((x) => String(x.voice) === a);
    return voice ? `voice ${a} · ${nm(st, voice.seat)}` : "voice " + a;
  }
  return a;
}

export function movesEl(st, send, game) {
  const legal = st.legal || [];
  if (!legal.length) return null;
  const byAction = new Map();
  for (const m of legal) {
    if (!byAction.has(m.action)) byAction.set(m.action, []);
    byAction.get(m.action).push(m);
  }
  const groups = [], quiet = [];
  const sure = SURE[game] || {};
  if (game === "deck") groups.push(cardFirst(st, byAction, send));
  for (const [action, moves] of byAction) {
    if (game === "woodlouse" && action === "code") { groups.push(codePicker(st, moves[0], send)); continue; }
    if (action === "pass" && moves.length === 1 && !(moves[0].args || []).length) {
      // Passing is not one more choice among the others: set apart, and quiet.
      quiet.push(h("button.quiet", { onclick: () => send(moves[0]), "data-action": action }, game === "woodlouse" ? "Pass: no guess on this card" : "Pass"));
      continue;
    }
    if (moves.length === 1 && !(moves[0].args || []).length) {
      groups.push(sure[action] ? confirmButton("button.danger", { "data-action": action }, verb(action), sure[action], () => send(moves[0]))
        : h("button.primary", { onclick: () => send(moves[0]), "data-action": action }, verb(action)));
      continue;
    }
    const twoStep = moves.length > 10 && moves.every((m) => (m.args || []).length >= 2);
    const box = h("div.group", h("div.name", verb(action)));
    const button = (m, spec, kids) => sure[action]
      ? confirmButton(spec + ".danger", { "data-action": action, "data-args": (m.args || []).join(" ") }, `${verb(action)} ${(m.args || []).join(" ")}`, sure[action], () => send(m))
      : h(spec, { onclick: () => send(m), "data-action": action, "data-args": (m.args || []).join(" ") }, kids);
    if (!twoStep) {
      box.append(h("div.moves", moves.map((m) => button(m, "button", (m.args || []).length ? (m.args || []).map((a) => argLabel(a, st, action, game)) : verb(action)))));
    } else {
      const firsts = [...new Set(moves.map((m) => m.args[0]))];
      const second = h("div.moves");
      const firstRow = h("div.moves", firsts.map((f) => {
        const b = h("button", { "data-action": action, "data-args": f, onclick: () => {
          firstRow.querySelectorAll("button").forEach((x) => x.classList.remove("chosen"));
          b.classList.add("chosen");
          fill(second, ...moves.filter((m) => m.args[0] === f).map((m) =>
            button(m, "button.primary", m.args.slice(1).map((a) => argLabel(a, st, action, game)))));
        } }, argLabel(f, st, action, game));
        return b;
      }));
      box.append(firstRow, second);
    }
    groups.push(box);
  }
  return h("div.panel", { id: "moves" }, h("h2", "What you can do"), groups, quiet.length ? h("div.quietrow", quiet) : null);
}

// cardFirst is the dealer's hand as a player holds it: tap a card, then
// say what to do with it (discard, show, pass to someone). It takes those
// moves out of byAction.
function cardFirst(st, byAction, send) {
  const withCard = ["discard", "show", "pass"];
  const moves = withCard.flatMap((a) => byAction.get(a) || []);
  withCard.forEach((a) => byAction.delete(a));
  if (!moves.length) return null;
  const handCards = [...new Set(moves.map((m) => m.args[0]))];
  const then = h("div.moves", { id: "card-moves" }, h("p.muted", "Tap a card of yours to discard it, show it or pass it."));
  const row = h("div.moves", handCards.map((c) => {
    const b = h("button.cardpick", { "data-card": c, onclick: () => {
      row.querySelectorAll("button").forEach((x) => x.classList.remove("chosen"));
      b.classList.add("chosen");
      fill(then, ...moves.filter((m) => m.args[0] === c).map((m) =>
        h("button" + (m.action === "pass" ? "" : ".primary"), { onclick: () => send(m), "data-action": m.action, "data-args": m.args.join(" ") },
          m.action === "pass" ? ["Pass ", argLabel(m.args[1], st, "pass", "deck")] : m.action === "show" ? "Show to the table" : "Discard")));
    } }, cardEl(c));
    return b;
  }));
  return h("div.group", h("div.name", "A card from your hand"), row, then);
}

// codePicker lets the trainer enter the code by hand (when the microphone
// misses it): bangs give the position, claps the count. It starts at
// nothing, sends only a whole code, and asks to be sure first.
function codePicker(st, suggested, send) {
  const v = parseView(st);
  const positions = (v.order || []).length || 5;
  let bangs = 0, claps = 0;
  const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
  const out = h("strong.codeout", { id: "code-out" });
  const go = h("button.primary", { id: "code-send", "data-action": "code" });
  let armed = null;
  const disarm = () => { if (armed) clearTimeout(armed); armed = null; go.classList.remove("armed"); };
  const show = () => {
    out.textContent = `${plural(bangs, "bang")} + ${plural(claps, "clap")}`;
    go.disabled = bangs < 1 || claps < 1;
    go.textContent = go.disabled ? "Count the bangs and claps" : armed ? `Tap again to send ${plural(bangs, "bang")} + ${plural(claps, "clap")}` : "Send the code";
  };
  go.addEventListener("click", () => {
    if (go.disabled) return;
    if (!armed) { armed = setTimeout(() => { disarm(); show(); }, 4000); go.classList.add("armed"); show(); return; }
    disarm();
    send({ action: "code", args: [String(bangs), String(claps)] });
  });
  show();
  const step = (which, d) => () => {
    if (which === "b") bangs = Math.min(positions, Math.max(0, bangs + d));
    else claps = Math.min(5, Math.max(0, claps + d));
    disarm();
    show();
  };
  return h("div.group", h("div.name", "No microphone, or it missed? Enter your code"),
    h("div.pickrow", h("button", { id: "bang-less", onclick: step("b", -1), "aria-label": "one bang less" }, "−"), h("span.pickname", "bangs"),
      h("button", { id: "bang-more", onclick: step("b", 1), "aria-label": "one bang more" }, "+")),
    h("div.pickrow", h("button", { id: "clap-less", onclick: step("c", -1), "aria-label": "one clap less" }, "−"), h("span.pickname", "claps"),
      h("button", { id: "clap-more", onclick: step("c", 1), "aria-label": "one clap more" }, "+")),
    h("div.row", out), go);
}

export function parseView(st) { return st.view && typeof st.view === "object" ? st.view : {}; }

// ---- the game's view, per game ----
export function viewEl(st, forTable) {
  const v = parseView(st);
  if (!st.view) return null;
  const game = st.room && st.room.game;
  const f = RENDER[game] || generic;
  try { return f(v, st, forTable); } catch (e) { return generic(v, st); }
}

const nm = (st, s) => (st.names && st.names[s]) || "player " + (s + 1);
// who is a player's name in the player's colour.
const who = (st, s) => h("span.who", { style: `--c:${seatColour(s)}` }, nm(st, s));

function generic(v, st) {
  const dl = h("dl.kv");
  for (const [k, val] of Object.entries(v)) {
    if (val === null || val === undefined) continue;
    let shown;
    if (Array.isArray(val) && val.every(isCard)) shown = cards(val);
    else if (typeof val === "object") shown = h("code", JSON.stringify(val));
    else shown = named(String(val), st.names);
    dl.append(h("dt", k.replace(/_/g, " ")), h("dd", shown));
  }
  return h("div.panel", dl);
}

const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;

const RENDER = {
  woodlouse(v, st, forTable) {
    const seq = h("div.seqcards", (v.order || []).map((sp, i) => h("div.seqcard", h("div.pos", plural(i + 1, "bang")), sp)));
    const scores = h("div.players", (v.scores || []).map((n, s) => h("div.player" + (s === v.trainer ? ".turn" : ""),
      who(st, s), `: ${plural(n, "card")}${s === v.trainer ? " (trainer)" : ""}`)));
    const phase = v.phase === "code" ? `${nm(st, v.trainer)} gives the code` : v.phase === "guess" ? "Guessing is open" : v.phase;
    const code = v.code ? h("div.bigcode", { id: "code" }, `${plural(v.code.bangs, "bang")} + ${plural(v.code.claps, "clap")}`) : null;
    const wrong = (v.wrong || []).length ? h("div", h("h2", "Wrong guesses"), h("div.row", v.wrong.map((g) => h("span.chip", who(st, g.seat), ": ", g.guess)))) : null;
    return h("div", v.card ? h("div.panel.mine", { id: "card-panel" }, h("h2", "Your card (only you see it)"), h("div.bigcard", { id: "card" }, v.card)) : null,
      h("div.panel", h("h2", "Sequence cards"), seq,
        h("p.phase", phase, code ? " — the code: " : "", code),
        wrong,
        h("p.muted", `Draw pile: ${v.pile} · round ${v.round} · trainer: ${nm(st, v.trainer)}`)),
      v.last ? h("p.muted", `Last card: ${v.last.shown}, ${named(v.last.how, st.names)}`) : null,
      h("div.panel", h("h2", "Score piles"), scores));
  },
  louseflea(v, st) {
    const players = h("div.players", (v.players || []).map((p) => h("div.player" + (p.seat === v.to_act ? ".turn" : ""),
      h("strong", who(st, p.seat)), " — ", (p.identities || []).join(" & "), h("br"),
      p.standing ? "standing" : "sitting", ` · ${p.cards} cards (limit ${p.hand_limit})`, p.louse ? " · louse" : "", p.flea ? " · flea" : "")));
    return h("div", v.hand ? h("div.panel.mine", h("h2", "Your hand"), cards(v.hand.cards)) : null,
      h("div.panel", h("h2", "The story"), cards(v.story),
        h("p", `Last played: ${v.last_played || "—"}${v.called ? " · called: " + v.called : ""} · draw pile ${v.draw_pile}`)),
      h("div.panel", h("h2", "Players"), players));
  },
  celestial(v, st) {
    const players = h("div.players", (v.players || []).map((p) => h("div.player" + (p.seat === v.attacker || p.seat === v.defender ? ".turn" : ""),
      h("strong", who(st, p.seat)), ` — ${p.clan_name} (${p.suit}) · ${p.cards} cards · ${p.tricks} tricks${p.out ? " · out" : ""}`)));
    const lf = v.last_fight;
    return h("div", v.hand ? h("div.panel.mine", h("h2", "Your hand"), cards(v.hand)) : null,
      h("div.panel", h("h2", "The fight"),
        v.attacker >= 0 ? h("p.phase", v.defender >= 0 ? [who(st, v.attacker), " attacks ", who(st, v.defender)] : [who(st, v.attacker), " chooses whom to attack"]) : null,
        lf ? h("div.row", who(st, lf.attacker), cardEl(lf.attacker_card), "vs", who(st, lf.defender), cardEl(lf.defender_card)) : null,
        players));
  },
  troll(v) {
    const cols = Math.max(...(v.bridge || [[]]).map((row) => row.length), 1);
    const rows = (v.bridge || []).map((row, r) => row.map((b, i) => {
      const here = v.troll && v.troll.pos === i + 1 && v.troll.row === (r === 0 ? "upper" : "lower");
      return h("div.brick" + (b.bricks ? "" : ".empty") + (b.awake ? ".awake" : "") + (here ? ".troll" : ""),
        h("div.n", b.bricks ? `${b.bricks}` : "·"), b.awake ? h("div", cardEl(b.awake, "small")) : null, here ? h("div.trollmark", "TROLL") : null);
    }));
    return h("div", h("div.panel", h("h2", "The bridge"), h("div.bridge", { style: `--cols:${cols}` }, rows.flat()),
      h("p", `Turn ${v.turn} · ${v.deck} cards in the deck of awakening · die ${v.last_die || "—"} · actions left ${v.actions_left}`),
      v.carrying ? h("div.row", "Carrying: ", cardEl(v.carrying)) : null),
      h("div.panel", h("h2", `Upper stack (${v.upper_colour})`), (v.upper_stack || []).length ? cards(v.upper_stack) : h("p.muted", "empty"),
        h("h2", `Lower stack (${v.lower_colour})`), (v.lower_stack || []).length ? cards(v.lower_stack) : h("p.muted", "empty")));
  },
  pursesnatcher(v, st) {
    return h("div", h("div.panel" + (v.role && v.role !== "table" ? ".mine" : ""), h("h2", v.role && v.role !== "table" ? "You are the " + v.role : "The meeting"),
      h("p.phase", `Posture: ${v.posture} · token with the ${v.token}`),
      h("p", `${v.minutes} minutes${v.time_up ? " — the time is up" : ""}`),
      h("p.muted", `Challenges won: tourist ${v.tourist_won}, officer ${v.officer_won}`),
      v.outcome ? h("p", named(v.outcome, st.names)) : null,
      (v.guide || []).map((g) => h("p", g))));
  },
  insomnia(v, st) {
    // A seat with one voice has no "hand": it speaks with its only one.
    const voices = h("div.players", (v.voices || []).map((x) => h("div.player" + (x.silent ? "" : ".turn"),
      h("strong", `Voice ${x.voice}`), " — ", who(st, x.seat), x.hand ? `, ${x.hand} hand` : "", x.silent ? " · silent" : "",
      x.card ? h("div", cardEl(x.card)) : null,
      (x.answers || []).length ? h("div.muted", x.answers.map((a) => `${a.shown}: ${a.said}`).join(" · ")) : null)));
    return h("div", v.card ? h("div.panel.mine", h("h2", "Your card"), h("div.row", cardEl(v.card)), v.shown ? h("div.row", `Shown to voice ${v.asked}: `, cardEl(v.shown)) : null) : null,
      h("div.panel", h("h2", "The night"),
        h("p.phase", `${v.deck} cards left (${v.sleep_minutes} minutes of sleep) · ${v.silent} of 6 voices silent`),
        !v.card && v.shown ? h("div.row", `Shown to voice ${v.asked}: `, cardEl(v.shown)) : null),
      h("div.panel", h("h2", "Voices"), voices));
  },
  minefield(v, st) {
    const grid = h("div.grid5");
    const board = [...(v.board || [])];
    for (let row = 5; row >= 1; row--) for (const col of "abcde") {
      const t = board.find((b) => b.sq === col + row) || {};
      grid.append(h("div.tile." + (t.tile || "down"), { title: t.sq }, h("span.sq", t.tile === "seen-mine" || t.tile === "mine" ? "✸" : t.sq),
        t.token !== undefined ? h("span.tok", { style: `--c:${seatColour(t.token)}`, title: nm(st, t.token) }, String(t.token + 1)) : null));
    }
    // The legend: each token's number and colour, and its player.
    const legend = h("div.players", (v.tokens || []).map((k) => h("div.player" + (k.alive ? "" : ".gone"),
      h("span.tok.inline", { style: `--c:${seatColour(k.seat)}` }, String(k.seat + 1)), " ", nm(st, k.seat), k.alive ? "" : k.ghost ? " · ghost" : " · out")));
    return h("div", h("div.panel", h("h2", "The field"), grid, legend, h("p.phase", named(v.summary, st.names))));
  },
  deck(v, st) {
    return h("div", v.hand ? h("div.panel.mine", h("h2", "Your hand"), cards(v.hand)) : null,
      h("div.panel", h("h2", "The table"),
        h("p", `Stock: ${v.stock}`),
        h("div.players", (v.hands || []).map((n, s) => h("div.player", who(st, s), `: ${plural(n, "card")}`))),
        v.discard && v.discard.length ? h("div.row", "Discard: ", cardEl(v.discard[v.discard.length - 1])) : null,
        v.shown && v.shown.length ? h("div", "Shown: ", h("div.cards", v.shown.map((s) => h("span.shown", cardEl(s.card), who(st, s.seat))))) : null,
        v.roll ? h("p.phase", who(st, v.roll.seat), ` rolled ${v.roll.dice}: ${v.roll.faces.join(" + ")} = ${v.roll.total}`) : null,
        v.first >= 0 ? h("p.phase", who(st, v.first), " goes first") : null));
  },
};

// hearingEl shows what the microphone hears (public). Without a microphone
// it says what that means for this game.
export function hearingEl(st) {
  const live = st.live && st.live.hearing;
  if (!live) return null;
  const game = st.room && st.room.game;
  const listening = !!(live.mic && live.mic.listening);
  if (!listening) {
    const why = (live.mic && live.mic.message) || "not listening";
    const what = game === "insomnia"
      ? "The voices are not timed: nobody listens for pauses and shouts, so watch the table yourselves."
      : game === "woodlouse" ? "The trainer enters the code on the phone." : "";
    return h("div.panel.micoff", { id: "hearing" }, h("h2", "The microphone is off"), h("p", what), h("p.muted", why.replace(/; enter codes on the phones\.?/i, ".").replace(/: the trainer enters the code on the phone/i, "")));
  }
  const g = (live.gestures || []).map((x) => h("span.g." + (x.kind === "bang" ? "bang" : "clap"), x.kind === "bang" ? "BANG" : "CLAP"));
  const problems = (live.mic && live.mic.problems) || [];
  return h("div.panel", { id: "hearing" }, h("h2", "The microphone ", h("span.micmsg", live.mic ? "· " + live.mic.message : "")),
    problems.length ? h("ul.micwarn", { id: "mic-problems" }, problems.map((q) => h("li", { "data-kind": q.kind }, q.say))) : null,
    game === "insomnia" ? h("p", { class: "talk " + (live.talking ? "on" : "off") }, live.talking ? "The voices are talking." : "Silence…") : null,
    game === "woodlouse" ? h("div.gestures", g.length ? g : h("span.muted", "Bang, then clap: the code shows here as it is heard.")) : null,
    live.code ? h("p", { id: "heard-code" }, heardCode(live.code)) : null,
    (live.voices || []).length ? h("ul.events", { id: "voices" }, live.voices.slice(-6).reverse().map((x) => h("li", voiceText(x)))) : null);
}

// heardCode says the last code the microphone heard. A code the referee
// did not take has a note that says what was heard and why ("heard 1 clap —
// that fits no card …"): it is shown on its own.
function heardCode(c) {
  const heard = `${plural(c.bangs, "bang")} + ${plural(c.claps, "clap")}`;
  const note = String(c.note || "");
  if (/^heard /i.test(note)) return note[0].toUpperCase() + note.slice(1);
  if (note) return `Heard: ${heard} (${note})`;
  return `Heard: ${heard}` + (c.used ? " — the trainer's code" : "");
}

// voiceText is a pause or a shout of Insomnia's log, at the time of day it
// started (at, "21:04:33"; start is seconds since the game started).
function voiceText(x) {
  const when = x.at || `${Number(x.start || 0).toFixed(1)} s`;
  return x.kind === "pause" ? `Pause of ${Number(x.seconds || 0).toFixed(1)} s at ${when}` : `Shout at ${when}`;
}

export function timersEl(st) {
  const ts = st.timers || [];
  if (!ts.length) return null;
  return h("div.timers", ts.map((t) => {
    const el = h("div.timer" + (t.running ? ".running" : t.left_ms === 0 ? ".done" : ""), { "data-timer": t.name, "data-due": t.running ? t.due_at : "", "data-left": t.left_ms });
    show(el);
    return el;
  }));
}

// show counts a timer down against the server's clock.
function show(el) {
  const left = el.dataset.due ? Math.max(0, +el.dataset.due - serverNow()) : +el.dataset.left;
  const s = Math.ceil(left / 1000);
  el.textContent = `${el.dataset.timer} ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// tick redraws the running timers between the server's pushes.
export function tick() { document.querySelectorAll("[data-timer]").forEach(show); }
