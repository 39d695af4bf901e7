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
// half-typed amount is never taken away.
import { api, eventId, h, handTitle, headerBar, inWords, money, parseDollars, qrCode, signInForm, toast, whoAmI } from "./common.js";
import { cards } from "./cards.js";
import { TableSocket } from "./socket.js";

/** The games' names as every page shows them. */
const GAMES = { blackjack: "Blackjack", poker: "Five-card draw" };
/** What the dealer may enter for a seat, per game, in the order the buttons stand; the dealer's
 * view lists which of them the seat may do now (`seats[].legal_actions`), and only those show. */
const SEAT_ACTIONS = {
  blackjack: ["bet", "hit", "stand", "double", "split", "surrender", "insurance", "no_insurance", "even_money", "play_on"],
  poker: ["check", "call", "bet", "raise", "fold", "stand_pat", "draw", "accept_ante", "refuse_ante"],
};
const LABEL = { bet: "Bet", hit: "Hit", stand: "Stand", double: "Double", split: "Split", surrender: "Surrender",
  insurance: "Insurance", no_insurance: "No insurance", even_money: "Even money", play_on: "Play on", check: "Check",
  call: "Call", raise: "Raise", fold: "Fold", stand_pat: "Stand pat", draw: "Draw", accept_ante: "Accept ante",
  refuse_ante: "Refuse ante" };
/** The actions that take the amount field (the others ignore it). */
const WITH_AMOUNT = new Set(["bet", "raise", "double", "insurance"]);
/** At a real-cards draw table the cards are dealt face down and never entered: a draw is how
 * many cards a player throws (four keeping an Ace, shown to the dealer), one tap. */
const THROWS = [1, 2, 3, 4];
const throwLabel = (k) => (k === 4 ? "Throw 4 (Ace)" : `Throw ${k}`);
/** What the console says once an action it sent is done: in words, never the action's name. */
const DONE = {
  seat_walk_in: (f) => `${f.name} is seated at seat ${f.seat} with ${money(f.amount)} of chips`,
  sell_chips: (f) => `Sold ${money(f.amount)} of chips at seat ${f.seat}`,
  cash_out_walk_in: (f) => `Seat ${f.seat} is cashed out`,
  start_round: (f, t) => (t.game === "poker" ? "The hand is dealt" : "The round is open for bets"),
  deal: () => "The cards are dealt",
  add_bots: (f) => `${f.count === 1 ? "A bot is" : `${f.count} bots are`} seated`,
  remove_bots: () => "The bots leave after the hand in play",
  propose_ante: (f) => `An ante of ${money(f.amount)} is proposed`,
  sit_in: (f) => `Seat ${f.seat} is back in`,
  ruling: (f) => `Seat ${f.seat}'s hand is ruled ${f.dead ? "dead" : "to stand"}`,
};
function doneText(t, action, fields) {
  if (DONE[action]) return DONE[action](fields, t);
  if (action === "draw" && fields.count !== undefined) {
    return `Seat ${fields.seat}: ${fields.count ? `throws ${fields.count}` : "stands pat"}`;
  }
  return `${fields.seat ? `Seat ${fields.seat}: ` : ""}${LABEL[action] || action}${fields.amount ? ` ${money(fields.amount)}` : ""}`;
}
const OUTCOME = { win: "wins", lose: "loses", push: "push", blackjack: "blackjack", bust: "bust",
  surrender: "surrendered", even_money: "even money" };
const OVER = new Set(["settled", "complete"]);
/** The turn clocks a dealer picks from (the server takes 5 to 600 whole seconds, or none). */
const CLOCKS = [15, 20, 30, 45, 60, 90, 120];
const clockWords = (s) => (s === null || s === undefined ? "off" : s >= 120 && s % 60 === 0 ? `${s / 60} min` : `${s} s`);
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
    main.replaceChildren(openForm(presets), h("section", { "aria-labelledby": "mine-h" }, h("h2", { id: "mine-h" }, "Your tables"), h("div", { id: "mine" })));
  }
  await refresh();
  setInterval(() => refresh().catch(() => {}), 4000);
}

