// Insomnia: the night, the voices and their answers, the cards shown.
import { h, cardEl, who, nm, parseView } from "/static/ui.js";

// answerText is a voice's past answer: the card shown and what it said, or
// only what it said where this seat did not see the card (shown=private).
const answerText = (a) => (a.shown ? `${a.shown}: ${a.said}` : a.said);

export function view(v, st) {
  // A seat with one voice has no "hand": it speaks with its only one. The
  // voice asked now stands out; a silenced one is greyed.
  const voices = h("div.players", (v.voices || []).map((x) => h("div.player" + (x.silent ? ".gone" : x.voice === v.asked ? ".turn" : ""),
    { "data-voice": x.voice },
    h("strong", `Voice ${x.voice}`), " — ", who(st, x.seat), x.hand ? `, ${x.hand} hand` : "", x.silent ? " · silent" : "",
    x.card ? h("div", cardEl(x.card)) : null,
    (x.answers || []).length ? h("div.muted.answers", x.answers.map(answerText).join(" · ")) : null)));
  return h("div", v.card ? h("div.panel.mine", h("h2", "Your card"), h("div.row", cardEl(v.card)), v.shown ? h("div.row", `Shown to voice ${v.asked}: `, cardEl(v.shown)) : null) : null,
    h("div.panel", h("h2", "The night"),
      h("p.phase", `${v.deck} cards left (${v.sleep_minutes} minutes of sleep) · ${v.silent} of 6 voices silent`),
      !v.card && v.shown ? h("div.row", `Shown to voice ${v.asked}: `, cardEl(v.shown)) : null),
    h("div.panel", h("h2", "Voices"), voices));
}

// The sleeper shows a card to a voice: the voice and its player.
export const moves = {
  arg(a, st, action) {
    if (action !== "show" || !/^\d+$/.test(a)) return undefined;
    const voice = (parseView(st).voices || []).find((x) => String(x.voice) === a);
    return voice ? `voice ${a} · ${nm(st, voice.seat)}` : "voice " + a;
  },
};
