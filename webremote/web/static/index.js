// The host's start page: pick a game (or the dealer), the seats, the
// variant and the options, in words, and create the room. Options that
// cannot change the chosen game (another variant's, or another player
// count's) are hidden and not sent.
import { $, h, fill, toast } from "/static/ui.js";
import { api } from "/static/client.js";

const app = $("#app");

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
// The picker names the games alone (a phone cuts a long entry; the player
// count is explained under it). The dealer is not a game but serves any
// card game: say so.
const label = (g) => (g.tool ? "Dealer: any card game" : g.name);

// appliesTo is the catalogue's Option.AppliesTo: whether an option changes
// anything in the variant with n players.
const appliesTo = (o, variant, n) => (!(o.variants || []).length || o.variants.includes(variant)) &&
  (!o.min_players || n >= o.min_players) && (!o.max_players || n <= o.max_players);

// A room of `seats` may start with any count from the game's minimum up to
// its seats, so an option shows when it applies to one of those counts.
const countsOf = (g, seats) => Array.from({ length: seats - g.min_players + 1 }, (_, i) => g.min_players + i);

// only says which of the game's player counts an option is for.
function only(g, o) {
  const lo = Math.max(o.min_players || 0, g.min_players), hi = Math.min(o.max_players || g.max_players, g.max_players);
  if (lo === hi) return `Only when exactly ${plural(lo, "player plays", "players play")}.`;
  if (lo === g.min_players) return `Only with ${plural(hi, "player", "players")} or fewer.`;
  if (hi === g.max_players) return `Only with ${plural(lo, "player", "players")} or more.`;
  return `Only with ${lo} to ${hi} players.`;
}

// seatsOf is the seat count asked for, kept within the game's range.
function seatsOf(g, input) {
  if (!input) return g.max_players;
  const n = Math.round(Number(input.value));
  if (!Number.isFinite(n) || input.value === "") return g.max_players;
  return Math.min(g.max_players, Math.max(g.min_players, n));
}

function seatsText(g, input) {
  const n = Math.round(Number(input.value));
  const ok = input.value !== "" && Number.isFinite(n) && n >= g.min_players && n <= g.max_players;
  if (!ok) return `Choose a number from ${g.min_players} to ${g.max_players}.`;
  const start = `the host can start as soon as ${g.min_players} ${g.min_players === 1 ? "has" : "have"}.`;
  return `${g.min_players} to ${g.max_players} players. Up to ${plural(n, "player", "players")} may join; ${start}`;
}

function form(g) {
  const kids = [h("p.muted", g.summary)];
  const late = g.late_join ? " Players may also join after the game has started." : "";
  let seats = null, seatsHelp = null;
  if (g.min_players === g.max_players) {
    kids.push(h("p", { id: "players-text" }, `For exactly ${plural(g.min_players, "player", "players")}.${late}`));
  } else {
    seats = h("input", { id: "players", type: "number", inputmode: "numeric", min: g.min_players, max: g.max_players, value: g.max_players });
    seatsHelp = h("p.help", { id: "players-text" });
    kids.push(h("label", { for: "players" }, "Seats in the room"), seats, seatsHelp);
  }
  let variant = null;
  const variantHelp = h("p.help", { id: "variant-text" });
  if ((g.variants || []).length) {
    variant = h("select", { id: "variant" }, g.variants.map((v) => h("option", { value: v.id }, v.name || v.id)));
    kids.push(h("label", { for: "variant" }, "Variant"), variant, variantHelp);
  }
  const rows = (g.options || []).map((o) => {
    const id = "opt-" + o.name;
    const input = o.values
      ? h("select", { id, "data-option": o.name }, o.values.map((v) => h("option", { value: v, selected: v === o.default }, (o.value_text || {})[v] || v)))
      : h("input", { id, "data-option": o.name, type: "number", inputmode: "numeric", min: o.min, max: o.max, value: o.default });
    const note = h("span.only");
    const row = h("div.opt", { "data-for": o.name }, h("label", { for: id }, o.label || o.name), input, h("p.help", o.text, note));
    return { o, row, input, note };
  });
  kids.push(...rows.map((r) => r.row));

  // update shows what the chosen variant and seats make of the options.
  const update = () => {
    const n = seatsOf(g, seats);
    if (seatsHelp) seatsHelp.textContent = seatsText(g, seats) + late;
    const v = variant ? variant.value : "";
    if (variant) variantHelp.textContent = (g.variants.find((x) => x.id === v) || {}).text || "";
    const counts = countsOf(g, n);
    for (const r of rows) {
      const at = counts.filter((c) => appliesTo(r.o, v, c));
      r.row.hidden = at.length === 0;
      r.input.disabled = r.row.hidden;
      r.note.textContent = at.length && at.length < counts.length ? " " + only(g, r.o) : "";
    }
  };
  seats?.addEventListener("input", update);
  seats?.addEventListener("change", update);
  variant?.addEventListener("change", update);
  update();
  return kids;
}

async function boot() {
  const r = await api("GET", "/api/games");
  if (r.status !== 200) { fill(app, h("p", r.data.error || "cannot load the games")); return; }
  const games = r.data;
  const pick = h("select", { id: "game" },
    h("optgroup", { label: "Games" }, games.filter((g) => !g.tool).map((g) => h("option", { value: g.id }, label(g)))),
    h("optgroup", { label: "For any other game" }, games.filter((g) => g.tool).map((g) => h("option", { value: g.id }, label(g)))));
  const details = h("div");
  const f = h("form.start", { onsubmit: create }, h("label", { for: "game" }, "Game"), pick, details,
    h("button.primary", { type: "submit", id: "create" }, "Create the room"));
  fill(app, h("h1", "tableref"), h("p.muted", "Pick a game; the table screen then shows a code for the players' phones."), h("div.panel", f));
  const show = () => fill(details, ...form(games.find((x) => x.id === pick.value)));
  pick.addEventListener("change", show);
  show();
}

async function create(e) {
  e.preventDefault();
  const body = { game: $("#game").value, options: {} };
  if ($("#players")) body.players = +$("#players").value;
  if ($("#variant")) body.variant = $("#variant").value;
  document.querySelectorAll("[data-option]").forEach((el) => {
    if (!el.disabled && !el.closest("[hidden]")) body.options[el.dataset.option] = el.value;
  });
  const r = await api("POST", "/api/rooms", body);
  if (r.status !== 201) { toast(r.data.error || "could not create the room"); return; }
  localStorage.setItem("tableref.host." + r.data.room, r.data.host_token);
  location.href = "/t/" + r.data.room;
}
boot();
