// A seat on the dealer's tablet: the seated player at a glance (name, chips, bet, hands) and,
// for a seat the dealer acts for (a walk-in, a bot, a player who lets the dealer act), the
// buttons of exactly what that seat may do now. The controls are made once: a state that arrives
// while the dealer types an amount or holds the focus on a button changes neither.
import { h, money, parseDollars } from "../common.js";
import { gameOf } from "../games/index.js";

/** The actions that take the amount field (the others ignore it). */
const WITH_AMOUNT = new Set(["bet", "raise", "double", "insurance"]);
/** A game that adds no control of its own to a seat's. */
const NO_CONTROLS = { fields: [], buttons: [], replaces: [], fill() {}, done() {}, update() {} };

/** A chip sale above the event's limit, as the dealer's screens say it: no chip has moved. */
export function saleText(sale) {
  return sale.status === "approved" ? `${money(sale.amount)} approved: the chips come when this round is over`
    : `${money(sale.amount)} waiting for a pit boss's approval`;
}

export function seatTile(entry, n) {
  const t = entry.table;
  const game = gameOf(t.game);
  const L = (x) => `${x} for seat ${n} at ${t.name}`;
  const info = h("div", { class: "tile-info" });
  const amount = h("input", { inputmode: "decimal", placeholder: "5.00", autocomplete: "off", "aria-label": L("Amount, dollars,") });
  const amountField = h("label", { class: "field" }, "Amount ($)", amount);
  const own = game.tileControls({ t, n, L, act: entry.act, entry }) || NO_CONTROLS;
  const send = (a) => {
    const fields = { seat: n };
    if ((a === "bet" || a === "raise") && !amount.value.trim()) { entry.say(`Type an amount to ${a}`, true); amount.focus(); return; }
    if (WITH_AMOUNT.has(a) && amount.value.trim()) {
      const c = parseDollars(amount.value);
      if (c === null) { entry.say("An amount in dollars, like 5 or 5.00", true); return; }
      fields.amount = c;
    }
    own.fill(a, fields);
    // Once taken, an amount or a discard is not sent again with the next decision.
    entry.act(a, fields).then((done) => {
      if (done && WITH_AMOUNT.has(a)) amount.value = "";
      if (done) own.done(a);
    });
  };
  const buttons = new Map(Object.entries(game.seatActions).filter(([a]) => !own.replaces.includes(a))
    .map(([a, label]) => [a, h("button", { type: "button", class: "act", hidden: true, "aria-label": L(label), onclick: () => send(a) }, label)]));
  const controls = h("div", { class: "tile-acts", role: "group", "aria-label": `Act for seat ${n} at ${t.name}`, hidden: true },
    amountField, ...own.fields, ...buttons.values(), ...own.buttons);
  const el = h("div", { class: "tile", role: "group", "aria-label": `Seat ${n} at ${t.name}`, dataset: { seat: n } }, info, controls);
  let legal = [];
  return {
    el,
    controls,
    legal: () => legal.length > 0,
    update(seat, rs, rd) {
      legal = seat.legal_actions || [];
      for (const [a, b] of buttons) b.hidden = !legal.includes(a);
      amountField.hidden = !legal.some((a) => WITH_AMOUNT.has(a));
      own.update(legal);
      controls.hidden = !legal.length;
      const acting = Boolean(rd) && rd.to_act === n;
      el.classList.toggle("acting", acting);
      const kind = seat.bot ? "bot" : seat.walk_in ? "walk-in" : seat.dealer_acts ? "dealer acts" : "own phone";
      const stack = rs ? rs.stack : seat.stack;
      const bet = rs ? game.tileBet(rs) : 0;
      const parts = [h("div", { class: "tile-head" }, h("strong", {}, `Seat ${n}: ${seat.player}`),
        h("span", { class: `tag kind${seat.walk_in ? " walk-in" : ""}` }, kind), acting ? h("span", { class: "tag to-act" }, "to act") : null,
        acting ? entry.timer(n) : null,
        seat.sitting_out ? h("span", { class: "tag" }, "sitting out") : null),
      h("div", { class: "tile-money" }, h("span", {}, `Chips ${money(stack)}`), bet ? h("span", { class: "bet" }, `Bet ${money(bet)}`) : null,
        rs && rs.insurance ? h("span", {}, `Insurance ${money(rs.insurance)}`) : null)];
      if (seat.sale) parts.push(h("div", { class: "tag sale", role: "status" }, saleText(seat.sale)));
      if (rs) parts.push(...game.tileHands(rs, rd, acting));
      info.replaceChildren(...parts);
    },
  };
}
