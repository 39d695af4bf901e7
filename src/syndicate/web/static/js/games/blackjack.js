// Blackjack, in the shape every game has (games/index.js). The table: the dealer's hand, each
// seat's hands (splits side by side), bets and chips, the buttons of exactly the legal actions
// the server lists, the turn clock, the round's payouts, and the basic-strategy hint for this
// table's rules. The dealer's tablet: the dealer's tile, a seat's hands, the rank pad of a
// real-cards table. The rules in words, the house edge and the chart; the replay's steps
// (./blackjack-replay.js).
import { fieldValue, h, keptInput, money, parseDollars, toast } from "../common.js";
import { RANKS, SUITS, cards } from "../cards.js";
import { timer } from "../clock.js";
import * as replay from "./blackjack-replay.js";

const LABELS = { hit: "Hit", stand: "Stand", double: "Double", split: "Split", surrender: "Surrender",
  insurance: "Insurance", no_insurance: "No insurance", even_money: "Even money", play_on: "Play on" };
const KEYS = { hit: "h", stand: "s", double: "d", split: "p", surrender: "r", insurance: "i",
  no_insurance: "n", even_money: "e", play_on: "o" };
/** What each cell of the chart asks for, in order of preference: the hint names the first the
 * player may do now (a surrender that has lapsed, a double after a hit, a split past the
 * limit fall back to the chart's next choice), as the bots' `Chart.decide` does. */
const CELL = { H: ["hit"], S: ["stand"], D: ["double", "hit"], Ds: ["double", "stand"], P: ["split"],
  Rh: ["surrender", "hit"], Rs: ["surrender", "stand"], Rp: ["surrender", "split"] };
const OUTCOME = { win: "wins", lose: "loses", push: "push", blackjack: "blackjack", bust: "bust",
  surrender: "surrendered", insurance_win: "insurance wins", insurance_lose: "insurance loses",
  even_money: "even money" };

function playerName(ctx, seat) {
  const s = ctx.state.seats.find((x) => x.seat === seat);
  return s ? s.player : `Seat ${seat}`;
}

function handView(ctx, seatNo, hand, acting) {
  const flags = [hand.doubled && "doubled", hand.split && "split hand", hand.blackjack && "blackjack",
    hand.bust && "bust", hand.surrendered && "surrendered"].filter(Boolean);
  const total = hand.cards.length ? `${hand.soft ? "soft " : ""}${hand.total}` : "";
  return h("div", { class: acting ? "hand acting" : "hand", role: "group",
    "aria-label": `${playerName(ctx, seatNo)}, hand ${hand.index + 1}${acting ? ", to play" : ""}`,
    dataset: { seat: seatNo, hand: hand.index } },
    cards(hand.cards),
    h("div", { class: "meta" }, total ? `${total} · ` : "", h("span", { class: "chips" }, money(hand.bet)),
      flags.length ? ` ${flags.join(", ")}` : ""),
    hand.outcome ? h("div", { class: `meta outcome ${hand.outcome}` },
      `${OUTCOME[hand.outcome] || hand.outcome}${hand.returned !== null ? `: ${money(hand.returned)} back` : ""}`) : null);
}

