// The moves a seat may make, as buttons. A game's page module may shape
// them (its export moves):
//   take(st, byAction, send): panels for the actions it shows its own way
//     (a code picker, a hand to pick a card from); it deletes those actions
//     from byAction and returns the panels;
//   arg(a, st, action): how an argument reads (a seat's name), or undefined;
//   sure: {action: "Tap again: …"}: moves that touch everyone, on two taps;
//   pass: the label of a lone pass;
//   verbs: {action: "Give the code"}: what its own actions' buttons say.
import { h, fill, isCard, cardEl, confirmButton } from "/static/ui.js";

// The verbs many card games share; a game names its own (hooks.verbs).
const VERB = { guess: "Guess", pass: "Pass", play: "Play", discard: "Discard", draw: "Draw a card", move: "Move", answer: "Answer", show: "Show" };
export const verb = (a, hooks = {}) => (hooks.verbs || {})[a] || VERB[a] || a.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());

// argLabel is how an argument of a move reads: a card as a card, else as
// the game says, else as it is.
export function argLabel(a, st, action, game) {
  if (isCard(a)) return cardEl(a);
  const hooks = (game && game.moves) || {};
  const said = hooks.arg ? hooks.arg(a, st, action) : undefined;
  return said === undefined ? a : said;
}

// picks is what the player is in the middle of choosing, kept across the
// state pushes that redraw the panel (another player's move, the
// microphone's news), by action: the first half of a two-step move, and
// what a game's own pickers keep (a code half counted, a card picked). A
// move sent forgets them all, and a pick goes with its action when the
// seat may no longer make it.
export const picks = new Map();

// movesEl is the seat's moves panel, or null when it has none. game is the
// game's page module (loadGame).
export function movesEl(st, sendMove, game) {
  const legal = st.legal || [];
  if (!legal.length) return null;
  const hooks = (game && game.moves) || {};
  const send = (m) => { picks.clear(); return sendMove(m); };
  const byAction = new Map();
  for (const m of legal) {
    if (!byAction.has(m.action)) byAction.set(m.action, []);
    byAction.get(m.action).push(m);
  }
  for (const a of [...picks.keys()]) if (!byAction.has(a)) picks.delete(a);
  const groups = [], quiet = [];
  const sure = hooks.sure || {};
  if (hooks.take) groups.push(...[].concat(hooks.take(st, byAction, send) || []));
  for (const [action, moves] of byAction) {
    if (action === "pass" && moves.length === 1 && !(moves[0].args || []).length) {
      // Passing is not one more choice among the others: set apart, and quiet.
      quiet.push(h("button.quiet", { onclick: () => send(moves[0]), "data-action": action }, hooks.pass || "Pass"));
      continue;
    }
    if (moves.length === 1 && !(moves[0].args || []).length) {
      groups.push(sure[action] ? confirmButton("button.danger", { "data-action": action }, verb(action, hooks), sure[action], () => send(moves[0]))
        : h("button.primary", { onclick: () => send(moves[0]), "data-action": action }, verb(action, hooks)));
      continue;
    }
    const twoStep = moves.length > 10 && moves.every((m) => (m.args || []).length >= 2);
    const box = h("div.group", h("div.name", verb(action, hooks)));
    const button = (m, spec, kids) => sure[action]
      ? confirmButton(spec + ".danger", { "data-action": action, "data-args": (m.args || []).join(" ") }, `${verb(action, hooks)} ${(m.args || []).join(" ")}`, sure[action], () => send(m))
      : h(spec, { onclick: () => send(m), "data-action": action, "data-args": (m.args || []).join(" ") }, kids);
    if (!twoStep) {
      box.append(h("div.moves", moves.map((m) => button(m, "button", (m.args || []).length ? (m.args || []).map((a) => argLabel(a, st, action, game)) : verb(action, hooks)))));
    } else {
      const firsts = [...new Set(moves.map((m) => m.args[0]))];
      const second = h("div.moves");
      const choose = (f, b) => {
        picks.set(action, f);
        firstRow.querySelectorAll("button").forEach((x) => x.classList.remove("chosen"));
        b.classList.add("chosen");
        fill(second, ...moves.filter((m) => m.args[0] === f).map((m) =>
          button(m, "button.primary", m.args.slice(1).map((a) => argLabel(a, st, action, game)))));
      };
      const firstRow = h("div.moves", firsts.map((f) => {
        const b = h("button", { "data-action": action, "data-args": f, onclick: () => choose(f, b) }, argLabel(f, st, action, game));
        return b;
      }));
      const kept = firstRow.querySelector(`button[data-args="${CSS.escape(String(picks.get(action) ?? ""))}"]`);
      if (kept) choose(picks.get(action), kept);
      box.append(firstRow, second);
    }
    groups.push(box);
  }
  return h("div.panel", { id: "moves" }, h("h2", "What you can do"), groups, quiet.length ? h("div.quietrow", quiet) : null);
}
