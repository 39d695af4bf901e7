// A table's rules in words, its house edge (exact, computed by the server for these rules) and
// the basic-strategy chart for them.
import { api, h, headerBar, money, whoAmI } from "./common.js";

const tableId = Number(location.pathname.split("/")[2]);

function blackjackWords(r) {
  return [
    `${r.decks} deck${r.decks > 1 ? "s" : ""}, reshuffled after ${Math.round(r.penetration * 100)}% of the shoe${r.burn_card ? "; the first card of each shoe is burned" : ""}.`,
    `Bets from ${money(r.min_bet)} to ${money(r.max_bet)}; ${r.seats} seats.`,
    `Blackjack pays ${r.blackjack_pays}.`,
    `The dealer ${r.dealer_hits_soft_17 ? "hits" : "stands on"} soft 17.`,
    { peek: "With an Ace or ten up the dealer checks the hole card; a dealer blackjack takes only the original bets.",
      no_peek_obo: r.obo_split_bust === "lost"
        ? "No hole-card check: a dealer blackjack found at the end takes only the original bet from the hands left (doubles and splits come back); a split hand that busted was already lost."
        : "No hole-card check: a dealer blackjack found at the end takes only the original bet (doubles and splits come back; a split hand that busted has paid it).",
      no_peek_all: "No hole-card check: a dealer blackjack found at the end takes every bet." }[r.hole_card],
    `Double down on ${r.double_on === "any" ? "any two cards" : `a total of ${r.double_on}`}${r.double_for_less ? ", for less if you like" : ""}${r.double_after_split ? ", after a split too" : ", not after a split"}.`,
    r.max_split_hands > 1 ? `Split ${r.split_by === "rank" ? "a true pair" : "any two cards of equal value"} up to ${r.max_split_hands} hands${r.resplit_aces ? "; aces may be resplit" : ""}; split aces ${r.hit_split_aces ? "may be hit" : "get one card each"}.` : "No splitting.",
    r.surrender === "none" ? "No surrender." : `${r.surrender === "late" ? "Late" : "Early"} surrender: give up half the bet on your first two cards.`,
    r.insurance ? `Insurance when the dealer shows an Ace: up to half the bet, pays 2:1${r.even_money ? "; even money on a blackjack" : ""}.` : "No insurance.",
    r.pay_naturals_immediately ? "Naturals are paid at once unless the dealer shows an Ace or ten." : null,
  ].filter(Boolean);
}

function pokerWords(r) {
  return [
    `Five-card draw, ${r.min_players}–${r.max_players} players; everyone antes ${money(r.ante)} (an ante change needs every player's agreement, between ${money(r.min_ante)} and ${money(r.max_ante)}).`,
    `Bets from ${money(r.min_bet)} to ${money(r.max_bet)}, raises by ${money(r.min_raise)} to ${money(r.max_raise)}, in ${money(r.chip)} chips${r.raise_cap !== null ? `; a bet and ${r.raise_cap} raises per round` : ""}.`,
    `Draw up to ${r.max_discard} cards${r.ace_discard ? ", or four when the card you keep is an Ace (which you show)" : ""}.`,
    r.odd_chip === "carry" ? "Odd chips of a split pot are carried to the next pot." : "Odd chips of a split pot go to the first winner left of the button.",
  ];
}

async function main() {
  const me = await whoAmI();
  document.getElementById("header").replaceWith(Object.assign(headerBar("Rules and odds", me), { id: "header" }));
  const o = await api("GET", `/api/tables/${tableId}/odds`);
  const t = o.table;
  const out = [h("h2", {}, `${t.name}: ${t.game === "poker" ? "five-card draw" : "Blackjack"}`), h("p", {}, h("a", { href: `/tables/${t.id}` }, "Go to the table"))];
  out.push(h("section", { "aria-labelledby": "words" }, h("h2", { id: "words" }, "The rules"),
    h("ul", {}, (t.game === "poker" ? pokerWords(t.rules) : blackjackWords(t.rules)).map((x) => h("li", {}, x)))));
  if (o.game === "blackjack") {
    out.push(h("section", { "aria-labelledby": "edge" }, h("h2", { id: "edge" }, "House edge"),
      h("p", { "data-testid": "house-edge" }, `House edge with perfect play: ${o.house_edge_pct.toFixed(3)}% of the initial bet; `,
        `playing the chart below: ${o.basic_strategy_house_edge_pct.toFixed(3)}%. Standard deviation per round: ${o.standard_deviation.toFixed(3)} bets.`),
      h("p", { class: "muted" }, `Exact (combinatorial analysis over the full shoe) for ${o.caption}.`)));
    out.push(chart(o.chart));
  }
  document.getElementById("main").replaceChildren(...out);
}

function chart(c) {
  const section = (title, rows) => [h("tr", {}, h("th", { colspan: String(c.upcards.length + 1), scope: "colgroup" }, title)),
    ...Object.entries(rows).map(([label, cells]) => h("tr", {}, h("th", { scope: "row" }, label),
      c.upcards.map((u) => h("td", { class: cells[u] }, cells[u]))))];
  return h("section", { "aria-labelledby": "chart-h" }, h("h2", { id: "chart-h" }, "Basic strategy for these rules"),
    h("table", { class: "chart", "aria-label": "Basic strategy chart" },
      h("thead", {}, h("tr", {}, h("th", {}, "You \\ dealer"), c.upcards.map((u) => h("th", { scope: "col" }, u)))),
      h("tbody", {}, section("Hard totals", c.hard), section("Soft totals", c.soft), section("Pairs", c.pairs))),
    h("p", {}, Object.entries(c.legend).map(([k, v]) => `${k}: ${v}`).join(" · ")));
}

main().catch((e) => { document.getElementById("main").textContent = `Could not load: ${e.message}`; });
