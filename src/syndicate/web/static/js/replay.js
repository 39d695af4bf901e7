// The replay of one hand, drawn as the table step by step with the log beside it.
// It draws only what the history it is given contains: a card the history does not show
// (null, "??", a redacted viewer's history) is drawn face down, never guessed.
import { h, money } from "./common.js";
import { cards } from "./cards.js";
import { gameOfHistory } from "./games/index.js";

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

/** The frames of the replay: the table after each step of the hand's own log, each said in
 * words by the hand's game. */
export function frames(doc, hand) {
  const rd = ownRound(doc, hand);
  if (!rd) return [];
  const steps = gameOfHistory(doc).replay;
  const name = namer(hand);
  const first = steps.start(rd, name);
  const out = [{ text: first.text, st: clone(first.st) }];
  const clock = clockMoves(rd);
  for (const [i, r] of (rd.log || []).entries()) {
    const text = steps.step(first.st, r, name);
    out.push({ text: clock.has(i) ? byClock(text, clock.get(i)) : text, st: clone(first.st) });
  }
  return out;
}

function drawTable(st, game) {
  const hand = (x) => h("div", { class: "hand" },
    cards(x.cards.map((c) => (c.down || !c.card ? null : c.card)), { small: true }),
    x.bet || game.replay.total(x.cards) ? h("div", { class: "label" }, [game.replay.total(x.cards), x.bet ? money(x.bet) : null].filter(Boolean).join(" · ")) : null);
  return h("div", { class: `felt replay-felt ${game.id}`, "data-testid": "replay-table" },
    game.replay.centre(st),
    h("div", { class: "seats" }, Object.entries(st.seats).map(([n, s]) => h("div", { class: "seat" },
      h("h3", {}, h("span", {}, s.name), h("span", { class: "muted" }, `seat ${n}`)),
      h("div", { class: "hands" }, s.hands.filter(Boolean).map(hand)),
      s.notes.length ? h("div", { class: "label" }, s.notes.join("; ")) : null))));
}

/** The replay viewer of ``hand`` (a row of the hand search) over its shoe's history ``doc``. */
export function replayViewer(doc, hand, extra = []) {
  const steps = frames(doc, hand);
  const game = gameOfHistory(doc);
  let i = 0;
  const board = h("div", { class: "replay-board" });
  const line = h("p", { class: "replay-step", "data-testid": "replay-step", role: "status" });
  const log = h("ol", { class: "replay-log", "aria-label": "The hand's log", "data-testid": "replay-log" },
    steps.map((f, n) => h("li", {}, h("button", { type: "button", class: "linkish", onclick: () => { i = n; show(); } }, f.text))));
  const show = () => {
    board.replaceChildren(drawTable(steps[i].st, game));
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
    h("h3", {}, `Hand ${hand.id} — table ${hand.table}, ${game.inText}`),
    ...extra, controls, line,
    h("div", { class: "replay-split" }, board, log));
  if (steps.length) show(); else line.textContent = "This hand has no steps to show.";
  return box;
}
