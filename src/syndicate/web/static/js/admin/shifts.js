// The admin page's dealers on the floor (the admin and pit bosses, docs/dealer.md, "Shifts,
// breaks and handovers"): each authorized dealer with an account, where they are (dealing a
// table, waiting for one, on a break, clocked out) and for how long, and their time at tables
// tonight; the rotation the room proposes next; and, for the admin, the shift and break lengths.
import { api, h, redraw, refused, toast } from "../common.js";
import { panel, wide } from "./panel.js";

const WORDS = { dealing: "dealing", waiting: "on the floor, waiting for a table", on_break: "on a break", clocked_out: "clocked out" };

/** 4500 s → "1 h 15 min"; 300 → "5 min". */
export function duration(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const m = Math.floor(seconds / 60);
  return m >= 60 ? `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min` : `${m} min`;
}

const time = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

function where(d) {
  if (d.state === "dealing") return `dealing ${d.tables.map((t) => t.name).join(", ")}`;
  return WORDS[d.state] || d.state;
}

function lengthsForm(floor, done) {
  const shift = h("input", { type: "number", min: 1, max: 720, value: floor.shift_minutes, "aria-label": "Shift length, minutes" });
  const rest = h("input", { type: "number", min: 1, max: 720, value: floor.break_minutes, "aria-label": "Break length, minutes" });
  const form = h("form", { class: "inline", "aria-label": "Shift and break lengths" },
    h("label", { class: "field" }, "Shift (min)", shift), h("label", { class: "field" }, "Break (min)", rest),
    h("button", { type: "submit", class: "primary" }, "Save"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const ev = await api("GET", "/api/events/current");
      await api("PATCH", `/api/events/${ev.id}`, { shift_minutes: Number(shift.value), break_minutes: Number(rest.value) });
      toast("Shift and break lengths saved: the rotation follows them");
      done(true);
    } catch (err) { refused(err); }
  });
  return form;
}

/** The panel, added to the page once; each later call reads the floor again and redraws what changed. */
export async function dealersOnFloor(me) {
  let box = document.getElementById("shifts");
  let settings = null;
  if (!box) {
    box = h("div", { id: "shifts" });
    settings = h("div", { id: "shift-lengths" });
    document.querySelector('[aria-labelledby="roster-h"]').after(wide(panel("floor", "Dealers on the floor", box, settings)));
  }
  const floor = await api("GET", "/api/shifts");
  const rows = floor.dealers.map((d) => h("tr", { dataset: { state: d.state } },
    h("td", {}, d.dealer), h("td", {}, where(d)),
    h("td", { class: "num" }, d.state === "clocked_out" ? "" : duration(d.state === "dealing" ? d.tables[0].seconds : d.seconds)),
    h("td", { class: "num" }, duration(d.dealt_seconds))));
  const next = floor.next.length
    ? h("ol", { class: "plan", "aria-label": "The rotation" }, floor.next.map((n) => h("li", {},
      `${time(n.at)}: ${n.table}: ${n.dealer_out} goes on a break, ${n.dealer_in} takes the table`)))
    : h("p", { class: "muted" }, "No rotation to propose: no dealer is waiting or on a break to take a table.");
  redraw(box,
    h("table", { class: "data", "aria-label": "Dealers on the floor" },
      h("thead", {}, h("tr", {}, h("th", {}, "Dealer"), h("th", {}, "Where"), h("th", { class: "num" }, "For"), h("th", { class: "num" }, "Dealt tonight"))),
      h("tbody", {}, rows)),
    h("h3", {}, `Next (shifts of ${floor.shift_minutes} min, breaks of ${floor.break_minutes} min)`), next);
  if (settings && me.account.role === "admin") settings.replaceChildren(lengthsForm(floor, () => dealersOnFloor(me)));
}
