// Jerks in a Minefield: the field, the tokens and their colours.
import { h, named, nm, seatColour } from "/static/ui.js";

export function view(v, st) {
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
}

// The field's actions, as its buttons say them: "end" ends the turn, not the game.
export const moves = { verbs: { look: "Look", step: "Step", fast: "Dash", shove: "Shove", end: "End my turn" } };
