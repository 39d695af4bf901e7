// The dealer console: open a table from a preset with overrides, then for each of your tables
// start rounds, deal, pause, resume, close, seat or remove bots, propose an ante change; seat a
// walk-in by name, sell them chips, cash them out, and act for a walk-in's seat (or a player's
// who lets the dealer act for them: docs/walk-ins.md).
// Table actions go over the table's WebSocket, like every other action.
// At a table with real cards the console also enters each card as it lands (docs/dealer.md):
// the awaited card is highlighted and announced, one tap enters it, and the payouts are listed
// when a hand is over.
import { api, h, headerBar, money, parseDollars, signInForm, toast, whoAmI, eventId } from "./common.js";
import { TableSocket } from "./socket.js";

/** The games' names as every page shows them. */
const GAMES = { blackjack: "Blackjack", poker: "Five-card draw" };
/** What the dealer may enter for a seat, per game (the engine refuses what is not legal now). */
const SEAT_ACTIONS = {
  blackjack: ["bet", "hit", "stand", "double", "split", "surrender", "insurance", "no_insurance", "even_money", "play_on"],
  poker: ["check", "call", "bet", "raise", "fold", "stand_pat", "draw"],
};
/** The actions that take the amount field (the others ignore it). */
const WITH_AMOUNT = new Set(["bet", "raise", "double", "insurance"]);
const socks = new Map(); // table id → {sock, state}
let me = null;

