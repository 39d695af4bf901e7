// The games the room deals, each one module of one shape (./blackjack.js, ./draw.js: its name
// in words, how its table, seats and hands are drawn, the dealer's controls it adds, its replay
// steps in words, its stake fields), looked up by a table's `game` as the API gives it. Five-card
// draw's id there is "poker". Nothing outside this folder names a game.
import blackjack from "./blackjack.js";
import draw from "./draw.js";

/** Every game, in the order the lobby and the dealer's form list them. */
export const GAMES = [blackjack, draw];

const BY_ID = new Map(GAMES.map((g) => [g.id, g]));

/** The game of a table, a hand or a ledger line by its id ("blackjack", "poker"). */
export function gameOf(id) {
  const game = BY_ID.get(id);
  if (!game) throw new Error(`no game "${id}" in this page`);
  return game;
}

/** A game's name as a table's line says it ("Five-card draw"); for an id of no game, `unknown`
 * (the id itself unless told). */
export const titleOf = (id, unknown = id) => (BY_ID.has(id) ? BY_ID.get(id).title : unknown);

/** The game of a shoe's history: its `game`, else the game whose history has its list
 * (`rounds` at Blackjack, `hands` at draw). */
export function gameOfHistory(doc) {
  return BY_ID.get(doc.game) || GAMES.find((g) => g.replay.key in doc) || blackjack;
}

/** ``rows`` (tables, hands) by game, every game listed even with none: [[game, its rows]]. */
export const byGame = (rows) => GAMES.map((g) => [g, rows.filter((r) => r.game === g.id)]);