function openForm(presets) {
  // The suggested name follows the game ("Miles's 21", "Miles's draw") until the dealer types one.
  const suggested = (g) => `${me.account.name}'s ${g === "poker" ? "draw" : "21"}`;
  const name = h("input", { name: "name", required: true, value: suggested("blackjack") });
  let named = false;
  name.addEventListener("input", () => { named = name.value.trim() !== ""; });
  const game = h("select", { name: "game" }, h("option", { value: "blackjack" }, "Blackjack"), h("option", { value: "poker" }, "Five-card draw"));
  const preset = h("select", { name: "preset" }, presets.blackjack.map((p) => h("option", { value: p.name }, `${p.name}: ${p.summary}`)));
  const minBet = h("input", { name: "min_bet", inputmode: "decimal" });
  const maxBet = h("input", { name: "max_bet", inputmode: "decimal" });
  const decks = h("input", { name: "decks", type: "number", min: "1", max: "8" });
  const ante = h("input", { name: "ante", inputmode: "decimal" });
  const extra = h("input", { name: "overrides", placeholder: "key=value, key=value" });
  const cards = h("select", { name: "cards" }, h("option", { value: "shuffled" }, "Shuffled by the server"),
    h("option", { value: "real" }, "Real cards (I deal and enter them)"));
  // The turn clock decides for a player who takes too long: none at a real-cards table unless the
  // event's admin or the dealer sets one (docs/dealer.md, "The turn clock").
  const clock = h("select", { name: "turn_clock" }, h("option", { value: "default" }, "The event's default"),
    h("option", { value: "off" }, "Off"), CLOCKS.map((c) => h("option", { value: String(c) }, clockWords(c))));
  const msg = h("p", { role: "alert", class: "error" });
  const bjOnly = h("span", { class: "field-group" }, h("label", { class: "field" }, "Preset", preset), h("label", { class: "field" }, "Decks", decks));
  const pkOnly = h("label", { class: "field", hidden: true }, "Ante ($)", ante);
  const dollars = (c) => (c / 100).toFixed(2);
  // The form always shows the limits the table would open with: a game or preset switch puts
  // that preset's own values back, so a Blackjack limit never rides along onto a draw table.
  const applyPreset = () => {
    const bj = game.value === "blackjack";
    const rules = bj ? presets.blackjack.find((p) => p.name === preset.value).rules : presets.poker;
    minBet.value = dollars(rules.min_bet);
    maxBet.value = dollars(rules.max_bet);
    decks.value = bj ? String(rules.decks) : "";
    ante.value = bj ? "" : dollars(rules.ante);
    bjOnly.hidden = !bj;
    pkOnly.hidden = bj;
  };
  game.addEventListener("change", () => { if (!named) name.value = suggested(game.value); });
  game.addEventListener("change", applyPreset);
  preset.addEventListener("change", applyPreset);
  applyPreset();
  const form = h("form", { class: "inline card-box", "aria-label": "Open a table" },
    h("label", { class: "field" }, "Table name", name), h("label", { class: "field" }, "Game", game),
    h("label", { class: "field" }, "Cards", cards), h("label", { class: "field" }, "Turn clock", clock), bjOnly, pkOnly,
    h("label", { class: "field" }, "Minimum bet ($)", minBet), h("label", { class: "field" }, "Maximum bet ($)", maxBet),
    h("label", { class: "field" }, "Other rules (key=value)", extra),
    h("button", { type: "submit", class: "primary" }, "Open table"), msg);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    msg.textContent = "";
    const overrides = {};
    for (const [k, el] of [["min_bet", minBet], ["max_bet", maxBet], ["ante", ante]]) {
      if (el.value.trim() && !(k === "ante" && game.value !== "poker")) {
        const c = parseDollars(el.value);
        if (c === null) { msg.textContent = `${k}: an amount in dollars, like 5 or 0.50`; return; }
        overrides[k] = c;
      }
    }
    if (decks.value && game.value === "blackjack") overrides.decks = Number(decks.value);
    for (const part of extra.value.split(",").map((x) => x.trim()).filter(Boolean)) {
      const [k, v] = part.split("=").map((x) => x.trim());
      if (!k || v === undefined) { msg.textContent = `"${part}" is not key=value`; return; }
      overrides[k] = /^-?\d+$/.test(v) ? Number(v) : v === "true" ? true : v === "false" ? false : v;
    }
    const body = { name: name.value, game: game.value, preset: game.value === "blackjack" ? preset.value : null,
      overrides, cards: cards.value };
    if (clock.value !== "default") body.turn_clock = clock.value === "off" ? null : Number(clock.value);
    try {
      const t = await api("POST", "/api/tables", body);
      toast(`Table ${t.name} is open`);
      named = false;
      name.value = suggested(game.value);
      await refresh();
    } catch (e) { msg.textContent = inWords(e); msg.dataset.rule = e.rule; }
  });
  return form;
}

/** The lobby's rows of the tables this console runs, every few seconds: each table's box is
 * built once and told its row (status, summary); the boxes move only when the tables change. */
async function refresh() {
  const ev = await eventId();
  let tables = (await api("GET", `/api/events/${ev}/lobby`)).filter((t) => t.dealer_id === me.account.id || me.account.role !== "dealer");
  if (tabletId) tables = tables.filter((t) => t.id === tabletId);
  const box = document.getElementById("mine");
  if (!tables.length) {
    box.replaceChildren(tabletId
      ? h("p", {}, `Table ${tabletId} is not open, or not yours to run. `, h("a", { href: "/dealer" }, "All your tables"))
      : h("p", { class: "muted" }, "No open table."));
  } else {
    const boxes = tables.map((t) => {
      if (!views.has(t.id)) views.set(t.id, tableView(t));
      const v = views.get(t.id);
      v.setRow(t);
      return v.el;
    });
    const now = [...box.children];
    if (now.length !== boxes.length || now.some((el, i) => el !== boxes[i])) box.replaceChildren(...boxes);
  }
  box.dataset.refreshed = String(Number(box.dataset.refreshed || 0) + 1); // tests wait on it
}

/** One table's box: its head (name, state, join code), the seats, the card entry of a real-cards
 * table, the round's controls and the payouts; and its setup. On the tablet the setup takes the
 * round's place when asked for, so the round fits the screen. */
