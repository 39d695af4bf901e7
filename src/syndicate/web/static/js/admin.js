// Admin (and pit bosses): the roster, accounts, buy-ins and cash-outs, a player's ledger line
// by line, hand history search with a step-by-step replay and the fairness check, and the
// house's figures per table; the tables' cash for walk-ins' chips (expected, counted by someone
// other than the dealer, the difference), the chip sales waiting for approval and linking a
// walk-in to a player's account (docs/walk-ins.md).
import { api, eventId, h, headerBar, inWords, money, parseDollars, redraw, refused, signInForm, toast, whoAmI } from "./common.js";
import { evening } from "./evening.js";
import { replayViewer } from "./replay.js";

let me = null;
let accounts = [];
const GAMES = { blackjack: "Blackjack", poker: "Five-card draw" };

const sec = (id, title, ...body) => h("section", { class: "card-box scroll", "aria-labelledby": `${id}-h` }, h("h2", { id: `${id}-h` }, title), ...body);
/** A panel the width of the page: the house's figures are the host's first number, never scrolled out of view. */
const wide = (el) => { el.classList.add("wide"); return el; };

async function main() {
  me = await whoAmI();
  document.getElementById("header").replaceWith(Object.assign(headerBar("Admin", me), { id: "header" }));
  const main = document.getElementById("main");
  if (!me) { main.replaceChildren(h("h2", {}, "Sign in"), signInForm(() => location.reload())); return; }
  if (!["admin", "pit_boss"].includes(me.account.role)) { main.replaceChildren(h("p", {}, "The admin pages are for the admin and pit bosses.")); return; }
  main.replaceChildren(h("div", { class: "grid panels" },
    sec("roster", "Roster of authorized dealers", h("div", { id: "roster" })),
    sec("accounts", "Accounts", h("div", { id: "accounts" })),
    sec("cashier", "Cashier: buy-ins and cash-outs", h("div", { id: "cashier" })),
    wide(sec("figures", "The house's figures per table", h("div", { id: "figures" })))),
    sec("ledger", "A player's ledger", h("div", { id: "ledger" })),
    sec("hands", "Hand histories", h("div", { id: "hands" })),
    sec("walk-ins", "Walk-ins and the tables' cash", h("div", { id: "walk-ins" })),
    sec("evening", "The evening: charts and the end-of-night report", h("div", { id: "evening" })));
  const night = evening(document.getElementById("evening"));
  await Promise.all([roster(), loadAccounts(), figures(), night.refresh()]);
  handSearch();
  walkIns();
  chipSales();
  if (me.account.role === "admin") { houseFloat(); turnClock(); endOfNight(); }
  // The page keeps itself current, as the lobby does: the house's figures, the totals and the
  // charts while hands are played, and the accounts another host creates. Only what changed is
  // redrawn, so nothing moves under a click or loses what is typed.
  setInterval(() => {
    if (document.hidden) return;
    Promise.all([loadAccounts(), figures(), night.refresh()]).catch(() => { /* shown at the next try */ });
  }, LIVE_MS);
}

/** How often the page asks again for its figures (the lobby: 3 s). */
const LIVE_MS = 4000;


/** Walk-ins' chip sales above the event's limit, waiting for a pit boss's or the admin's
 * approval (no chip has moved): each with Approve and Refuse. The list looks again every few
 * seconds, so a dealer's request shows up by itself. The admin sets the limit here too. */
