// A live table, either game. Renders only what the server sends (docs/protocol.md): the state
// snapshot with the highest version; every decision goes to the server, which enforces the rules.
import { api, eventId, eventNotice, fieldValue, forget, h, handTitle, headerBar, keptInput, money, parseDollars, redraw, refused, signInForm, suggest, toast, whoAmI } from "./common.js";
import { TableSocket } from "./socket.js";
import { tickTimer } from "./clock.js";
import { GAMES, gameOf } from "./games/index.js";

const tableId = Number(location.pathname.split("/")[2]);

/** "[H] hit" → a key and its words. */
const keyWords = (text) => text.split(/\[([^\]]+)\]/).map((x, i) => (i % 2 ? h("kbd", {}, x) : x));

/** The page in the shell's root: the sign-in, the table's line, the felt, the dock (messages and
 * your actions), what a screen reader hears, the results and the keys. */
const skeleton = () => document.getElementById("main").replaceChildren(
  h("section", { id: "signin", hidden: true, "aria-labelledby": "signin-h" }, h("h2", { id: "signin-h" }, "Sign in to play or watch")),
  h("div", { id: "top", class: "actions", style: "margin-top:0", role: "group", "aria-label": "Table" }),
  h("div", { id: "table", "aria-live": "off" }, h("p", { class: "muted" }, "Connecting…")),
  h("div", { id: "dock" }, h("div", { id: "toasts", class: "docked", role: "status", "aria-live": "polite" }), h("div", { id: "controls" })),
  h("p", { id: "announce", class: "visually-hidden", role: "status", "aria-live": "polite", "data-testid": "announce" }),
  h("section", { id: "results", class: "results", "aria-live": "polite" }),
  h("details", { id: "keys", class: "card-box", style: "margin-top:1rem" }, h("summary", {}, "Keyboard keys"),
    GAMES.map((g) => h("p", {}, `${g.title}: `, ...keyWords(g.keys))),
    h("p", {}, "Dealer (own table): ", ...keyWords("[Shift]+[N] start a round, [Shift]+[D] deal."))));

const watchOnly = new URLSearchParams(location.search).has("watch");
const hook = (window.__syndicate = { firstRenderMs: null, renders: 0, state: null, drop: () => ctx.sock.drop(),
  get reconnects() { return ctx.sock ? ctx.sock.reconnects : 0; } });

const ctx = {
  tableId, me: null, state: null, rules: null, sock: null, bankroll: null, odds: null, clock: null,
  showHint: true, picked: new Set(),
  act, rerender: render, refreshBankroll,
};

async function act(action, fields = {}) {
  try {
    await ctx.sock.act(action, fields);
    if (["sit", "leave_seat"].includes(action)) { const el = document.getElementById("buyin"); if (el) forget(el); refreshBankroll(); }
    return true;
  } catch (e) {
    refused(e);
    return false;
  }
}

async function refreshBankroll() {
  if (!ctx.me || ctx.me.account.role !== "player") return;
  try {
    const l = await api("GET", `/api/accounts/${ctx.me.account.id}/ledger`);
    ctx.bankroll = l.balance;
    renderTop();
    suggestBuyIn();
  } catch { /* shown next time */ }
}

/** The chips-to-bring field: drawn before the bankroll loads (or while a seat still held chips),
 * it takes the bankroll's figure when that arrives, unless the player typed. */
function suggestion() {
  if (ctx.bankroll === null || !ctx.state) return null;
  return (Math.min(ctx.bankroll, 50 * ctx.state.table.max_bet) / 100).toFixed(2);
}
function buyInField() {
  return keptInput("buyin", { type: "number", min: "0.01", step: "0.01", value: suggestion(), "aria-label": "Chips to bring, dollars" });
}
function suggestBuyIn() {
  suggest(document.getElementById("buyin"), suggestion());
}

/** What a screen reader hears: the cards dealt to you and your turn, once each, read from what
 * the page shows (so it never says a card the page does not show). The felt itself is redrawn
 * on every state and stays quiet (aria-live off). */
