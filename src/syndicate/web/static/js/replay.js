// The replay of one hand, drawn as the table step by step with the log beside it.
// It draws only what the history it is given contains: a card the history does not show
// (null, "??", a redacted viewer's history) is drawn face down, never guessed.
import { h, money } from "./common.js";
import { cards } from "./cards.js";

const clone = (x) => JSON.parse(JSON.stringify(x));

/** The one round (Blackjack) or deal (draw) of ``hand`` in the shoe's history ``doc``. */
export function ownRound(doc, hand) {
  const list = doc.rounds || doc.hands || [];
  return list.find((r) => r.number === hand.number) || list[list.length - 1];
}

function namer(hand) {
  const names = Object.fromEntries((hand.players || []).map((p) => [p.seat, p.name]));
  return (seat) => names[seat] || `Seat ${seat}`;
}

function blackjackFrames(rd, hand) {
  const name = namer(hand);
  const st = { dealer: [], seats: {}, pot: null };
  const seat = (n) => (st.seats[n] ||= { name: name(n), hands: [{ cards: [], bet: 0 }], notes: [] });
  for (const n of Object.keys(rd.stacks || {})) seat(Number(n));
  const frames = [{ text: `${Object.keys(st.seats).map((n) => `${name(n)} (${money(rd.stacks[n])})`).join(", ")} at the table`, st: clone(st) }];
  for (const r of rd.log || []) {
    let text;
    const who = r.seat !== undefined && r.seat >= 0 ? name(r.seat) : "The dealer";
    const hd = (s) => (s.hands[r.hand || 0] ||= { cards: [], bet: 0 });
    switch (r.type) {
      case "bet": seat(r.seat).hands[0].bet = r.amount; text = `${who} bets ${money(r.amount)}`; break;
      case "withdraw": seat(r.seat).hands[0].bet = 0; text = `${who} takes the bet back`; break;
      case "deal": text = "The dealer deals"; break;
      case "card":
        if (r.seat === -1) {
          st.dealer.push({ card: r.card || null, down: !r.face_up });
          const drawn = st.dealer.length > 2; // the up card and the hole card come with the deal
          text = !r.face_up || !r.card ? "The dealer's hole card, face down" : `The dealer ${drawn ? "draws" : "shows"} ${r.card}`;
        } else {
          hd(seat(r.seat)).cards.push({ card: r.card || null, down: !r.card });
          text = `${who} is dealt ${r.card || "a card"}`;
        }
        break;
      case "split": {
        const s = seat(r.seat), from = hd(s);
        const moved = from.cards.pop();
        s.hands[r.new_hand] = { cards: moved ? [moved] : [], bet: r.amount || from.bet };
        text = `${who} splits`; break;
      }
      case "double": hd(seat(r.seat)).bet += r.amount; text = `${who} doubles for ${money(r.amount)}`; break;
      case "hit": text = `${who} hits`; break;
      case "stand": text = r.auto ? `${who} stands (automatically)` : `${who} stands`; break;
      case "insurance": seat(r.seat).notes.push(`insured ${money(r.amount)}`); text = `${who} insures for ${money(r.amount)}`; break;
      case "no_insurance": text = `${who} declines insurance`; break;
      case "even_money": text = `${who} takes even money`; break;
      case "play_on": text = `${who} plays on`; break;
      case "surrender": text = `${who} surrenders`; break;
      case "leave": text = `${who} leaves`; break;
      case "peek": text = `The dealer checks the hole card: ${r.blackjack ? "blackjack" : "no blackjack"}`; break;
      case "reveal": {
        const hole = st.dealer[1];
        if (hole) { hole.down = !r.card; hole.card = r.card || hole.card; }
        text = `The dealer turns over ${r.card || "the hole card"}`; break;
      }
      case "payout": {
        const s = seat(r.seat);
        const what = r.hand === -1 ? "insurance" : s.hands.length > 1 ? `hand ${r.hand + 1}` : "";
        s.notes.push(`${what ? what + ": " : ""}${r.outcome.replace("_", " ")} ${money(r.net)}`);
        text = `${who}${what ? ` (${what})` : ""}: ${r.outcome.replace("_", " ")}, ${money(r.net)}`; break;
      }
      default: text = `${who}: ${r.type}`;
    }
    frames.push({ text, st: clone(st) });
  }
  return frames;
}

