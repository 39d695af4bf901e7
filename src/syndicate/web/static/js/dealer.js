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
import { api, eventId, h, headerBar, money, parseDollars, qrCode, signInForm, toast, whoAmI } from "./common.js";
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
const OUTCOME = { win: "wins", lose: "loses", push: "push", blackjack: "blackjack", bust: "bust",
  surrender: "surrendered", even_money: "even money" };
const OVER = new Set(["settled", "complete"]);
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
  const name = h("input", { name: "name", required: true, value: `${me.account.name}'s` });
  const game = h("select", { name: "game" }, h("option", { value: "blackjack" }, "Blackjack"), h("option", { value: "poker" }, "Five-card draw"));
  const preset = h("select", { name: "preset" }, presets.blackjack.map((p) => h("option", { value: p.name }, `${p.name}: ${p.summary}`)));
  const minBet = h("input", { name: "min_bet", inputmode: "decimal" });
  const maxBet = h("input", { name: "max_bet", inputmode: "decimal" });
  const decks = h("input", { name: "decks", type: "number", min: "1", max: "8" });
  const ante = h("input", { name: "ante", inputmode: "decimal" });
  const extra = h("input", { name: "overrides", placeholder: "key=value, key=value" });
  const cards = h("select", { name: "cards" }, h("option", { value: "shuffled" }, "Shuffled by the server"),
    h("option", { value: "real" }, "Real cards (I deal and enter them)"));
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
  game.addEventListener("change", applyPreset);
  preset.addEventListener("change", applyPreset);
  applyPreset();
  const form = h("form", { class: "inline card-box", "aria-label": "Open a table" },
    h("label", { class: "field" }, "Table name", name), h("label", { class: "field" }, "Game", game),
    h("label", { class: "field" }, "Cards", cards), bjOnly, pkOnly,
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
    try {
      const t = await api("POST", "/api/tables", { name: name.value, game: game.value,
        preset: game.value === "blackjack" ? preset.value : null, overrides, cards: cards.value });
      toast(`Table ${t.name} is open`);
      await refresh();
    } catch (e) { msg.textContent = `${e.message} (${e.rule})`; }
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
    if (!tablet) { toast(bad ? text : `${t.name}: ${text}`, bad); return; }
    note.textContent = bad ? "" : text;
    alarm.textContent = bad ? text : "";
  };
  entry.act = async (action, fields = {}) => {
    try {
      await entry.sock.act(action, fields);
      // A sale above the event's limit was asked for, not made: say so, not "sold".
      const seat = entry.state && fields.seat ? entry.state.seats.find((x) => x.seat === fields.seat) : null;
      const asked = (action === "seat_walk_in" || action === "sell_chips") && seat && seat.sale && seat.sale.status === "pending";
      entry.say(asked ? `seat ${fields.seat}: ${money(seat.sale.amount)} for ${seat.player} waits for a pit boss's approval: no chips yet`
        : `${fields.seat ? `seat ${fields.seat}: ` : ""}${action.replace(/_/g, " ")}${fields.amount ? ` ${money(fields.amount)}` : ""}`);
      return true;
    } catch (e) { entry.say(`${e.message} (${e.rule})`, true); return false; }
  };
  entry.sock = new TableSocket(t.id, { onMessage: (m) => {
    if (m.type === "welcome" || m.type === "state") { entry.state = m; update(); }
  } });

  const title = h("h3", {});
  const live = h("p", { id: `live-${t.id}`, class: "live" });
  const join = joinCode(t);
  const setupId = `setup-${t.id}`;
  const toggle = tablet ? h("button", { type: "button", class: "setup-toggle", "aria-expanded": "false", "aria-controls": setupId,
    onclick: () => showSetup(setup.hidden) }, "Setup") : null;
  const head = h("div", { class: "tv-head" }, h("div", { class: "tv-title" }, title, live, note, alarm),
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
    try { await entry.sock.act(action); entry.say(done); } catch (e) { if (pad) pad.say(`${e.message} (${e.rule})`); else entry.say(`${e.message} (${e.rule})`, true); }
  };
  const corrections = pad ? [
    button("Take back the last card", "Take back", () => fix("take_back", "card taken back")),
    button("Declare a misdeal", "Misdeal", () => {
      if (confirm(`Declare a misdeal at ${t.name}? The hand is void and every bet goes back.`)) fix("misdeal", "misdeal: the hand is void");
    }, "danger"),
    t.game === "blackjack" ? button("New shoe", "New shoe", () => {
      if (confirm(`A new shoe at ${t.name}? The card count starts again.`)) fix("new_shoe", "new shoe");
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
      corrections[0].disabled = !inPlay;
      corrections[1].disabled = !inPlay;
      if (corrections[2]) corrections[2].disabled = inPlay;
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
    barLabel.textContent = inBar ? `Seat ${inBar.seat}: ${inBar.player} to act` : "";
    if (!s.seats.length) order.push(h("p", { class: "muted empty-note" }, tablet ? "No one is seated: Setup seats a walk-in; a player with a phone scans the join code." : "No one is seated."));
    const now = [...seatsBox.children];
    if (now.length !== order.length || now.some((x, i) => x !== order[i])) seatsBox.replaceChildren(...order);
    const list = rd && rd.payouts;
    payouts.hidden = !list;
    if (list) {
      // Each line names the player too: the dealer pays people, not seat numbers.
      const who = new Map(s.seats.map((x) => [x.seat, x.player]));
      const named = (p) => (p.seat !== null && who.has(p.seat) ? p.text.replace(`seat ${p.seat}:`, `seat ${p.seat} (${who.get(p.seat)}):`) : p.text);
      // What the dealer must do first (each payment, in the list's order, and a carry to leave in
      // the middle), then the seats with nothing to pay or take: a crowded table's box may scroll.
      const idle = (p) => p.amount === 0 && p.seat !== null;
      const moves = [...list.filter((p) => !idle(p)), ...list.filter(idle)];
      payouts.replaceChildren(h("h4", {}, `Pay out hand ${s.hand}`), h("ul", {}, moves.map((p) => h("li", { class: p.amount > 0 ? "pay" : p.amount < 0 ? "take" : "" }, named(p)))));
    }
  }

  entry.sock.connect();
  update();
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
      h("span", { class: "total" }, hidden ? `shows ${d.total}` : `${d.total}${d.blackjack ? ", blackjack" : ""}`)) : h("div", { class: "muted" }, "no cards yet"));
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
  const discardField = t.game === "poker" ? h("label", { class: "field" }, "Discards", discards) : null;
  const send = (a) => {
    const fields = { seat: n };
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
  const controls = h("div", { class: "tile-acts", role: "group", "aria-label": `Act for seat ${n} at ${t.name}`, hidden: true },
    amountField, discardField, ...buttons.values());
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
      controls.hidden = !legal.length;
      const acting = Boolean(rd) && rd.to_act === n;
      el.classList.toggle("acting", acting);
      const kind = seat.walk_in ? "walk-in" : seat.dealer_acts ? "dealer acts" : "own phone";
      const stack = rs ? rs.stack : seat.stack;
      const bet = !rs ? 0 : t.game === "poker" ? rs.total : rs.hands.length ? rs.hands.reduce((a, x) => a + x.bet, 0) : rs.bet;
      const parts = [h("div", { class: "tile-head" }, h("strong", {}, `Seat ${n}: ${seat.player}`),
        h("span", { class: `tag kind${seat.walk_in ? " walk-in" : ""}` }, kind), acting ? h("span", { class: "tag to-act" }, "to act") : null,
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
        parts.push(h("div", { class: "tile-hand" }, rs.cards && rs.cards.length ? cards(rs.cards, { small: true }) : null,
          h("span", { class: "hand-text" }, h("span", { class: "total" }, rs.folded ? "folded" : rs.value || ""),
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
    (rd ? `hand ${s.hand}: ${rd.phase.replace(/_/g, " ")}` : "no round yet");
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
      refusal.textContent = `${card}: ${e.message} (${e.rule})`;
    }
  };
  const tap = (rank, s) => { const c = rank + (s || ""); suit = null; for (const b of suitButtons) b.setAttribute("aria-pressed", "false"); send(c); };
  const pad = bj
    ? h("div", { class: "rank-pad", role: "group", "aria-label": L("Rank pad") }, RANKS.map((r) => h("button", { type: "button", class: "rank", onclick: () => tap(r, suit) }, r)))
    : h("div", { class: "card-grid", role: "group", "aria-label": L("Card pad") }, SUITS.map(([code, sym, word]) =>
      h("div", { class: `suit-row suit-${code}`, role: "group", "aria-label": word }, RANKS.map((r) => h("button", { type: "button", class: "rank", "aria-label": `${r}${sym}`, onclick: () => tap(r, code) }, `${r}${sym}`)))));
  const typed = h("input", { autocomplete: "off", autocapitalize: "characters", spellcheck: "false", placeholder: bj ? "K, 10, As" : "Ah, 10h" });
  const form = h("form", { class: "inline typed", "aria-label": L("Type a card") }, h("label", { class: "field" }, "Type a card", typed), h("button", { type: "submit" }, "Enter card"));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); const c = typed.value.trim(); if (c) { typed.value = ""; send(c); } });
  const el = h("section", { class: "card-entry", "aria-label": L("Cards") }, awaited,
    bj ? h("div", { class: "suits", role: "group", "aria-label": L("Suit") }, suitButtons) : null, pad, refusal);
  const update = () => {
    const s = entry.state;
    const rd = s && s.round;
    const need = rd && rd.card_needed_text;
    el.classList.toggle("waiting", Boolean(need));
    const text = need ? `Next card: ${need}` : !rd ? (s && s.table.voided ? `Hand ${s.table.voided} was voided (misdeal): start the next one` : "No hand in play")
      : rd.to_act ? `No card needed: seat ${rd.to_act} to act` : rd.phase === "betting" ? "Bets are open: deal when they are in"
        : OVER.has(rd.phase) ? `Hand ${s.hand} is over: pay out, then start the next` : "No card needed";
    if (awaited.textContent !== text) awaited.textContent = text; // a live region: say it once
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
    try { await api("POST", `/api/tables/${t.id}/status`, { status: s }); await refresh(); } catch (e) { entry.say(`${e.message} (${e.rule})`, true); }
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
  const setAuto = async (seconds) => {
    try {
      await entry.sock.act("auto_deal", { seconds });
      entry.auto = seconds;
      autoStatus.textContent = autoLine(entry);
      entry.say(`auto-deal ${seconds === null ? "stopped" : `every ${seconds} s`}`);
    } catch (e) { entry.say(`${e.message} (${e.rule})`, true); }
  };
  const pause = h("button", { type: "button", onclick: () => status(entry.table.status === "open" ? "paused" : "open") });
  const walkIn = h("form", { class: "inline", "aria-label": `Seat a walk-in at ${t.name}` },
    h("label", { class: "field" }, "Seat", walkSeat), h("label", { class: "field" }, "Walk-in's name", walkName),
    h("label", { class: "field" }, "Chips bought ($)", walkChips),
    h("button", { type: "submit", class: "primary" }, "Seat walk-in"));
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
    h("label", { class: "field" }, "Bots to seat", bots), h("label", { class: "field" }, "Chips per bot ($)", botChips),
    h("button", { type: "button", "aria-label": L("Seat bots"), onclick: seatBots }, "Seat bots"),
    h("button", { type: "button", "aria-label": L("Remove bots"), onclick: () => act("remove_bots") }, "Remove bots"),
    t.game === "poker" ? [h("label", { class: "field" }, "New ante ($)", ante), h("button", { type: "button", "aria-label": L("Propose ante"), onclick: () => {
      const c = parseDollars(ante.value);
      if (c === null) { entry.say("An ante in dollars, like 1.00", true); return; }
      act("propose_ante", { amount: c });
    } }, "Propose ante")] : null);
  const el = h("div", { class: "tv-setup", id, role: "group", "aria-label": L("Setup") }, controls, autoStatus, walkIn, walkIns);
  el.update = () => {
    autoStatus.textContent = autoLine(entry);
    const s = entry.state;
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