function tableView(t) {
  const tablet = tabletId !== null;
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
        : doneText(t, action, fields));
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
  const seatsBox = h("div", { class: "tv-seats", role: "group", "aria-label": `Seats at ${t.name}` });
  const tiles = new Map();
  // The decision of the seat to act, when the dealer enters it: its buttons in one place, big,
  // over the pad (between decisions each seat's controls stay in its tile: its bet, an ante).
  const barLabel = h("strong", { class: "who" });
  const bar = h("div", { class: "tv-act", hidden: true }, barLabel);
  const payouts = h("section", { class: "payouts", "aria-label": L("Payouts"), hidden: true });
  const button = (label, text, onclick, cls = "") => h("button", { type: "button", class: cls, "aria-label": L(label), onclick }, text);
  const start = button(t.game === "poker" ? "Deal a hand" : "Start round", t.game === "poker" ? "Deal a hand" : "Start round", () => entry.act("start_round"), "primary");
  const deal = t.game === "blackjack" ? button("Deal", "Deal", () => entry.act("deal"), "primary") : null;
  // Until the table's first state arrives there is nothing to start or deal: a click then would
  // only meet a socket still connecting ("not connected").
  start.disabled = true;
  if (deal) deal.disabled = true;
  const fix = async (action, done) => {
    if (pad) pad.say("");
    try { await entry.sock.act(action); entry.say(done); } catch (e) { if (pad) pad.say(inWords(e)); else entry.say(inWords(e), true); }
  };

  // Between rounds the shoe is refilled (New shoe); during one, when it runs out, the discards are
  // shuffled back in: one place for both, so the round's row never changes its shape.
  let shoeAction = "new_shoe";
  const corrections = pad ? [
    button("Take back the last card", "Take back", () => fix("take_back", "card taken back")),
    button("Declare a misdeal", "Misdeal", () => {
      if (confirm(`Declare a misdeal at ${t.name}? The hand is void and every bet goes back.`)) fix("misdeal", "misdeal: the hand is void");
    }, "danger"),
    t.game === "blackjack" ? button("New shoe", "New shoe", () => {
      if (shoeAction === "new_shoe") {
        if (confirm(`A new shoe at ${t.name}? The card count starts again.`)) fix("new_shoe", "new shoe");
      } else if (confirm(`Shuffle the discards back into the shoe at ${t.name}? The cards on the table stay counted.`)) {
        fix("shuffle_discards", "the discards are shuffled back in");
      }
    }) : null] : [];
  const round = h("div", { class: "tv-round", role: "group", "aria-label": L("Round") }, start, deal, ...corrections);
  const body = h("div", { class: `tv-body ${t.game}${pad ? " real" : ""}` },
    h("div", { class: "tv-table" }, seatsBox, bar, payouts), pad ? pad.el : null, pad ? pad.typed : null, round);
  const setup = setupPanel(t, entry, setupId);
  setup.hidden = tablet;
  const showSetup = (open) => {
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
    if (pad) {
      // Only what the server would accept now (the table's dealer's view lists it); a pit boss's
      // view does not: in play, then.
      const can = rd && rd.corrections;
      corrections[0].disabled = can ? !can.includes("take_back") : !inPlay;
      corrections[1].disabled = can ? !can.includes("misdeal") : !inPlay;
      const shoeButton = corrections[2];
      if (shoeButton) { // at any time between cards; called for once the shoe is empty
        const empty = inPlay && rd.shoe && rd.shoe.entered && rd.shoe.remaining <= 0;
        shoeAction = inPlay ? "shuffle_discards" : "new_shoe";
        const label = inPlay ? "Shuffle in" : "New shoe";
        if (shoeButton.textContent !== label) {
          shoeButton.textContent = label;
          shoeButton.setAttribute("aria-label", L(inPlay ? "Shuffle in the discards" : label));
        }
        shoeButton.classList.toggle("primary", Boolean(empty));
      }
    }
    // The seats in place: a tile per seated player, made once, told the new state.
    const seen = new Set();
    const order = [];
    if (t.game === "blackjack") order.push(dealerTile(entry));
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
    payouts.replaceChildren(...payoutBlocks(s, rd, inPlay));
    payouts.hidden = !payouts.childElementCount;
  }

  /** What to pay and take, each told once when due (docs/dealer.md, "Paying out"): what a
   * take-back withdrew; during a round, the bets just settled (pay or take now) and those settled
   * before; once it is over, what is left to move, then what was moved during it. */
  function payoutBlocks(s, rd, inPlay) {
    // Each line names the player too: the dealer pays people, not seat numbers.
    const who = new Map(s.seats.map((x) => [x.seat, x.player]));
    const named = (p) => (p.seat !== null && who.has(p.seat) ? p.text.replace(`seat ${p.seat}:`, `seat ${p.seat} (${who.get(p.seat)}):`) : p.text);
    const kind = (p) => (p.amount > 0 ? "pay" : p.amount < 0 ? "take" : "");
    const blocks = [];
    const withdrawn = entry.withdrawn && entry.withdrawn.hand === s.hand_id ? entry.withdrawn.payouts : null;
    if (withdrawn) {
      const undo = (p) => (p.amount > 0 ? `take the ${money(p.amount)} back if you paid it` : p.amount < 0 ? `give the ${money(-p.amount)} back if you took it` : "nothing to undo");
      blocks.push(h("h4", { class: "withdrawn" }, `Withdrawn: the card that settled ${withdrawn.length > 1 ? "these" : "this"} was taken back`),
        h("ul", { class: "withdrawn" }, withdrawn.map((p) => h("li", {}, `${named(p)}: withdrawn, ${undo(p)}`))));
    }
    const list = rd && rd.payouts;
    if (inPlay) {
      const now = entry.payNow && entry.payNow.hand === s.hand_id ? entry.payNow.payouts : null;
      if (now) blocks.push(h("h4", {}, "Pay now"), h("ul", { class: "now" }, now.map((p) => h("li", { class: kind(p) }, named(p)))));
      const before = list ? list.filter((p) => !now || !now.some((x) => x.seat === p.seat)) : [];
      if (before.length) blocks.push(h("h4", {}, "Settled during the round"), h("ul", {}, before.map((p) => h("li", { class: "done" }, named(p)))));
    } else if (list) {
      // What the dealer must do first (each payment, in the list's order, and a carry to leave in
      // the middle), then what was moved during the round, then the seats with nothing to pay or
      // take: a crowded table's box may scroll.
      const idle = (p) => p.amount === 0 && p.seat !== null;
      const moves = [...list.filter((p) => !idle(p)), ...list.filter((p) => idle(p) && p.paid), ...list.filter((p) => idle(p) && !p.paid)];
      blocks.push(h("h4", {}, `Pay out ${handTitle(s).toLowerCase()}`),
        h("ul", {}, moves.map((p) => h("li", { class: idle(p) && p.paid ? "done" : kind(p) }, named(p)))));
    }
    return blocks;
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
      title.replaceChildren(`${row.name} `, h("span", { class: "muted summary" }, `(${GAMES[row.game] || row.game}, ${row.status}) ${row.summary}`));
      setup.setRow(row);
    },
  };
}

