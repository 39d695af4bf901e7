// The admin page's accounts (a form to create one, the list with each player's bankroll), and
// every list of players on the page, filled again when the accounts change.
import { api, h, inWords, money, redraw, toast } from "../common.js";

/** The event's accounts as last read. */
export let accounts = [];

/** The accounts (a form to create one, the list with each player's bankroll), and every list of
 * players on the page, at once: a player just created can be bought in straight away. */
export async function loadAccounts() {
  accounts = await api("GET", "/api/accounts");
  let balances = {};
  try { balances = Object.fromEntries((await api("GET", "/api/balances")).accounts.map((a) => [a.key, a.balance])); } catch { /* pit boss may */ }
  const box = document.getElementById("accounts");
  if (!box.querySelector("form")) box.replaceChildren(accountForm(), h("div", { id: "account-list" }));
  redraw(document.getElementById("account-list"), h("table", { class: "data", "aria-label": "Accounts" },
    h("thead", {}, h("tr", {}, h("th", {}, "Id"), h("th", {}, "Name"), h("th", {}, "Role"), h("th", { class: "num" }, "Bankroll"))),
    h("tbody", {}, accounts.map((a) => h("tr", {}, h("td", {}, a.id), h("td", {}, a.name), h("td", {}, a.role.replace("_", " ")),
      h("td", { class: "num" }, a.role === "player" ? money(balances[`player:${a.id}`] || 0) : ""))))));
  for (const list of playerLists.filter((x) => x.el.isConnected)) fillPlayers(list);
}

function accountForm() {
  const name = h("input", { name: "name", required: true });
  const role = h("select", { name: "role" }, ["player", "dealer", "pit_boss", "spectator", "admin"].map((r) => h("option", { value: r }, r.replace("_", " "))));
  const pw = h("input", { name: "password", type: "password", minlength: "8", required: true, autocomplete: "new-password" });
  // a refusal stays under the form until the next try: it may say what to do (a walk-in's name: link them)
  const why = h("p", { class: "error", role: "alert", id: "account-refused" });
  const form = h("form", { class: "inline", "aria-label": "Create an account" },
    h("label", {}, "Name", name), h("label", {}, "Role", role), h("label", {}, "Password", pw),
    h("button", { type: "submit", class: "primary" }, "Create account"), why);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    why.textContent = "";
    try {
      await api("POST", "/api/accounts", { name: name.value, role: role.value, password: pw.value });
      toast(`${name.value} created`);
      form.reset();
      await loadAccounts();
    } catch (err) { why.textContent = inWords(err); why.dataset.rule = err.rule; }
  });
  return form;
}

/** Every list of players on the page (cashier, ledger, hand search, linking a walk-in), to fill
 * again when the accounts change; each keeps the player chosen in it. */
const playerLists = [];

export function playerSelect(label, keep = () => true, first = null) {
  const list = { el: h("select", { "aria-label": label }), keep, first };
  playerLists.push(list);
  fillPlayers(list);
  return list.el;
}

function fillPlayers({ el, keep, first }) {
  const chosen = el.value;
  const options = accounts.filter((a) => a.role === "player" && keep(a)).map((a) => h("option", { value: a.id }, a.name));
  if (first !== null) options.unshift(h("option", { value: "" }, first));
  redraw(el, ...options);
  if ([...el.options].some((o) => o.value === chosen)) el.value = chosen;
}
