// A dealer's shift on the dealer's pages (docs/dealer.md, "Shifts, breaks and handovers"): where
// they are (clocked out, on the floor, dealing, on a break) and the step they may take next
// (clock in, go on a break, come back, clock out), on the console and in a table's setup on the
// tablet; and, in a table's setup, handing the table to another dealer on the floor between
// hands, going on a break (the table's `hand_over` action: its seats, stacks and bets stay).
import { api, h, inWords } from "../common.js";

const STATE = {
  clocked_out: () => "You are clocked out.",
  waiting: (m) => `You are on the floor since ${at(m.since)}, waiting for a table.`,
  dealing: (m) => `You are dealing ${m.tables.map((t) => t.name).join(", ")} since ${at(m.tables[0].since)}.`,
  on_break: (m) => `You are on a break since ${at(m.since)}.`,
};
const STEPS = {
  clocked_out: [["clock-in", "Clock in"]],
  waiting: [["break", "Go on a break"], ["clock-out", "Clock out"]],
  dealing: [],
  on_break: [["back", "Back from my break"], ["clock-out", "Clock out"]],
};
const at = (iso) => (iso ? new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "");

/** "Your shift": the line and its steps; `changed(me)` is told the shift after each step. */
export function shiftBox(id, changed = () => {}) {
  const line = h("p", { class: "shift-line", role: "status", id: `${id}-line` });
  const steps = h("div", { class: "actions", role: "group", "aria-label": "Your shift" });
  const alarm = h("p", { class: "error", role: "alert" });
  const box = h("div", { class: "shift", id }, line, steps, alarm);
  box.refresh = async () => {
    let me;
    try { me = await api("GET", "/api/shifts/me"); } catch (e) { line.textContent = inWords(e); return null; }
    line.textContent = (STATE[me.state] || (() => me.state))(me);
    const kept = [...steps.children].map((b) => b.dataset.step).join();
    if (kept !== STEPS[me.state].map(([s]) => s).join()) {
      steps.replaceChildren(...STEPS[me.state].map(([step, label]) => h("button", { type: "button", class: step === "clock-in" || step === "back" ? "primary" : null,
        dataset: { step }, onclick: async () => {
          alarm.textContent = "";
          try { changed(await api("POST", `/api/shifts/${step}`)); } catch (e) { alarm.textContent = inWords(e); }
          await box.refresh();
        } }, label)));
    }
    changed(me);
    return me;
  };
  return box;
}

/** A table's handover, in its setup: to one of the dealers on the floor, the outgoing dealer on a break. */
export function handOver(t, entry) {
  const L = (x) => `${x} at ${t.name}`;
  const to = h("select", { "aria-label": L("Dealer who takes the table") });
  const give = (rest, label) => h("button", { type: "submit", class: rest ? "primary" : null, value: rest ? "break" : "floor" }, label);
  const form = h("form", { class: "inline", "aria-label": L("Hand the table over") },
    h("label", { class: "field" }, "Hand the table to", to),
    give(true, "Hand over and go on a break"), give(false, "Hand over, stay on the floor"));
  const shift = shiftBox(`shift-${t.id}`, (me) => {
    const free = (me && me.free) || [];
    const was = to.value;
    if ([...to.options].map((o) => o.value).join() !== free.join()) {
      to.replaceChildren(...(free.length ? free.map((n) => h("option", { value: n }, n)) : [h("option", { value: "" }, "No dealer is free on the floor")]));
      if (free.includes(was)) to.value = was;
    }
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const rest = !ev.submitter || ev.submitter.value === "break";
    if (!to.value) { entry.say("No dealer is free on the floor: one clocks in first", true); return; }
    try {
      await entry.sock.act("hand_over", { to: to.value, break: rest });
      entry.say(`${to.value} deals ${t.name} now${rest ? ": you are on a break" : ""}`);
    } catch (e) { entry.say(inWords(e), true); }
    await shift.refresh();
  });
  const el = h("div", { class: "hand-over", role: "group", "aria-label": L("Your shift") }, h("h4", {}, "Your shift"), shift, form);
  el.refresh = shift.refresh;
  return el;
}
