// The replay of one hand, drawn as the table step by step with the log beside it.
// It draws only what the history it is given contains: a card the history does not show
// (null, "??", a redacted viewer's history) is drawn face down, never guessed.
import { h, money } from "./common.js";
import { cardText, cards, spokenHand } from "./cards.js";

const clone = (x) => JSON.parse(JSON.stringify(x));

/** The one round (Blackjack) or deal (draw) of ``hand`` in the shoe's history ``doc``. */
export function ownRound(doc, hand) {
  const list = doc.rounds || doc.hands || [];
  return list.find((r) => r.hand_id === hand.id) || list.find((r) => r.hand_id === undefined && r.number === hand.number)
    || list[list.length - 1];
}

/** The moves the turn clock made for a player who let it run out, by their index in the log
 * (the round's `entered_by`, docs/hand-history.md), with the clock's length. */
function clockMoves(rd) {
  return new Map((rd.entered_by || []).filter((e) => e && "clock" in e).map((e) => [e.at, e.clock]));
}

/** A step the clock made, said as the clock's, not the player's. */
function byClock(text, seconds) {
  return `${text} — time ran out${typeof seconds === "number" ? ` after ${seconds} s` : ""}: the clock's move, not the player's choice`;
}

function namer(hand) {
  const names = Object.fromEntries((hand.players || []).map((p) => [p.seat, p.name]));
  return (seat) => names[seat] || `Seat ${seat}`;
}

/** What a Blackjack bet's outcome is called, in words. */
const OUTCOME = { win: "wins", lose: "loses", push: "push", blackjack: "blackjack, paid 3:2", bust: "bust",
  surrender: "surrendered", even_money: "even money", forfeit: "forfeited (left the table)",
  insurance_win: "Insurance won", insurance_lose: "Insurance lost", insurance_forfeit: "Insurance forfeited" };
const outcome = (o) => OUTCOME[o] || o.replace(/_/g, " ");

/** A Blackjack hand's total from the cards drawn (null while one is face down), as the table
 * says it: "soft 17", "20", "24, bust". */
export function blackjackTotal(list) {
  if (!list.length || list.some((c) => c.down || !c.card)) return null;
  let total = 0;
  let aces = 0;
  for (const c of list) {
    const r = "shdc".includes(c.card.slice(-1)) && c.card.length > 1 ? c.card.slice(0, -1) : c.card;
    if (r === "A") { aces += 1; total += 1; } else total += "TJQK".includes(r) || r === "10" ? 10 : Number(r);
  }
  const soft = aces > 0 && total + 10 <= 21;
  if (soft) return `soft ${total + 10}`;
  return total > 21 ? `${total}, bust` : String(total);
}