function drawFrames(rd, hand) {
  const name = namer(hand);
  const st = { dealer: null, seats: {}, pot: 0 };
  const seat = (n) => (st.seats[n] ||= { name: name(n), hands: [{ cards: [], bet: 0 }], notes: [] });
  for (const [n] of rd.stacks || []) seat(n);
  const frames = [{ text: `${(rd.stacks || []).map(([n, c]) => `${name(n)} (${money(c)})`).join(", ")} at the table`, st: clone(st) }];
  for (const r of rd.log || []) {
    const who = r.seat !== undefined ? name(r.seat) : "";
    const s = r.seat !== undefined ? seat(r.seat) : null;
    const shown = (list) => (list || []).map((c) => ({ card: c && c !== "??" ? c : null, down: !c || c === "??" }));
    let text;
    switch (r.type) {
      case "ante": st.pot += r.amount; s.hands[0].bet += r.amount; text = `${who} antes ${money(r.amount)}`; break;
      case "deal": s.hands[0].cards = shown(r.cards); text = `${who} is dealt five cards`; break;
      case "phase": text = r.phase.replace("_", " "); break;
      case "check": text = `${who} checks`; break;
      case "bet": case "call": st.pot += r.amount; s.hands[0].bet += r.amount;
        text = `${who} ${r.type === "bet" ? "bets" : "calls"} ${money(r.amount)}${r.all_in ? " (all-in)" : ""}`; break;
      case "raise": st.pot += r.amount; s.hands[0].bet += r.amount; text = `${who} raises to ${money(r.to)}`; break;
      case "fold": s.notes.push("folded"); s.hands[0].cards = s.hands[0].cards.map(() => ({ card: null, down: true })); text = `${who} folds`; break;
      case "stand_pat": text = `${who} stands pat`; break;
      case "draw": {
        const discards = r.discards || [], received = r.received || discards.map(() => null);
        const kept = s.hands[0].cards.filter((c) => !(c.card && discards.includes(c.card)));
        while (kept.length + received.length > 5) kept.pop(); // a hidden hand: which went is not shown
        s.hands[0].cards = kept.concat(shown(received));
        text = `${who} draws ${(r.discards || r.received || []).length}`; break;
      }
      case "card": { // a card the dealer entered at a real-cards table (there: the hands shown down)
        const held = s.hands[0].cards, [c] = shown([r.card]);
        const down = held.findIndex((x) => x.down);
        if (down < 0) held.push(c); else if (c.card) held[down] = c;
        text = `${who}: the dealer enters ${c.card || "a card"}`; break;
      }
      case "ruling": if (r.dead) s.notes.push("dead hand");
        text = `${who} drew four but shows no Ace: ${r.dead ? "the hand is dead" : "the hand stands"}`; break;
      case "uncalled": st.pot -= r.amount; text = `${money(r.amount)} uncalled, back to ${who}`; break;
      case "show": s.hands[0].cards = shown(r.cards); text = `${who} shows ${r.name || (r.cards || []).join(" ")}`; break;
      case "award": s.notes.push(`wins ${money(r.amount)}`); text = `${who} wins ${money(r.amount)}${r.pot ? ` (side pot ${r.pot})` : ""}`; break;
      case "carry": text = `${money(r.amount)} carried to the next pot`; break;
      default: text = `${who ? who + ": " : ""}${r.type}`;
    }
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
  const hand = (x) => h("div", { class: "hand" },
    cards(x.cards.map((c) => (c.down || !c.card ? null : c.card)), { small: true }),
    x.bet ? h("div", { class: "label" }, money(x.bet)) : null);
  return h("div", { class: "felt replay-felt", "data-testid": "replay-table" },
    game === "poker"
      ? h("div", { class: "area" }, h("div", { class: "label" }, `Pot ${money(st.pot)}`))
      : h("div", { class: "area" }, h("div", { class: "label" }, "Dealer"),
        cards(st.dealer.map((c) => (c.down || !c.card ? null : c.card)), { small: true })),
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