/** The dealer's hand at Blackjack, first among the seats. */
function dealerTile(entry) {
  if (!entry.dealerTile) entry.dealerTile = h("div", { class: "tile dealer", role: "group", "aria-label": `Dealer's hand at ${entry.table.name}` });
  const rd = entry.state.round;
  const d = rd ? rd.dealer : { cards: [], total: null };
  const hidden = d.cards.some((c) => c === null);
  entry.dealerTile.replaceChildren(h("div", { class: "tile-head" }, h("strong", {}, "Dealer")),
    d.cards.length ? h("div", { class: "tile-hand" }, cards(d.cards, { small: true }),
      h("span", { class: "total" }, hidden ? `shows ${d.total}` : `${d.total}${d.blackjack ? ", blackjack" : d.total > 21 ? ", bust" : ""}`)) : h("div", { class: "muted" }, "no cards yet"));
  return entry.dealerTile;
}

/** A seated player at a glance (name, chips, bet, hands) and, for a seat the dealer acts for, the
 * buttons of exactly what that seat may do now. The controls are made once: a state that arrives
 * while the dealer types an amount or holds the focus on a button changes neither. */
function seatTile(entry, n) {
  const t = entry.table;
  const L = (x) => `${x} for seat ${n} at ${t.name}`;
  const info = h("div", { class: "tile-info" });
  const amount = h("input", { inputmode: "decimal", placeholder: "5.00", autocomplete: "off", "aria-label": L("Amount, dollars,") });
  const discards = h("input", { placeholder: "7h 2c", autocomplete: "off", autocapitalize: "characters", "aria-label": L("Discards") });
  const amountField = h("label", { class: "field" }, "Amount ($)", amount);
  // A real-cards draw table: the dealer never sees the cards, so a draw is a count (one tap).
  const counted = t.game === "poker" && t.cards === "real";
  const discardField = t.game === "poker" && !counted ? h("label", { class: "field" }, "Discards", discards) : null;
  const throws = counted ? THROWS.map((k) => h("button", { type: "button", class: "act", hidden: true,
    "aria-label": L(throwLabel(k)), onclick: () => entry.act("draw", { seat: n, count: k }) },
  throwLabel(k))) : [];
  const send = (a) => {
    const fields = { seat: n };
    if ((a === "bet" || a === "raise") && !amount.value.trim()) { entry.say(`Type an amount to ${a}`, true); amount.focus(); return; }
    if (WITH_AMOUNT.has(a) && amount.value.trim()) {
      const c = parseDollars(amount.value);
      if (c === null) { entry.say("An amount in dollars, like 5 or 5.00", true); return; }
      fields.amount = c;
    }
    if (a === "draw") fields.discards = discards.value.split(/[\s,]+/).filter(Boolean);
    // Once taken, an amount or a discard is not sent again with the next decision.
    entry.act(a, fields).then((done) => {
      if (done && WITH_AMOUNT.has(a)) amount.value = "";
      if (done && a === "draw") discards.value = "";
    });
  };
  const buttons = new Map((SEAT_ACTIONS[t.game] || []).map((a) => [a, h("button", { type: "button", class: "act", hidden: true, "aria-label": L(LABEL[a]), onclick: () => send(a) }, LABEL[a])]));
  if (counted) buttons.delete("draw"); // the throws stand for it
  const controls = h("div", { class: "tile-acts", role: "group", "aria-label": `Act for seat ${n} at ${t.name}`, hidden: true },
    amountField, discardField, ...buttons.values(), ...throws);
  const el = h("div", { class: "tile", role: "group", "aria-label": `Seat ${n} at ${t.name}`, dataset: { seat: n } }, info, controls);
  let legal = [];
  return {
    el,
    controls,
    legal: () => legal.length > 0,
    update(seat, rs, rd) {
      legal = seat.legal_actions || [];
      for (const [a, b] of buttons) b.hidden = !legal.includes(a);
      amountField.hidden = !legal.some((a) => WITH_AMOUNT.has(a));
      if (discardField) discardField.hidden = !legal.includes("draw");
      const four = !entry.rules || entry.rules.ace_discard !== false;
      throws.forEach((b, i) => { b.hidden = !legal.includes("draw") || (THROWS[i] === 4 && !four); });
      controls.hidden = !legal.length;
      const acting = Boolean(rd) && rd.to_act === n;
      el.classList.toggle("acting", acting);
      const kind = seat.bot ? "bot" : seat.walk_in ? "walk-in" : seat.dealer_acts ? "dealer acts" : "own phone";
      const stack = rs ? rs.stack : seat.stack;
      const bet = !rs ? 0 : t.game === "poker" ? rs.total : rs.hands.length ? rs.hands.reduce((a, x) => a + x.bet, 0) : rs.bet;
      const parts = [h("div", { class: "tile-head" }, h("strong", {}, `Seat ${n}: ${seat.player}`),
        h("span", { class: `tag kind${seat.walk_in ? " walk-in" : ""}` }, kind), acting ? h("span", { class: "tag to-act" }, "to act") : null,
        acting ? entry.timer(n) : null,
        seat.sitting_out ? h("span", { class: "tag" }, "sitting out") : null),
      h("div", { class: "tile-money" }, h("span", {}, `Chips ${money(stack)}`), bet ? h("span", { class: "bet" }, `Bet ${money(bet)}`) : null,
        rs && rs.insurance ? h("span", {}, `Insurance ${money(rs.insurance)}`) : null)];
      if (seat.sale) parts.push(h("div", { class: "tag sale", role: "status" }, saleText(seat.sale)));
      if (rs && t.game === "blackjack") {
        // A split's hands stand side by side in the tile (on a crowded tablet), each with its
        // total, its bet and how it ended.
        const split = rs.hands.length > 1;
        parts.push(h("div", { class: "tile-hands" }, rs.hands.map((hand) => {
          const flags = [hand.doubled && "doubled", hand.bust && "bust", hand.blackjack && "blackjack", hand.surrendered && "surrendered"].filter(Boolean);
          const outcome = hand.outcome ? OUTCOME[hand.outcome] || hand.outcome : null;
          if (outcome && !flags.includes(outcome)) flags.push(outcome);
          const now = acting && rd.acting_hand === hand.index;
          return h("div", { class: now ? "tile-hand now" : "tile-hand", ...(split ? { role: "group", "aria-label": `Hand ${hand.index + 1}` } : {}) },
            cards(hand.cards, { small: true }),
            h("span", { class: "hand-text" }, h("span", { class: "total" }, hand.cards.length ? `${hand.soft && !hand.blackjack ? "soft " : ""}${hand.total}` : ""),
              split ? h("span", { class: "hand-bet" }, ` ${money(hand.bet)}`) : null,
              flags.length ? h("span", { class: "flags" }, ` ${flags.join(", ")}`) : null));
        })));
        if (rs.left) parts.push(h("div", { class: "muted" }, "left the table"));
      } else if (rs) {
        // At a real-cards table: what the seat threw and drew, and a hand the showdown flagged.
        const flagged = Boolean(rs.flag) && !rs.dead;
        const drew = rs.drew === undefined || rs.drew === null ? "" : rs.drew === 0 ? "stood pat"
          : `drew ${rs.drew}${rs.drew === 4 && !flagged ? ", an Ace shown" : ""}`;
        parts.push(h("div", { class: "tile-hand" }, rs.cards && rs.cards.length ? cards(rs.cards, { small: true }) : null,
          h("span", { class: "hand-text" }, h("span", { class: "total" }, rs.folded ? "folded" : rs.dead ? "dead hand" : rs.value || drew),
            flagged ? h("span", { class: "flags flagged" }, ": no Ace in the hand") : null,
            rs.won ? h("span", { class: "flags" }, ` won ${money(rs.won)}`) : null)));
      }
      info.replaceChildren(...parts);
    },
  };
}

