// The admin page's figures of the house per table: each table's result, its hands and the chips
// of the hand in play there.
import { api, h, money, redraw } from "../common.js";
import { titleOf } from "../games/index.js";

export async function figures() {
  try {
    const rows = await api("GET", "/api/figures");
    redraw(document.getElementById("figures"), h("table", { class: "data", "aria-label": "House figures" },
      h("thead", {}, h("tr", {}, h("th", {}, "Table"), h("th", {}, "Game"), h("th", {}, "Status"), h("th", { class: "num" }, "Hands"),
        h("th", { class: "num" }, "In play"), h("th", { class: "num" }, "House result"))),
      h("tbody", {}, rows.map((r) => h("tr", {}, h("td", {}, r.name), h("td", {}, titleOf(r.game)), h("td", {}, r.status),
        h("td", { class: "num" }, r.hands), h("td", { class: "num" }, r.in_play ? money(r.in_play) : ""), h("td", { class: "num" }, money(r.house_result))))),
      h("caption", { class: "muted" }, "House result: what the table's settled hands won for the house (at a draw table, the odd chips "
        + "carried to the next pot). In play: the bets of the hand being played, the players' until it is settled.")));
  } catch (err) { document.getElementById("figures").textContent = err.message; }
}