function chipSales() {
  const box = h("div", { id: "chip-sales" });
  const list = h("div", { "aria-live": "polite" });
  document.getElementById("walk-ins").closest("section").after(sec("sales", "Walk-ins' chip sales waiting for approval", box));
  const decide = (sale, how) => async () => {
    const what = `${money(sale.amount)} for ${sale.walk_in_name} at ${sale.table_name}`;
    if (how === "refuse" && !confirm(`Refuse the sale of ${what}? No chip moves.`)) return;
    try {
      await api("POST", `/api/chip-sales/${sale.id}/${how}`);
      toast(how === "approve" ? `Approved: ${what}` : `Refused: ${what}`);
      await show();
      walkIns();
    } catch (err) { refused(err); }
  };
  const show = async () => {
    const sales = await api("GET", "/api/chip-sales");
    const shown = JSON.stringify(sales.map((x) => x.id));
    if (list.dataset.shown === shown) return; // nothing new: leave the buttons under the finger
    list.dataset.shown = shown;
    // A list, not a table: on a pit boss's phone each sale and its two buttons fit the width.
    list.replaceChildren(sales.length ? h("ul", { class: "plain sales", "aria-label": "Chip sales waiting for approval" },
      sales.map((x) => h("li", { class: "sale" },
        h("p", {}, h("strong", {}, money(x.amount)), ` for ${x.walk_in_name}, seat ${x.seat} at ${x.table_name} (dealer ${x.dealer}), asked at ${new Date(x.requested_at).toLocaleTimeString()}`),
        me.account.name === x.dealer ? h("p", { class: "muted" }, "Your table: another pit boss or the admin approves it.")
          : h("div", { class: "inline" },
            h("button", { type: "button", class: "primary", "aria-label": `Approve ${money(x.amount)} for ${x.walk_in_name}`, onclick: decide(x, "approve") }, "Approve"),
            h("button", { type: "button", class: "danger", "aria-label": `Refuse ${money(x.amount)} for ${x.walk_in_name}`, onclick: decide(x, "refuse") }, "Refuse")))))
      : h("p", { class: "muted" }, "No sale is waiting."));
  };
  const parts = [list];
  if (me.account.role === "admin") parts.unshift(saleLimit());
  box.replaceChildren(...parts);
  show().catch((err) => { list.textContent = err.message; });
  setInterval(() => show().catch(() => {}), 4000);
}

/** The admin's limit on one chip sale to a walk-in: above it, the sale waits for approval. */
function saleLimit() {
  const status = h("p", { "data-testid": "sale-limit" });
  const amount = h("input", { inputmode: "decimal", placeholder: "100.00" });
  const set = async (value) => {
    try {
      const ev = await api("PATCH", `/api/events/${await eventId()}`, { sale_limit: value });
      say(ev.sale_limit);
      amount.value = "";
      toast(value === null ? "No limit on chip sales" : `Chip sales above ${money(value)} wait for approval`);
    } catch (err) { refused(err); }
  };
  const say = (limit) => {
    status.textContent = limit === null || limit === undefined ? "No limit: every chip sale at a table is made at once."
      : `A chip sale above ${money(limit)} waits for a pit boss's or the admin's approval.`;
  };
  const form = h("form", { class: "inline", "aria-label": "Set the chip sale limit" },
    h("label", { class: "field" }, "Sales above ($) wait for approval", amount), h("button", { type: "submit", class: "primary" }, "Set limit"),
    h("button", { type: "button", onclick: () => set(null) }, "No limit"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const c = parseDollars(amount.value);
    if (!c) { toast("The limit in dollars, like 100 or 250.00", true); return; }
    set(c);
  });
  api("GET", "/api/events").then((evs) => say((evs.find((x) => x.current) || {}).sale_limit)).catch(() => {});
  return h("div", {}, status, form);
}

async function roster() {
  const ev = await eventId();
  const r = await api("GET", `/api/events/${ev}/roster`);
  const dealer = h("input", { name: "dealer", required: true });
  const bossNames = r.pit_bosses.map((g) => g.pit_boss);
  const boss = h("select", { name: "pit_boss" }, bossNames.map((b) => h("option", { value: b }, b)));
  const form = h("form", { class: "inline", "aria-label": "Authorize a dealer" },
    h("label", {}, "Dealer", dealer), me.account.role === "admin" ? h("label", {}, "Pit boss", boss) : null,
    h("button", { type: "submit", class: "primary" }, "Authorize"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api("POST", "/api/roster/authorize", { dealer: dealer.value, pit_boss: me.account.role === "admin" ? boss.value : null });
      toast(`${dealer.value} is authorized`);
      roster();
    } catch (err) { refused(err); }
  });
  const groups = r.pit_bosses.map((g) => h("div", {}, h("h3", {}, `Pit boss: ${g.pit_boss}`),
    h("ul", { "aria-label": `Dealers under ${g.pit_boss}` }, g.dealers.map((d) => h("li", {}, d === g.pit_boss ? `${d} (pit boss) ` : `${d} `,
      h("button", { type: "button", class: "danger", "aria-label": `Revoke ${d}`, onclick: async () => {
        // Revoking closes or hands over the dealer's open tables: never on one click. A pit boss
        // who deals stops dealing and stays the pit boss of the group.
        const stays = d === g.pit_boss ? ` ${d} stays the pit boss of this group.` : "";
        if (!confirm(`Revoke ${d}? Their open tables are closed or handed over to another dealer.${stays}`)) return;
        try { await api("POST", "/api/roster/revoke", { dealer: d }); toast(`${d} is revoked`); roster(); } catch (err) { refused(err); }
      } }, "Revoke")))),
    g.revoked.length ? h("p", { class: "muted" }, `Revoked: ${g.revoked.join(", ")}`) : null));
  document.getElementById("roster").replaceChildren(form, ...groups);
}

