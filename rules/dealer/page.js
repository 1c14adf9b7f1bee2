// The dealer: the table, the hands, the dice; a hand played card first.
import { h, fill, cardEl, cards, who, plural } from "/static/ui.js";
import { picks } from "/static/moves.js";

export function view(v, st) {
  return h("div", v.hand ? h("div.panel.mine", h("h2", "Your hand"), cards(v.hand)) : null,
    h("div.panel", h("h2", "The table"),
      h("p", `Stock: ${v.stock}`),
      h("div.players", (v.hands || []).map((n, s) => h("div.player", who(st, s), `: ${plural(n, "card")}`))),
      v.discard && v.discard.length ? h("div.row", "Discard: ", cardEl(v.discard[v.discard.length - 1])) : null,
      v.shown && v.shown.length ? h("div", "Shown: ", h("div.cards", v.shown.map((s) => h("span.shown", cardEl(s.card), who(st, s.seat))))) : null,
      v.roll ? h("p.phase", who(st, v.roll.seat), ` rolled ${v.roll.dice}: ${v.roll.faces.join(" + ")} = ${v.roll.total}`) : null,
      v.first >= 0 ? h("p.phase", who(st, v.first), " goes first") : null));
}

// A seat's hand, card first; passing names the seat; ending the game and
// dealing again ask for a second tap.
export const moves = {
  take: cardFirst,
  arg(a, st, action) { return passTo(a, st, action); },
  sure: { end: "Tap again: end the game for everyone", deal: "Tap again: take back every card and deal" },
  verbs: { end: "End the game", take: "Take back", reshuffle: "Reshuffle", deal: "Deal again", roll: "Roll", first: "Who goes first?" },
};

// passTo is a seat to pass to, from 0 as everywhere: "to Bob".
function passTo(a, st, action = "pass") {
  if (action === "pass" && /^\d+$/.test(a) && st.names && st.names[+a]) return "to " + st.names[+a];
  return undefined;
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
  const choose = (c, b) => {
    picks.set("discard", c); // the card picked, kept under the action every card has
    row.querySelectorAll("button").forEach((x) => x.classList.remove("chosen"));
    b.classList.add("chosen");
    fill(then, ...moves.filter((m) => m.args[0] === c).map((m) =>
      h("button" + (m.action === "pass" ? "" : ".primary"), { onclick: () => send(m), "data-action": m.action, "data-args": m.args.join(" ") },
        m.action === "pass" ? ["Pass ", passTo(m.args[1], st)] : m.action === "show" ? "Show to the table" : "Discard")));
  };
  const row = h("div.moves", handCards.map((c) => {
    const b = h("button.cardpick", { "data-card": c, onclick: () => choose(c, b) }, cardEl(c));
    return b;
  }));
  const kept = handCards.indexOf(picks.get("discard"));
  if (kept >= 0) choose(handCards[kept], row.children[kept]); // the card picked survives a redraw
  return h("div.group", h("div.name", "A card from your hand"), row, then);
}
