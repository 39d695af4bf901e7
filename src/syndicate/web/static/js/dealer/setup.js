// A table's setup on the dealer's pages, what is set between rounds: the table's status,
// auto-deal, the turn clock, bots, the game's own (an ante change at draw); seating a walk-in,
// selling them chips and cashing them out (docs/walk-ins.md). Its inputs keep what is typed.
import { api, h, inWords, money, parseDollars, playMoney } from "../common.js";
import { CLOCKS, clockWords } from "../clock.js";
import { gameOf } from "../games/index.js";
import { saleText } from "./seats.js";

/** Auto-deal as the state says (`table.auto_deal`, once the server sends it), else as this
 * console last set it (acknowledged by the server). */
function autoLine(entry) {
  const fromState = entry.state && entry.state.table.auto_deal;
  const secs = fromState !== undefined ? fromState : entry.auto;
  if (secs === undefined) return "Auto-deal: not set from this console";
  return secs === null ? "Auto-deal: off" : `Auto-deal: on, dealt ${secs} s after a round opens`;
}

let chipsKept = false;

export function setupPanel(t, entry, id, refresh) {
  const L = (x) => `${x} at ${t.name}`;
  const act = (...a) => entry.act(...a);
  const status = async (s) => {
    try { await api("POST", `/api/tables/${t.id}/status`, { status: s }); await refresh(); } catch (e) { entry.say(inWords(e), true); }
  };
  const bots = h("input", { type: "number", min: "1", max: String(t.seats), value: "1", "aria-label": L("Bots to seat") });
  // Each bot's chips, from the house float: blank is the default, 100 maximum bets (the
  // placeholder says how much once the table's state has come).
  const botChips = h("input", { inputmode: "decimal", "aria-label": `Chips per bot at ${t.name}, dollars` });
  const seatBots = () => {
    const typed = botChips.value.trim();
    const c = typed ? parseDollars(typed) : null;
    if (typed && c === null) { entry.say("Chips per bot: an amount in dollars, like 50 or 50.00 (blank: 100 maximum bets)", true); return; }
    act("add_bots", c === null ? { count: Number(bots.value) } : { count: Number(bots.value), amount: c });
  };
  const auto = h("input", { type: "number", min: "1", max: "600", step: "1", value: "15", "aria-label": `Auto-deal betting window at ${t.name}, seconds` });
  const walkSeat = h("input", { type: "number", min: "1", max: String(t.seats), value: "1" });
  const walkName = h("input", { autocomplete: "off" });
  const walkChips = h("input", { inputmode: "decimal", placeholder: "20.00" });
  const autoStatus = h("p", { id: `auto-${t.id}`, role: "status", "aria-label": L("Auto-deal") });
  const clockPick = h("select", { "aria-label": `Turn clock at ${t.name}` }, h("option", { value: "off" }, "Off"),
    CLOCKS.map((c) => h("option", { value: String(c) }, clockWords(c))));
  const clockStatus = h("p", { id: `clock-${t.id}`, role: "status", "aria-label": L("Turn clock") });
  const setAuto = async (seconds) => {
    try {
      await entry.sock.act("auto_deal", { seconds });
      entry.auto = seconds;
      autoStatus.textContent = autoLine(entry);
      entry.say(`auto-deal ${seconds === null ? "stopped" : `every ${seconds} s`}`);
    } catch (e) { entry.say(inWords(e), true); }
  };
  const pause = h("button", { type: "button", onclick: () => status(entry.table.status === "open" ? "paused" : "open") });
  const walkIn = h("form", { class: "inline", "aria-label": `Seat a walk-in at ${t.name}` },
    h("label", { class: "field" }, "Seat", walkSeat), h("label", { class: "field" }, "Walk-in's name", walkName),
    h("label", { class: "field" }, "Chips bought ($)", walkChips),  // 0: a walk-in sits with the chips they kept
    h("button", { type: "submit", class: "primary" }, "Seat a walk-in"));
  walkIn.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const c = parseDollars(walkChips.value);
    if (c === null) { entry.say("Chips bought: an amount in dollars, like 20 or 20.00", true); return; }
    act("seat_walk_in", { seat: Number(walkSeat.value), name: walkName.value.trim(), amount: c });
  });
  const walkIns = h("div", { class: "walk-ins", role: "group", "aria-label": L("Walk-ins' chips") });
  const rows = new Map(); // seat → its row, made once
  const walkInRow = (n) => {
    const chips = h("input", { inputmode: "decimal", placeholder: "20.00", "aria-label": `Chips to sell at seat ${n} of ${t.name}, dollars` });
    const who = h("span", { class: "who" });
    const leave = h("button", { type: "button", class: "danger", "aria-label": `Cash out seat ${n} of ${t.name}`, onclick: () => {
      const seat = entry.state.seats.find((x) => x.seat === n);
      const ask = chipsKept
        ? `${seat && seat.player} leaves ${t.name} with ${seat && money(seat.stack)} in chips? Chips have no cash value tonight: they stay on their name for the prize draws.`
        : `Cash ${seat && seat.player} out at ${t.name}? Pay them ${seat && money(seat.stack)} in cash.`;
      if (seat && confirm(ask)) act("cash_out_walk_in", { seat: n });
    } }, "Cash out");
    const row = h("div", { class: "walk-in-row" }, who, h("label", { class: "field" }, "Sell chips ($)", chips),
      h("button", { type: "button", "aria-label": `Sell chips at seat ${n} of ${t.name}`, onclick: () => {
        const c = parseDollars(chips.value);
        if (c === null) { entry.say("Chips in dollars, like 20 or 20.00", true); return; }
        act("sell_chips", { seat: n, amount: c });
      } }, "Sell chips"),
      leave);
    // A night whose chips have no cash value pays nothing out: the walk-in leaves with their
    // chips on their name, for the prize draws and their next table.
    playMoney().then((kept) => {
      chipsKept = kept;
      if (!kept) return;
      leave.textContent = "Leaves";
      leave.setAttribute("aria-label", `Seat ${n} leaves ${t.name}`);
    });
    return { row, who };
  };
  const controls = h("div", { class: "actions", role: "group", "aria-label": L("Controls") },
    pause,
    h("button", { type: "button", class: "danger", "aria-label": L("Close"), onclick: () => { if (confirm(`Close ${t.name}?`)) status("closed"); } }, "Close"),
    h("label", { class: "field" }, "Auto-deal window (s)", auto),
    h("button", { type: "button", "aria-label": L("Turn auto-deal on"), onclick: () => {
      const n = Number(auto.value);
      if (!(n > 0 && n <= 600)) { entry.say("Auto-deal: a betting window from 1 to 600 seconds", true); return; }
      setAuto(n);
    } }, "Auto-deal on"),
    h("button", { type: "button", "aria-label": L("Turn auto-deal off"), onclick: () => setAuto(null) }, "Auto-deal off"),
    h("label", { class: "field" }, "Turn clock", clockPick),
    h("button", { type: "button", "aria-label": L("Set the turn clock"), onclick: () => act("turn_clock", { seconds: clockPick.value === "off" ? null : Number(clockPick.value) }) }, "Set the clock"),
    h("label", { class: "field" }, "Bots to seat", bots), h("label", { class: "field" }, "Chips per bot ($)", botChips),
    h("button", { type: "button", "aria-label": L("Seat bots"), onclick: seatBots }, "Seat bots"),
    h("button", { type: "button", "aria-label": L("Remove bots"), onclick: () => act("remove_bots") }, "Remove bots"),
    gameOf(t.game).setupControls({ t, L, act, say: entry.say }));
  const el = h("div", { class: "tv-setup", id, role: "group", "aria-label": L("Setup") }, controls, autoStatus, clockStatus, walkIn, walkIns);
  el.update = () => {
    autoStatus.textContent = autoLine(entry);
    const s = entry.state;
    const clock = s ? s.table.turn_clock : undefined;
    if (clock !== undefined && !clockPick.dataset.shown) { // the clock in force, once: then what the dealer picks
      const v = clock === null ? "off" : String(clock);
      if (![...clockPick.options].some((o) => o.value === v)) clockPick.append(h("option", { value: v }, clockWords(clock)));
      clockPick.value = v;
      clockPick.dataset.shown = "1";
    }
    clockStatus.textContent = clock === undefined ? "" : clock === null
      ? "Turn clock: off (no one is hurried: the table never decides for a player)"
      : `Turn clock: ${clockWords(clock)} a decision, then the table decides (stand, no insurance; check, fold)`;
    if (s) botChips.placeholder = (100 * s.table.max_bet / 100).toFixed(2);
    const list = s ? s.seats.filter((x) => x.walk_in) : [];
    const order = list.map((seat) => {
      if (!rows.has(seat.seat)) rows.set(seat.seat, walkInRow(seat.seat));
      const r = rows.get(seat.seat);
      r.who.textContent = `Seat ${seat.seat}: ${seat.player}, ${money(seat.stack)}${seat.sale ? ` (${saleText(seat.sale)})` : ""}`;
      return r.row;
    });
    const now = [...walkIns.children];
    if (now.length !== order.length || now.some((x, i) => x !== order[i])) walkIns.replaceChildren(...order);
  };
  el.setRow = (row) => {
    const open = row.status === "open";
    pause.textContent = open ? "Pause" : "Resume";
    pause.setAttribute("aria-label", L(open ? "Pause" : "Resume"));
  };
  el.update();
  return el;
}
