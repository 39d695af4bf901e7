// Five-card draw (the API's game "poker"), in the shape every game has (games/index.js). The
// table: your five cards, the others' backs, the pot and the remainder
// carried from the last pot, each player's bet this round, the betting actions with amounts
// limited to the ranges the server gives, the discard (the Ace rule checked here as well as by
// the server), the showdown, and ante-change proposals. At a real-cards table you hold real cards
// the room never sees: your hand shows face down with what you threw and drew, and at the draw
// you say how many you throw (docs/dealer.md). The dealer's tablet: a seat's hand, the throws or
// the discards entered for a seat, the 52-card pad and the ruling of a real-cards table, the ante
// proposal. The rules in words; the replay's steps (./draw-replay.js).
import { fieldValue, h, inWords, keptInput, money, parseDollars, toast } from "../common.js";
import { RANKS, SUITS, card, cardName, cards } from "../cards.js";
import { timer } from "../clock.js";
import * as replay from "./draw-replay.js";

const LABELS = { check: "Check", call: "Call", bet: "Bet", raise: "Raise", fold: "Fold", draw: "Draw", stand_pat: "Stand pat" };
/** What a seat threw and drew at a real-cards table (``drew``: null before its draw). */
function drewText(rs, mine) {
  if (rs.drew === undefined || rs.drew === null) return null;
  if (rs.drew === 0) return mine ? "You stood pat" : "stood pat";
  const ace = rs.drew === 4 ? (mine ? ", keeping your Ace" : ", keeping an Ace") : "";
  return `${mine ? "You threw" : "threw"} ${rs.drew} and drew ${rs.drew}${ace}`;
}
const KEYS = { check: "k", call: "c", bet: "b", raise: "r", fold: "f", draw: "d", stand_pat: "s" };

function name(ctx, seat) {
  const s = ctx.state.seats.find((x) => x.seat === seat);
  return s ? s.player : `Seat ${seat}`;
}

function rules(ctx) {
  return ctx.rules || { max_discard: 3, ace_discard: true, chip: 50 };
}

/** Whether throwing ``picked`` of ``hand`` is a draw the house allows, and why not. */
function discardProblem(ctx, hand, picked) {
  const r = rules(ctx);
  const n = picked.size;
  if (n <= r.max_discard) return null;
  const kept = hand.filter((c) => !picked.has(c));
  if (r.ace_discard && n === 4 && kept.length === 1 && kept[0][0] === "A") return null;
  return `You may discard up to ${r.max_discard}${r.ace_discard ? " (four if the card you keep is an Ace, which you then show)" : ""}.`;
}

function renderTable(ctx) {
  const s = ctx.state;
  const rd = s.round;
  const felt = h("div", { class: "felt", role: "region", "aria-label": "Five-card draw table" });
  const ante = s.table.ante ?? (rd ? rd.ante : null);
  felt.append(h("div", { class: "area", role: "group", "aria-label": "Pot" },
    h("div", { class: "pot", "data-testid": "pot" }, `Pot ${money(rd ? rd.pot : 0)}`),
    h("div", { class: "label" },
      h("span", { "data-testid": "ante" }, `Ante ${money(ante)}`),
      rd && rd.carry_in ? ` · carried in ${money(rd.carry_in)}` : "",
      rd && rd.carry_out ? ` · carried to the next pot ${money(rd.carry_out)}` : "",
      rd && rd.current_bet ? ` · bet to match ${money(rd.current_bet)}` : ""),
    rd ? h("div", { class: "label" }, `Phase: ${rd.phase.replace(/_/g, " ")}`,
      rd.card_needed_text ? h("span", { "data-testid": "awaited" },
        ` · the dealer ${rd.card_needed && rd.card_needed.why === "show" ? "enters the hands shown down:" : "deals"} ${rd.card_needed_text}`) : "",
      rd.deal_text ? h("span", { "data-testid": "dealing" }, ` · the dealer: ${rd.deal_text}`) : "",
      rd.ruling_text ? h("span", { "data-testid": "ruling" }, ` · the dealer rules: ${rd.ruling_text}`) : "",
      rd.to_act ? ` · to act: ${name(ctx, rd.to_act)} ` : "", rd.to_act ? timer(ctx) || "" : "") : h("div", { class: "label" }, "Waiting for the dealer to deal")));
  const seats = h("div", { class: "seats" });
  const bySeat = new Map((rd ? rd.seats : []).map((x) => [x.seat, x]));
  const n = s.table.seats;
  for (let i = 1; i <= n; i++) {
    const occ = s.seats.find((x) => x.seat === i);
    const rs = bySeat.get(i);
    const me = s.you && s.you.seat === i;
    const acting = rd && rd.to_act === i && rd.phase !== "complete";
    const box = h("section", { class: `seat${me ? " me" : ""}${acting ? " acting" : ""}${occ ? "" : " empty"}`, "aria-label": `Seat ${i}`, dataset: { seat: i } },
      h("h3", {}, h("span", {}, `${i}. ${occ ? occ.player : "free"}${me ? " (you)" : ""}${rd && rd.button === i ? " · button" : ""}`,
        occ && occ.bot ? h("span", { class: "tag" }, "bot") : null),
        occ ? h("span", { class: "chips" }, money(rs ? rs.stack : occ.stack)) : null));
    if (rs) {
      if (me && !rs.folded && !rd.shown_only && rd.phase === "draw" && rd.legal_actions.includes("draw")) box.append(pickable(ctx, rs.cards));
      else if (rs.cards) box.append(cards(rs.cards));
      else box.append(h("div", { class: "meta" }, rs.dead ? "dead hand" : "folded"));
      box.append(h("div", { class: "meta" }, `Bet this round ${money(rs.bet)} · in the pot ${money(rs.total)}`,
        rs.all_in ? " · all in" : "", rs.folded && rs.cards ? " · folded" : ""));
      const drew = drewText(rs, me);
      if (drew) box.append(h("div", { class: "meta", "data-testid": me ? "my-draw" : null }, drew));
      if (rs.flag && !rs.dead) box.append(h("div", { class: "meta error" }, `Flagged: ${rs.flag}`));
      if (rs.value) box.append(h("div", { class: "meta" }, rs.value));
      if (rs.won) box.append(h("div", { class: "meta outcome win" }, `Won ${money(rs.won)}`));
    }
    seats.append(box);
  }
  felt.append(seats);
  return felt;
}

