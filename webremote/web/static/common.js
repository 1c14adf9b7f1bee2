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

// connect keeps a websocket to the room open, reconnecting with backoff and
// asking for what was missed (since). Moves not yet acknowledged are sent
// again with the same id after a reconnect, so none is applied twice.
export function connect(room, token, { onState, onOnline, onRevoked }) {
  let ws, seq = 0, backoff = 500, closed = false, nextId = 1;
  const pending = new Map(); // id -> {frame, resolve}
  const prefix = Math.random().toString(36).slice(2, 8);
  function open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/${room}?token=${encodeURIComponent(token)}&since=${seq}`);
    ws.onopen = () => {
      backoff = 500;
      onOnline && onOnline(true);
      for (const p of pending.values()) ws.send(JSON.stringify(p.frame));
    };
    ws.onmessage = (m) => {
      let f;
      try { f = JSON.parse(m.data); } catch (e) { return; }
      if (f.type === "state") { seq = f.seq; onState(f); }
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

// ---- the moves a seat may make, as buttons ----
const VERB = {
  code: "Give the code", guess: "Guess", pass: "Pass", play: "Play", discard: "Discard", show: "Show", draw: "Draw a card",
  move: "Move", stomp: "Stomp", pickup: "Pick up", club: "Club", throw: "Throw", shovel: "Shovel", lay: "Lay", rest: "Rest",
  look: "Look", step: "Step", fast: "Dash", shove: "Shove", end: "End", take: "Take", reshuffle: "Reshuffle", deal: "Deal",
  roll: "Roll", first: "Who goes first?", answer: "Answer", show: "Show the card",
};
const verb = (a) => VERB[a] || a.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());

function argLabel(a, names, action, game) {
  if (isCard(a)) return cardEl(a);
  if (!/^\d+$/.test(a) || !names) return a;
  if (game === "deck" && action === "pass" && names[+a - 1]) return "to " + names[+a - 1]; // players counted from 1
  if (game === "celestial" && action === "attack" && names[+a]) return names[+a]; // a seat
  if (game === "insomnia" && action === "show") return "voice " + a;
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
  const groups = [];
  for (const [action, moves] of byAction) {
    if (game === "woodlouse" && action === "code") { groups.push(codePicker(st, moves[0], send)); continue; }
    if (moves.length === 1 && !(moves[0].args || []).length) {
      groups.push(h("button.primary", { onclick: () => send(moves[0]), "data-action": action }, verb(action)));
      continue;
    }
    const twoStep = moves.length > 10 && moves.every((m) => (m.args || []).length >= 2);
    const box = h("div.group", h("div.name", verb(action)));
    if (!twoStep) {
      box.append(h("div.moves", moves.map((m) => h("button", { onclick: () => send(m), "data-action": action, "data-args": (m.args || []).join(" ") },
        (m.args || []).length ? (m.args || []).map((a) => argLabel(a, st.names, action, game)) : verb(action)))));
    } else {
      const firsts = [...new Set(moves.map((m) => m.args[0]))];
      const second = h("div.moves");
      const firstRow = h("div.moves", firsts.map((f) => {
        const b = h("button", { "data-action": action, "data-args": f, onclick: () => {
          firstRow.querySelectorAll("button").forEach((x) => x.classList.remove("chosen"));
          b.classList.add("chosen");
          fill(second, ...moves.filter((m) => m.args[0] === f).map((m) =>
            h("button.primary", { onclick: () => send(m), "data-args": m.args.join(" ") }, m.args.slice(1).map((a) => argLabel(a, st.names, action, game)))));
        } }, argLabel(f, st.names, action, game));
        return b;
      }));
      box.append(firstRow, second);
    }
    groups.push(box);
  }
  return h("div.panel", h("h2", "What you can do"), groups);
}

// codePicker lets the trainer enter the code by hand (when the microphone
// misses it): bangs give the position, claps the count.
function codePicker(st, suggested, send) {
  const v = parseView(st);
  const positions = (v.order || []).length || 5;
  let bangs = 1, claps = 1; // the trainer counts, as at the table
  const out = h("strong");
  const show = () => { out.textContent = `${bangs} bang${bangs > 1 ? "s" : ""} + ${claps} clap${claps > 1 ? "s" : ""}`; };
  show();
  const step = (which, d) => () => {
    if (which === "b") bangs = Math.min(positions, Math.max(1, bangs + d));
    else claps = Math.min(5, Math.max(1, claps + d));
    show();
  };
  return h("div.group", h("div.name", "Give the code (bang and clap on the table, or enter it here)"),
    h("div.row", h("button", { id: "bang-less", onclick: step("b", -1) }, "− bang"), h("button", { id: "bang-more", onclick: step("b", 1) }, "+ bang"),
      h("button", { id: "clap-less", onclick: step("c", -1) }, "− clap"), h("button", { id: "clap-more", onclick: step("c", 1) }, "+ clap")),
    h("div.row", out, h("button.primary", { "data-action": "code", onclick: () => send({ action: "code", args: [String(bangs), String(claps)] }) }, "Send the code")));
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

const RENDER = {
  woodlouse(v, st, forTable) {
    const seq = h("div.seqcards", (v.order || []).map((sp, i) => h("div.seqcard", h("div.pos", `${i + 1} bang${i ? "s" : ""}`), sp)));
    const scores = h("div.players", (v.scores || []).map((n, s) => h("div.player" + (s === v.trainer ? ".turn" : ""), `${nm(st, s)}: ${n} card${n === 1 ? "" : "s"}${s === v.trainer ? " (trainer)" : ""}`)));
    return h("div", h("div.panel", h("h2", "Sequence cards"), seq,
      h("p.muted", `Draw pile: ${v.pile} · trainer: ${nm(st, v.trainer)} · ${v.phase === "code" ? "waiting for the code" : v.phase === "guess" ? "guessing is open" : v.phase}`)),
      v.card ? h("div.panel", h("h2", "Your card (only you see it)"), h("div.bigcard", { id: "card" }, v.card)) : null,
      v.last ? h("p.muted", `Last card: ${v.last.shown}, ${named(v.last.how, st.names)}`) : null,
      h("div.panel", h("h2", "Score piles"), scores));
  },
  louseflea(v, st) {
    const players = h("div.players", (v.players || []).map((p) => h("div.player" + (p.seat === v.to_act ? ".turn" : ""),
      h("strong", nm(st, p.seat)), " — ", (p.identities || []).join(" & "), h("br"),
      p.standing ? "standing" : "sitting", ` · ${p.cards} cards (limit ${p.hand_limit})`, p.louse ? " · louse" : "", p.flea ? " · flea" : "")));
    return h("div", h("div.panel", h("h2", "The story"), cards(v.story),
      h("p", `Last played: ${v.last_played || "—"}${v.called ? " · called: " + v.called : ""} · draw pile ${v.draw_pile}`)),
      h("div.panel", h("h2", "Players"), players),
      v.hand ? h("div.panel", h("h2", "Your hand"), cards(v.hand.cards)) : null);
  },
  celestial(v, st) {
    const players = h("div.players", (v.players || []).map((p) => h("div.player" + (p.seat === v.attacker || p.seat === v.defender ? ".turn" : ""),
      h("strong", nm(st, p.seat)), ` — ${p.clan_name} (${p.suit}) · ${p.cards} cards · ${p.tricks} tricks${p.out ? " · out" : ""}`)));
    const lf = v.last_fight;
    return h("div", h("div.panel", h("h2", "The fight"),
      v.attacker >= 0 ? h("p", v.defender >= 0 ? `${nm(st, v.attacker)} attacks ${nm(st, v.defender)}` : `${nm(st, v.attacker)} chooses whom to attack`) : null,
      lf ? h("div.row", nm(st, lf.attacker), cardEl(lf.attacker_card), "vs", nm(st, lf.defender), cardEl(lf.defender_card)) : null,
      players),
      v.hand ? h("div.panel", h("h2", "Your hand"), cards(v.hand)) : null);
  },
  troll(v) {
    const rows = (v.bridge || []).map((row, r) => row.map((b, i) => {
      const here = v.troll && v.troll.pos === i + 1 && v.troll.row === (r === 0 ? "upper" : "lower");
      return h("div.brick" + (b.bricks ? "" : ".empty") + (b.awake ? ".awake" : "") + (here ? ".troll" : ""),
        b.bricks ? `${b.bricks}` : "", b.awake ? h("div", cardEl(b.awake)) : null, here ? h("div", "TROLL") : null);
    }));
    return h("div", h("div.panel", h("h2", "The bridge"), h("div.bridge", rows.flat()),
      h("p", `Turn ${v.turn} · ${v.deck} cards in the deck of awakening · die ${v.last_die || "—"} · actions left ${v.actions_left}`),
      v.carrying ? h("div.row", "Carrying: ", cardEl(v.carrying)) : null),
      h("div.panel", h("h2", `Upper stack (${v.upper_colour})`), cards(v.upper_stack), h("h2", `Lower stack (${v.lower_colour})`), cards(v.lower_stack)));
  },
  pursesnatcher(v) {
    return h("div", h("div.panel", h("h2", v.role && v.role !== "table" ? "You are the " + v.role : "The meeting"),
      h("p", `Posture: ${v.posture} · token with the ${v.token} · ${v.minutes} minutes`),
      h("p.muted", `Challenges won: tourist ${v.tourist_won}, officer ${v.officer_won}`),
      (v.guide || []).map((g) => h("p", g))));
  },
  insomnia(v, st) {
    const voices = h("div.players", (v.voices || []).map((x) => h("div.player" + (x.silent ? "" : ".turn"),
      h("strong", `Voice ${x.voice}`), ` — ${nm(st, x.seat)}, ${x.hand} hand${x.silent ? " · silent" : ""}`,
      x.card ? h("div", cardEl(x.card)) : null,
      (x.answers || []).length ? h("div.muted", x.answers.map((a) => `${a.shown}: ${a.said}`).join(" · ")) : null)));
    return h("div", h("div.panel", h("h2", "The night"),
      h("p", `${v.deck} cards left (${v.sleep_minutes} minutes of sleep) · ${v.silent} of 6 voices silent`),
      v.card ? h("div.row", "Your card: ", cardEl(v.card)) : null, v.shown ? h("div.row", `Shown to voice ${v.asked}: `, cardEl(v.shown)) : null),
      h("div.panel", h("h2", "Voices"), voices));
  },
  minefield(v, st) {
    const grid = h("div.grid5");
    const board = [...(v.board || [])];
    for (let row = 5; row >= 1; row--) for (const col of "abcde") {
      const t = board.find((b) => b.sq === col + row) || {};
      grid.append(h("div.tile." + (t.tile || "down"), { title: t.sq }, t.tile === "seen-mine" || t.tile === "mine" ? "✸" : t.sq,
        t.token !== undefined ? h("span.tok", nm(st, t.token).slice(0, 2)) : null));
    }
    return h("div", h("div.panel", h("h2", "The field"), grid, h("p", named(v.summary, st.names))));
  },
  deck(v, st) {
    return h("div", h("div.panel", h("h2", "The table"),
      h("p", `Stock: ${v.stock} · ` + (v.hands || []).map((n, s) => `${nm(st, s)} ${n}`).join(" · ")),
      v.discard && v.discard.length ? h("div.row", "Discard: ", cardEl(v.discard[v.discard.length - 1])) : null,
      v.shown && v.shown.length ? h("div", "Shown: ", h("div.cards", v.shown.map((s) => cardEl(s.card)))) : null,
      v.roll ? h("p", `${nm(st, v.roll.seat)} rolled ${v.roll.dice}: ${v.roll.faces.join(" + ")} = ${v.roll.total}`) : null,
      v.first >= 0 ? h("p", `${nm(st, v.first)} goes first`) : null),
      v.hand ? h("div.panel", h("h2", "Your hand"), cards(v.hand)) : null);
  },
};

// hearingEl shows what the microphone hears (public).
export function hearingEl(st) {
  const live = st.live && st.live.hearing;
  if (!live) return null;
  const g = (live.gestures || []).map((x) => (x.kind === "bang" ? "▮" : "✋")).join(" ");
  const game = st.room && st.room.game;
  return h("div.panel", { id: "hearing" }, h("h2", "The microphone"),
    h("p.muted", live.mic ? live.mic.message : ""),
    game === "insomnia" ? h("p", { class: live.talking ? "" : "muted" }, live.talking ? "The voices are talking." : "Silence…") : null,
    h("div.gestures", g || " "),
    live.code ? h("p", `Heard: ${live.code.bangs} bangs + ${live.code.claps} claps${live.code.note ? " (" + live.code.note + ")" : ""}`) : null,
    (live.voices || []).length ? h("ul.events", live.voices.slice(-6).reverse().map((x) => h("li", x.kind === "pause" ? `Pause of ${x.seconds} s at ${x.start.toFixed(1)} s` : `Shout at ${x.start.toFixed(1)} s`))) : null);
}

export function timersEl(st) {
  const ts = st.timers || [];
  if (!ts.length) return null;
  return h("div.timers", ts.map((t) => {
    const el = h("div.timer", { "data-timer": t.name, "data-due": t.running ? t.due_at : "", "data-left": t.left_ms });
    show(el);
    return el;
  }));
}

function show(el) {
  const left = el.dataset.due ? Math.max(0, +el.dataset.due - Date.now()) : +el.dataset.left;
  const s = Math.ceil(left / 1000);
  el.textContent = `${el.dataset.timer} ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// tick redraws the running timers between the server's pushes.
export function tick() { document.querySelectorAll("[data-timer]").forEach(show); }
