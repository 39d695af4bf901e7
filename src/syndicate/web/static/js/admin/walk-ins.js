// The admin page's walk-ins and the tables' cash for their chips: each table's cash against its
// last count (counted by someone other than its dealer), a count to record, and linking a walk-in
// to a player's account (docs/walk-ins.md).
import { api, h, money, parseDollars, refused, toast } from "../common.js";
import { accounts, playerSelect } from "./accounts.js";

/** Each table's cash for walk-ins' chips against its last count, a count to record, and the
 * walk-ins with a form linking one to a player's account. */
export async function walkIns(me) {
  const box = document.getElementById("walk-ins");
  try {
    const [cash, walkers] = await Promise.all([api("GET", "/api/cash"), api("GET", "/api/walk-ins")]);
    const cents = (c) => (c === null || c === undefined ? "not counted" : money(c));
    // The count is someone else's than the table's dealer: the tables that took walk-ins' cash,
    // by name and dealer, but not one this account deals (a pit boss who deals).
    const countable = cash.filter((c) => c.dealer !== me.account.name);
    const table = h("select", { "aria-label": "Table whose cash was counted" }, countable.map((c) =>
      h("option", { value: c.table }, `${c.name} (dealer ${c.dealer}${c.status === "closed" ? ", closed" : ""})`)));
    const counted = h("input", { inputmode: "decimal", "aria-label": "Cash counted ($)", placeholder: "120.00" });
    const count = h("form", { class: "inline", "aria-label": "Record a cash count" },
      h("label", { class: "field" }, "Table", table), h("label", { class: "field" }, "Cash counted ($)", counted),
      h("button", { type: "submit" }, "Record count"));
    count.addEventListener("submit", async (e) => {
      e.preventDefault();
      const c = parseDollars(counted.value.replace(/^[−-]/, ""));
      if (c === null) { toast("The cash counted in dollars, like 120 or 120.50", true); return; }
      try {
        const out = await api("POST", `/api/tables/${Number(table.value)}/cash-count`, { counted: /^[−-]/.test(counted.value) ? -c : c });
        const name = table.selectedOptions[0] ? table.selectedOptions[0].textContent : `table ${out.table}`;
        toast(`${name}: counted ${money(out.counted)}, difference ${money(out.difference)}`);
        walkIns(me);
      } catch (err) { refused(err); }
    });
    const walkIn = h("select", { "aria-label": "Walk-in to link" }, walkers.filter((w) => w.linked_to === null).map((w) => h("option", { value: w.id }, w.name)));
    const player = playerSelect("Player account to link to", (a) => !a.walk_in);
    const link = h("form", { class: "inline", "aria-label": "Link a walk-in to an account" },
      h("label", { class: "field" }, "Walk-in", walkIn), h("label", { class: "field" }, "Player", player),
      h("button", { type: "submit" }, "Link"));
    link.addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = walkIn.selectedOptions[0] ? walkIn.selectedOptions[0].textContent : "";
      if (!name || !confirm(`Link ${name} to ${player.selectedOptions[0].textContent}? Their whole history becomes that player's.`)) return;
      try { await api("POST", `/api/walk-ins/${walkIn.value}/link`, { player: Number(player.value) }); toast(`${name} is linked`); walkIns(me); }
      catch (err) { refused(err); }
    });
    const names = Object.fromEntries(accounts.map((a) => [a.id, a.name]));
    box.replaceChildren(
      h("p", { class: "muted" }, "A table's cash is counted by a pit boss or the admin, never by its own dealer."),
      h("table", { class: "data", "aria-label": "Tables' cash" },
        h("thead", {}, h("tr", {}, h("th", {}, "Table"), h("th", {}, "Dealer"), h("th", { class: "num" }, "Expected"), h("th", { class: "num" }, "Counted"), h("th", { class: "num" }, "Difference"), h("th", {}, "Count again"))),
        h("tbody", {}, cash.map((c) => h("tr", {}, h("td", {}, `${c.name} (${c.table})`), h("td", {}, c.dealer), h("td", { class: "num" }, money(c.expected)),
          h("td", { class: "num" }, cents(c.counted)), h("td", { class: "num" }, c.difference === null ? "" : money(c.difference)), h("td", {}, c.count_again ? "yes" : "no"))))),
      countable.length ? count : h("p", { class: "muted" }, "No table has taken walk-ins' cash for you to count yet."),
      h("ul", { "aria-label": "Walk-ins" }, walkers.map((w) => h("li", {}, w.linked_to === null ? w.name : `${w.name}: linked to ${names[w.linked_to] || `account ${w.linked_to}`}`))),
      link);
  } catch (err) { box.textContent = err.message; }
}
