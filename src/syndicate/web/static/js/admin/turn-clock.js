// The admin page's turn clock of the tables opened from now on, by their cards (admin only): a
// dealer may set another when opening one. Until set: none at real cards, the server's at
// shuffled tables.
import { api, h, refused, toast } from "../common.js";
import { CLOCKS, clockWords } from "../clock.js";
import { panel } from "./panel.js";

export async function turnClock() {
  const box = h("div", { id: "turn-clock" });
  document.getElementById("main").append(panel("clock", "Turn clock at new tables", box));
  const show = async () => {
    const ev = (await api("GET", "/api/events")).find((e) => e.current);
    if (!ev) { box.replaceChildren(h("p", {}, "No current event.")); return; }
    const set = ev.turn_clock || {};
    const pick = (cards, label, unset) => {
      const sel = h("select", { name: cards, "aria-label": `Turn clock at new ${label} tables` },
        h("option", { value: "" }, unset), h("option", { value: "off" }, "Off"), CLOCKS.map((c) => h("option", { value: String(c) }, clockWords(c))));
      if (cards in set) {
        const v = set[cards] === null ? "off" : String(set[cards]);
        if (![...sel.options].some((o) => o.value === v)) sel.append(h("option", { value: v }, clockWords(set[cards])));
        sel.value = v;
      }
      return sel;
    };
    const real = pick("real", "real-cards", "Not set: off");
    const shuffled = pick("shuffled", "shuffled", "Not set: the server's (30 s)");
    const said = (cards, unset) => (cards in set ? clockWords(set[cards]) : unset);
    const form = h("form", { class: "inline", "aria-label": "Set the turn clock at new tables" },
      h("label", { class: "field" }, "Real cards", real), h("label", { class: "field" }, "Shuffled", shuffled),
      h("button", { type: "submit", class: "primary" }, "Save"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = {};
      for (const [cards, sel] of [["real", real], ["shuffled", shuffled]]) {
        if (sel.value) body[cards] = sel.value === "off" ? null : Number(sel.value);
      }
      if (!Object.keys(body).length) { toast("Pick a clock for real-cards or shuffled tables", true); return; }
      try {
        await api("PATCH", `/api/events/${ev.id}`, { turn_clock: body });
        toast("Turn clock saved: tables opened from now on take it");
        await show();
      } catch (err) { refused(err); }
    });
    box.replaceChildren(h("p", { id: "clock-defaults" },
      `Real-cards tables: ${said("real", "off (not set)")}; shuffled tables: ${said("shuffled", "the server's (not set)")}. ` +
      "A dealer may set another when opening a table; open tables keep theirs."), form);
  };
  await show();
}