function blackjackFrames(rd, hand) {
  const name = namer(hand);
  const st = { dealer: [], seats: {}, pot: null };
  const seat = (n) => (st.seats[n] ||= { name: name(n), hands: [{ cards: [], bet: 0 }], notes: [] });
  for (const n of Object.keys(rd.stacks || {})) seat(Number(n));
  const frames = [{ text: `${Object.keys(st.seats).map((n) => `${name(n)} (${money(rd.stacks[n])})`).join(", ")} at the table`, st: clone(st) }];
  const clock = clockMoves(rd);
  for (const [i, r] of (rd.log || []).entries()) {
    let text;
    const who = r.seat !== undefined && r.seat >= 0 ? name(r.seat) : "The dealer";
    const hd = (s) => (s.hands[r.hand || 0] ||= { cards: [], bet: 0 });
    const which = (s) => (s.hands.length > 1 ? ` (hand ${(r.hand || 0) + 1})` : "");
    switch (r.type) {
      case "bet": seat(r.seat).hands[0].bet = r.amount; text = `${who} bets ${money(r.amount)}`; break;
      case "withdraw": seat(r.seat).hands[0].bet = 0; text = `${who} takes the bet back`; break;
      case "deal": text = "The dealer deals"; break;
      case "card":
        if (r.seat === -1) {
          st.dealer.push({ card: r.card || null, down: !r.face_up });
          const drawn = st.dealer.length > 2; // the up card and the hole card come with the deal
          text = !r.face_up || !r.card ? "The dealer's hole card, face down" : `The dealer ${drawn ? "draws" : "shows"} ${cardText(r.card)}`;
        } else {
          const s = seat(r.seat);
          hd(s).cards.push({ card: r.card || null, down: !r.card });
          text = `${who}${which(s)} is dealt ${r.card ? cardText(r.card) : "a card"}`;
        }
        break;
      case "split": {
        const s = seat(r.seat), from = hd(s);
        const moved = from.cards.pop();
        s.hands[r.new_hand] = { cards: moved ? [moved] : [], bet: r.amount || from.bet };
        text = `${who} splits`; break;
      }
      case "double": hd(seat(r.seat)).bet += r.amount; text = `${who}${which(seat(r.seat))} doubles for ${money(r.amount)}`; break;
      case "hit": text = `${who}${which(seat(r.seat))} hits`; break;
      case "stand": text = `${who}${which(seat(r.seat))} stands${r.auto ? " (by the rules)" : ""}`; break;
      case "insurance": seat(r.seat).notes.push(`insured ${money(r.amount)}`); text = `${who} insures for ${money(r.amount)}`; break;
      case "no_insurance": text = `${who} declines insurance`; break;
      case "even_money": text = `${who} takes even money`; break;
      case "play_on": text = `${who} plays on`; break;
      case "surrender": text = `${who} surrenders`; break;
      case "leave": text = `${who} leaves the table, forfeiting the bets on it`; break;
      case "shuffle": text = `The dealer shuffles the discards back into the shoe (${r.returned} cards back in; the ${r.on_table} on the table stay out)`; break;
      case "peek": text = `The dealer checks the hole card: ${r.blackjack ? "blackjack" : "no blackjack"}`; break;
      case "reveal": {
        const hole = st.dealer[1];
        if (hole) { hole.down = !r.card; hole.card = r.card || hole.card; }
        text = `The dealer turns over ${r.card ? cardText(r.card) : "the hole card"}`; break;
      }
      case "take_back": {
        // A correction at a real-cards table: the card's own record left the log; this note stays.
        const whose = r.seat === -1 ? (r.face_up ? "The dealer's card" : "The dealer's hole card") : `${who}'s card`;
        text = `${whose} taken back (${r.card ? cardText(r.card) : "face down"}): a correction`; break;
      }
      case "payout": {
        const s = seat(r.seat);
        if (r.hand === -1) {
          s.notes.push(`${outcome(r.outcome)} ${money(r.net)}`);
          text = `${who}: ${outcome(r.outcome)}, ${money(r.net)}`;
        } else {
          const what = s.hands.length > 1 ? `hand ${r.hand + 1}` : "";
          s.notes.push(`${what ? what + ": " : ""}${outcome(r.outcome)} ${money(r.net)}`);
          text = `${who}${what ? ` (${what})` : ""}: ${outcome(r.outcome)}, ${money(r.net)}`;
        }
        break;
      }
      default: text = `${who}: ${r.type.replace(/_/g, " ")}`;
    }
    if (clock.has(i)) text = byClock(text, clock.get(i));
    frames.push({ text, st: clone(st) });
  }
  return frames;
}

const PHASE = { first_betting: "The first betting round", draw: "The draw", second_betting: "The second betting round",
  showdown: "The showdown", dealing: "The deal", complete: "The hand is over" };

