// A five-card draw hand's replay in words: the table after each record of the hand's log.
// replay.js walks the log; this says each step.
import { h, money } from "../common.js";
import { cardText, spokenHand } from "../cards.js";

const PHASE = { first_betting: "The first betting round", draw: "The draw", second_betting: "The second betting round",
  showdown: "The showdown", dealing: "The deal", complete: "The hand is over" };

const seatOf = (st, name, n) => (st.seats[n] ||= { name: name(n), hands: [{ cards: [], bet: 0 }], notes: [] });
const list = (cs) => (cs || []).map(cardText).join(" ");
const shown = (cs) => (cs || []).map((c) => ({ card: c && c !== "??" ? c : null, down: !c || c === "??" }));

/** The table before the first record, and what the first step says. */
export function start(rd, name) {
  const st = { dealer: null, seats: {}, pot: 0 };
  for (const [n] of rd.stacks || []) seatOf(st, name, n);
  return { st, text: `${(rd.stacks || []).map(([n, c]) => `${name(n)} (${money(c)})`).join(", ")} at the table` };
}

/** Record ``r`` applied to the table ``st`` (in place), said in words. */
export function step(st, r, name) {
  const who = r.seat !== undefined ? name(r.seat) : "";
  const s = r.seat !== undefined ? seatOf(st, name, r.seat) : null;
  switch (r.type) {
    case "ante": st.pot += r.amount; s.hands[0].bet += r.amount; return `${who} antes ${money(r.amount)}`;
    case "deal": s.hands[0].cards = shown(r.cards); return `${who} is dealt five cards`;
    case "phase": return PHASE[r.phase] || r.phase.replace(/_/g, " ");
    case "check": return `${who} checks`;
    case "bet": case "call": st.pot += r.amount; s.hands[0].bet += r.amount;
      return `${who} ${r.type === "bet" ? "bets" : "calls"} ${money(r.amount)}${r.all_in ? " (all-in)" : ""}`;
    case "raise": st.pot += r.amount; s.hands[0].bet += r.amount; return `${who} raises to ${money(r.to)}`;
    case "fold": s.notes.push("folded"); s.hands[0].cards = s.hands[0].cards.map(() => ({ card: null, down: true })); return `${who} folds`;
    case "stand_pat": return `${who} stands pat`;
    case "discard": { // a real-cards table: the discards, then their replacements one card at a time
      const gone = r.discards || [];
      const known = gone.filter((c) => c && c !== "??");
      let kept = s.hands[0].cards.filter((c) => !(c.card && known.includes(c.card)));
      kept = kept.slice(0, Math.max(0, s.hands[0].cards.length - gone.length));
      s.hands[0].cards = kept;
      return `${who} discards ${gone.length}${known.length === gone.length && gone.length ? ` (${list(gone)})` : ""}`;
    }
    case "draw": {
      const discards = r.discards || [], received = r.received || discards.map(() => null);
      const kept = s.hands[0].cards.filter((c) => !(c.card && discards.includes(c.card)));
      while (kept.length + received.length > 5) kept.pop(); // a hidden hand: which went is not shown
      s.hands[0].cards = kept.concat(shown(received));
      const seen = received.filter((c) => c && c !== "??");
      return `${who} draws ${(r.discards || r.received || []).length}${seen.length && seen.length === received.length ? `: ${list(received)}` : ""}`;
    }
    case "card": { // a card the dealer entered: dealt, or (dealt face down before) a card of a hand shown down
      const held = s.hands[0].cards, [c] = shown([r.card]);
      const down = c.card ? held.findIndex((x) => x.down) : -1;
      if (down < 0) held.push(c); else held[down] = c;
      return down < 0 ? `${who} is dealt ${c.card ? cardText(c.card) : "a card"}` : `${who}: the dealer enters ${cardText(c.card)}`;
    }
    case "ruling": if (r.dead) s.notes.push("dead hand");
      return `${who} drew four but shows no Ace: ${r.dead ? "the hand is dead" : "the hand stands"}`;
    case "take_back": return `${who}'s card taken back (${r.card && r.card !== "??" ? cardText(r.card) : "face down"}): a correction`;
    case "restub": return `The deck ran out: ${r.cards} mucked cards ${r.shuffled ? "shuffled into" : "stacked as"} a new stub`;
    case "uncalled": st.pot -= r.amount; return `${money(r.amount)} nobody called goes back to ${who}`;
    case "show": s.hands[0].cards = shown(r.cards); return `${who} shows ${list(r.cards)}${r.name ? `: ${spokenHand(r.name)}` : ""}`;
    case "award": s.notes.push(`wins ${money(r.amount)}`); return `${who} wins ${money(r.amount)}${r.pot ? ` (side pot ${r.pot})` : ""}`;
    case "carry": return `${money(r.amount)} carried to the next pot`;
    default: return `${who ? who + ": " : ""}${r.type.replace(/_/g, " ")}`;
  }
}

/** A hand's total: none is said at draw. */
export const total = () => null;

/** The middle of the replay's felt: the pot. */
export const centre = (st) => h("div", { class: "area" }, h("div", { class: "label" }, `Pot ${money(st.pot)}`));
