// The dealer console's form to open a table: its name (suggested from the game until the dealer
// types one: "Miles's 21", "Miles's draw"), the game and its own fields (a Blackjack preset and
// decks, a draw table's ante), real or shuffled cards, the turn clock, the limits and any other
// rule as key=value.
import { api, h, inWords, parseDollars, toast } from "../common.js";
import { CLOCKS, clockWords } from "../clock.js";
import { GAMES, gameOf } from "../games/index.js";

export function openForm(presets, me, refresh) {
  const suggested = (g) => gameOf(g).tableName(me.account.name);
  const name = h("input", { name: "name", required: true, value: suggested(GAMES[0].id) });
  let named = false;
  name.addEventListener("input", () => { named = name.value.trim() !== ""; });
  const game = h("select", { name: "game" }, GAMES.map((g) => h("option", { value: g.id }, g.title)));
  const own = new Map(GAMES.map((g) => [g.id, g.openFields(presets)]));
  const minBet = h("input", { name: "min_bet", inputmode: "decimal" });
  const maxBet = h("input", { name: "max_bet", inputmode: "decimal" });
  const extra = h("input", { name: "overrides", placeholder: "key=value, key=value" });
  const cards = h("select", { name: "cards" }, h("option", { value: "shuffled" }, "Shuffled by the server"),
    h("option", { value: "real" }, "Real cards (I deal and enter them)"));
  // The turn clock decides for a player who takes too long: none at a real-cards table unless the
  // event's admin or the dealer sets one (docs/dealer.md, "The turn clock").
  const clock = h("select", { name: "turn_clock" }, h("option", { value: "default" }, "The event's default"),
    h("option", { value: "off" }, "Off"), CLOCKS.map((c) => h("option", { value: String(c) }, clockWords(c))));
  const msg = h("p", { role: "alert", class: "error" });
  const dollars = (c) => (c / 100).toFixed(2);
  // The form always shows the limits the table would open with: a game or preset switch puts
  // that preset's own values back, so a Blackjack limit never rides along onto a draw table.
  const applyPreset = () => {
    const chosen = own.get(game.value);
    const rules = chosen.rules();
    minBet.value = dollars(rules.min_bet);
    maxBet.value = dollars(rules.max_bet);
    for (const [id, fields] of own) {
      fields.fill(id === game.value ? rules : null);
      fields.el.hidden = id !== game.value;
    }
  };
  game.addEventListener("change", () => { if (!named) name.value = suggested(game.value); });
  game.addEventListener("change", applyPreset);
  for (const fields of own.values()) fields.onChange(applyPreset);
  applyPreset();
  const form = h("form", { class: "inline card-box", "aria-label": "Open a table" },
    h("label", { class: "field" }, "Table name", name), h("label", { class: "field" }, "Game", game),
    h("label", { class: "field" }, "Cards", cards), h("label", { class: "field" }, "Turn clock", clock), [...own.values()].map((f) => f.el),
    h("label", { class: "field" }, "Minimum bet ($)", minBet), h("label", { class: "field" }, "Maximum bet ($)", maxBet),
    h("label", { class: "field" }, "Other rules (key=value)", extra),
    h("button", { type: "submit", class: "primary" }, "Open table"), msg);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    msg.textContent = "";
    const overrides = {};
    for (const [k, el] of [["min_bet", minBet], ["max_bet", maxBet]]) {
      if (el.value.trim()) {
        const c = parseDollars(el.value);
        if (c === null) { msg.textContent = `${k}: an amount in dollars, like 5 or 0.50`; return; }
        overrides[k] = c;
      }
    }
    const chosen = own.get(game.value);
    const wrong = chosen.overrides(overrides);
    if (wrong) { msg.textContent = wrong; return; }
    for (const part of extra.value.split(",").map((x) => x.trim()).filter(Boolean)) {
      const [k, v] = part.split("=").map((x) => x.trim());
      if (!k || v === undefined) { msg.textContent = `"${part}" is not key=value`; return; }
      overrides[k] = /^-?\d+$/.test(v) ? Number(v) : v === "true" ? true : v === "false" ? false : v;
    }
    const body = { name: name.value, game: game.value, preset: chosen.preset(), overrides, cards: cards.value };
    if (clock.value !== "default") body.turn_clock = clock.value === "off" ? null : Number(clock.value);
    try {
      const t = await api("POST", "/api/tables", body);
      toast(`Table ${t.name} is open`);
      named = false;
      name.value = suggested(game.value);
      await refresh();
    } catch (e) { msg.textContent = inWords(e); msg.dataset.rule = e.rule; }
  });
  return form;
}