function renderTable(ctx) {
  const s = ctx.state;
  const rd = s.round;
  const felt = h("div", { class: "felt", "aria-label": "Blackjack table", role: "region" });
  const dealer = rd ? rd.dealer : { cards: [], total: null };
  const hidden = dealer.cards.some((c) => c === null);
  felt.append(h("div", { class: "area dealer", role: "group", "aria-label": "Dealer's hand", "data-testid": "dealer" },
    h("div", { class: "label" }, "Dealer"),
    cards(dealer.cards),
    dealer.total !== null && dealer.cards.length ? h("div", { class: "meta" },
      hidden ? `showing ${dealer.total}` : `${dealer.total}${dealer.blackjack ? ", blackjack" : dealer.total > 21 ? ", bust" : ""}`) : null,
    rd ? h("div", { class: "label" }, `Phase: ${rd.phase.replace(/_/g, " ")}`,
      rd.card_needed_text ? h("span", { "data-testid": "awaited" }, ` · the dealer deals ${rd.card_needed_text}`) : "",
      rd.to_act ? ` · to act: ${playerName(ctx, rd.to_act)}` : "", " ", timer(ctx) || "") : h("div", { class: "label" }, "Waiting for the dealer to start a round")));
  const seats = h("div", { class: "seats" });
  const bySeat = new Map((rd ? rd.seats : []).map((x) => [x.seat, x]));
  for (let n = 1; n <= s.table.seats; n++) {
    const occupant = s.seats.find((x) => x.seat === n);
    const rs = bySeat.get(n);
    const me = s.you && s.you.seat === n;
    const acting = rd && rd.to_act === n;
    const box = h("section", { class: `seat${me ? " me" : ""}${acting ? " acting" : ""}${occupant ? "" : " empty"}`, "aria-label": `Seat ${n}`, dataset: { seat: n } },
      h("h3", {}, h("span", {}, `${n}. ${occupant ? occupant.player : "free"}${me ? " (you)" : ""}`,
        occupant && occupant.bot ? h("span", { class: "tag" }, "bot") : null),
        occupant ? h("span", { class: "chips", "aria-label": `stack ${money(rs ? rs.stack : occupant.stack)}` }, money(rs ? rs.stack : occupant.stack)) : null));
    if (occupant && occupant.sitting_out) box.append(h("div", { class: "meta" }, "sitting out"));
    if (rs) {
      // Once dealt, each hand says its own bet.
      if (rs.bet && !rs.hands.length) box.append(h("div", { class: "meta" }, "Bet ", h("span", { class: "chips" }, money(rs.bet))));
      if (rs.insurance) box.append(h("div", { class: "meta" }, `Insurance ${money(rs.insurance)}`));
      if (rs.even_money) box.append(h("div", { class: "meta" }, "Even money taken"));
      if (rs.left) box.append(h("div", { class: "meta" }, "left the table"));
      box.append(h("div", { class: "hands" }, rs.hands.map((hd) => handView(ctx, n, hd, acting && rd.acting_hand === hd.index))));
      if (rs.net !== null && rs.net !== undefined) box.append(h("div", { class: "meta outcome" }, `Net ${rs.net >= 0 ? "+" : ""}${money(rs.net)}`));
    }
    seats.append(box);
  }
  felt.append(seats);
  return felt;
}

function renderActions(ctx) {
  const s = ctx.state;
  const rd = s.round;
  const seat = s.you.seat;
  const out = [];
  if (!rd) return out;
  const mine = rd.seats.find((x) => x.seat === seat);
  if (rd.phase === "betting" && mine) {
    // A bet being typed survives another player's bet (keptInput).
    const input = keptInput("bet", { type: "number", min: (s.table.min_bet / 100).toFixed(2), max: (s.table.max_bet / 100).toFixed(2),
      step: "0.01", value: ((mine.bet || usualBet(ctx, mine.stack)) / 100).toFixed(2), "aria-label": "Bet, dollars" });
    out.push(h("label", { class: "field" }, `Bet (${money(s.table.min_bet)}–${money(s.table.max_bet)})`, input),
      h("button", { type: "button", class: "primary", "data-key": "b", "aria-label": "Place bet", "aria-keyshortcuts": "B",
        onclick: () => {
          const cents = parseDollars(fieldValue(input));
          if (cents === null) { toast("A bet is an amount in dollars, like 5 or 2.50", true); return; }
          ctx.act("bet", { amount: cents }).then((ok) => { if (ok) keepBet(ctx, cents); });
        } }, mine.bet ? `Change bet (${money(mine.bet)})` : "Place bet"));
  }
  for (const a of rd.legal_actions) {
    if (a === "bet" || !LABELS[a]) continue;
    const full = forLess(ctx, a, mine);
    // One field per action and hand: an amount typed for the first hand is not the second's.
    const input = full ? keptInput(`amount-${a}-${rd.acting_hand ?? 0}`, { type: "number", min: "0.01", max: (full / 100).toFixed(2), step: "0.01",
      value: (full / 100).toFixed(2), "aria-label": `${LABELS[a]} amount, dollars (${money(1)} to ${money(full)})` }) : null;
    const send = () => {
      if (!input) return ctx.act(a);
      const cents = parseDollars(fieldValue(input));
      if (cents === null || cents < 1 || cents > full) {
        toast(`${LABELS[a]} from ${money(1)} to ${money(full)}`, true);
        return null;
      }
      // The full amount is the server's default: send an amount only for less.
      return ctx.act(a, cents < full ? { amount: cents } : {});
    };
    const btn = h("button", { type: "button", class: a === "stand" || a === "hit" ? "primary" : "", "data-key": KEYS[a],
      "data-action": a, "aria-keyshortcuts": KEYS[a].toUpperCase(), onclick: send },
      LABELS[a], " ", h("kbd", { "aria-hidden": "true" }, KEYS[a].toUpperCase()));
    out.push(input ? h("span", { class: "field" }, h("label", {}, `${LABELS[a]} (up to ${money(full)})`, input), btn) : btn);
  }
  const hint = ctx.showHint ? hintFor(ctx) : null;
  if (hint) out.push(h("span", { class: "hint", "data-testid": "hint", role: "note" }, `Basic strategy: ${hint}`));
  if (rd.to_act === seat && rd.phase !== "settled") {
    const t = timer(ctx, "my-timer", seat);
    if (t) out.push(h("span", {}, "Your clock: ", t));
  }
  return out;
}

