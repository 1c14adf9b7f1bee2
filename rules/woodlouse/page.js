// Woodlouse Chaos: the sequence cards, the trainer's card, the code, the
// score piles; and the trainer's code entered by hand.
import { h, named, who, nm, plural, parseView } from "/static/ui.js";
import { picks } from "/static/moves.js";

export function view(v, st, forTable) {
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
}

// The trainer's code on the phone: a picker, not a list of codes.
export const moves = {
  take(st, byAction, send) {
    const code = byAction.get("code");
    if (!code) return [];
    byAction.delete("code");
    return [codePicker(st, code[0], send)];
  },
  pass: "Pass: no guess on this card",
  verbs: { code: "Give the code" },
};

// codePicker lets the trainer enter the code by hand (when the microphone
// misses it): bangs give the position, claps the count. It starts at
// nothing, sends only a whole code, and asks to be sure first.
function codePicker(st, suggested, send) {
  const v = parseView(st);
  const positions = (v.order || []).length || 5;
  // A code half counted, and a send armed by a first tap, survive a redraw.
  const kept = picks.get("code") || { bangs: 0, claps: 0, armedUntil: 0 };
  let { bangs, claps } = kept;
  const out = h("strong.codeout", { id: "code-out" });
  const go = h("button.primary", { id: "code-send", "data-action": "code" });
  let armed = null;
  const keep = (until) => picks.set("code", { bangs, claps, armedUntil: until });
  const disarm = () => { if (armed) clearTimeout(armed); armed = null; go.classList.remove("armed"); keep(0); };
  const arm = (ms) => { armed = setTimeout(() => { disarm(); show(); }, ms); go.classList.add("armed"); keep(Date.now() + ms); };
  const show = () => {
    out.textContent = `${plural(bangs, "bang")} + ${plural(claps, "clap")}`;
    go.disabled = bangs < 1 || claps < 1;
    go.textContent = go.disabled ? "Count the bangs and claps" : armed ? `Tap again to send ${plural(bangs, "bang")} + ${plural(claps, "clap")}` : "Send the code";
  };
  go.addEventListener("click", () => {
    if (go.disabled) return;
    if (!armed) { arm(4000); show(); return; }
    disarm();
    send({ action: "code", args: [String(bangs), String(claps)] });
  });
  if (kept.armedUntil > Date.now() && bangs >= 1 && claps >= 1) arm(kept.armedUntil - Date.now());
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
