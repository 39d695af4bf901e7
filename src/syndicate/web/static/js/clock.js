// The turn clock as the pages show it: the clocks a dealer or the admin picks from, in words,
// and the table page's countdown of the state's `clock` from the message's arrival.
import { h } from "./common.js";

/** The turn clocks offered (the server takes 5 to 600 whole seconds, or none). */
export const CLOCKS = [15, 20, 30, 45, 60, 90, 120];

/** A clock's length in words: "30 s", "2 min"; none is "off". */
export const clockWords = (s) => (s === null || s === undefined ? "off" : s >= 120 && s % 60 === 0 ? `${s / 60} min` : `${s} s`);

/** Seconds left on the turn clock: the state's `clock` counted down from the message's arrival. */
function clockLeft(ctx) {
  const c = ctx.clock;
  if (!c || c.left === null || c.left === undefined) return null;
  return Math.max(0, c.left - (performance.now() - c.at) / 1000);
}

/** The clock of the player to act (`seat`: only if it is that seat's clock). */
export function timer(ctx, testid = "timer", seat = null) {
  const left = clockLeft(ctx);
  if (left === null || (seat !== null && ctx.clock.seat !== seat)) return null;
  return h("span", { class: left < 6 ? "timer low" : "timer", "data-testid": testid, role: "timer",
    "aria-label": `Turn clock, ${ctx.clock.seconds} s a turn` }, `${Math.ceil(left)} s`);
}

export function tickTimer(ctx) {
  const left = clockLeft(ctx);
  if (left === null) return;
  for (const el of document.querySelectorAll("[role=timer]")) {
    el.textContent = `${Math.ceil(left)} s`;
    el.className = left < 6 ? "timer low" : "timer";
  }
}
