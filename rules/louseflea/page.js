// The Louse and the Flea: the story, who stands and sits, the hands.
import { h, cards, who } from "/static/ui.js";

export function view(v, st) {
  const players = h("div.players", (v.players || []).map((p) => h("div.player" + (p.seat === v.to_act ? ".turn" : ""),
    h("strong", who(st, p.seat)), " — ", (p.identities || []).join(" & "), h("br"),
    p.standing ? "standing" : "sitting", ` · ${p.cards} cards (limit ${p.hand_limit})`, p.louse ? " · louse" : "", p.flea ? " · flea" : "")));
  return h("div", v.hand ? h("div.panel.mine", h("h2", "Your hand"), cards(v.hand.cards)) : null,
    h("div.panel", h("h2", "The story"), cards(v.story),
      h("p", `Last played: ${v.last_played || "—"}${v.called ? " · called: " + v.called : ""} · draw pile ${v.draw_pile}`)),
    h("div.panel", h("h2", "Players"), players));
}
