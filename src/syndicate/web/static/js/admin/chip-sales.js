// The admin page's walk-ins' chip sales above the event's limit, waiting for a pit boss's or the
// admin's approval (no chip has moved), and the admin's limit (docs/walk-ins.md).
import { api, eventId, h, money, parseDollars, refused, toast } from "../common.js";
import { panel } from "./panel.js";
import { walkIns } from "./walk-ins.js";

/** Walk-ins' chip sales above the event's limit, waiting for a pit boss's or the admin's
 * approval (no chip has moved): each with Approve and Refuse. The list looks again every few
 * seconds, so a dealer's request shows up by itself. The admin sets the limit here too. */
export function chipSales(me) {
  const box = h("div", { id: "chip-sales" });
  const list = h("div", { "aria-live": "polite" });
  document.getElementById("walk-ins").closest("section").after(panel("sales", "Walk-ins' chip sales waiting for approval", box));
  const decide = (sale, how) => async () => {
    const what = `${money(sale.amount)} for ${sale.walk_in_name} at ${sale.table_name}`;
    if (how === "refuse" && !confirm(`Refuse the sale of ${what}? No chip moves.`)) return;
    try {
      await api("POST", `/api/chip-sales/${sale.id}/${how}`);
      toast(how === "approve" ? `Approved: ${what}` : `Refused: ${what}`);
      await show();
      walkIns(me);
    } catch (err) { refused(err); }
  };
  const show = async () => {
    const sales = await api("GET", "/api/chip-sales");
    const shown = JSON.stringify(sales.map((x) => x.id));
    if (list.dataset.shown === shown) return; // nothing new: leave the buttons under the finger
    list.dataset.shown = shown;
    // A list, not a table: on a pit boss's phone each sale and its two buttons fit the width.
    list.replaceChildren(sales.length ? h("ul", { class: "plain sales", "aria-label": "Chip sales waiting for approval" },
      sales.map((x) => h("li", { class: "sale" },
        h("p", {}, h("strong", {}, money(x.amount)), ` for ${x.walk_in_name}, seat ${x.seat} at ${x.table_name} (dealer ${x.dealer}), asked at ${new Date(x.requested_at).toLocaleTimeString()}`),
        me.account.name === x.dealer ? h("p", { class: "muted" }, "Your table: another pit boss or the admin approves it.")
          : h("div", { class: "inline" },
            h("button", { type: "button", class: "primary", "aria-label": `Approve ${money(x.amount)} for ${x.walk_in_name}`, onclick: decide(x, "approve") }, "Approve"),
            h("button", { type: "button", class: "danger", "aria-label": `Refuse ${money(x.amount)} for ${x.walk_in_name}`, onclick: decide(x, "refuse") }, "Refuse")))))
      : h("p", { class: "muted" }, "No sale is waiting."));
  };
  const parts = [list];
  if (me.account.role === "admin") parts.unshift(saleLimit());
  box.replaceChildren(...parts);
  show().catch((err) => { list.textContent = err.message; });
  setInterval(() => show().catch(() => {}), 4000);
}

/** The admin's limit on one chip sale to a walk-in: above it, the sale waits for approval. */
function saleLimit() {
  const status = h("p", { "data-testid": "sale-limit" });
  const amount = h("input", { inputmode: "decimal", placeholder: "100.00" });
  let changed = false;  // the host set a limit: the page's first reading of it is then stale
  const set = async (value) => {
    changed = true;
    try {
      const ev = await api("PATCH", `/api/events/${await eventId()}`, { sale_limit: value });
      say(ev.sale_limit);
      amount.value = "";
      toast(value === null ? "No limit on chip sales" : `Chip sales above ${money(value)} wait for approval`);
    } catch (err) { refused(err); }
  };
  const say = (limit) => {
    status.textContent = limit === null || limit === undefined ? "No limit: every chip sale at a table is made at once."
      : `A chip sale above ${money(limit)} waits for a pit boss's or the admin's approval.`;
  };
  const form = h("form", { class: "inline", "aria-label": "Set the chip sale limit" },
    h("label", { class: "field" }, "Sales above ($) wait for approval", amount), h("button", { type: "submit", class: "primary" }, "Set limit"),
    h("button", { type: "button", onclick: () => set(null) }, "No limit"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const c = parseDollars(amount.value);
    if (!c) { toast("The limit in dollars, like 100 or 250.00", true); return; }
    set(c);
  });
  api("GET", "/api/events").then((evs) => { if (!changed) say((evs.find((x) => x.current) || {}).sale_limit); }).catch(() => {});
  return h("div", {}, status, form);
}