async function main() {
  me = await whoAmI();
  document.getElementById("header").replaceWith(Object.assign(headerBar("Dealer console", me), { id: "header" }));
  const main = document.getElementById("main");
  if (!me) { main.replaceChildren(h("h2", {}, "Sign in"), signInForm(() => location.reload())); return; }
  const presets = await api("GET", "/api/presets");
  main.replaceChildren(openForm(presets), h("section", { "aria-labelledby": "mine-h" }, h("h2", { id: "mine-h" }, "Your tables"), h("div", { id: "mine" })));
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

async function refresh() {
  const ev = await eventId();
  const tables = (await api("GET", `/api/events/${ev}/lobby`)).filter((t) => t.dealer_id === me.account.id || me.account.role !== "dealer");
  const box = document.getElementById("mine");
  if (!tables.length) { box.replaceChildren(h("p", { class: "muted" }, "No open table.")); return; }
  // The boxes are redrawn around the inputs and the card pad they keep: whatever had the focus
  // (a card being typed, say) gets it back in the same task, so no key is lost to the redraw.
  const focused = document.activeElement;
  box.replaceChildren(...tables.map(tableBox));
  if (focused && focused !== document.body && focused.isConnected && document.activeElement !== focused) focused.focus();
}

function ensureSocket(t) {
  if (socks.has(t.id)) return socks.get(t.id);
  const entry = { state: null, auto: undefined, inputs: null };
  entry.sock = new TableSocket(t.id, { onMessage: (m) => {
    if (m.type === "welcome" || m.type === "state") { entry.state = m; showLive(t.id, entry); }
    if (m.type === "payouts") { entry.payouts = m; showLive(t.id, entry); }
  } });
  entry.sock.connect();
  socks.set(t.id, entry);
  return entry;
}

function showLive(id, entry) {
  if (entry.pad) entry.pad.update();
  const el = document.getElementById(`live-${id}`);
  if (el) el.replaceChildren(liveLine(entry));
  const auto = document.getElementById(`auto-${id}`);
  if (auto) auto.replaceChildren(autoLine(entry));
  const seats = document.getElementById(`seats-${id}`);
  if (seats) seats.replaceChildren(...seatControls(entry));
}

/** One group per seat: who sits there and, for a walk-in or a player who lets the dealer act,
 * the dealer's controls. The inputs are kept per seat, so a state that arrives while the dealer
 * types does not wipe what is typed. */
function seatControls(entry) {
  const s = entry.state;
  if (!s || !entry.table) return [];
  const t = entry.table;
  entry.seatInputs = entry.seatInputs || new Map();
  const rd = s.round;
  return s.seats.map((seat) => {
    const n = seat.seat;
    const L = (x) => `${x} for seat ${n} at ${t.name}`;
    if (!entry.seatInputs.has(n)) {
      entry.seatInputs.set(n, {
        chips: h("input", { inputmode: "decimal", placeholder: "20.00", "aria-label": `Chips to sell at seat ${n} of ${t.name}, dollars` }),
        amount: h("input", { inputmode: "decimal", placeholder: "5.00", "aria-label": L("Amount, dollars,") }),
        discards: h("input", { placeholder: "7h 2c", "aria-label": L("Discards") }),
      });
    }
    const inputs = entry.seatInputs.get(n);
    const kind = seat.walk_in ? "walk-in" : seat.dealer_acts ? "lets the dealer act" : "plays from their phone";
    const turn = rd && rd.to_act === n ? " — to act" : "";
    const parts = [h("span", {}, `Seat ${n}: ${seat.player}, ${money(seat.stack)} (${kind})${turn}`)];
    if (seat.walk_in) {
      parts.push(h("label", { class: "field" }, "Sell chips ($)", inputs.chips),
        h("button", { type: "button", "aria-label": `Sell chips at seat ${n} of ${t.name}`, onclick: () => {
          const c = parseDollars(inputs.chips.value);
          if (c === null) { toast("Chips in dollars, like 20 or 20.00", true); return; }
          entry.act("sell_chips", { seat: n, amount: c });
        } }, "Sell chips"),
        h("button", { type: "button", class: "danger", "aria-label": `Cash out seat ${n} of ${t.name}`, onclick: () => {
          if (confirm(`Cash ${seat.player} out at ${t.name}? Pay them ${money(seat.stack)} in cash.`)) entry.act("cash_out_walk_in", { seat: n });
        } }, "Cash out"));
    }
    if (seat.walk_in || seat.dealer_acts) {
      const act = (a) => {
        const fields = { seat: n };
        if (WITH_AMOUNT.has(a) && inputs.amount.value.trim()) {
          const c = parseDollars(inputs.amount.value);
          if (c === null) { toast("An amount in dollars, like 5 or 5.00", true); return; }
          fields.amount = c;
        }
        if (a === "draw") fields.discards = inputs.discards.value.split(/[\s,]+/).filter(Boolean);
        entry.act(a, fields);
      };
      const buttons = (SEAT_ACTIONS[t.game] || []).map((a) => h("button", { type: "button", "aria-label": L(a.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase())), onclick: () => act(a) }, a.replace(/_/g, " ")));
      parts.push(h("div", { class: "actions", role: "group", "aria-label": `Act for seat ${n} at ${t.name}` },
        h("label", { class: "field" }, "Amount ($)", inputs.amount),
        t.game === "poker" ? h("label", { class: "field" }, "Discards", inputs.discards) : null, ...buttons));
    }
    return h("div", { class: "seat-line", role: "group", "aria-label": `Seat ${n} at ${t.name}` }, ...parts);
  });
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

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = [["s", "♠", "spades"], ["h", "♥", "hearts"], ["d", "♦", "diamonds"], ["c", "♣", "clubs"]];

/** The card entry of a real-cards table: built once per table (the table's box is redrawn every
 * few seconds, the pad is not, so a half-entered card or the focus is never lost). Blackjack: 13
 * rank buttons, one tap a card (a suit may be chosen first: it changes nothing at Blackjack).
 * Draw: 52 buttons, a row per suit, one tap a card. Either: type the card ("Ah", "10", "K") and
 * press Enter. */
function cardPad(t, entry) {
  const L = (x) => `${x} at ${t.name}`;
  const bj = t.game === "blackjack";
  const awaited = h("p", { class: "awaited", id: `need-${t.id}`, "aria-live": "assertive", "aria-atomic": "true" });
  const refusal = h("p", { class: "error", role: "alert" });
  const payouts = h("section", { class: "payouts", "aria-label": L("Payouts"), hidden: true });
  let suit = null;
  const suitButtons = bj ? SUITS.map(([code, sym, word]) => h("button", { type: "button", "aria-pressed": "false", "aria-label": `Suit ${word} (optional)`,
    onclick: (ev) => { suit = suit === code ? null : code; for (const b of suitButtons) b.setAttribute("aria-pressed", String(b === ev.currentTarget && suit !== null)); } }, sym)) : [];
  const send = async (card) => {
    refusal.textContent = "";
    try {
      await entry.sock.act("card", { card });
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
  const form = h("form", { class: "inline", "aria-label": L("Type a card") }, h("label", { class: "field" }, "Type a card", typed), h("button", { type: "submit" }, "Enter card"));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); const c = typed.value.trim(); if (c) { typed.value = ""; send(c); } });
  const act = async (action, done) => {
    refusal.textContent = "";
    try { await entry.sock.act(action); toast(`${t.name}: ${done}`); } catch (e) { refusal.textContent = `${e.message} (${e.rule})`; }
  };
  const controls = h("div", { class: "actions", role: "group", "aria-label": L("Corrections") },
    h("button", { type: "button", "aria-label": L("Take back the last card"), onclick: () => act("take_back", "card taken back") }, "Take back"),
    h("button", { type: "button", class: "danger", "aria-label": L("Declare a misdeal"), onclick: () => {
      if (confirm(`Declare a misdeal at ${t.name}? The hand is void and every bet goes back.`)) act("misdeal", "misdeal: the hand is void");
    } }, "Misdeal"),
    bj ? h("button", { type: "button", "aria-label": L("New shoe"), onclick: () => {
      if (confirm(`A new shoe at ${t.name}? The card count starts again.`)) act("new_shoe", "new shoe");
    } }, "New shoe") : null);
  const el = h("section", { class: "card-entry", "aria-label": L("Cards") }, awaited,
    bj ? h("div", { class: "suits", role: "group", "aria-label": L("Suit") }, suitButtons) : null, pad, form, refusal, controls, payouts);
  const update = () => {
    const s = entry.state;
    const rd = s && s.round;
    const need = rd && rd.card_needed_text;
    el.classList.toggle("waiting", Boolean(need));
    awaited.textContent = need ? `Next card: ${need}` : !rd ? (s && s.table.voided ? `Hand ${s.table.voided} was voided (misdeal): start the next one` : "No hand in play")
      : rd.to_act ? `No card needed: seat ${rd.to_act} to act` : rd.phase === "betting" ? "Bets are open: deal when they are in"
        : rd.phase === "settled" || rd.phase === "complete" ? `Hand ${s.hand} is over: pay out, then start the next` : "No card needed";
    const list = rd && rd.payouts;
    payouts.hidden = !list;
    if (list) {
      // Each line names the player too: the dealer pays people, not seat numbers.
      const who = new Map(s.seats.map((x) => [x.seat, x.player]));
      const named = (p) => (p.seat !== null && who.has(p.seat) ? p.text.replace(`seat ${p.seat}:`, `seat ${p.seat} (${who.get(p.seat)}):`) : p.text);
      payouts.replaceChildren(h("h4", {}, `Pay out hand ${s.hand}`), h("ul", {}, list.map((p) => h("li", { class: p.amount > 0 ? "pay" : p.amount < 0 ? "take" : "" }, named(p)))));
    }
  };
  update();
  return { el, update };
}