/** A chip sale above the event's limit, as the dealer's screens say it: no chip has moved. */
function saleText(sale) {
  return sale.status === "approved" ? `${money(sale.amount)} approved: the chips come when this round is over`
    : `${money(sale.amount)} waiting for a pit boss's approval`;
}

function liveLine(entry) {
  const s = entry.state;
  if (!s) return "connecting…";
  const rd = s.round;
  return `${s.seats.length} seated${s.seats.length ? ` (${s.seats.map((x) => x.player).join(", ")})` : ""}; ` +
    (rd ? `${handTitle(s).toLowerCase()}: ${rd.phase.replace(/_/g, " ")}` : "no round yet");
}

/** Auto-deal as the state says (`table.auto_deal`, once the server sends it), else as this
 * console last set it (acknowledged by the server). */
function autoLine(entry) {
  const fromState = entry.state && entry.state.table.auto_deal;
  const secs = fromState !== undefined ? fromState : entry.auto;
  if (secs === undefined) return "Auto-deal: not set from this console";
  return secs === null ? "Auto-deal: off" : `Auto-deal: on, dealt ${secs} s after a round opens`;
}

/** The table's join code: a button that shows the QR code of the table's page, large, for a
 * player's phone to scan (drawn by the server: GET /tables/{id}/qr.svg, which says the address in
 * its title). */