const heard = { cards: [], turn: false };
function announce() {
  const box = document.getElementById("announce");
  if (!box) return;
  const mine = [...document.querySelectorAll("#table .seat.me [data-card]")].map((c) => c.getAttribute("aria-label"));
  const turn = document.querySelector("#controls [data-action]") !== null;
  const said = [];
  const fresh = mine.slice(heard.cards.length);
  if (mine.length < heard.cards.length || mine.slice(0, heard.cards.length).join() !== heard.cards.join()) {
    if (mine.length) said.push(`Your cards: ${mine.join(", ")}.`);
  } else if (fresh.length) said.push(`Dealt to you: ${fresh.join(", ")}.`);
  if (turn && !heard.turn) said.push("Your turn.");
  heard.cards = mine;
  heard.turn = turn;
  if (said.length) box.textContent = said.join(" ");
}

/** The game of this table (games/): how its felt, actions and results are drawn. */
function game() { return gameOf(ctx.state.table.game); }

function mySeat() { return ctx.state && ctx.state.you ? ctx.state.you.seat : null; }

function isDealer() {
  if (!ctx.me || !ctx.state) return false;
  const a = ctx.me.account;
  return a.id === ctx.state.table.dealer_id || a.role === "admin" || a.role === "pit_boss";
}
ctx.isDealer = isDealer;
ctx.mySeat = mySeat;

function renderTop() {
  const s = ctx.state;
  const top = document.getElementById("top");
  if (!s) return;
  const t = s.table;
  const conn = ctx.connStatus || "connecting";
  const seat = s.seats.find((x) => x.account === (ctx.me && ctx.me.account.id));
  redraw(top, ...[
    h("strong", {}, t.name), h("span", { class: "muted" }, `${game().title}, ${money(t.min_bet)}–${money(t.max_bet)}`),
    h("span", {}, `Status: ${t.status}`),
    s.round ? h("span", { "data-testid": "hand-number" }, handTitle(s)) : null,
    ctx.bankroll !== null ? h("span", { "data-testid": "bankroll" }, `Bankroll: ${money(ctx.bankroll)}`) : null,
    seat ? h("span", { "data-testid": "stack" }, `At this table: ${money(seat.stack)}`) : null,
    h("a", { href: `/tables/${tableId}/rules` }, "Rules and odds"),
    h("span", { class: conn === "open" ? "conn" : "conn down", role: "status", "data-testid": "connection" },
      conn === "open" ? "connected" : conn === "closed" ? "disconnected" : "reconnecting…")].filter(Boolean));
}

function render() {
  const s = ctx.state;
  if (!s) return;
  renderTop();
  const g = game();
  const felt = g.renderTable(ctx);
  // Only what changed is replaced: a redraw must not take a button from under a click.
  redraw(document.getElementById("table"), felt);
  redraw(document.getElementById("controls"), controls());
  redraw(document.getElementById("results"), g.renderResults(ctx));
  announce();
  hook.renders += 1;
  hook.state = s;
  if (hook.firstRenderMs === null) {
    hook.firstRenderMs = performance.now();
    performance.mark("syndicate-first-render");
  }
}

function controls() {
  const s = ctx.state;
  const box = h("div", { class: "actions", role: "group", "aria-label": "Your actions" });
  const seat = mySeat();
  const me = ctx.me && ctx.me.account;
  if (me && me.role === "player" && seat === null && !watchOnly && s.table.status === "open") {
    const taken = new Set(s.seats.map((x) => x.seat));
    const amount = buyInField();
    box.append(h("label", { class: "field" }, "Chips to bring ($)", amount));
    for (let n = 1; n <= s.table.seats; n++) {
      if (taken.has(n)) continue;
      box.append(h("button", { type: "button", "aria-label": `Sit at seat ${n}`, onclick: () => {
        const cents = parseDollars(fieldValue(amount));
        if (!cents) {
          toast(ctx.bankroll === 0 ? "Your bankroll is $0.00: buy in with the cashier first" : "Say how many chips to bring", true);
          return;
        }
        act("sit", { seat: n, amount: cents });
      } }, `Sit at ${n}`));
    }
  }
  if (seat !== null) box.append(...game().renderActions(ctx));
  if (seat !== null) {
    const me2 = s.seats.find((x) => x.seat === seat);
    if (me2 && me2.sitting_out) box.append(h("button", { type: "button", onclick: () => act("sit_in") }, "Sit in"));
    box.append(h("button", { type: "button", class: "danger", onclick: () => act("leave_seat") }, "Leave seat"));
  }
  if (isDealer()) box.append(...dealerControls());
  if (!box.childElementCount) box.append(h("span", { class: "muted" }, watchOnly ? "Watching." : "Watching: no seat."));
  return box;
}