/** The bet the field offers at a new round: the player's last bet at this table (kept for the
 * page's next visit too), within the table's limits and the chips they have; else the minimum. */
function usualBet(ctx, stack) {
  const t = ctx.state.table;
  let last = ctx.lastBet ?? null;
  if (last === null) {
    try { last = Number(localStorage.getItem(`syndicate.bet.${t.id}`)) || null; } catch { last = null; }
  }
  if (!last) return t.min_bet;
  return Math.max(t.min_bet, Math.min(last, t.max_bet, stack));
}

function keepBet(ctx, cents) {
  ctx.lastBet = cents;
  try { localStorage.setItem(`syndicate.bet.${ctx.state.table.id}`, String(cents)); } catch { /* private mode: this visit only */ }
}

/** For `double` and `insurance`, the full amount when the rules let the player put in less
 * (insurance: up to half the bet, always; a double: only where `double_for_less` is on), else
 * null. The server checks the amount again. */
function forLess(ctx, action, mine) {
  const rd = ctx.state.round;
  if (!mine) return null;
  if (action === "insurance") {
    const full = Math.min(Math.floor(mine.bet / 2), mine.stack);
    return full > 1 ? full : null;
  }
  if (action === "double" && ctx.rules && ctx.rules.double_for_less) {
    const hand = mine.hands.find((x) => x.index === rd.acting_hand);
    const full = hand ? Math.min(hand.bet, mine.stack) : 0;
    return full > 1 ? full : null;
  }
  return null;
}

function value(card) {
  const r = "shdc".includes(card.slice(-1)) ? card.slice(0, -1) : card; // a real card may have no suit
  return r === "A" ? 1 : "TJQK".includes(r) ? 10 : Number(r);
}

/** The first of a cell's choices that is legal now; else the play of the total (stand or hit). */
function legalChoice(cell, legal) {
  const wanted = CELL[cell] || ["hit"];
  const pick = wanted.find((a) => legal.includes(a))
    || (wanted[wanted.length - 1] === "stand" ? ["stand", "hit"] : ["hit", "stand"]).find((a) => legal.includes(a));
  return pick ? LABELS[pick].toLowerCase() : null;
}

/** What the chart computed for this table's rules says for the hand to play (display only):
 * always one of the actions the player may take now. */
function hintFor(ctx) {
  const rd = ctx.state.round;
  const chart = ctx.odds && ctx.odds.chart;
  const legal = rd ? rd.legal_actions : [];
  if (!chart || !legal.some((a) => a === "hit" || a === "stand")) return null;
  const seat = rd.seats.find((x) => x.seat === ctx.state.you.seat);
  const hand = seat && seat.hands.find((x) => x.index === rd.acting_hand);
  const upText = rd.dealer.cards[0];
  if (!hand || !upText) return null;
  const up = value(upText) === 1 ? "A" : String(value(upText));
  const vals = hand.cards.map(value);
  if (legal.includes("split") && vals.length === 2 && vals[0] === vals[1]) {
    const cell = chart.pairs[vals[0] === 1 ? "A,A" : `${vals[0]},${vals[0]}`][up];
    if (cell === "P" || cell === "Rp") return legalChoice(cell, legal);
  }
  const hard = vals.reduce((a, b) => a + b, 0);
  const soft = vals.includes(1) && hard + 10 <= 21;
  const total = soft ? hard + 10 : hard;
  if (total >= 21) return legalChoice("S", legal);
  const row = soft ? chart.soft[`A,${total - 11}`] : chart.hard[String(total)];
  return legalChoice(row ? row[up] : "H", legal);
}