function joinCode(t) {
  const code = qrCode(`/tables/${t.id}/qr.svg`);
  const close = h("button", { type: "button", class: "primary" }, "Close");
  const dialog = h("dialog", { class: "join", "aria-labelledby": `join-h-${t.id}` },
    h("h2", { id: `join-h-${t.id}` }, `Scan to join ${t.name}`), code.img, code.text, close);
  close.addEventListener("click", () => dialog.close());
  const button = h("button", { type: "button", "aria-label": `Show the join code of ${t.name}`, onclick: () => {
    dialog.showModal();
    code.load();
  } }, "Join code");
  return { button, dialog };
}

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = [["s", "♠", "spades"], ["h", "♥", "hearts"], ["d", "♦", "diamonds"], ["c", "♣", "clubs"]];

/** The card entry of a real-cards table. Blackjack: 13 rank buttons, one tap a card (a suit may
 * be chosen first: it changes nothing at Blackjack). Draw: 52 buttons, a row per suit, one tap a
 * card. Either: type the card ("Ah", "10", "K") and press Enter. */
function cardPad(t, entry) {
  const L = (x) => `${x} at ${t.name}`;
  const bj = t.game === "blackjack";
  const awaited = h("p", { class: "awaited", id: `need-${t.id}`, "aria-live": "assertive", "aria-atomic": "true" });
  const refusal = h("p", { class: "error refusal", role: "alert" });
  const hint = h("p", { class: "hint", role: "status" });
  // Draw: the deck and the muck as the room counts them (no card named), and the dealer's ruling
  // on a hand the showdown flagged (a four-card draw shown down without an Ace).
  const deck = bj ? null : h("p", { class: "deck", "aria-label": L("Deck") });
  const rule = async (dead) => {
    const rd = entry.state && entry.state.round;
    refusal.textContent = "";
    try {
      await entry.sock.act("ruling", { seat: rd && rd.ruling_needed, dead });
      entry.say(dead ? "the hand is dead" : "the hand stands");
    } catch (e) { refusal.textContent = inWords(e); refusal.dataset.rule = e.rule; }
  };
  const dead = bj ? null : h("button", { type: "button", class: "danger", onclick: () => rule(true) }, "Dead hand");
  const stands = bj ? null : h("button", { type: "button", onclick: () => rule(false) }, "The hand stands");
  const ruling = bj ? null : h("div", { class: "ruling", role: "group", "aria-label": L("Ruling"), hidden: true }, dead, stands);
  const used = new Map(); // at draw: the cards entered in this hand, and whose hand holds each
  let suit = null;
  const suitButtons = bj ? SUITS.map(([code, sym, word]) => h("button", { type: "button", class: `suit suit-${code}`, "aria-pressed": "false", "aria-label": `Suit ${word} (optional)`,
    onclick: (ev) => { suit = suit === code ? null : code; for (const b of suitButtons) b.setAttribute("aria-pressed", String(b === ev.currentTarget && suit !== null)); } }, sym)) : [];
  const send = async (card) => {
    refusal.textContent = "";
    try {
      await entry.sock.act("card", { card });
      entry.say(""); // the card is on the felt and on the screen (never named here: the hole card)
    } catch (e) {
      // Only the dealer hears a refusal (it could tell the hole card): say it here, loudly.
      refusal.textContent = `${card}: ${inWords(e)}`;
      refusal.dataset.rule = e.rule;
    }
  };
  const tap = (rank, s) => { const c = rank + (s || ""); suit = null; for (const b of suitButtons) b.setAttribute("aria-pressed", "false"); send(c); };
  // Draw: a card already entered in this hand is dimmed and refused here, naming whose it is.
  const tapCard = (r, code, sym) => {
    const seat = used.get(`${r === "10" ? "T" : r}${code}`);
    if (seat === undefined) { tap(r, code); return; }
    refusal.textContent = `${r}${sym}: already entered in seat ${seat}'s hand: one deck holds one of each card`;
  };
  const cardButtons = new Map(); // "Ts" → its button
  const pad = bj
    ? h("div", { class: "rank-pad", role: "group", "aria-label": L("Rank pad") }, RANKS.map((r) => h("button", { type: "button", class: "rank", onclick: () => tap(r, suit) }, r)))
    : h("div", { class: "card-grid", role: "group", "aria-label": L("Card pad") }, SUITS.map(([code, sym, word]) =>
      h("div", { class: `suit-row suit-${code}`, role: "group", "aria-label": word }, RANKS.map((r) => {
        const b = h("button", { type: "button", class: "rank", "aria-label": `${r}${sym}`, onclick: () => tapCard(r, code, sym) }, `${r}${sym}`);
        cardButtons.set(`${r === "10" ? "T" : r}${code}`, b);
        return b;
      }))));
  const typed = h("input", { autocomplete: "off", autocapitalize: "characters", spellcheck: "false", placeholder: bj ? "K, 10, As" : "Ah, 10h" });
  const form = h("form", { class: "inline typed", "aria-label": L("Type a card") }, h("label", { class: "field" }, "Type a card", typed), h("button", { type: "submit" }, "Enter card"));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); const c = typed.value.trim(); if (c) { typed.value = ""; send(c); } });
  // The prompt and the message under the pad keep their height whatever they say: the pad never
  // moves under the dealer's finger.
  const el = h("section", { class: "card-entry", "aria-label": L("Cards") }, awaited, ruling,
    bj ? h("div", { class: "suits", role: "group", "aria-label": L("Suit") }, suitButtons) : null, pad,
    h("div", { class: "pad-message" }, refusal, hint), deck);
  const update = () => {
    const s = entry.state;
    const rd = s && s.round;
    const need = rd && rd.card_needed_text;
    // What the dealer deals now at a real-cards draw table (face down: counted, never entered).
    const dealing = rd && rd.deal_text ? rd.deal_text[0].toUpperCase() + rd.deal_text.slice(1) : null;
    // The dealer's to do, highlighted: a card to enter, a ruling, the deck running out at a draw.
    el.classList.toggle("waiting", Boolean(need || (rd && (rd.ruling_text || (rd.to_deal && rd.to_deal.from_muck)))));
    const text = need ? `Next card: ${need}` : rd && rd.ruling_text ? `Ruling: ${rd.ruling_text}`
      : !rd ? (s && s.table.voided ? `${s.table.voided_hand_id ? `Hand ${s.table.voided_hand_id}` : "The hand"} was voided (misdeal): start the next one` : "No hand in play")
        : rd.to_act ? (dealing ? `${dealing}; then seat ${rd.to_act} to act` : `No card needed: seat ${rd.to_act} to act`)
          : rd.phase === "betting" ? "Bets are open: deal when they are in"
            : OVER.has(rd.phase) ? `${handTitle(s)} is over: pay out, then start the next` : "No card needed";
    if (awaited.textContent !== text) awaited.textContent = text; // a live region: say it once
    const empty = need && rd.shoe && rd.shoe.entered && rd.shoe.remaining <= 0;
    const say = empty ? "The shoe is empty: shuffle the discards in" : "";
    if (hint.textContent !== say) hint.textContent = say;
    if (bj) return;
    ruling.hidden = !(rd && rd.ruling_needed);
    if (rd && rd.ruling_needed) {
      dead.setAttribute("aria-label", `Seat ${rd.ruling_needed}'s hand is dead at ${t.name}`);
      stands.setAttribute("aria-label", `Seat ${rd.ruling_needed}'s hand stands at ${t.name}`);
    }
    deck.textContent = rd && rd.deck && !OVER.has(rd.phase) ? `Deck: ${rd.deck.left} left, ${rd.deck.mucked} in the muck` : "";
    used.clear();
    for (const x of (rd && rd.seats) || []) for (const c of x.cards || []) if (c !== "??") used.set(c, x.seat);
    for (const [c, b] of cardButtons) {
      const on = used.has(c);
      if (b.classList.contains("used") !== on) {
        b.classList.toggle("used", on);
        b.setAttribute("aria-disabled", String(on));
      }
    }
  };
  update();
  return { el, typed: form, update, say: (x) => { refusal.textContent = x; } };
}

