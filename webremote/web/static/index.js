// The host's start page: pick a game (or the dealer) and its options,
// create the room.
import { $, h, fill, toast } from "/static/ui.js";
import { api } from "/static/client.js";

const app = $("#app");

const players = (g) => (g.min_players === g.max_players ? `${g.min_players}` : `${g.min_players}–${g.max_players}`);
// The dealer is not a game but serves any card game: say so.
const label = (g) => (g.tool ? `Dealer: any card game — deal, draw, pass, dice (${players(g)} players)` : `${g.name} (${players(g)} players)`);

async function boot() {
  const r = await api("GET", "/api/games");
  if (r.status !== 200) { fill(app, h("p", r.data.error || "cannot load the games")); return; }
  const games = r.data;
  const pick = h("select", { id: "game" },
    h("optgroup", { label: "Games" }, games.filter((g) => !g.tool).map((g) => h("option", { value: g.id }, label(g)))),
    h("optgroup", { label: "For any other game" }, games.filter((g) => g.tool).map((g) => h("option", { value: g.id }, label(g)))));
  const details = h("div");
  const form = h("form", { onsubmit: create }, h("label", { for: "game" }, "Game"), pick, details,
    h("button.primary", { type: "submit", id: "create" }, "Create the room"));
  fill(app, h("h1", "tableref"), h("p.muted", "Pick a game; the table screen then shows a code for the players' phones."), h("div.panel", form));
  const show = () => {
    const g = games.find((x) => x.id === pick.value);
    const kids = [h("p.muted", g.summary)];
    if (g.min_players !== g.max_players) kids.push(h("label", { for: "players" }, `Seats: at most this many may join (you can start once ${g.min_players} have)`),
      h("input", { id: "players", type: "number", min: g.min_players, max: g.max_players, value: g.max_players }));
    else kids.push(h("p", `For exactly ${g.min_players} players.`));
    if ((g.variants || []).length) kids.push(h("label", { for: "variant" }, "Variant"),
      h("select", { id: "variant" }, g.variants.map((v) => h("option", { value: v.id, title: v.text }, `${v.id}: ${v.text}`))));
    for (const o of g.options || []) {
      kids.push(h("label", { for: "opt-" + o.name }, `${o.name}: ${o.text}`));
      kids.push(o.values ? h("select", { id: "opt-" + o.name, "data-option": o.name }, o.values.map((v) => h("option", { value: v, selected: v === o.default }, v)))
        : h("input", { id: "opt-" + o.name, "data-option": o.name, type: "number", min: o.min, max: o.max, value: o.default }));
    }
    fill(details, ...kids);
  };
  pick.addEventListener("change", show);
  show();
}

async function create(e) {
  e.preventDefault();
  const body = { game: $("#game").value, options: {} };
  if ($("#players")) body.players = +$("#players").value;
  if ($("#variant")) body.variant = $("#variant").value;
  document.querySelectorAll("[data-option]").forEach((el) => { body.options[el.dataset.option] = el.value; });
  const r = await api("POST", "/api/rooms", body);
  if (r.status !== 201) { toast(r.data.error || "could not create the room"); return; }
  localStorage.setItem("tableref.host." + r.data.room, r.data.host_token);
  location.href = "/t/" + r.data.room;
}
boot();
