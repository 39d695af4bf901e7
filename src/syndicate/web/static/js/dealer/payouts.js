// What the dealer pays and takes, each told once when due (docs/dealer.md, "Paying out"): what
// a take-back withdrew; during a round, the bets just settled (pay or take now) and those settled
// before; once it is over, what is left to move, then what was moved during it.
import { h, handTitle, money } from "../common.js";

export function payoutBlocks(entry, s, rd, inPlay) {
  // Each line names the player too: the dealer pays people, not seat numbers.
  const who = new Map(s.seats.map((x) => [x.seat, x.player]));
  const named = (p) => (p.seat !== null && who.has(p.seat) ? p.text.replace(`seat ${p.seat}:`, `seat ${p.seat} (${who.get(p.seat)}):`) : p.text);
  const kind = (p) => (p.amount > 0 ? "pay" : p.amount < 0 ? "take" : "");
  const blocks = [];
  const withdrawn = entry.withdrawn && entry.withdrawn.hand === s.hand_id ? entry.withdrawn.payouts : null;
  if (withdrawn) {
    const undo = (p) => (p.amount > 0 ? `take the ${money(p.amount)} back if you paid it` : p.amount < 0 ? `give the ${money(-p.amount)} back if you took it` : "nothing to undo");
    blocks.push(h("h4", { class: "withdrawn" }, `Withdrawn: the card that settled ${withdrawn.length > 1 ? "these" : "this"} was taken back`),
      h("ul", { class: "withdrawn" }, withdrawn.map((p) => h("li", {}, `${named(p)}: withdrawn, ${undo(p)}`))));
  }
  const list = rd && rd.payouts;
  if (inPlay) {
    const now = entry.payNow && entry.payNow.hand === s.hand_id ? entry.payNow.payouts : null;
    if (now) blocks.push(h("h4", {}, "Pay now"), h("ul", { class: "now" }, now.map((p) => h("li", { class: kind(p) }, named(p)))));
    const before = list ? list.filter((p) => !now || !now.some((x) => x.seat === p.seat)) : [];
    if (before.length) blocks.push(h("h4", {}, "Settled during the round"), h("ul", {}, before.map((p) => h("li", { class: "done" }, named(p)))));
  } else if (list) {
    // What the dealer must do first (each payment, in the list's order, and a carry to leave in
    // the middle), then what was moved during the round, then the seats with nothing to pay or
    // take: a crowded table's box may scroll.
    const idle = (p) => p.amount === 0 && p.seat !== null;
    const moves = [...list.filter((p) => !idle(p)), ...list.filter((p) => idle(p) && p.paid), ...list.filter((p) => idle(p) && !p.paid)];
    blocks.push(h("h4", {}, `Pay out ${handTitle(s).toLowerCase()}`),
      h("ul", {}, moves.map((p) => h("li", { class: idle(p) && p.paid ? "done" : kind(p) }, named(p)))));
  }
  return blocks;
}