function pickable(ctx, hand) {
  const div = h("div", { class: "cards", role: "group", "aria-label": "Your cards: select the ones to discard" });
  hand.forEach((c, i) => {
    const on = ctx.picked.has(c);
    div.append(h("button", { type: "button", class: "card-pick", "aria-pressed": on ? "true" : "false", "data-key": String(i + 1),
      "aria-label": `Discard ${cardName(c)}`, onclick: () => {
        on ? ctx.picked.delete(c) : ctx.picked.add(c);
        ctx.rerender();
      } }, card(c)));
  });
  return div;
}

function amountControl(ctx, action, range) {
  const chip = rules(ctx).chip || 1;
  const [lo, hi] = range;
  const input = keptInput(`amount-${action}`, { type: "number", min: (lo / 100).toFixed(2), max: (hi / 100).toFixed(2), step: (chip / 100).toFixed(2),
    value: (lo / 100).toFixed(2), "aria-label": `${LABELS[action]} amount, dollars (${money(lo)} to ${money(hi)})` });
  const btn = h("button", { type: "button", "data-key": KEYS[action], "aria-keyshortcuts": KEYS[action].toUpperCase(),
    onclick: () => {
      const cents = parseDollars(fieldValue(input));
      if (cents === null || cents < lo || cents > hi || (cents % chip && cents !== hi)) {
        toast(`${LABELS[action]} between ${money(lo)} and ${money(hi)}, in ${money(chip)} chips`, true);
        return;
      }
      ctx.act(action, { amount: cents });
    } }, LABELS[action], " ", h("kbd", { "aria-hidden": "true" }, KEYS[action].toUpperCase()));
  return h("span", { class: "field" }, h("label", {}, `${LABELS[action]} ${money(lo)}–${money(hi)}`, input), btn);
}

