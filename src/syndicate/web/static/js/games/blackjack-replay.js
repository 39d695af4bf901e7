// A Blackjack round's replay in words: the table after each record of the round's log, and its
// totals as the table says them. replay.js walks the log; this says each step.
import { h, money } from "../common.js";
import { cardText, cards } from "../cards.js";

/** What a Blackjack bet's outcome is called, in words. */
const OUTCOME = { win: "wins", lose: "loses", push: "push", blackjack: "blackjack, paid 3:2", bust: "bust",
  surrender: "surrendered", even_money: "even money", forfeit: "forfeited (left the table)",
  insurance_win: "Insurance won", insurance_lose: "Insurance lost", insurance_forfeit: "Insurance forfeited" };
const outcome = (o) => OUTCOME[o] || o.replace(/_/g, " ");

/** A Blackjack hand's total from the cards drawn (null while one is face down), as the table
 * says it: "soft 17", "20", "24, bust". */
export function total(list) {
  if (!list.length || list.some((c) => c.down || !c.card)) return null;
  let sum = 0;
  let aces = 0;
  for (const c of list) {
    const r = "shdc".includes(c.card.slice(-1)) && c.card.length > 1 ? c.card.slice(0, -1) : c.card;
    if (r === "A") { aces += 1; sum += 1; } else sum += "TJQK".includes(r) || r === "10" ? 10 : Number(r);
  }
  const soft = aces > 0 && sum + 10 <= 21;
  if (soft) return `soft ${sum + 10}`;
  return sum > 21 ? `${sum}, bust` : String(sum);
}

const seatOf = (st, name, n) => (st.seats[n] ||= { name: name(n), hands: [{ cards: [], bet: 0 }], notes: [] });

/** The table before the first record, and what the first step says. */
export function start(rd, name) {
  const st = { dealer: [], seats: {}, pot: null };
  for (const n of Object.keys(rd.stacks || {})) seatOf(st, name, Number(n));
  return { st, text: `${Object.keys(st.seats).map((n) => `${name(n)} (${money(rd.stacks[n])})`).join(", ")} at the table` };
}

/** Record ``r`` applied to the table ``st`` (in place), said in words. */
export function step(st, r, name) {
  const seat = (n) => seatOf(st, name, n);
  const who = r.seat !== undefined && r.seat >= 0 ? name(r.seat) : "The dealer";
  const hd = (s) => (s.hands[r.hand || 0] ||= { cards: [], bet: 0 });
  const which = (s) => (s.hands.length > 1 ? ` (hand ${(r.hand || 0) + 1})` : "");
  switch (r.type) {
    case "bet": seat(r.seat).hands[0].bet = r.amount; return `${who} bets ${money(r.amount)}`;
    case "withdraw": seat(r.seat).hands[0].bet = 0; return `${who} takes the bet back`;
    case "deal": return "The dealer deals";
    case "card":
      if (r.seat === -1) {
        st.dealer.push({ card: r.card || null, down: !r.face_up });
        const drawn = st.dealer.length > 2; // the up card and the hole card come with the deal
        return !r.face_up || !r.card ? "The dealer's hole card, face down" : `The dealer ${drawn ? "draws" : "shows"} ${cardText(r.card)}`;
      } else {
        const s = seat(r.seat);
        hd(s).cards.push({ card: r.card || null, down: !r.card });
        return `${who}${which(s)} is dealt ${r.card ? cardText(r.card) : "a card"}`;
      }
    case "split": {
      const s = seat(r.seat), from = hd(s);
      const moved = from.cards.pop();
      s.hands[r.new_hand] = { cards: moved ? [moved] : [], bet: r.amount || from.bet };
      return `${who} splits`;
    }
    case "double": hd(seat(r.seat)).bet += r.amount; return `${who}${which(seat(r.seat))} doubles for ${money(r.amount)}`;
    case "hit": return `${who}${which(seat(r.seat))} hits`;
    case "stand": return `${who}${which(seat(r.seat))} stands${r.auto ? " (by the rules)" : ""}`;
    case "insurance": seat(r.seat).notes.push(`insured ${money(r.amount)}`); return `${who} insures for ${money(r.amount)}`;
    case "no_insurance": return `${who} declines insurance`;
    case "even_money": return `${who} takes even money`;
    case "play_on": return `${who} plays on`;
    case "surrender": return `${who} surrenders`;
    case "leave": return `${who} leaves the table, forfeiting the bets on it`;
    case "shuffle": return `The dealer shuffles the discards back into the shoe (${r.returned} cards back in; the ${r.on_table} on the table stay out)`;
    case "peek": return `The dealer checks the hole card: ${r.blackjack ? "blackjack" : "no blackjack"}`;
    case "reveal": {
      const hole = st.dealer[1];
      if (hole) { hole.down = !r.card; hole.card = r.card || hole.card; }
      return `The dealer turns over ${r.card ? cardText(r.card) : "the hole card"}`;
    }
    case "take_back": {
      // A correction at a real-cards table: the card's own record left the log; this note stays.
      const whose = r.seat === -1 ? (r.face_up ? "The dealer's card" : "The dealer's hole card") : `${who}'s card`;
      return `${whose} taken back (${r.card ? cardText(r.card) : "face down"}): a correction`;
    }
    case "payout": {
      const s = seat(r.seat);
      if (r.hand === -1) {
        s.notes.push(`${outcome(r.outcome)} ${money(r.net)}`);
        return `${who}: ${outcome(r.outcome)}, ${money(r.net)}`;
      }
      const what = s.hands.length > 1 ? `hand ${r.hand + 1}` : "";
      s.notes.push(`${what ? what + ": " : ""}${outcome(r.outcome)} ${money(r.net)}`);
      return `${who}${what ? ` (${what})` : ""}: ${outcome(r.outcome)}, ${money(r.net)}`;
    }
    default: return `${who}: ${r.type.replace(/_/g, " ")}`;
  }
}

/** The middle of the replay's felt: the dealer's cards and total. */
export function centre(st) {
  const dealerTotal = st.dealer.length ? total(st.dealer) : null;
  return h("div", { class: "area" }, h("div", { class: "label" }, "Dealer"),
    cards(st.dealer.map((c) => (c.down || !c.card ? null : c.card)), { small: true }),
    dealerTotal ? h("div", { class: "label", "data-testid": "replay-dealer-total" }, dealerTotal) : null);
}
