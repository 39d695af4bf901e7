// The admin page's cashier: buy-ins and cash-outs of a player's bankroll.
import { api, h, money, parseDollars, playMoney, refused, toast } from "../common.js";
import { loadAccounts, playerSelect } from "./accounts.js";

export async function cashier() {
  const chipsOnly = await playMoney();
  const heading = document.querySelector("#cashier")?.closest("section")?.querySelector("h2");
  if (heading) heading.textContent = chipsOnly ? "Cashier: chips issued (no cash value)" : "Cashier: buy-ins and cash-outs";
  const who = playerSelect("Player", (a) => !a.walk_in);
  const amount = h("input", { inputmode: "decimal", required: true, placeholder: "100.00" });
  const go = (kind) => async () => {
    const cents = parseDollars(amount.value);
    if (!cents) { toast("An amount in dollars, like 100 or 25.50", true); return; }
    try {
      const out = await api("POST", `/api/cashier/${kind}`, { player: Number(who.value), amount: cents });
      const name = who.selectedOptions[0].textContent;
      toast(`${kind === "buy-in" ? (chipsOnly ? "Issued" : "Bought in") : "Cashed out"} ${money(cents)} for ${name}: bankroll ${money(out.balance)}`);
      loadAccounts();
    } catch (err) { refused(err); }
  };
  // The whole bankroll in one move, whatever it holds: refused while their chips are at a table.
  const everything = async () => {
    const name = who.selectedOptions[0] ? who.selectedOptions[0].textContent : "";
    if (!name || !confirm(`Cash out all of ${name}'s bankroll? Pay them every chip it holds.`)) return;
    try {
      const out = await api("POST", "/api/cashier/cash-out-all", { player: Number(who.value) });
      toast(`Cashed out everything for ${name}: ${money(out.amount)}`);
      loadAccounts();
    } catch (err) { refused(err); }
  };
  // A night whose chips have no cash value pays nothing out: chips count for the prize draws.
  const out = chipsOnly
    ? [h("p", { class: "muted" }, "Chips have no cash value tonight: nothing is cashed out. A player's chips stay in their bankroll and count for the prize draws.")]
    : [h("button", { type: "button", onclick: go("cash-out") }, "Cash out"),
      h("button", { type: "button", onclick: everything }, "Cash out everything")];
  document.getElementById("cashier").replaceChildren(h("div", { class: "inline", style: "display:flex;gap:.5rem;flex-wrap:wrap;align-items:end" },
    h("label", { class: "field" }, "Player", who), h("label", { class: "field" }, chipsOnly ? "Chips ($)" : "Amount ($)", amount),
    h("button", { type: "button", class: "primary", onclick: go("buy-in") }, chipsOnly ? "Issue chips" : "Buy in"), ...out));
}
