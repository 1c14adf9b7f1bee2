// Purse Snatcher: the meeting, the posture, the token, the guide.
import { h, named } from "/static/ui.js";

export function view(v, st) {
  return h("div", h("div.panel" + (v.role && v.role !== "table" ? ".mine" : ""), h("h2", v.role && v.role !== "table" ? "You are the " + v.role : "The meeting"),
    h("p.phase", `Posture: ${v.posture} · token with the ${v.token}`),
    h("p", `${v.minutes} minutes${v.time_up ? " — the time is up" : ""}`),
    h("p.muted", `Challenges won: tourist ${v.tourist_won}, officer ${v.officer_won}`),
    v.outcome ? h("p", named(v.outcome, st.names)) : null,
    (v.guide || []).map((g) => h("p", g))));
}