function renderActions(ctx) {
  const s = ctx.state;
  const rd = s.round;
  const out = [];
  const seat = s.you.seat;
  out.push(...antePanel(ctx));
  if (!rd) return out;
  const mine = rd.seats.find((x) => x.seat === seat);
  for (const a of rd.legal_actions) {
    if (a === "bet" && rd.bet_range) { out.push(amountControl(ctx, "bet", rd.bet_range)); continue; }
    if (a === "raise" && rd.raise_range) { out.push(amountControl(ctx, "raise", rd.raise_range)); continue; }
    if (a === "draw" && rd.shown_only) {
      // Real cards: the room never sees them. Say how many you throw; four keeps an Ace, which
      // you show the dealer (the showdown checks it).
      const r = rules(ctx);
      const most = r.ace_discard === false ? r.max_discard : Math.max(r.max_discard, 4);
      for (let k = 1; k <= most; k++) {
        const label = k === 4 && r.max_discard < 4 ? "Throw 4 (show your Ace)" : `Throw ${k}`;
        out.push(h("button", { type: "button", "data-key": String(k), "aria-keyshortcuts": String(k), "data-action": "draw",
          onclick: () => ctx.act("draw", { count: k }) }, label, " ", h("kbd", { "aria-hidden": "true" }, String(k))));
      }
      continue;
    }
    if (a === "draw") {
      const picked = [...ctx.picked].filter((c) => mine && mine.cards.includes(c));
      const problem = picked.length ? discardProblem(ctx, mine.cards, new Set(picked)) : null;
      out.push(h("button", { type: "button", class: "primary", "data-key": "d", "aria-keyshortcuts": "D", disabled: !picked.length || !!problem,
        "aria-label": `Draw ${picked.length} card${picked.length === 1 ? "" : "s"}`,
        onclick: () => {
          // Read when clicked: a redraw that changes nothing keeps this button (common.js redraw).
          const now = ctx.state.round && ctx.state.round.seats.find((x) => x.seat === ctx.state.you.seat);
          const discards = [...ctx.picked].filter((c) => now && now.cards.includes(c));
          ctx.act("draw", { discards }).then((ok) => { if (ok) { ctx.picked = new Set(); } });
        } },
        `Draw ${picked.length}`, " ", h("kbd", { "aria-hidden": "true" }, "D")));
      if (problem) out.push(h("span", { class: "error", role: "alert" }, problem));
      continue;
    }
    if (!LABELS[a]) continue;
    const label = a === "call" && rd.to_call ? `Call ${money(rd.to_call)}` : LABELS[a];
    out.push(h("button", { type: "button", "data-key": KEYS[a], "aria-keyshortcuts": KEYS[a].toUpperCase(), "data-action": a,
      onclick: () => ctx.act(a) }, label, " ", h("kbd", { "aria-hidden": "true" }, KEYS[a].toUpperCase())));
  }
  if (rd.to_act === seat && rd.phase !== "complete") {
    const t = timer(ctx, "my-timer", seat);
    if (t) out.push(h("span", {}, "Your clock: ", t));
  }
  return out;
}

/** The dealer's ante proposal from the state (`table.ante_proposal`): Accept and Refuse for
 * a seat the server is still waiting for; one refusal withdraws it for everyone. */
function antePanel(ctx) {
  const t = ctx.state.table;
  const p = t.ante_proposal;
  const seat = ctx.state.you.seat;
  if (!p) return [];
  if (!p.waiting_for.includes(seat)) {
    return [h("span", { class: "hint", role: "note" }, `Ante change to ${money(p.amount)}: waiting for seats ${p.waiting_for.join(", ") || "—"}`)];
  }
  return [h("span", { class: "hint", role: "note" }, `The dealer proposes an ante of ${money(p.amount)} (now ${money(t.ante)}).`),
    h("button", { type: "button", "data-key": "a", "aria-keyshortcuts": "A", onclick: () => ctx.act("accept_ante") },
      `Accept ante ${money(p.amount)}`),
    h("button", { type: "button", onclick: () => ctx.act("refuse_ante").then((ok) => {
      if (ok) toast(`You refused the ante of ${money(p.amount)}: it stays ${money(ctx.state.table.ante)}.`);
    }) }, `Refuse ante ${money(p.amount)}`)];
}

function renderResults(ctx) {
  const rd = ctx.state.round;
  if (!rd || rd.phase !== "complete") return null;
  const winners = rd.seats.filter((x) => x.won);
  const shown = rd.seats.filter((x) => x.value);
  return h("div", { class: "card-box" }, h("h2", {}, "Showdown"),
    h("ul", { "aria-label": "Winners" }, winners.map((w) => h("li", { "data-testid": "winner" },
      `${name(ctx, w.seat)} wins ${money(w.won)}`, w.value ? ` with ${w.value}` : " (the others folded)"))),
    shown.length ? h("table", { class: "data", "aria-label": "Hands shown" },
      h("tbody", {}, shown.map((x) => h("tr", {}, h("td", {}, name(ctx, x.seat)), h("td", {}, cards(x.cards || [])), h("td", {}, x.value))))) : null,
    rd.carry_out ? h("p", {}, `${money(rd.carry_out)} carried to the next pot.`) : null);
}

// -- the dealer's tablet ------------------------------------------------------------------------

/** At a real-cards draw table the cards are dealt face down and never entered: a draw is how
 * many cards a player throws (four keeping an Ace, shown to the dealer), one tap. */
