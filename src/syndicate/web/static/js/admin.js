// Admin (and pit bosses): the roster, accounts, buy-ins and cash-outs, a player's ledger line
// by line, hand history search with a step-by-step replay and the fairness check, and the
// house's figures per table; the tables' cash for walk-ins' chips (expected, counted by someone
// other than the dealer, the difference), the chip sales waiting for approval and linking a
// walk-in to a player's account (docs/walk-ins.md); the prize draws (docs/prize-draw.md); the
// room's big screen (docs/screen.md); the dealers on the floor and the rotation (docs/dealer.md).
// Each panel is a module of ./admin/.
import { h, headerBar, signInForm, toast, whoAmI } from "./common.js";
import { evening } from "./evening.js";
import { loadAccounts } from "./admin/accounts.js";
import { cashier } from "./admin/cashier.js";
import { chipSales } from "./admin/chip-sales.js";
import { prizeDraws } from "./admin/draws.js";
import { endOfNight } from "./admin/end-of-night.js";
import { figures } from "./admin/figures.js";
import { handSearch } from "./admin/hands.js";
import { houseFloat } from "./admin/house-float.js";
import { ledgerPicker } from "./admin/ledger.js";
import { panel, wide } from "./admin/panel.js";
import { roster } from "./admin/roster.js";
import { screenPanel } from "./admin/screen.js";
import { dealersOnFloor } from "./admin/shifts.js";
import { turnClock } from "./admin/turn-clock.js";
import { walkIns } from "./admin/walk-ins.js";

/** How often the page asks again for its figures (the lobby: 3 s). */
const LIVE_MS = 4000;

/** The accounts, and once they are read the panels that list players to pick from. */
async function accounts() {
  await loadAccounts();
  if (!document.querySelector("#cashier select")) { cashier(); ledgerPicker(); }
}

async function main() {
  const me = await whoAmI();
  document.getElementById("header").replaceWith(Object.assign(headerBar("Admin", me), { id: "header" }));
  const main = document.getElementById("main");
  if (!me) { main.replaceChildren(h("h2", {}, "Sign in"), signInForm(() => location.reload())); return; }
  if (!["admin", "pit_boss"].includes(me.account.role)) { main.replaceChildren(h("p", {}, "The admin pages are for the admin and pit bosses.")); return; }
  main.replaceChildren(h("div", { class: "grid panels" },
    panel("roster", "Roster of authorized dealers", h("div", { id: "roster" })),
    panel("accounts", "Accounts", h("div", { id: "accounts" })),
    panel("cashier", "Cashier: buy-ins and cash-outs", h("div", { id: "cashier" })),
    wide(panel("figures", "The house's figures per table", h("div", { id: "figures" })))),
    panel("ledger", "A player's ledger", h("div", { id: "ledger" })),
    panel("hands", "Hand histories", h("div", { id: "hands" })),
    panel("walk-ins", "Walk-ins and the tables' cash", h("div", { id: "walk-ins" })),
    panel("evening", "The evening: charts and the end-of-night report", h("div", { id: "evening" })));
  const night = evening(document.getElementById("evening"));
  await Promise.all([roster(me), accounts(), figures(), night.refresh(), dealersOnFloor(me)]);
  handSearch();
  walkIns(me);
  chipSales(me);
  if (me.account.role === "admin") { houseFloat(); turnClock(); endOfNight(); prizeDraws(); screenPanel(); }
  // The page keeps itself current, as the lobby does: the house's figures, the totals and the
  // charts while hands are played, and the accounts another host creates. Only what changed is
  // redrawn, so nothing moves under a click or loses what is typed.
  setInterval(() => {
    if (document.hidden) return;
    Promise.all([accounts(), figures(), night.refresh(), dealersOnFloor(me)]).catch(() => { /* shown at the next try */ });
  }, LIVE_MS);
}

main().catch((e) => toast(e.message, true));
