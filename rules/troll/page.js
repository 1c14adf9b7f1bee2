// Angry Troll versus Magic Bridge: the bridge, the troll, the stacks.
import { h, cardEl, cards } from "/static/ui.js";

export function view(v) {
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
}

// The troll's actions, as its buttons say them.
export const moves = { verbs: { stomp: "Stomp", pickup: "Pick up", club: "Club", throw: "Throw", shovel: "Shovel", lay: "Lay", rest: "Rest" } };
