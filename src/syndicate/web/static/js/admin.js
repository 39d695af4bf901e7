// Admin (and pit bosses): the roster, accounts, buy-ins and cash-outs, a player's ledger line
// by line, hand history search with a step-by-step replay and the fairness check, and the
// house's figures per table; the tables' cash for walk-ins' chips (expected, counted, the
// difference) and linking a walk-in to a player's account (docs/walk-ins.md).
import { api, eventId, h, headerBar, money, parseDollars, signInForm, toast, whoAmI } from "./common.js";
import { evening } from "./evening.js";
import { replayViewer } from "./replay.js";

let me = null;
let accounts = [];

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
  await Promise.all([roster(), loadAccounts(), figures(), evening(document.getElementById("evening"))]);
  handSearch();
  walkIns();
  if (me.account.role === "admin") { houseFloat(); endOfNight(); }
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
    } catch (err) { toast(`${err.message} (${err.rule})`, true); }
  });
  const groups = r.pit_bosses.map((g) => h("div", {}, h("h3", {}, `Pit boss: ${g.pit_boss}`),
    h("ul", { "aria-label": `Dealers under ${g.pit_boss}` }, g.dealers.map((d) => h("li", {}, d === g.pit_boss ? `${d} (pit boss) ` : `${d} `,
      h("button", { type: "button", class: "danger", "aria-label": `Revoke ${d}`, onclick: async () => {
        // Revoking closes or hands over the dealer's open tables: never on one click. A pit boss
        // who deals stops dealing and stays the pit boss of the group.
        const stays = d === g.pit_boss ? ` ${d} stays the pit boss of this group.` : "";
        if (!confirm(`Revoke ${d}? Their open tables are closed or handed over to another dealer.${stays}`)) return;
        try { await api("POST", "/api/roster/revoke", { dealer: d }); toast(`${d} is revoked`); roster(); } catch (err) { toast(err.message, true); }
      } }, "Revoke")))),
    g.revoked.length ? h("p", { class: "muted" }, `Revoked: ${g.revoked.join(", ")}`) : null));
  document.getElementById("roster").replaceChildren(form, ...groups);
}

async function loadAccounts() {
  accounts = await api("GET", "/api/accounts");
  let balances = {};
  try { balances = Object.fromEntries((await api("GET", "/api/balances")).accounts.map((a) => [a.key, a.balance])); } catch { /* pit boss may */ }
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
    try { await api("POST", "/api/accounts", { name: name.value, role: role.value, password: pw.value }); toast(`${name.value} created`); loadAccounts(); }
    catch (err) { why.textContent = `${err.message} (${err.rule})`; }
  });
  document.getElementById("accounts").replaceChildren(form, h("table", { class: "data", "aria-label": "Accounts" },
    h("thead", {}, h("tr", {}, h("th", {}, "Id"), h("th", {}, "Name"), h("th", {}, "Role"), h("th", { class: "num" }, "Bankroll"))),
    h("tbody", {}, accounts.map((a) => h("tr", {}, h("td", {}, a.id), h("td", {}, a.name), h("td", {}, a.role.replace("_", " ")),
      h("td", { class: "num" }, a.role === "player" ? money(balances[`player:${a.id}`] || 0) : ""))))));
  if (!document.querySelector("#cashier select")) { cashier(); ledgerPicker(); }
}

function playerSelect(label, keep = () => true) {
  return h("select", { "aria-label": label }, accounts.filter((a) => a.role === "player" && keep(a)).map((a) => h("option", { value: a.id }, a.name)));
}

/** Each table's cash for walk-ins' chips against its last count, a count to record, and the
 * walk-ins with a form linking one to a player's account. */
