// The host's start page: pick a game and its options, create the room.
import { $, h, fill, api, toast } from "/static/common.js";

const app = $("#app");

async function boot() {
  const r = await api("GET", "/api/games");
  if (r.status !== 200) { fill(app, h("p", r.data.error || "cannot load the games")); return; }
  const games = r.data;
  const pick = h("select", { id: "game" }, games.map((g) => h("option", { value: g.id }, `${g.name} (${g.min_players === g.max_players ? g.min_players : g.min_players + "–" + g.max_players} players)`)));
  const details = h("div");
  const form = h("form", { onsubmit: create }, h("label", { for: "game" }, "Game"), pick, details,
    h("button.primary", { type: "submit", id: "create" }, "Create the room"));
  fill(app, h("h1", "tableref"), h("p.muted", "Pick a game; the table screen then shows a code for the players' phones."), h("div.panel", form));
  const show = () => {
    const g = games.find((x) => x.id === pick.value);
    const kids = [h("p.muted", g.summary)];
    if (g.min_players !== g.max_players) kids.push(h("label", { for: "players" }, "Players"),
      h("input", { id: "players", type: "number", min: g.min_players, max: g.max_players, value: Math.min(g.max_players, Math.max(g.min_players, 4)) }));
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