function renderResults(ctx) {
  const rd = ctx.state.round;
  if (!rd || rd.phase !== "settled") return null;
  const pays = ctx.state.log.filter((r) => r.type === "payout");
  return h("div", { class: "card-box" }, h("h2", {}, "Results of the round"),
    h("table", { class: "data", "aria-label": "Payouts" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Hand"), h("th", {}, "Outcome"),
        h("th", { class: "num" }, "Paid back"), h("th", { class: "num" }, "Net"))),
      h("tbody", {}, pays.map((p) => h("tr", { dataset: { seat: p.seat, hand: p.hand } },
        h("td", {}, playerName(ctx, p.seat)), h("td", {}, p.hand === -1 ? "insurance" : p.hand + 1),
        h("td", {}, OUTCOME[p.outcome] || p.outcome), h("td", { class: "num" }, money(p.returned)),
        h("td", { class: "num" }, money(p.net)))))));
}

// -- the dealer's tablet ------------------------------------------------------------------------

/** The dealer's hand, first among the seats of the tablet. */
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

/** A seat's hands in its tile: a split's hands side by side (on a crowded tablet), each with its
 * total, its bet and how it ended. */
function tileHands(rs, rd, acting) {
  const split = rs.hands.length > 1;
  const out = [h("div", { class: "tile-hands" }, rs.hands.map((hand) => {
    const flags = [hand.doubled && "doubled", hand.bust && "bust", hand.blackjack && "blackjack", hand.surrendered && "surrendered"].filter(Boolean);
    const outcome = hand.outcome ? OUTCOME[hand.outcome] || hand.outcome : null;
    if (outcome && !flags.includes(outcome)) flags.push(outcome);
    const now = acting && rd.acting_hand === hand.index;
    return h("div", { class: now ? "tile-hand now" : "tile-hand", ...(split ? { role: "group", "aria-label": `Hand ${hand.index + 1}` } : {}) },
      cards(hand.cards, { small: true }),
      h("span", { class: "hand-text" }, h("span", { class: "total" }, hand.cards.length ? `${hand.soft && !hand.blackjack ? "soft " : ""}${hand.total}` : ""),
        split ? h("span", { class: "hand-bet" }, ` ${money(hand.bet)}`) : null,
        flags.length ? h("span", { class: "flags" }, ` ${flags.join(", ")}`) : null));
  }))];
  if (rs.left) out.push(h("div", { class: "muted" }, "left the table"));
  return out;
}

/** The card pad's own part at a real-cards table: 13 rank buttons, one tap a card (a suit may be
 * chosen first: it changes nothing at Blackjack). */
function cardPad({ L, send }) {
  let suit = null;
  const suitButtons = SUITS.map(([code, sym, word]) => h("button", { type: "button", class: `suit suit-${code}`, "aria-pressed": "false", "aria-label": `Suit ${word} (optional)`,
    onclick: (ev) => { suit = suit === code ? null : code; for (const b of suitButtons) b.setAttribute("aria-pressed", String(b === ev.currentTarget && suit !== null)); } }, sym));
  const tap = (rank) => { const c = rank + (suit || ""); suit = null; for (const b of suitButtons) b.setAttribute("aria-pressed", "false"); send(c); };
  return {
    top: [h("div", { class: "suits", role: "group", "aria-label": L("Suit") }, suitButtons)],
    pad: h("div", { class: "rank-pad", role: "group", "aria-label": L("Rank pad") }, RANKS.map((r) => h("button", { type: "button", class: "rank", onclick: () => tap(r) }, r))),
    bottom: [],
    placeholder: "K, 10, As",
    update() {},
  };
}

/** The dealer's form to open a table: the preset and the decks. */
function openFields(presets) {
  const preset = h("select", { name: "preset" }, presets.blackjack.map((p) => h("option", { value: p.name }, `${p.name}: ${p.summary}`)));
  const decks = h("input", { name: "decks", type: "number", min: "1", max: "8" });
  return {
    el: h("span", { class: "field-group" }, h("label", { class: "field" }, "Preset", preset), h("label", { class: "field" }, "Decks", decks)),
    rules: () => presets.blackjack.find((p) => p.name === preset.value).rules,
    fill(rules) { decks.value = rules ? String(rules.decks) : ""; },
    overrides(into) { if (decks.value) into.decks = Number(decks.value); return null; },
    preset: () => preset.value,
    onChange: (f) => preset.addEventListener("change", f),
  };
}

// -- the rules page -------------------------------------------------------------------------------

