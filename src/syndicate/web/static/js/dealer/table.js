// One table on the dealer's pages: its head (name, state, join code), the seats, the card entry
// and the corrections of a real-cards table, the round's controls and the payouts; and its setup.
// On the tablet (/dealer/tables/{id}: docs/dealer.md) the setup takes the round's place when asked
// for, so the round fits the screen. The box is built once and told each state as it arrives.
import { h, handTitle, inWords, money, toast } from "../common.js";
import { TableSocket } from "../socket.js";
import { gameOf } from "../games/index.js";
import { cardPad } from "./card-pad.js";
import { corrections } from "./corrections.js";
import { joinCode } from "./join-code.js";
import { payoutBlocks } from "./payouts.js";
import { seatTile } from "./seats.js";
import { handOver } from "./shift.js";
import { setupPanel } from "./setup.js";

const OVER = new Set(["settled", "complete"]);

/** What the console says once an action it sent is done: in words, never the action's name. */
const DONE = {
  seat_walk_in: (f) => (f.amount ? `${f.name} is seated at seat ${f.seat} with ${money(f.amount)} of chips bought`
    : `${f.name} is seated at seat ${f.seat} with the chips they kept`),
  sell_chips: (f) => `Sold ${money(f.amount)} of chips at seat ${f.seat}`,
  cash_out_walk_in: (f) => `Seat ${f.seat} has left the table`,
  start_round: (f, game) => game.started,
  deal: () => "The cards are dealt",
  add_bots: (f) => `${f.count === 1 ? "A bot is" : `${f.count} bots are`} seated`,
  remove_bots: () => "The bots leave after the hand in play",
  propose_ante: (f) => `An ante of ${money(f.amount)} is proposed`,
  sit_in: (f) => `Seat ${f.seat} is back in`,
  ruling: (f) => `Seat ${f.seat}'s hand is ruled ${f.dead ? "dead" : "to stand"}`,
};
function doneText(game, action, fields) {
  const own = game.done[action] ? game.done[action](fields) : null;
  if (own) return own;
  if (DONE[action]) return DONE[action](fields, game);
  const label = game.seatActions[action] || action;
  return `${fields.seat ? `Seat ${fields.seat}: ` : ""}${label}${fields.amount ? ` ${money(fields.amount)}` : ""}`;
}

function liveLine(entry) {
  const s = entry.state;
  if (!s) return "connecting…";
  const rd = s.round;
  return `${s.seats.length} seated${s.seats.length ? ` (${s.seats.map((x) => x.player).join(", ")})` : ""}; ` +
    (rd ? `${handTitle(s).toLowerCase()}: ${rd.phase.replace(/_/g, " ")}` : "no round yet");
}

/** The table's box; `tablet`: laid out for a tablet held in one hand; `refresh()` reads the
 * lobby's rows again (after a change of the table's status). */
