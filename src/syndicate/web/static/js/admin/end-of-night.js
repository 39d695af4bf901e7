// The admin page's end of the night (admin only): end the event after a confirmation; every table
// closes and every shoe's seed is published.
import { api, h, refused, toast } from "../common.js";
import { figures } from "./figures.js";
import { panel } from "./panel.js";

export async function endOfNight() {
  const box = h("div", { id: "end-of-night" });
  document.getElementById("main").append(panel("end", "The end of the night", box));
  const show = async () => {
    const ev = (await api("GET", "/api/events")).find((e) => e.current);
    if (!ev) { box.replaceChildren(h("p", {}, "No current event.")); return; }
    const when = ev.seed_reveal === "event_end" ? "when the event ends" : "when each table closes";
    if (ev.ended_at) {
      box.replaceChildren(h("p", { "data-testid": "event-status" },
        `${ev.name} ended at ${new Date(ev.ended_at).toLocaleString()}. Every table is closed and every shoe's seed is published: each hand verifies in full.`));
      return;
    }
    const end = h("button", { type: "button", class: "danger" }, "End the event");
    end.addEventListener("click", async () => {
      if (!confirm(`End ${ev.name}? Every table closes after its hand in play, no table opens and no hand starts again. Players can still cash out.`)) return;
      try { await api("POST", `/api/events/${ev.id}/end`); toast(`${ev.name} has ended`); await show(); figures(); } catch (err) { refused(err); }
    });
    box.replaceChildren(h("p", { "data-testid": "event-status" },
      `${ev.name} is on. Shoes' seeds are published ${when}; every card shown checks at the end of its hand.`), end);
  };
  await show();
}