function rulesInWords(r) {
  return [
    `${r.decks} deck${r.decks > 1 ? "s" : ""}, reshuffled after ${Math.round(r.penetration * 100)}% of the shoe${r.burn_card ? "; the first card of each shoe is burned" : ""}.`,
    `Bets from ${money(r.min_bet)} to ${money(r.max_bet)}; ${r.seats} seats.`,
    `Blackjack pays ${r.blackjack_pays}.`,
    `The dealer ${r.dealer_hits_soft_17 ? "hits" : "stands on"} soft 17.`,
    { peek: "With an Ace or ten up the dealer checks the hole card; a dealer blackjack takes only the original bets.",
      no_peek_obo: r.obo_split_bust === "lost"
        ? "No hole-card check: a dealer blackjack found at the end takes only the original bet from the hands left (doubles and splits come back); a split hand that busted was already lost."
        : "No hole-card check: a dealer blackjack found at the end takes only the original bet (doubles and splits come back; a split hand that busted has paid it).",
      no_peek_all: "No hole-card check: a dealer blackjack found at the end takes every bet." }[r.hole_card],
    `Double down on ${r.double_on === "any" ? "any two cards" : `a total of ${r.double_on}`}${r.double_for_less ? ", for less if you like" : ""}${r.double_after_split ? ", after a split too" : ", not after a split"}.`,
    r.max_split_hands > 1 ? `Split ${r.split_by === "rank" ? "a true pair" : "any two cards of equal value"} up to ${r.max_split_hands} hands${r.resplit_aces ? "; aces may be resplit" : ""}; split aces ${r.hit_split_aces ? "may be hit" : "get one card each"}.` : "No splitting.",
    r.surrender === "none" ? "No surrender." : `${r.surrender === "late" ? "Late" : "Early"} surrender: give up half the bet on your first two cards.`,
    r.insurance ? `Insurance when the dealer shows an Ace: up to half the bet, pays 2:1${r.even_money ? "; even money on a blackjack" : ""}.` : "No insurance.",
    r.pay_naturals_immediately ? "Naturals are paid at once unless the dealer shows an Ace or ten." : null,
  ].filter(Boolean);
}

/** The house edge (exact, computed by the server for these rules) and the basic-strategy chart. */
function odds(o) {
  return [h("section", { "aria-labelledby": "edge" }, h("h2", { id: "edge" }, "House edge"),
    h("p", { "data-testid": "house-edge" }, `House edge with perfect play: ${o.house_edge_pct.toFixed(3)}% of the initial bet; `,
      `playing the chart below: ${o.basic_strategy_house_edge_pct.toFixed(3)}%. Standard deviation per round: ${o.standard_deviation.toFixed(3)} bets.`),
    h("p", { class: "muted" }, `Exact (combinatorial analysis over the full shoe) for ${o.caption}.`)), chart(o.chart)];
}

function chart(c) {
  const section = (title, rows) => [h("tr", {}, h("th", { colspan: String(c.upcards.length + 1), scope: "colgroup" }, title)),
    ...Object.entries(rows).map(([label, cells]) => h("tr", {}, h("th", { scope: "row" }, label),
      c.upcards.map((u) => h("td", { class: cells[u] }, cells[u]))))];
  return h("section", { "aria-labelledby": "chart-h" }, h("h2", { id: "chart-h" }, "Basic strategy for these rules"),
    h("table", { class: "chart", "aria-label": "Basic strategy chart" },
      h("thead", {}, h("tr", {}, h("th", {}, "You \\ dealer"), c.upcards.map((u) => h("th", { scope: "col" }, u)))),
      h("tbody", {}, section("Hard totals", c.hard), section("Soft totals", c.soft), section("Pairs", c.pairs))),
    h("p", {}, Object.entries(c.legend).map(([k, v]) => `${k}: ${v}`).join(" · ")));
}

export default {
  id: "blackjack",
  title: "Blackjack",
  inText: "Blackjack",
  tableName: (dealer) => `${dealer}'s 21`,
  // A round opens for bets, then the dealer deals; the shoe lasts across rounds.
  start: "Start round",
  started: "The round is open for bets",
  deals: true,
  newShoe: true,
  renderTable, renderActions, renderResults,
  /** The table page's keys, in words (each [key] is shown as a key). */
  keys: "[H] hit, [S] stand, [D] double, [P] split, [R] surrender, [I] insurance, [N] no insurance, [E] even money, "
    + "[O] play on, [B] place the bet, [?] show or hide the strategy hint.",
  /** What the dealer may enter for a seat, in the order the buttons stand. */
  seatActions: { bet: "Bet", ...LABELS },
  done: {},
  dealerTile,
  tileBet: (rs) => (rs.hands.length ? rs.hands.reduce((a, x) => a + x.bet, 0) : rs.bet),
  tileHands,
  tileControls: () => null,
  cardPad,
  setupControls: () => [],
  openFields,
  rulesInWords,
  odds,
  replay: { key: "rounds", ...replay },
};