/** What is set up between rounds: the table's status, auto-deal, bots, the ante; seating a
 * walk-in, selling them chips and cashing them out. Its inputs keep what is typed. */
function setupPanel(t, entry, id) {
  const L = (x) => `${x} at ${t.name}`;
  const act = (...a) => entry.act(...a);
  const status = async (s) => {
    try { await api("POST", `/api/tables/${t.id}/status`, { status: s }); await refresh(); } catch (e) { entry.say(inWords(e), true); }
  };
  const bots = h("input", { type: "number", min: "1", max: String(t.seats), value: "1", "aria-label": L("Bots to seat") });
  // Each bot's chips, from the house float: blank is the default, 100 maximum bets (the
  // placeholder says how much once the table's state has come).
  const botChips = h("input", { inputmode: "decimal", "aria-label": `Chips per bot at ${t.name}, dollars` });
  const seatBots = () => {
    const typed = botChips.value.trim();
    const c = typed ? parseDollars(typed) : null;
    if (typed && c === null) { entry.say("Chips per bot: an amount in dollars, like 50 or 50.00 (blank: 100 maximum bets)", true); return; }
    act("add_bots", c === null ? { count: Number(bots.value) } : { count: Number(bots.value), amount: c });
  };
  const ante = h("input", { inputmode: "decimal", "aria-label": `New ante at ${t.name}, dollars`, placeholder: "1.00" });
  const auto = h("input", { type: "number", min: "1", max: "600", step: "1", value: "15", "aria-label": `Auto-deal betting window at ${t.name}, seconds` });
  const walkSeat = h("input", { type: "number", min: "1", max: String(t.seats), value: "1" });
  const walkName = h("input", { autocomplete: "off" });
  const walkChips = h("input", { inputmode: "decimal", placeholder: "20.00" });
  const autoStatus = h("p", { id: `auto-${t.id}`, role: "status", "aria-label": L("Auto-deal") });
  const clockPick = h("select", { "aria-label": `Turn clock at ${t.name}` }, h("option", { value: "off" }, "Off"),
    CLOCKS.map((c) => h("option", { value: String(c) }, clockWords(c))));
  const clockStatus = h("p", { id: `clock-${t.id}`, role: "status", "aria-label": L("Turn clock") });
  const setAuto = async (seconds) => {
    try {
      await entry.sock.act("auto_deal", { seconds });
      entry.auto = seconds;
      autoStatus.textContent = autoLine(entry);
      entry.say(`auto-deal ${seconds === null ? "stopped" : `every ${seconds} s`}`);
    } catch (e) { entry.say(inWords(e), true); }
  };
  const pause = h("button", { type: "button", onclick: () => status(entry.table.status === "open" ? "paused" : "open") });
  const walkIn = h("form", { class: "inline", "aria-label": `Seat a walk-in at ${t.name}` },
    h("label", { class: "field" }, "Seat", walkSeat), h("label", { class: "field" }, "Walk-in's name", walkName),
    h("label", { class: "field" }, "Chips bought ($)", walkChips),
    h("button", { type: "submit", class: "primary" }, "Seat a walk-in"));
  walkIn.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const c = parseDollars(walkChips.value);
    if (c === null) { entry.say("Chips bought: an amount in dollars, like 20 or 20.00", true); return; }
    act("seat_walk_in", { seat: Number(walkSeat.value), name: walkName.value.trim(), amount: c });
  });
  const walkIns = h("div", { class: "walk-ins", role: "group", "aria-label": L("Walk-ins' chips") });
  const rows = new Map(); // seat → its row, made once
  const walkInRow = (n) => {
    const chips = h("input", { inputmode: "decimal", placeholder: "20.00", "aria-label": `Chips to sell at seat ${n} of ${t.name}, dollars` });
    const who = h("span", { class: "who" });
    const row = h("div", { class: "walk-in-row" }, who, h("label", { class: "field" }, "Sell chips ($)", chips),
      h("button", { type: "button", "aria-label": `Sell chips at seat ${n} of ${t.name}`, onclick: () => {
        const c = parseDollars(chips.value);
        if (c === null) { entry.say("Chips in dollars, like 20 or 20.00", true); return; }
        act("sell_chips", { seat: n, amount: c });
      } }, "Sell chips"),
      h("button", { type: "button", class: "danger", "aria-label": `Cash out seat ${n} of ${t.name}`, onclick: () => {
        const seat = entry.state.seats.find((x) => x.seat === n);
        if (seat && confirm(`Cash ${seat.player} out at ${t.name}? Pay them ${money(seat.stack)} in cash.`)) act("cash_out_walk_in", { seat: n });
      } }, "Cash out"));
    return { row, who };
  };
  const controls = h("div", { class: "actions", role: "group", "aria-label": L("Controls") },
    pause,
    h("button", { type: "button", class: "danger", "aria-label": L("Close"), onclick: () => { if (confirm(`Close ${t.name}?`)) status("closed"); } }, "Close"),
    h("label", { class: "field" }, "Auto-deal window (s)", auto),
    h("button", { type: "button", "aria-label": L("Turn auto-deal on"), onclick: () => {
      const n = Number(auto.value);
      if (!(n > 0 && n <= 600)) { entry.say("Auto-deal: a betting window from 1 to 600 seconds", true); return; }
      setAuto(n);
    } }, "Auto-deal on"),
    h("button", { type: "button", "aria-label": L("Turn auto-deal off"), onclick: () => setAuto(null) }, "Auto-deal off"),
    h("label", { class: "field" }, "Turn clock", clockPick),
    h("button", { type: "button", "aria-label": L("Set the turn clock"), onclick: () => act("turn_clock", { seconds: clockPick.value === "off" ? null : Number(clockPick.value) }) }, "Set the clock"),
    h("label", { class: "field" }, "Bots to seat", bots), h("label", { class: "field" }, "Chips per bot ($)", botChips),
    h("button", { type: "button", "aria-label": L("Seat bots"), onclick: seatBots }, "Seat bots"),
    h("button", { type: "button", "aria-label": L("Remove bots"), onclick: () => act("remove_bots") }, "Remove bots"),
    t.game === "poker" ? [h("label", { class: "field" }, "New ante ($)", ante), h("button", { type: "button", "aria-label": L("Propose ante"), onclick: () => {
      const c = parseDollars(ante.value);
      if (c === null) { entry.say("An ante in dollars, like 1.00", true); return; }
      act("propose_ante", { amount: c });
    } }, "Propose ante")] : null);
  const el = h("div", { class: "tv-setup", id, role: "group", "aria-label": L("Setup") }, controls, autoStatus, clockStatus, walkIn, walkIns);
  el.update = () => {
    autoStatus.textContent = autoLine(entry);
    const s = entry.state;
    const clock = s ? s.table.turn_clock : undefined;
    if (clock !== undefined && !clockPick.dataset.shown) { // the clock in force, once: then what the dealer picks
      const v = clock === null ? "off" : String(clock);
      if (![...clockPick.options].some((o) => o.value === v)) clockPick.append(h("option", { value: v }, clockWords(clock)));
      clockPick.value = v;
      clockPick.dataset.shown = "1";
    }
    clockStatus.textContent = clock === undefined ? "" : clock === null
      ? "Turn clock: off (no one is hurried: the table never decides for a player)"
      : `Turn clock: ${clockWords(clock)} a decision, then the table decides (stand, no insurance; check, fold)`;
    if (s) botChips.placeholder = (100 * s.table.max_bet / 100).toFixed(2);
    const list = s ? s.seats.filter((x) => x.walk_in) : [];
    const order = list.map((seat) => {
      if (!rows.has(seat.seat)) rows.set(seat.seat, walkInRow(seat.seat));
      const r = rows.get(seat.seat);
      r.who.textContent = `Seat ${seat.seat}: ${seat.player}, ${money(seat.stack)}${seat.sale ? ` (${saleText(seat.sale)})` : ""}`;
      return r.row;
    });
    const now = [...walkIns.children];
    if (now.length !== order.length || now.some((x, i) => x !== order[i])) walkIns.replaceChildren(...order);
  };
  el.setRow = (row) => {
    const open = row.status === "open";
    pause.textContent = open ? "Pause" : "Resume";
    pause.setAttribute("aria-label", L(open ? "Pause" : "Resume"));
  };
  el.update();
  return el;
}

main().catch((e) => toast(e.message, true));
