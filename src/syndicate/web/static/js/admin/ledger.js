// The admin page's ledger of one player, line by line with the balance after each line, and
// their chips at the tables.
import { api, h, money, refused } from "../common.js";
import { titleOf } from "../games/index.js";
import { playerSelect } from "./accounts.js";

/** A ledger line's kind in words (the kind itself stays in the data); a hand's, its game. */
const KINDS = { buy_in: "Buy-in", cash_out: "Cash-out", sit_down: "Sat down", stand_up: "Stood up",
  walk_in_buy_in: "Walk-in's chips", walk_in_cash_out: "Walk-in cashed out", house_float: "Bots' float",
  bot_buy_in: "Bot sat down", void: "Hand voided" };
function kindInWords(kind) {
  if (KINDS[kind]) return KINDS[kind];
  const game = titleOf(kind, null); // a hand's chips: the game's name
  if (game) return game;
  const words = String(kind || "").replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function ledgerPicker() {
  const who = playerSelect("Player whose ledger to show");
  const out = h("div");
  const show = async () => {
    try {
      const l = await api("GET", `/api/accounts/${who.value}/ledger`);
      const seated = l.at_tables || [];
      out.replaceChildren(h("p", {}, `${l.account.name}: bankroll ${money(l.balance)}`),
        h("table", { class: "data", "aria-label": `Chips of ${l.account.name}` },
          h("tbody", {},
            h("tr", {}, h("th", { scope: "row" }, "Bankroll"), h("td", { class: "num" }, money(l.balance))),
            seated.map((x) => h("tr", {}, h("th", { scope: "row" }, `Chips at table ${x.table_id}`), h("td", { class: "num" }, money(x.chips)))),
            h("tr", {}, h("th", { scope: "row" }, "Total chips (as on the leaderboard)"), h("td", { class: "num", "data-testid": "ledger-total" }, money(l.chips))))),
        h("table", { class: "data", "aria-label": `Ledger of ${l.account.name}` },
          h("thead", {}, h("tr", {}, h("th", {}, "When"), h("th", {}, "What"), h("th", {}, "Memo"), h("th", { class: "num" }, "Amount"), h("th", { class: "num" }, "Balance"))),
          h("tbody", {}, l.lines.map((x) => h("tr", {}, h("td", {}, (x.at || "").replace("T", " ").slice(0, 19)), h("td", { "data-kind": x.kind }, kindInWords(x.kind)),
            h("td", {}, x.memo || ""), h("td", { class: "num" }, money(x.amount)), h("td", { class: "num" }, money(x.balance)))))));
    } catch (err) { refused(err); }
  };
  document.getElementById("ledger").replaceChildren(h("div", { style: "display:flex;gap:.5rem;align-items:end" },
    h("label", { class: "field" }, "Player", who), h("button", { type: "button", onclick: show }, "Show ledger")), out);
}