function dealerControls() {
  const s = ctx.state;
  const rd = s.round;
  const over = !rd || rd.phase === "settled" || rd.phase === "complete";
  const out = [h("span", { class: "muted" }, "Dealer:"),
    h("button", { type: "button", disabled: !over, onclick: () => act("start_round") }, game().start)];
  if (game().deals) out.push(h("button", { type: "button", disabled: !(rd && rd.phase === "betting"), onclick: () => act("deal") }, "Deal"));
  return out;
}

function onMessage(msg) {
  if (msg.type === "welcome" || msg.type === "state") {
    if (msg.type === "welcome" && msg.table.rules) ctx.rules = msg.table.rules;
    const before = ctx.state;
    ctx.state = msg;
    const rd = msg.round;
    // The turn clock as the server made it (seconds left then); counted down from its arrival.
    ctx.clock = msg.clock ? { ...msg.clock, at: performance.now() } : null;
    const finished = rd && (rd.phase === "settled" || rd.phase === "complete");
    const wasFinished = before && before.round && (before.round.phase === "settled" || before.round.phase === "complete");
    if (finished && !wasFinished) refreshBankroll();
    if (before && before.hand !== msg.hand) ctx.picked = new Set();
    // A table closes when the event ends: the page then says so, and what to do.
    if (msg.table.status === "closed" && (!before || before.table.status !== "closed")) eventNotice(ctx.me);
    render();
  } else if (msg.type === "timed_out") {
    toast(msg.text, true); // "Time ran out: you stood": the clock's move, not theirs
  } else if (msg.type === "error" && !msg.id) {
    refused(msg);
  }
}

function onStatus(status, detail) {
  ctx.connStatus = status;
  if (status === "closed" && detail && detail.rule === "signed_in") showSignIn();
  renderTop();
}

function showSignIn() {
  const s = document.getElementById("signin");
  s.hidden = false;
  if (!s.querySelector("form")) s.append(signInForm(() => location.reload()));
}

document.addEventListener("keydown", (ev) => {
  if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey || !ctx.state) return;
  let target = null;
  if (ev.shiftKey && ev.key === "N") target = [...document.querySelectorAll("#controls button")].find((b) => /^(Start round|Deal a hand)$/.test(b.textContent));
  else if (ev.shiftKey && ev.key === "D") target = [...document.querySelectorAll("#controls button")].find((b) => b.textContent === "Deal");
  else if (ev.key === "?") { ctx.showHint = !ctx.showHint; render(); ev.preventDefault(); return; }
  // (the cards to discard, keys 1 to 5, are on the felt)
  else target = document.querySelector(`#controls [data-key="${ev.key.toLowerCase()}"], #table [data-key="${ev.key.toLowerCase()}"]`);
  if (target && !target.disabled) { ev.preventDefault(); target.click(); }
});

async function main() {
  skeleton();
  ctx.me = await whoAmI();
  document.getElementById("header").replaceWith(Object.assign(headerBar("Card room", ctx.me), { id: "header" }));
  if (!ctx.me) {
    // The table's state goes only to signed-in sockets: say so, instead of an empty felt.
    showSignIn();
    document.getElementById("top").hidden = true;
    document.getElementById("keys").hidden = true;
    document.getElementById("table").replaceChildren(h("p", { class: "card-box", "data-testid": "signed-out" },
      "Sign in above to watch or play at this table. No account yet? The host or a pit boss makes one for you."));
    return;
  }
  ctx.sock = new TableSocket(tableId, { onMessage, onStatus });
  ctx.sock.connect();
  refreshBankroll();
  if (!ctx.odds) api("GET", `/api/tables/${tableId}/odds`).then((o) => { ctx.odds = o; render(); }).catch(() => {});
  setInterval(() => { if (ctx.clock) tickTimer(ctx); }, 250);
  eventId();
}

main();