const THROWS = [1, 2, 3, 4];
const throwLabel = (k) => (k === 4 ? "Throw 4 (Ace)" : `Throw ${k}`);

/** A seat's hand in its tile: at a real-cards table what the seat threw and drew, and a hand the
 * showdown flagged. */
function tileHands(rs) {
  const flagged = Boolean(rs.flag) && !rs.dead;
  const drew = rs.drew === undefined || rs.drew === null ? "" : rs.drew === 0 ? "stood pat"
    : `drew ${rs.drew}${rs.drew === 4 && !flagged ? ", an Ace shown" : ""}`;
  return [h("div", { class: "tile-hand" }, rs.cards && rs.cards.length ? cards(rs.cards, { small: true }) : null,
    h("span", { class: "hand-text" }, h("span", { class: "total" }, rs.folded ? "folded" : rs.dead ? "dead hand" : rs.value || drew),
      flagged ? h("span", { class: "flags flagged" }, ": no Ace in the hand") : null,
      rs.won ? h("span", { class: "flags" }, ` won ${money(rs.won)}`) : null))];
}

/** What the dealer enters for a seat's draw: at a real-cards table, where the dealer never sees
 * the cards, a count (one tap, the throws stand for the Draw button); else the discards typed. */
function tileControls({ t, n, L, act, entry }) {
  if (t.cards === "real") {
    const throws = THROWS.map((k) => h("button", { type: "button", class: "act", hidden: true,
      "aria-label": L(throwLabel(k)), onclick: () => act("draw", { seat: n, count: k }) }, throwLabel(k)));
    return { fields: [], buttons: throws, replaces: ["draw"], fill() {}, done() {},
      update(legal) {
        const four = !entry.rules || entry.rules.ace_discard !== false;
        throws.forEach((b, i) => { b.hidden = !legal.includes("draw") || (THROWS[i] === 4 && !four); });
      } };
  }
  const discards = h("input", { placeholder: "7h 2c", autocomplete: "off", autocapitalize: "characters", "aria-label": L("Discards") });
  const field = h("label", { class: "field" }, "Discards", discards);
  return { fields: [field], buttons: [], replaces: [],
    fill(a, fields) { if (a === "draw") fields.discards = discards.value.split(/[\s,]+/).filter(Boolean); },
    done(a) { if (a === "draw") discards.value = ""; },
    update(legal) { field.hidden = !legal.includes("draw"); } };
}

/** The card pad's own part at a real-cards table: 52 buttons, a row per suit, one tap a card (a
 * card already entered in this hand is dimmed and refused here, naming whose it is); the deck and
 * the muck as the room counts them (no card named), and the dealer's ruling on a hand the
 * showdown flagged (a four-card draw shown down without an Ace). */
function cardPad({ t, L, send, entry, refusal, say }) {
  const deck = h("p", { class: "deck", "aria-label": L("Deck") });
  const rule = async (dead) => {
    const rd = entry.state && entry.state.round;
    refusal.textContent = "";
    try {
      await entry.sock.act("ruling", { seat: rd && rd.ruling_needed, dead });
      say(dead ? "the hand is dead" : "the hand stands");
    } catch (e) { refusal.textContent = inWords(e); refusal.dataset.rule = e.rule; }
  };
  const dead = h("button", { type: "button", class: "danger", onclick: () => rule(true) }, "Dead hand");
  const stands = h("button", { type: "button", onclick: () => rule(false) }, "The hand stands");
  const ruling = h("div", { class: "ruling", role: "group", "aria-label": L("Ruling"), hidden: true }, dead, stands);
  const used = new Map(); // the cards entered in this hand, and whose hand holds each
  const tapCard = (r, code, sym) => {
    const seat = used.get(`${r === "10" ? "T" : r}${code}`);
    if (seat === undefined) { send(r + code); return; }
    refusal.textContent = `${r}${sym}: already entered in seat ${seat}'s hand: one deck holds one of each card`;
  };
  const cardButtons = new Map(); // "Ts" → its button
  const pad = h("div", { class: "card-grid", role: "group", "aria-label": L("Card pad") }, SUITS.map(([code, sym, word]) =>
    h("div", { class: `suit-row suit-${code}`, role: "group", "aria-label": word }, RANKS.map((r) => {
      const b = h("button", { type: "button", class: "rank", "aria-label": `${r}${sym}`, onclick: () => tapCard(r, code, sym) }, `${r}${sym}`);
      cardButtons.set(`${r === "10" ? "T" : r}${code}`, b);
      return b;
    }))));
  return {
    top: [ruling],
    pad,
    bottom: [deck],
    placeholder: "Ah, 10h",
    update(rd, over) {
      ruling.hidden = !(rd && rd.ruling_needed);
      if (rd && rd.ruling_needed) {
        dead.setAttribute("aria-label", `Seat ${rd.ruling_needed}'s hand is dead at ${t.name}`);
        stands.setAttribute("aria-label", `Seat ${rd.ruling_needed}'s hand stands at ${t.name}`);
      }
      deck.textContent = rd && rd.deck && !over ? `Deck: ${rd.deck.left} left, ${rd.deck.mucked} in the muck` : "";
      used.clear();
      for (const x of (rd && rd.seats) || []) for (const c of x.cards || []) if (c !== "??") used.set(c, x.seat);
      for (const [c, b] of cardButtons) {
        const on = used.has(c);
        if (b.classList.contains("used") !== on) {
          b.classList.toggle("used", on);
          b.setAttribute("aria-disabled", String(on));
        }
      }
    },
  };
}