function drawFrames(rd, hand) {
  const name = namer(hand);
  const st = { dealer: null, seats: {}, pot: 0 };
  const seat = (n) => (st.seats[n] ||= { name: name(n), hands: [{ cards: [], bet: 0 }], notes: [] });
  for (const [n] of rd.stacks || []) seat(n);
  const frames = [{ text: `${(rd.stacks || []).map(([n, c]) => `${name(n)} (${money(c)})`).join(", ")} at the table`, st: clone(st) }];
  const list = (cs) => (cs || []).map(cardText).join(" ");
  const clock = clockMoves(rd);
  for (const [i, r] of (rd.log || []).entries()) {
    const who = r.seat !== undefined ? name(r.seat) : "";
    const s = r.seat !== undefined ? seat(r.seat) : null;
    const shown = (cs) => (cs || []).map((c) => ({ card: c && c !== "??" ? c : null, down: !c || c === "??" }));
    let text;
    switch (r.type) {
      case "ante": st.pot += r.amount; s.hands[0].bet += r.amount; text = `${who} antes ${money(r.amount)}`; break;
      case "deal": s.hands[0].cards = shown(r.cards); text = `${who} is dealt five cards`; break;
      case "phase": text = PHASE[r.phase] || r.phase.replace(/_/g, " "); break;
      case "check": text = `${who} checks`; break;
      case "bet": case "call": st.pot += r.amount; s.hands[0].bet += r.amount;
        text = `${who} ${r.type === "bet" ? "bets" : "calls"} ${money(r.amount)}${r.all_in ? " (all-in)" : ""}`; break;
      case "raise": st.pot += r.amount; s.hands[0].bet += r.amount; text = `${who} raises to ${money(r.to)}`; break;
      case "fold": s.notes.push("folded"); s.hands[0].cards = s.hands[0].cards.map(() => ({ card: null, down: true })); text = `${who} folds`; break;
      case "stand_pat": text = `${who} stands pat`; break;
      case "discard": { // a real-cards table: the discards, then their replacements one card at a time
        const gone = r.discards || [];
        const known = gone.filter((c) => c && c !== "??");
        let kept = s.hands[0].cards.filter((c) => !(c.card && known.includes(c.card)));
        kept = kept.slice(0, Math.max(0, s.hands[0].cards.length - gone.length));
        s.hands[0].cards = kept;
        text = `${who} discards ${gone.length}${known.length === gone.length && gone.length ? ` (${list(gone)})` : ""}`; break;
      }
      case "draw": {
        const discards = r.discards || [], received = r.received || discards.map(() => null);
        const kept = s.hands[0].cards.filter((c) => !(c.card && discards.includes(c.card)));
        while (kept.length + received.length > 5) kept.pop(); // a hidden hand: which went is not shown
        s.hands[0].cards = kept.concat(shown(received));
        const seen = received.filter((c) => c && c !== "??");
        text = `${who} draws ${(r.discards || r.received || []).length}${seen.length && seen.length === received.length ? `: ${list(received)}` : ""}`; break;
      }
      case "card": { // a card the dealer entered: dealt, or (dealt face down before) a card of a hand shown down
        const held = s.hands[0].cards, [c] = shown([r.card]);
        const down = c.card ? held.findIndex((x) => x.down) : -1;
        if (down < 0) held.push(c); else held[down] = c;
        text = down < 0 ? `${who} is dealt ${c.card ? cardText(c.card) : "a card"}` : `${who}: the dealer enters ${cardText(c.card)}`;
        break;
      }
      case "ruling": if (r.dead) s.notes.push("dead hand");
        text = `${who} drew four but shows no Ace: ${r.dead ? "the hand is dead" : "the hand stands"}`; break;
      case "take_back": text = `${who}'s card taken back (${r.card && r.card !== "??" ? cardText(r.card) : "face down"}): a correction`; break;
      case "restub": text = `The deck ran out: ${r.cards} mucked cards ${r.shuffled ? "shuffled into" : "stacked as"} a new stub`; break;
      case "uncalled": st.pot -= r.amount; text = `${money(r.amount)} nobody called goes back to ${who}`; break;
      case "show": s.hands[0].cards = shown(r.cards); text = `${who} shows ${list(r.cards)}${r.name ? `: ${spokenHand(r.name)}` : ""}`; break;
      case "award": s.notes.push(`wins ${money(r.amount)}`); text = `${who} wins ${money(r.amount)}${r.pot ? ` (side pot ${r.pot})` : ""}`; break;
      case "carry": text = `${money(r.amount)} carried to the next pot`; break;
      default: text = `${who ? who + ": " : ""}${r.type.replace(/_/g, " ")}`;
    }
    if (clock.has(i)) text = byClock(text, clock.get(i));
    frames.push({ text, st: clone(st) });
  }
  return frames;
}

