// The big screen's side panels (docs/screen.md): the prize draw as it is drawn, and the featured
// table's hand, a few hands behind the table, drawn from the spectator's copy of a finished hand
// the server sends (a card it does not show is drawn face down, never guessed).
import { h, money } from "../common.js";
import { cards } from "../cards.js";
import { frames } from "../replay.js";
import { gameOfHistory } from "../games/index.js";

/** The winners of a draw come up one at a time, this far apart (ms), on a screen that saw it drawn. */
const REVEAL_MS = 2500;

const firstSeen = new Map(); // draw id -> the status it had when this screen first saw it
const drawnAt = new Map(); // draw id -> when this screen saw it turn drawn (Date.now())

/** Whether a draw's winners are still coming up one by one (the screen redraws its side meanwhile). */
export function revealing() {
  return [...drawnAt.values()].some((t) => t !== null);
}

function shownWinners(d) {
  if (!firstSeen.has(d.id)) firstSeen.set(d.id, d.status);
  if (d.status !== "drawn") return 0;
  if (firstSeen.get(d.id) === "drawn") return d.winners.length; // drawn before the screen looked: all at once
  if (!drawnAt.has(d.id)) drawnAt.set(d.id, Date.now());
  const n = Math.min(d.winners.length, 1 + Math.floor((Date.now() - drawnAt.get(d.id)) / REVEAL_MS));
  if (n === d.winners.length) drawnAt.set(d.id, null);
  return n;
}

const STATUS = {
  open: (d) => (d.kind === "top" ? "Prizes to the most chips: counted when the draw closes" : "Open: chips become tickets when it closes"),
  closed: (d) => (d.kind === "top" ? `Closed: ${d.guests} guests' chips counted. The draw is next` : `Closed: ${d.tickets} tickets, ${d.guests} guests. The draw is next`),
  drawn: (d) => (d.winners.length === 1 ? "Drawn: the winner" : "Drawn: the winners, prize by prize"),
};

/** The draw the room is living: one closed and about to be drawn, else the latest drawn, else the
 * latest open. Null when there is none. */
export function drawBox(draws) {
  if (!draws || !draws.length) return null;
  for (const d of draws) shownWinners(d);
  const d = draws.find((x) => x.status === "closed") || [...draws].reverse().find((x) => x.status === "drawn")
    || draws[draws.length - 1];
  const n = shownWinners(d);
  const won = d.winners.slice(0, n);
  const prize = (w) => d.prizes[w.prize - 1] || { name: `prize ${w.prize}`, value: 0 };
  return h("section", { class: "panel draw-panel", "aria-labelledby": "draw-h", dataset: { status: d.status, shown: String(n) } },
    h("h2", { id: "draw-h" }, `Prize draw: ${d.name}`),
    h("p", { class: "status" }, STATUS[d.status](d)),
    d.status === "drawn"
      ? h("ol", { class: "winners", "aria-label": `Winners of ${d.name}` }, won.map((w) => h("li", { class: "winner" },
        h("span", { class: "prize" }, `${prize(w).name}${prize(w).value ? ` (${money(prize(w).value)})` : ""}`),
        h("span", { class: "name" }, w.name), w.ticket ? h("span", { class: "ticket" }, `ticket ${w.ticket}`) : null)),
        n < d.winners.length ? h("li", { class: "next" }, "And the next prize goes to…") : null)
      : h("ul", { class: "prizes", "aria-label": `Prizes of ${d.name}` }, d.prizes.map((p) => h("li", {}, p.name))));
}

/** The featured table's hand, `delay` hands behind the table: each seat's cards and what came of
 * them, the dealer's or the pot in the middle. */
export function featuredBox(f) {
  if (!f) return null;
  const behind = f.delay === 1 ? "1 hand" : `${f.delay} hands`;
  const head = h("h2", { id: "featured-h" }, `Featured: ${f.name}`);
  if (!f.hand) {
    return h("section", { class: "panel featured", "aria-labelledby": "featured-h" }, head,
      h("p", { class: "status" }, `A hand shows here once ${behind} more ${f.delay === 1 ? "has" : "have"} started: the screen is always ${behind} behind the table.`));
  }
  const doc = f.hand;
  const row = { id: doc.hand_id, number: doc.number, players: doc.players };
  const steps = frames(doc, row);
  const game = gameOfHistory(doc);
  const st = steps.length ? steps[steps.length - 1].st : { seats: {} };
  const seat = ([n, s]) => h("div", { class: "seat-line" },
    h("span", { class: "who" }, s.name || `Seat ${n}`),
    h("span", { class: "hands" }, s.hands.filter(Boolean).map((x) => cards(x.cards.map((c) => (c.down || !c.card ? null : c.card)), { small: true }))),
    h("span", { class: "what" }, s.notes.join("; ")));
  return h("section", { class: "panel featured", "aria-labelledby": "featured-h", dataset: { hand: doc.hand_id } }, head,
    h("p", { class: "status" }, `Hand ${doc.hand_id}, ${game.inText}: the screen is ${behind} behind the table`),
    h("div", { class: "featured-felt" }, game.replay.centre(st), h("div", { class: "seat-lines" }, Object.entries(st.seats).map(seat))));
}
