// The dealer console (/dealer): open a table from a preset with overrides, and run each of your
// tables: start rounds, deal, pause, resume, close, seat or remove bots, propose an ante change;
// seat a walk-in by name, sell them chips (a sale above the event's limit shows as waiting for a
// pit boss's approval), cash them out, and act for a walk-in's seat (or a player's who lets the
// dealer act for them: docs/walk-ins.md). Table actions go over the
// table's WebSocket, like every other action.
//
// The dealer's tablet (/dealer/tables/{id}) is the same console for one table, laid out for a
// tablet held in one hand at a busy table (docs/dealer.md): large targets, each seat's chips,
// bet and hands at a glance, the awaited card highlighted, the payouts, no scrolling during a
// round; the table's setup (walk-ins, bots, auto-deal, the ante) one tap away, and the table's
// join code (a QR code of its page) for a player's phone.
//
// Nothing here is redrawn under the dealer's finger: each table's box, each seat's controls and
// the card pad are built once and updated in place as states arrive, so a focused control or a
// half-typed amount is never taken away. The panels are modules of ./dealer/.
import { api, eventId, h, headerBar, signInForm, toast, whoAmI } from "./common.js";
import { openForm } from "./dealer/open-table.js";
import { shiftBox } from "./dealer/shift.js";
import { tableView } from "./dealer/table.js";

const TABLET = location.pathname.match(/^\/dealer\/tables\/(\d+)$/);
const tabletId = TABLET ? Number(TABLET[1]) : null;
const views = new Map(); // table id → its box, built once
let me = null;

async function main() {
  me = await whoAmI();
  document.getElementById("header").replaceWith(Object.assign(headerBar(tabletId ? "Dealer's tablet" : "Dealer console", me), { id: "header" }));
  const main = document.getElementById("main");
  if (!me) { main.replaceChildren(h("h2", {}, "Sign in"), signInForm(() => location.reload())); return; }
  if (tabletId) {
    document.body.classList.add("tablet");
    main.replaceChildren(h("div", { id: "mine" }));
  } else {
    const presets = await api("GET", "/api/presets");
    const shift = ["dealer", "pit_boss"].includes(me.account.role)
      ? h("section", { class: "card-box", "aria-labelledby": "shift-h" }, h("h2", { id: "shift-h" }, "Your shift"), shiftBox("shift")) : null;
    main.replaceChildren(...[shift, openForm(presets, me, refresh), h("section", { "aria-labelledby": "mine-h" }, h("h2", { id: "mine-h" }, "Your tables"), h("div", { id: "mine" }))].filter(Boolean));
    if (shift) shift.querySelector(".shift").refresh();
  }
  await refresh();
  setInterval(() => refresh().catch(() => {}), 4000);
}

/** The lobby's rows of the tables this console runs, every few seconds: each table's box is
 * built once and told its row (status, summary); the boxes move only when the tables change. */
async function refresh() {
  const ev = await eventId();
  let tables = await api("GET", `/api/events/${ev}/lobby`);
  // The tablet keeps its table whoever deals it (the server refuses a dealer who does not).
  tables = tabletId ? tables.filter((t) => t.id === tabletId)
    : tables.filter((t) => t.dealer_id === me.account.id || me.account.role !== "dealer");
  // The shift's line first: a step it adds or takes away moves what is below it, so it moves
  // before a new table's links are drawn there, never under a click on them.
  const shift = document.getElementById("shift");
  if (shift) await shift.refresh();
  const box = document.getElementById("mine");
  if (!tables.length) {
    box.replaceChildren(tabletId
      ? h("p", {}, `Table ${tabletId} is not open, or not yours to run. `, h("a", { href: "/dealer" }, "All your tables"))
      : h("p", { class: "muted" }, "No open table."));
  } else {
    const boxes = tables.map((t) => {
      if (!views.has(t.id)) views.set(t.id, tableView(t, { tablet: tabletId !== null, refresh }));
      const v = views.get(t.id);
      v.setRow(t);
      return v.el;
    });
    const now = [...box.children];
    if (now.length !== boxes.length || now.some((el, i) => el !== boxes[i])) box.replaceChildren(...boxes);
  }
  box.dataset.refreshed = String(Number(box.dataset.refreshed || 0) + 1); // tests wait on it
}

main().catch((e) => toast(e.message, true));