/** The accounts (a form to create one, the list with each player's bankroll), and every list of
 * players on the page, at once: a player just created can be bought in straight away. */
async function loadAccounts() {
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
  if (!document.querySelector("#cashier select")) { cashier(); ledgerPicker(); }
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

function playerSelect(label, keep = () => true, first = null) {
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

/** Each table's cash for walk-ins' chips against its last count, a count to record, and the
 * walk-ins with a form linking one to a player's account. */
async function walkIns() {
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
        walkIns();
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
      try { await api("POST", `/api/walk-ins/${walkIn.value}/link`, { player: Number(player.value) }); toast(`${name} is linked`); walkIns(); }
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

function cashier() {
  const who = playerSelect("Player", (a) => !a.walk_in);
  const amount = h("input", { inputmode: "decimal", required: true, placeholder: "100.00" });
  const go = (kind) => async () => {
    const cents = parseDollars(amount.value);
    if (!cents) { toast("An amount in dollars, like 100 or 25.50", true); return; }
    try {
      const out = await api("POST", `/api/cashier/${kind}`, { player: Number(who.value), amount: cents });
      const name = who.selectedOptions[0].textContent;
      toast(`${kind === "buy-in" ? "Bought in" : "Cashed out"} ${money(cents)} for ${name}: bankroll ${money(out.balance)}`);
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
  document.getElementById("cashier").replaceChildren(h("div", { class: "inline", style: "display:flex;gap:.5rem;flex-wrap:wrap;align-items:end" },
    h("label", { class: "field" }, "Player", who), h("label", { class: "field" }, "Amount ($)", amount),
    h("button", { type: "button", class: "primary", onclick: go("buy-in") }, "Buy in"),
    h("button", { type: "button", onclick: go("cash-out") }, "Cash out"),
    h("button", { type: "button", onclick: everything }, "Cash out everything")));
}

/** A ledger line's kind in words (the kind itself stays in the data). */
const KINDS = { buy_in: "Buy-in", cash_out: "Cash-out", sit_down: "Sat down", stand_up: "Stood up",
  walk_in_buy_in: "Walk-in's chips", walk_in_cash_out: "Walk-in cashed out", house_float: "Bots' float",
  bot_buy_in: "Bot sat down", void: "Hand voided", blackjack: "Blackjack", poker: "Five-card draw" };
function kindInWords(kind) {
  if (KINDS[kind]) return KINDS[kind];
  const words = String(kind || "").replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function ledgerPicker() {
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

async function figures() {
  try {
    const rows = await api("GET", "/api/figures");
    redraw(document.getElementById("figures"), h("table", { class: "data", "aria-label": "House figures" },
      h("thead", {}, h("tr", {}, h("th", {}, "Table"), h("th", {}, "Game"), h("th", {}, "Status"), h("th", { class: "num" }, "Hands"),
        h("th", { class: "num" }, "In play"), h("th", { class: "num" }, "House result"))),
      h("tbody", {}, rows.map((r) => h("tr", {}, h("td", {}, r.name), h("td", {}, GAMES[r.game] || r.game), h("td", {}, r.status),
        h("td", { class: "num" }, r.hands), h("td", { class: "num" }, r.in_play ? money(r.in_play) : ""), h("td", { class: "num" }, money(r.house_result))))),
      h("caption", { class: "muted" }, "House result: what the table's settled hands won for the house (at a draw table, the odd chips "
        + "carried to the next pot). In play: the bets of the hand being played, the players' until it is settled.")));
  } catch (err) { document.getElementById("figures").textContent = err.message; }
}

function handSearch() {
  const table = h("input", { type: "number", min: "1", placeholder: "any", "aria-label": "Table number" });
  const player = playerSelect("Player", () => true, "anyone");
  const commitment = h("input", { placeholder: "64 hex digits", "aria-label": "Shoe commitment", size: "24" });
  const list = h("div");
  const viewer = h("div", { "aria-live": "polite" });
  const search = async (e) => {
    e && e.preventDefault();
    const q = new URLSearchParams();
    if (table.value) q.set("table", table.value);
    if (player.value) q.set("player", player.value);
    if (commitment.value.trim()) q.set("commitment", commitment.value.trim());
    try {
      const hands = await api("GET", `/api/hands?${q}`);
      // one hand number everywhere: the evening-wide id (the replay's title and the download say it too)
      list.replaceChildren(hands.length ? h("div", { class: "hands-found" }, h("table", { class: "data", "aria-label": "Hands found" },
        h("thead", {}, h("tr", {}, ["Hand", "Table", "Game", "Status", "Started", "Players", ""].map((x) => h("th", {}, x)))),
        h("tbody", {}, hands.map((x) => h("tr", {}, h("td", {}, `Hand ${x.id}`), h("td", {}, `table ${x.table}`), h("td", {}, GAMES[x.game] || x.game),
          h("td", {}, x.status), h("td", {}, x.started_at.replace("T", " ").slice(0, 19)),
          h("td", { class: "players" }, h("ul", { class: "plain", "aria-label": `Players of hand ${x.id}` }, (x.players || []).map((p) =>
            h("li", {}, `${p.name}: `, h("span", { class: p.net > 0 ? "up" : p.net < 0 ? "down" : "" }, p.net === null || p.net === undefined ? (x.status === "voided" ? "voided" : "—") : money(p.net)))))),
          h("td", {}, h("button", { type: "button", "aria-label": `Replay hand ${x.id}`, onclick: () => replay(x, viewer) }, "Replay"),
            " ", h("a", { href: `/api/hands/${x.id}/history`, download: `hand-${x.id}.json` }, "Download"))))))) : h("p", { class: "muted" }, "No hand found."));
    } catch (err) { refused(err); }
  };
  const form = h("form", { class: "inline", "aria-label": "Search hands" },
    h("label", {}, "Table", table), h("label", {}, "Player", player), h("label", {}, "Commitment", commitment),
    h("button", { type: "submit", class: "primary" }, "Search"));
  form.addEventListener("submit", search);
  document.getElementById("hands").replaceChildren(form, list, viewer);
}

async function replay(hand, viewer) {
  try {
    const [doc, c] = await Promise.all([api("GET", `/api/hands/${hand.id}/history`), api("GET", `/api/hands/${hand.id}/check`)]);
    viewer.replaceChildren(replayViewer(doc, hand, [
      h("p", { "data-testid": "replay-match" }, c.replay.matches ? "The engine reproduces this hand exactly." : `The replay differs: ${c.replay.problems.join("; ")}`),
      h("p", { "data-testid": "fairness" }, "Fairness check: ",
        h("strong", {}, !c.verify.ok ? "FAILED"
          // Real cards entered by the dealer: no shuffle was committed, so no claim either way (docs/dealer.md).
          : c.verify.entered ? "nothing to verify: real cards, entered by the dealer as they were dealt"
          // No openings (a stacked shoe, or one dealt before per-position commitments): no claim until the reveal.
          : c.verify.pending ? "not yet verifiable (no openings: it checks once its seed or order is revealed)"
            : "verified: every card shown opens its committed position"),
        ` — ${c.verify.messages.join(" ")}`),
      h("p", { class: "muted" }, c.commitment ? `Commitment ${c.commitment} (${c.hands_in_shoe} hand(s) of this shoe so far)`
        : `No commitment: real cards (${c.hands_in_shoe} hand(s) of this shoe so far)`)]));
  } catch (err) { refused(err); }
}

// The bots' float (admin only): bots sit down only with these chips (docs/server.md).
async function houseFloat() {
  const box = h("div", { id: "house-float" });
  document.getElementById("main").append(sec("float", "The bots' float", box));
  const show = async () => {
    const f = await api("GET", "/api/float");
    const amount = h("input", { name: "amount", inputmode: "decimal", required: true, "aria-label": "Float in dollars" });
    const form = h("form", { class: "inline", "aria-label": "Set the bots' float" },
      h("label", {}, "Float", amount), h("button", { type: "submit", class: "primary" }, "Set"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await api("PUT", "/api/float", { amount: parseDollars(amount.value) });
        toast("Float set");
        await show();
      } catch (err) { refused(err); }
    });
    box.replaceChildren(
      h("p", { id: "float-figures" }, `Float ${money(f.float)}: used ${money(f.used)}, remaining ${money(f.remaining)} (at most ${money(f.max)})`),
      form);
  };
  await show();
}

// The turn clock of the tables opened from now on, by their cards (admin only): a dealer may set
// another when opening one. Until set: none at real cards, the server's at shuffled tables.
const CLOCKS = [15, 20, 30, 45, 60, 90, 120];
const clockWords = (s) => (s === null ? "off" : s >= 120 && s % 60 === 0 ? `${s / 60} min` : `${s} s`);

async function turnClock() {
  const box = h("div", { id: "turn-clock" });
  document.getElementById("main").append(sec("clock", "Turn clock at new tables", box));
  const show = async () => {
    const ev = (await api("GET", "/api/events")).find((e) => e.current);
    if (!ev) { box.replaceChildren(h("p", {}, "No current event.")); return; }
    const set = ev.turn_clock || {};
    const pick = (cards, label, unset) => {
      const sel = h("select", { name: cards, "aria-label": `Turn clock at new ${label} tables` },
        h("option", { value: "" }, unset), h("option", { value: "off" }, "Off"), CLOCKS.map((c) => h("option", { value: String(c) }, clockWords(c))));
      if (cards in set) {
        const v = set[cards] === null ? "off" : String(set[cards]);
        if (![...sel.options].some((o) => o.value === v)) sel.append(h("option", { value: v }, clockWords(set[cards])));
        sel.value = v;
      }
      return sel;
    };
    const real = pick("real", "real-cards", "Not set: off");
    const shuffled = pick("shuffled", "shuffled", "Not set: the server's (30 s)");
    const said = (cards, unset) => (cards in set ? clockWords(set[cards]) : unset);
    const form = h("form", { class: "inline", "aria-label": "Set the turn clock at new tables" },
      h("label", { class: "field" }, "Real cards", real), h("label", { class: "field" }, "Shuffled", shuffled),
      h("button", { type: "submit", class: "primary" }, "Save"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = {};
      for (const [cards, sel] of [["real", real], ["shuffled", shuffled]]) {
        if (sel.value) body[cards] = sel.value === "off" ? null : Number(sel.value);
      }
      if (!Object.keys(body).length) { toast("Pick a clock for real-cards or shuffled tables", true); return; }
      try {
        await api("PATCH", `/api/events/${ev.id}`, { turn_clock: body });
        toast("Turn clock saved: tables opened from now on take it");
        await show();
      } catch (err) { refused(err); }
    });
    box.replaceChildren(h("p", { id: "clock-defaults" },
      `Real-cards tables: ${said("real", "off (not set)")}; shuffled tables: ${said("shuffled", "the server's (not set)")}. ` +
      "A dealer may set another when opening a table; open tables keep theirs."), form);
  };
  await show();
}

async function endOfNight() {
  const box = h("div", { id: "end-of-night" });
  document.getElementById("main").append(sec("end", "The end of the night", box));
  const show = async () => {
    const ev = (await api("GET", "/api/events")).find((e) => e.current);
    if (!ev) { box.replaceChildren(h("p", {}, "No current event.")); return; }
    const when = ev.seed_reveal === "event_end" ? "when the event ends" : "when each table closes";
    if (ev.ended_at) {
      box.replaceChildren(h("p", { "data-testid": "event-status" },
        `${ev.name} ended at ${new Date(ev.ended_at).toLocaleString()}. Every table is closed and every shoe's seed is published: each hand verifies in full.`));
      return;
    }
    const end = h("button", { type: "button", class: "danger" }, "End the event");
    end.addEventListener("click", async () => {
      if (!confirm(`End ${ev.name}? Every table closes after its hand in play, no table opens and no hand starts again. Players can still cash out.`)) return;
      try { await api("POST", `/api/events/${ev.id}/end`); toast(`${ev.name} has ended`); await show(); figures(); } catch (err) { refused(err); }
    });
    box.replaceChildren(h("p", { "data-testid": "event-status" },
      `${ev.name} is on. Shoes' seeds are published ${when}; every card shown checks at the end of its hand.`), end);
  };
  await show();
}

main().catch((e) => toast(e.message, true));