/** The ante change the dealer proposes from the table's setup (every player must agree). */
function setupControls({ t, L, act, say }) {
  const ante = h("input", { inputmode: "decimal", "aria-label": `New ante at ${t.name}, dollars`, placeholder: "1.00" });
  return [h("label", { class: "field" }, "New ante ($)", ante), h("button", { type: "button", "aria-label": L("Propose ante"), onclick: () => {
    const c = parseDollars(ante.value);
    if (c === null) { say("An ante in dollars, like 1.00", true); return; }
    act("propose_ante", { amount: c });
  } }, "Propose ante")];
}

/** The dealer's form to open a table: the ante. */
function openFields(presets) {
  const ante = h("input", { name: "ante", inputmode: "decimal" });
  return {
    el: h("label", { class: "field", hidden: true }, "Ante ($)", ante),
    rules: () => presets.poker,
    fill(rules) { ante.value = rules ? (rules.ante / 100).toFixed(2) : ""; },
    overrides(into) {
      if (!ante.value.trim()) return null;
      const c = parseDollars(ante.value);
      if (c === null) return "ante: an amount in dollars, like 5 or 0.50";
      into.ante = c;
      return null;
    },
    preset: () => null,
    onChange() {},
  };
}

// -- the rules page -------------------------------------------------------------------------------

function rulesInWords(r) {
  return [
    `Five-card draw, ${r.min_players}–${r.max_players} players; everyone antes ${money(r.ante)} (an ante change needs every player's agreement, between ${money(r.min_ante)} and ${money(r.max_ante)}).`,
    `Bets from ${money(r.min_bet)} to ${money(r.max_bet)}, raises by ${money(r.min_raise)} to ${money(r.max_raise)}, in ${money(r.chip)} chips${r.raise_cap !== null ? `; a bet and ${r.raise_cap} raises per round` : ""}.`,
    `Draw up to ${r.max_discard} cards${r.ace_discard ? ", or four when the card you keep is an Ace (which you show)" : ""}.`,
    r.odd_chip === "carry" ? "Odd chips of a split pot are carried to the next pot." : "Odd chips of a split pot go to the first winner left of the button.",
  ];
}

export default {
  id: "poker",
  title: "Five-card draw",
  inText: "five-card draw",
  tableName: (dealer) => `${dealer}'s draw`,
  // A hand is dealt as it starts (the antes are its bets); a fresh deck every hand.
  start: "Deal a hand",
  started: "The hand is dealt",
  deals: false,
  newShoe: false,
  renderTable, renderActions, renderResults,
  /** The table page's keys, in words (each [key] is shown as a key). */
  keys: "[K] check, [C] call, [B] bet, [R] raise, [F] fold, [1]–[5] select a card to discard, [D] draw, [S] stand pat, "
    + "[A] accept the proposed ante; at a table with real cards, [1]–[4] throw that many cards.",
  /** What the dealer may enter for a seat, in the order the buttons stand. */
  seatActions: { check: "Check", call: "Call", bet: "Bet", raise: "Raise", fold: "Fold", stand_pat: "Stand pat", draw: "Draw",
    accept_ante: "Accept ante", refuse_ante: "Refuse ante" },
  /** What the dealer's page says once an action of this game is done, where it says more than
   * its label. */
  done: { draw: (f) => (f.count === undefined ? null : `Seat ${f.seat}: ${f.count ? `throws ${f.count}` : "stands pat"}`) },
  dealerTile: () => null,
  tileBet: (rs) => rs.total,
  tileHands,
  tileControls,
  cardPad,
  setupControls,
  openFields,
  rulesInWords,
  odds: () => [],
  replay: { key: "hands", ...replay },
};
