// Shared widgets of the host, table and phone pages: building elements,
// names and colours, cards, the turn, events, timers and a game's view.

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

// named replaces the seat references "{2}" of a text of a game's view with
// the players' names, in one pass (a name put in is never read again). Only
// a view's texts are templates: the engines write them, with seat
// references and never a name. Events, results, refusals and the room's
// own news come named from the server (the referee names them once) and
// are shown as they are: naming them again would read a player called
// "{0}" as seat 0's name.
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
export function eventsEl(events, limit = 12) {
  const list = (events || []).slice(-limit).reverse();
  if (!list.length) return h("p.muted", "Nothing has happened yet.");
  return h("ul.events", list.map((e) => h("li" + (e.to && e.to.length ? ".private" : ""), String(e.text ?? ""))));
}

// ---- whose turn ----

// list joins names (elements) as people say them: "Ann", "Ann and Bob",
// "Ann, Bob and Cy".
const list = (xs) => xs.flatMap((x, i) => (i === 0 ? [x] : [i === xs.length - 1 ? " and " : ", ", x]));

// turnText is whose turn it is, each name isolated (<bdi>): an array for h().
export function turnText(st) {
  const r = st.room || {};
  if (r.status === "lobby") return "Waiting for the host to start";
  if (r.status === "paused") return "Paused";
  if (r.status === "ended") return "The room has ended";
  if (st.over) return st.result ? st.result.text : "Game over";
  if (r.free_play) return "Anyone may act, any time";
  const turn = st.turn || [];
  if (!turn.length) return "";
  if (turn.length === (st.names || []).length && turn.length > 1) return "Everyone may act";
  const who = turn.map((s) => h("bdi", nm(st, s)));
  return who.length > 1 ? [...list(who), " may act"] : [who[0], "'s turn"];
}

// waitingText is what a phone with nothing to do says, and for whom it
// waits.
export function waitingText(st) {
  const r = st.room || {};
  if (r.status !== "playing" || st.over) return "";
  const others = (st.turn || []).filter((s) => s !== r.you).map((s) => h("bdi", nm(st, s)));
  if (!others.length) return "Nothing to do now.";
  return ["Nothing to do now — waiting for ", ...list(others), "."];
}

export function parseView(st) { return st.view && typeof st.view === "object" ? st.view : {}; }

export const nm = (st, s) => (st.names && st.names[s]) || "player " + (s + 1);
// who is a player's name in the player's colour, its direction isolated
// from the text around it (an Arabic name in "مرحبا: 5 cards" keeps its
// place), cut with an ellipsis where a long one would not fit (the whole
// name in its title).
export const who = (st, s) => h("bdi.who", { style: `--c:${seatColour(s)}`, title: nm(st, s) }, nm(st, s));
export const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;

// viewEl is the game's view as its page module shows it (game: the module,
// from loadGame), or field by field.
export function viewEl(st, forTable, game) {
  const v = parseView(st);
  if (!st.view) return null;
  try { return game && game.view ? game.view(v, st, forTable) : generic(v, st); } catch (e) { return generic(v, st); }
}

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
  const text = `${el.dataset.timer} ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  // Written only when it changes: a page redrawn four times a second for
  // nothing costs a phone's battery all evening.
  if (el.textContent !== text) el.textContent = text;
}

// tick redraws the running timers between the server's pushes.
export function tick() { document.querySelectorAll("[data-timer]").forEach(show); }

// headParts splits an event into a headline and the rest, for the table's
// stage and a phone's result banner: a short exclamation said first ("Wrong
// code!") is the headline, else what the referee says (its first sentence
// or clause), else the whole text; the rest is what the text adds.
export function headParts(e) {
  const text = String(e.text ?? "").trim();
  const say = e.say ? String(e.say).trim() : "";
  const cry = say.match(/^(.{1,24}?!)\s+(.+)$/);
  if (cry) return { head: cry[1], more: text };
  if (!say) return { head: text, more: "" };
  const bare = say.replace(/[.!?]$/, "");
  const more = text.startsWith(bare) ? text.slice(bare.length).replace(/^[.!?:;,]?\s*/, "") : text;
  return { head: say, more };
}
