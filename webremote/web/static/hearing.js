// The microphone's panel: what the referee hears at the table (public), for
// what the game listens to (st.room.hears, as the game declares it).
import { h, plural } from "/static/ui.js";

// hearingEl shows what the microphone hears. Without a microphone it says
// what that means for this game.
export function hearingEl(st) {
  const live = st.live && st.live.hearing;
  if (!live) return null;
  const hears = (st.room && st.room.hears) || {};
  const listening = !!(live.mic && live.mic.listening);
  if (!listening) {
    const why = (live.mic && live.mic.message) || "the referee is not listening to the table";
    const what = hears.without_mic ? hears.without_mic[0].toUpperCase() + hears.without_mic.slice(1) + "." : "";
    return h("div.panel.micoff", { id: "hearing" }, h("h2", "The microphone is off"), h("p", what), h("p.muted", why[0].toUpperCase() + why.slice(1) + "."));
  }
  const g = (live.gestures || []).map((x) => h("span.g." + (x.kind === "bang" ? "bang" : "clap"), x.kind === "bang" ? "BANG" : "CLAP"));
  const problems = (live.mic && live.mic.problems) || [];
  return h("div.panel", { id: "hearing" }, h("h2", "The microphone ", h("span.micmsg", live.mic ? "· " + live.mic.message : "")),
    problems.length ? h("ul.micwarn", { id: "mic-problems" }, problems.map((q) => h("li", { "data-kind": q.kind }, q.say))) : null,
    hears.voices ? h("p", { class: "talk " + (live.talking ? "on" : "off") }, live.talking ? "The voices are talking." : "Silence…") : null,
    hears.gestures ? h("div.gestures", g.length ? g : h("span.muted", "Bang, then clap: the code shows here as it is heard.")) : null,
    live.code ? h("p", { id: "heard-code" }, heardCode(live.code)) : null,
    (live.voices || []).length ? h("ul.events", { id: "voices" }, live.voices.slice(-6).reverse().map((x) => h("li", voiceText(x)))) : null);
}

// heardCode says the last code the microphone heard. A code the referee
// did not take has a note, the whole line to show ("heard 1 clap — that
// fits no card …").
function heardCode(c) {
  const note = String(c.note || "");
  if (note) return note[0].toUpperCase() + note.slice(1);
  return `Heard: ${plural(c.bangs, "bang")} + ${plural(c.claps, "clap")}` + (c.used ? " — the trainer's code" : "");
}

// voiceText is a pause or a shout of Insomnia's log, at the time of day it
// started (at, "21:04:33"; start is seconds since the game started).
function voiceText(x) {
  const when = x.at || `${Number(x.start || 0).toFixed(1)} s`;
  return x.kind === "pause" ? `Pause of ${Number(x.seconds || 0).toFixed(1)} s at ${when}` : `Shout at ${when}`;
}