async function walkIns() {
  const box = document.getElementById("walk-ins");
  try {
    const [cash, walkers] = await Promise.all([api("GET", "/api/cash"), api("GET", "/api/walk-ins")]);
    const cents = (c) => (c === null || c === undefined ? "not counted" : money(c));
    const table = h("input", { type: "number", min: "1", "aria-label": "Table whose cash was counted" });
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
        toast(`Table ${out.table}: counted ${money(out.counted)}, difference ${money(out.difference)}`);
        walkIns();
      } catch (err) { toast(`${err.message} (${err.rule})`, true); }
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
      catch (err) { toast(`${err.message} (${err.rule})`, true); }
    });
    const names = Object.fromEntries(accounts.map((a) => [a.id, a.name]));
    box.replaceChildren(
      h("table", { class: "data", "aria-label": "Tables' cash" },
        h("thead", {}, h("tr", {}, h("th", {}, "Table"), h("th", {}, "Dealer"), h("th", { class: "num" }, "Expected"), h("th", { class: "num" }, "Counted"), h("th", { class: "num" }, "Difference"), h("th", {}, "Count again"))),
        h("tbody", {}, cash.map((c) => h("tr", {}, h("td", {}, `${c.name} (${c.table})`), h("td", {}, c.dealer), h("td", { class: "num" }, money(c.expected)),
          h("td", { class: "num" }, cents(c.counted)), h("td", { class: "num" }, c.difference === null ? "" : money(c.difference)), h("td", {}, c.count_again ? "yes" : "no"))))),
      count,
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
    } catch (err) { toast(`${err.message} (${err.rule})`, true); }
  };
  document.getElementById("cashier").replaceChildren(h("div", { class: "inline", style: "display:flex;gap:.5rem;flex-wrap:wrap;align-items:end" },
    h("label", { class: "field" }, "Player", who), h("label", { class: "field" }, "Amount ($)", amount),
    h("button", { type: "button", class: "primary", onclick: go("buy-in") }, "Buy in"),
    h("button", { type: "button", onclick: go("cash-out") }, "Cash out")));
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
          h("tbody", {}, l.lines.map((x) => h("tr", {}, h("td", {}, (x.at || "").replace("T", " ").slice(0, 19)), h("td", {}, x.kind),
            h("td", {}, x.memo || ""), h("td", { class: "num" }, money(x.amount)), h("td", { class: "num" }, money(x.balance)))))));
    } catch (err) { toast(err.message, true); }
  };
  document.getElementById("ledger").replaceChildren(h("div", { style: "display:flex;gap:.5rem;align-items:end" },
    h("label", { class: "field" }, "Player", who), h("button", { type: "button", onclick: show }, "Show ledger")), out);
}

async function figures() {
  try {
    const rows = await api("GET", "/api/figures");
    document.getElementById("figures").replaceChildren(h("table", { class: "data", "aria-label": "House figures" },
      h("thead", {}, h("tr", {}, h("th", {}, "Table"), h("th", {}, "Game"), h("th", {}, "Status"), h("th", { class: "num" }, "Hands"), h("th", { class: "num" }, "House result"))),
      h("tbody", {}, rows.map((r) => h("tr", {}, h("td", {}, r.name), h("td", {}, r.game), h("td", {}, r.status),
        h("td", { class: "num" }, r.hands), h("td", { class: "num" }, money(r.house_result))))),
      h("caption", { class: "muted" }, "House result: the balance of the table's ledger account (at a draw table, the odd chips carried to the next pot).")));
  } catch (err) { document.getElementById("figures").textContent = err.message; }
}

function handSearch() {
  const table = h("input", { type: "number", min: "1", placeholder: "any", "aria-label": "Table number" });
  const player = playerSelect("Player");
  player.prepend(h("option", { value: "", selected: true }, "anyone"));
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
        h("tbody", {}, hands.map((x) => h("tr", {}, h("td", {}, `Hand ${x.id}`), h("td", {}, `table ${x.table}`), h("td", {}, x.game),
          h("td", {}, x.status), h("td", {}, x.started_at.replace("T", " ").slice(0, 19)),
          h("td", { class: "players" }, h("ul", { class: "plain", "aria-label": `Players of hand ${x.id}` }, (x.players || []).map((p) =>
            h("li", {}, `${p.name}: `, h("span", { class: p.net > 0 ? "up" : p.net < 0 ? "down" : "" }, p.net === null || p.net === undefined ? (x.status === "voided" ? "voided" : "—") : money(p.net)))))),
          h("td", {}, h("button", { type: "button", "aria-label": `Replay hand ${x.id}`, onclick: () => replay(x, viewer) }, "Replay"),
            " ", h("a", { href: `/api/hands/${x.id}/history`, download: `hand-${x.id}.json` }, "Download"))))))) : h("p", { class: "muted" }, "No hand found."));
    } catch (err) { toast(`${err.message} (${err.rule})`, true); }
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
  } catch (err) { toast(`${err.message} (${err.rule})`, true); }
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
      } catch (err) { toast(err.message, true); }
    });
    box.replaceChildren(
      h("p", { id: "float-figures" }, `Float ${money(f.float)}: used ${money(f.used)}, remaining ${money(f.remaining)} (at most ${money(f.max)})`),
      form);
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
      try { await api("POST", `/api/events/${ev.id}/end`); toast(`${ev.name} has ended`); await show(); figures(); } catch (err) { toast(err.message, true); }
    });
    box.replaceChildren(h("p", { "data-testid": "event-status" },
      `${ev.name} is on. Shoes' seeds are published ${when}; every card shown checks at the end of its hand.`), end);
  };
  await show();
}

main().catch((e) => toast(e.message, true));
