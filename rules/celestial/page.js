// Warriors of the Celestial Emperor: the fight, the clans, the hands.
import { h, cardEl, cards, who } from "/static/ui.js";

export function view(v, st) {
  const players = h("div.players", (v.players || []).map((p) => h("div.player" + (p.seat === v.attacker || p.seat === v.defender ? ".turn" : ""),
    h("strong", who(st, p.seat)), ` — ${p.clan_name} (${p.suit}) · ${p.cards} cards · ${p.tricks} tricks${p.out ? " · out" : ""}`)));
  const lf = v.last_fight;
  return h("div", v.hand ? h("div.panel.mine", h("h2", "Your hand"), cards(v.hand)) : null,
    h("div.panel", h("h2", "The fight"),
      v.attacker >= 0 ? h("p.phase", v.defender >= 0 ? [who(st, v.attacker), " attacks ", who(st, v.defender)] : [who(st, v.attacker), " chooses whom to attack"]) : null,
      lf ? h("div.row", who(st, lf.attacker), cardEl(lf.attacker_card), "vs", who(st, lf.defender), cardEl(lf.defender_card)) : null,
      players));
}

// An attack names the seat attacked.
export const moves = {
  arg(a, st, action) {
    if (action === "attack" && /^\d+$/.test(a) && st.names && st.names[+a]) return st.names[+a];
    return undefined;
  },
};