export function tableView(t, { tablet, refresh }) {
  const game = gameOf(t.game);
  const entry = { table: t, state: null };
  const L = (x) => `${x} at ${t.name}`;
  // What happened, or why not: on the tablet a line under the table's name (a toast would
  // cover the controls under the dealer's thumb), elsewhere a toast.
  const note = h("p", { class: "tv-note", role: "status" });
  const alarm = h("p", { class: "tv-note error", role: "alert" });
  entry.say = (text, bad = false) => {
    if (!tablet) { if (text) toast(bad ? text : `${t.name}: ${text}`, bad); return; } // nothing to say: no toast
    note.textContent = bad ? "" : text;
    alarm.textContent = bad ? text : "";
  };
  entry.act = async (action, fields = {}) => {
    try {
      await entry.sock.act(action, fields);
      // A sale above the event's limit was asked for, not made: say so, not "sold".
      const seat = entry.state && fields.seat ? entry.state.seats.find((x) => x.seat === fields.seat) : null;
      const asked = (action === "seat_walk_in" || action === "sell_chips") && seat && seat.sale && seat.sale.status === "pending";
      entry.say(asked ? `Seat ${fields.seat}: ${money(seat.sale.amount)} for ${seat.player} waits for a pit boss's approval: no chips yet`
        : doneText(game, action, fields));
      return true;
    } catch (e) { entry.say(inWords(e), true); return false; }
  };
  entry.clock = null; // the turn clock as the last state made it, counted down from its arrival
  entry.payNow = null; // the bets just settled during the round, told to pay or take now (until the next change)
  entry.withdrawn = null; // payouts a take-back undid (until the next hand)
  entry.sock = new TableSocket(t.id, { onMessage: (m) => {
    if (m.type === "welcome" && m.table.rules) entry.rules = m.table.rules;
    if (m.type === "welcome" || m.type === "state") {
      if (entry.state && entry.state.hand !== m.hand) entry.payNow = entry.withdrawn = null;
      // A payment told comes just before the state of the change that settled it; the next
      // change puts it with what was settled during the round.
      if (entry.payNow && entry.payNow.at === undefined) entry.payNow.at = m.version;
      else if (entry.payNow && m.version > entry.payNow.at) entry.payNow = null;
      entry.state = m;
      entry.clock = m.clock ? { ...m.clock, at: performance.now() } : null;
      update();
    } else if (m.type === "timed_out") {
      entry.say(m.text); // "Time ran out for seat 1 (Kenji): the clock stood for them"
    } else if (m.type === "payouts") {
      // Each payment is told once, when due (docs/dealer.md, "Paying out"); the end's list is the state's.
      if (m.when === "withdrawn") entry.withdrawn = m;
      entry.payNow = m.when === "now" ? { ...m } : null;
      update();
    }
  } });
  /** The seconds left on the turn clock of seat ``n``, or null: it is not that seat's clock. */
  entry.clockLeft = (n) => {
    const c = entry.clock;
    if (!c || (n !== undefined && c.seat !== n)) return null;
    return Math.max(0, c.left - (performance.now() - c.at) / 1000);
  };
  entry.timer = (n) => {
    const left = entry.clockLeft(n);
    if (left === null) return null;
    return h("span", { class: left < 6 ? "tag clock low" : "tag clock", role: "timer", dataset: { clock: n },
      "aria-label": `Seat ${n}'s turn clock, ${entry.clock.seconds} s a decision` }, `${Math.ceil(left)} s`);
  };

  const title = h("h3", {});
  const live = h("p", { id: `live-${t.id}`, class: "live" });
  const join = joinCode(t);
  const setupId = `setup-${t.id}`;
  const toggle = tablet ? h("button", { type: "button", class: "setup-toggle", "aria-expanded": "false", "aria-controls": setupId,
    onclick: () => showSetup(setup.hidden) }, "Setup") : null;
  // One line, always there: a message never moves what is under it (the pad under the thumb).
  const head = h("div", { class: "tv-head" }, h("div", { class: "tv-title" }, title, live, h("div", { class: "tv-status" }, note, alarm)),
    h("div", { class: "tv-links" }, join.button, toggle,
      h("a", { class: "button", href: `/tables/${t.id}` }, "Go to the table"),
      tablet ? h("a", { class: "button", href: "/dealer" }, "All tables")
        : h("a", { class: "button", href: `/dealer/tables/${t.id}`, "aria-label": `Tablet view of ${t.name}` }, "Tablet view")));

  const pad = t.cards === "real" ? cardPad(t, entry) : null;
  const fixes = pad ? corrections(t, entry, pad) : null;
  const seatsBox = h("div", { class: "tv-seats", role: "group", "aria-label": `Seats at ${t.name}` });
  const tiles = new Map();
  // The decision of the seat to act, when the dealer enters it: its buttons in one place, big,
  // over the pad (between decisions each seat's controls stay in its tile: its bet, an ante).
  const barLabel = h("strong", { class: "who" });
  const bar = h("div", { class: "tv-act", hidden: true }, barLabel);
  const payouts = h("section", { class: "payouts", "aria-label": L("Payouts"), hidden: true });
  const button = (label, onclick) => h("button", { type: "button", class: "primary", "aria-label": L(label), onclick }, label);
  const start = button(game.start, () => entry.act("start_round"));
  const deal = game.deals ? button("Deal", () => entry.act("deal")) : null;
  // Until the table's first state arrives there is nothing to start or deal: a click then would
  // only meet a socket still connecting ("not connected").
  start.disabled = true;
  if (deal) deal.disabled = true;
  const round = h("div", { class: "tv-round", role: "group", "aria-label": L("Round") }, start, deal, ...(fixes ? fixes.buttons : []));
  const body = h("div", { class: `tv-body ${t.game}${pad ? " real" : ""}` },
    h("div", { class: "tv-table" }, seatsBox, bar, payouts), pad ? pad.el : null, pad ? pad.typed : null, round);
  const setup = setupPanel(t, entry, setupId, refresh);
  const shift = handOver(t, entry);
  setup.append(shift);
  setup.hidden = tablet;
  const showSetup = (open) => {
    if (open) shift.refresh();
    setup.hidden = !open;
    body.hidden = open;
    toggle.setAttribute("aria-expanded", String(open));
  };
  if (tablet) setup.prepend(h("button", { type: "button", class: "primary back", onclick: () => { showSetup(false); toggle.focus(); } }, "Back to the round"));
  const el = h("section", { class: `card-box tv${tablet ? " tablet" : ""}`, "aria-label": t.name, dataset: { table: t.id } },
    head, body, setup, join.dialog);

  function update() {
    const s = entry.state;
    if (pad) pad.update();
    live.textContent = liveLine(entry);
    setup.update();
    if (!s) return;
    const rd = s.round;
    const inPlay = Boolean(rd) && !OVER.has(rd.phase);
    start.disabled = inPlay;
    if (deal) deal.disabled = !(rd && rd.phase === "betting");
    if (fixes) fixes.update(rd, inPlay);
    // The seats in place: a tile per seated player, made once, told the new state.
    const seen = new Set();
    const order = [game.dealerTile(entry)].filter(Boolean);
    for (const seat of s.seats) {
      if (!tiles.has(seat.seat)) tiles.set(seat.seat, seatTile(entry, seat.seat));
      const tile = tiles.get(seat.seat);
      tile.update(seat, rd ? rd.seats.find((x) => x.seat === seat.seat) : null, rd);
      seen.add(seat.seat);
      order.push(tile.el);
    }
    for (const n of [...tiles.keys()]) if (!seen.has(n)) tiles.delete(n);
    // Five tiles or more (the dealer's counts): compact tiles, so a full table fits the tablet.
    body.classList.toggle("crowded", order.length >= 5);
    const deciding = rd && !OVER.has(rd.phase) && rd.phase !== "betting" ? rd.to_act : null;
    let inBar = null;
    for (const [n, tile] of tiles) {
      const here = n === deciding && tile.legal() ? bar : tile.el;
      if (here === bar) inBar = s.seats.find((x) => x.seat === n);
      if (tile.controls.parentNode !== here) here.append(tile.controls);
    }
    bar.hidden = !inBar;
    barLabel.replaceChildren(...(inBar ? [`Seat ${inBar.seat}: ${inBar.player} to act `, entry.timer(inBar.seat)] : []).filter(Boolean));
    if (!s.seats.length) order.push(h("p", { class: "muted empty-note" }, tablet ? "No one is seated: Setup seats a walk-in; a player with a phone scans the join code." : "No one is seated."));
    const now = [...seatsBox.children];
    if (now.length !== order.length || now.some((x, i) => x !== order[i])) seatsBox.replaceChildren(...order);
    payouts.replaceChildren(...payoutBlocks(entry, s, rd, inPlay));
    payouts.hidden = !payouts.childElementCount;
  }

  entry.sock.connect();
  update();
  setInterval(() => { // the turn clock, counted down where it shows
    for (const el of body.querySelectorAll("[data-clock]")) {
      const left = entry.clockLeft(Number(el.dataset.clock));
      if (left === null) continue;
      el.textContent = `${Math.ceil(left)} s`;
      el.classList.toggle("low", left < 6);
    }
  }, 250);
  return {
    el,
    setRow(row) {
      entry.table = row;
      title.replaceChildren(`${row.name} `, h("span", { class: "muted summary" }, `(${gameOf(row.game).title}, ${row.status}, dealt by ${row.dealer}) ${row.summary}`));
      setup.setRow(row);
      if (!setup.hidden) shift.refresh();
    },
  };
}