function tableBox(t) {
  const entry = ensureSocket(t);
  const act = async (action, fields = {}) => {
    try { await entry.sock.act(action, fields); toast(`${t.name}: ${action.replace(/_/g, " ")}`); } catch (e) { toast(`${e.message} (${e.rule})`, true); }
  };
  entry.table = t;
  entry.act = act;
  const status = async (s) => {
    try { await api("POST", `/api/tables/${t.id}/status`, { status: s }); await refresh(); } catch (e) { toast(`${e.message} (${e.rule})`, true); }
  };
  // The inputs outlive the box's redraws (every few seconds), so what is typed stays.
  entry.inputs = entry.inputs || {
    bots: h("input", { type: "number", min: "1", max: String(t.seats), value: "1", "aria-label": `Bots to seat at ${t.name}` }),
    ante: h("input", { inputmode: "decimal", "aria-label": `New ante at ${t.name}, dollars`, placeholder: "1.00" }),
    auto: h("input", { type: "number", min: "1", max: "600", step: "1", value: "15", "aria-label": `Auto-deal betting window at ${t.name}, seconds` }),
    walkSeat: h("input", { type: "number", min: "1", max: String(t.seats), value: "1" }),
    walkName: h("input", { autocomplete: "off" }),
    walkChips: h("input", { inputmode: "decimal", placeholder: "20.00" }),
  };
  const { bots, ante, auto, walkSeat, walkName, walkChips } = entry.inputs;
  const walkIn = h("form", { class: "inline", "aria-label": `Seat a walk-in at ${t.name}` },
    h("label", { class: "field" }, "Seat", walkSeat), h("label", { class: "field" }, "Walk-in's name", walkName),
    h("label", { class: "field" }, "Chips bought ($)", walkChips),
    h("button", { type: "submit" }, "Seat walk-in"));
  walkIn.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const c = parseDollars(walkChips.value);
    if (c === null) { toast("Chips bought: an amount in dollars, like 20 or 20.00", true); return; }
    act("seat_walk_in", { seat: Number(walkSeat.value), name: walkName.value.trim(), amount: c });
  });
  const setAuto = async (seconds) => {
    try {
      await entry.sock.act("auto_deal", { seconds });
      entry.auto = seconds;
      showLive(t.id, entry);
      toast(`${t.name}: auto-deal ${seconds === null ? "stopped" : `every ${seconds} s`}`);
    } catch (e) { toast(`${e.message} (${e.rule})`, true); }
  };
  const L = (x) => `${x} at ${t.name}`;
  if (t.cards === "real" && !entry.pad) entry.pad = cardPad(t, entry);
  return h("section", { class: "card-box", "aria-label": t.name, dataset: { table: t.id } },
    h("h3", {}, `${t.name} `, h("span", { class: "muted" }, `(${GAMES[t.game] || t.game}, ${t.status}) ${t.summary}`)),
    entry.pad ? entry.pad.el : null,
    h("p", { id: `live-${t.id}` }, liveLine(entry)),
    h("p", { id: `auto-${t.id}`, role: "status", "aria-label": L("Auto-deal") }, autoLine(entry)),
    h("div", { class: "actions", role: "group", "aria-label": L("Controls") },
      h("a", { href: `/tables/${t.id}` }, "Go to the table"),
      h("button", { type: "button", class: "primary", "aria-label": L(t.game === "poker" ? "Deal a hand" : "Start round"), onclick: () => act("start_round") }, t.game === "poker" ? "Deal a hand" : "Start round"),
      t.game === "blackjack" ? h("button", { type: "button", "aria-label": L("Deal"), onclick: () => act("deal") }, "Deal") : null,
      t.status === "open" ? h("button", { type: "button", "aria-label": L("Pause"), onclick: () => status("paused") }, "Pause")
        : h("button", { type: "button", "aria-label": L("Resume"), onclick: () => status("open") }, "Resume"),
      h("button", { type: "button", class: "danger", "aria-label": L("Close"), onclick: () => { if (confirm(`Close ${t.name}?`)) status("closed"); } }, "Close"),
      h("label", { class: "field" }, "Auto-deal window (s)", auto),
      h("button", { type: "button", "aria-label": L("Turn auto-deal on"), onclick: () => {
        const n = Number(auto.value);
        if (!(n > 0 && n <= 600)) { toast("Auto-deal: a betting window from 1 to 600 seconds", true); return; }
        setAuto(n);
      } }, "Auto-deal on"),
      h("button", { type: "button", "aria-label": L("Turn auto-deal off"), onclick: () => setAuto(null) }, "Auto-deal off"),
      h("label", { class: "field" }, "Bots to seat", bots), h("button", { type: "button", "aria-label": L("Seat bots"), onclick: () => act("add_bots", { count: Number(bots.value) }) }, "Seat bots"),
      h("button", { type: "button", "aria-label": L("Remove bots"), onclick: () => act("remove_bots") }, "Remove bots"),
      t.game === "poker" ? [h("label", { class: "field" }, "New ante ($)", ante), h("button", { type: "button", "aria-label": L("Propose ante"), onclick: () => {
        const c = parseDollars(ante.value);
        if (c === null) { toast("An ante in dollars, like 1.00", true); return; }
        act("propose_ante", { amount: c });
      } }, "Propose ante")] : null),
    walkIn,
    h("div", { id: `seats-${t.id}`, role: "group", "aria-label": `Seats at ${t.name}` }, ...seatControls(entry)));
}

main().catch((e) => toast(e.message, true));
