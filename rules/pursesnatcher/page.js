// Purse Snatcher: the meeting, the posture, the token, the talk (the
// details she told, the question or request waiting), the guide; and on
// the tourist's phone, a new detail picked or typed in a word.
import { h, named, plural, parseView } from "/static/ui.js";
import { picks } from "/static/moves.js";

const KIND = { sentimental: "Sentimental value", tickets: "Tickets home", injury: "She was hurt", documents: "More papers", money: "The money", other: "Something else" };
const TOPIC = { when: "When?", where: "Where?", "what-was-taken": "What was taken?", description: "The thief?", contact: "Where to reach you?", other: "Something else" };
const REQUEST = { sit: "Sit down", stand: "Let go, stand back", other: "Something else" };
const INVITE = { sit: "To sit down", stand: "To let go and stand back" };
const words = (w) => String(w).replace(/-/g, " ");

export function view(v, st) {
  const mine = v.role && v.role !== "table";
  const you = v.role === "tourist";
  const she = you ? "you" : "she";
  const talk = [];
  if (v.question) {
    talk.push(h("p.pending", { id: "question" }, h("strong", "Question: "), v.question.text, " — ",
      v.may_refuse ? `standing, ${she} may answer or refuse` : `${v.posture}, ${she} must answer`));
  }
  if (v.invitation) talk.push(h("p.pending", { id: "invitation" }, h("strong", "Invited: "), INVITE[v.invitation] || v.invitation, ` — ${she} may accept or decline`));
  if (v.request) talk.push(h("p.pending", { id: "request" }, h("strong", "Asked in return: "), v.request_text || v.request, ` — ${she} must comply`));
  if (v.touch_asked) talk.push(h("p.pending", you ? "You asked him to touch you: he may, once." : "She asked him to touch her: he may, once."));
  const details = (v.details || []).length
    ? h("div", { id: "details" }, h("h2", you ? "Your story" : "Her story"), h("ol", v.details.map((d) => h("li", `${d.text} → ${d.posture}`))))
    : null;
  const counts = [`Questions: ${v.asked || 0} asked, ${v.answered || 0} answered, ${v.refused || 0} refused`];
  if (v.breaches) counts.push(`${plural(v.breaches, "request")} in return refused`);
  return h("div", h("div.panel" + (mine ? ".mine" : ""), h("h2", mine ? "You are the " + v.role : "The meeting"),
    h("p.phase", `Posture: ${v.posture} · token with the ${v.token}`),
    h("p", `${v.minutes} minutes${v.time_up ? " — the time is up" : ""}`),
    talk,
    h("p.muted", `Challenges won: tourist ${v.tourist_won}, officer ${v.officer_won}`),
    h("p.muted", counts.join(" · ")),
    v.outcome ? h("p", named(v.outcome, st.names)) : null,
    (v.guide || []).map((g) => h("p", g))),
    details ? h("div.panel", details) : null);
}

// escalatePicker: a kind of detail, then a suggested word or one of her own.
function escalatePicker(st, moves, send) {
  const kinds = [...new Set(moves.map((m) => m.args[0]))];
  const all = parseView(st).kinds || [];
  for (const k of all) if (!kinds.includes(k.name)) kinds.push(k.name); // her own word fits any kind
  const kept = picks.get("escalate") || { kind: "", word: "" };
  const second = h("div.moves");
  const own = h("input", { id: "detail-word", maxlength: "24", placeholder: "or in a word of your own", value: kept.word || "" });
  const tell = h("button.primary", { id: "detail-send", "data-action": "escalate" }, "Tell it");
  const clean = (s) => s.toLowerCase().trim().replace(/\s+/g, "-").replace(/[^a-z0-9-]/g, "").replace(/^-+|-+$/g, "").slice(0, 24);
  let kind = kept.kind;
  const firstRow = h("div.moves", kinds.map((k) => h("button", { "data-action": "escalate", "data-args": k, onclick: (e) => choose(k, e.currentTarget) }, KIND[k] || k)));
  const choose = (k, b) => {
    kind = k;
    picks.set("escalate", { kind, word: own.value });
    firstRow.querySelectorAll("button").forEach((x) => x.classList.remove("chosen"));
    if (b) b.classList.add("chosen");
    second.replaceChildren(...moves.filter((m) => m.args[0] === k).map((m) =>
      h("button.primary", { "data-action": "escalate", "data-args": m.args.join(" "), onclick: () => send(m) }, words(m.args[1]))));
    tell.disabled = !clean(own.value);
  };
  own.addEventListener("input", () => { picks.set("escalate", { kind, word: own.value }); tell.disabled = !kind || !clean(own.value); });
  tell.addEventListener("click", () => { const w = clean(own.value); if (kind && w) send({ action: "escalate", args: [kind, w] }); });
  tell.disabled = true;
  if (kind) choose(kind, firstRow.querySelector(`button[data-args="${CSS.escape(kind)}"]`));
  return h("div.group", h("div.name", "Add a new detail and climb"), firstRow, second, h("div.row", own, tell));
}

export const moves = {
  take(st, byAction, send) {
    const esc = byAction.get("escalate");
    if (!esc) return [];
    byAction.delete("escalate");
    return [escalatePicker(st, esc, send)];
  },
  arg(a, st, action) {
    if (action === "ask") return TOPIC[a];
    if (action === "request") return REQUEST[a];
    if (action === "invite") return INVITE[a];
    if (action === "okay") return a === "open" ? "Eyes open" : a === "closed" ? "Eyes closed" : undefined;
    if (action === "demand") return a === "token" ? "Take the token!" : a === "other" ? "Something else" : undefined;
    return undefined;
  },
  verbs: {
    seat: "Ask her to sit down", challenge: "Challenge him", okay: "Say okay", fingers: "Raise fingers", demand: "Demand",
    deescalate: "Step down", offer: "Hold out the token", take: "Take the token", refuse: "Refuse the token",
    dismiss: "Tell her to leave", keep: "Let her stay", leave: "Leave", stay: "Refuse to leave", arrest: "Arrest her",
    ask: "Ask a question", answer: "Answer", "refuse-answer": "Refuse to answer", invite: "Invite her",
    accept: "Accept", decline: "Decline", "ask-touch": "Ask him to touch you", touch: "Touch her arm",
    request: "Ask in return", waive: "Ask nothing in return", comply: "Comply", "refuse-request": "Refuse his request",
  },
};