/** The frames of the replay: the table after each step of the hand's own log. */
export function frames(doc, hand) {
  const rd = ownRound(doc, hand);
  if (!rd) return [];
  return doc.game === "poker" || doc.hands ? drawFrames(rd, hand) : blackjackFrames(rd, hand);
}

function drawTable(st, game) {
  const bj = game !== "poker";
  const total = (list) => (bj ? blackjackTotal(list) : null);
  const hand = (x) => h("div", { class: "hand" },
    cards(x.cards.map((c) => (c.down || !c.card ? null : c.card)), { small: true }),
    x.bet || total(x.cards) ? h("div", { class: "label" }, [total(x.cards), x.bet ? money(x.bet) : null].filter(Boolean).join(" · ")) : null);
  const dealerTotal = bj && st.dealer.length ? total(st.dealer) : null;
  return h("div", { class: `felt replay-felt ${bj ? "blackjack" : "poker"}`, "data-testid": "replay-table" },
    !bj
      ? h("div", { class: "area" }, h("div", { class: "label" }, `Pot ${money(st.pot)}`))
      : h("div", { class: "area" }, h("div", { class: "label" }, "Dealer"),
        cards(st.dealer.map((c) => (c.down || !c.card ? null : c.card)), { small: true }),
        dealerTotal ? h("div", { class: "label", "data-testid": "replay-dealer-total" }, dealerTotal) : null),
    h("div", { class: "seats" }, Object.entries(st.seats).map(([n, s]) => h("div", { class: "seat" },
      h("h3", {}, h("span", {}, s.name), h("span", { class: "muted" }, `seat ${n}`)),
      h("div", { class: "hands" }, s.hands.filter(Boolean).map(hand)),
      s.notes.length ? h("div", { class: "label" }, s.notes.join("; ")) : null))));
}

/** The replay viewer of ``hand`` (a row of the hand search) over its shoe's history ``doc``. */
export function replayViewer(doc, hand, extra = []) {
  const steps = frames(doc, hand);
  let i = 0;
  const board = h("div", { class: "replay-board" });
  const line = h("p", { class: "replay-step", "data-testid": "replay-step", role: "status" });
  const log = h("ol", { class: "replay-log", "aria-label": "The hand's log", "data-testid": "replay-log" },
    steps.map((f, n) => h("li", {}, h("button", { type: "button", class: "linkish", onclick: () => { i = n; show(); } }, f.text))));
  const show = () => {
    board.replaceChildren(drawTable(steps[i].st, doc.game));
    line.textContent = `Step ${i + 1} of ${steps.length}: ${steps[i].text}`;
    [...log.children].forEach((li, n) => { li.classList.toggle("now", n === i); li.toggleAttribute("aria-current", n === i); });
  };
  const go = (n) => () => { i = Math.max(0, Math.min(steps.length - 1, n())); show(); };
  const controls = h("div", { role: "group", "aria-label": "Replay controls", class: "replay-controls" },
    h("button", { type: "button", "aria-label": "First step", onclick: go(() => 0) }, "« First"),
    h("button", { type: "button", "aria-label": "Previous step", onclick: go(() => i - 1) }, "◀ Previous"),
    h("button", { type: "button", "aria-label": "Next step", onclick: go(() => i + 1) }, "Next ▶"),
    h("button", { type: "button", "aria-label": "Last step", onclick: go(() => steps.length - 1) }, "End"));
  const box = h("div", { class: "card-box replay", role: "region", "aria-label": `Replay of hand ${hand.id}` },
    h("h3", {}, `Hand ${hand.id} — table ${hand.table}, ${hand.game === "poker" ? "five-card draw" : "Blackjack"}`),
    ...extra, controls, line,
    h("div", { class: "replay-split" }, board, log));
  if (steps.length) show(); else line.textContent = "This hand has no steps to show.";
  return box;
}
