// The admin page's bots' float (admin only): bots sit down only with these chips (docs/server.md).
import { api, h, money, parseDollars, refused, toast } from "../common.js";
import { panel } from "./panel.js";

export async function houseFloat() {
  const box = h("div", { id: "house-float" });
  document.getElementById("main").append(panel("float", "The bots' float", box));
  const show = async () => {
    const f = await api("GET", "/api/float");
    const amount = h("input", { name: "amount", inputmode: "decimal", required: true, "aria-label": "Float in dollars" });
    const form = h("form", { class: "inline", "aria-label": "Set the bots' float" },
      h("label", {}, "Float", amount), h("button", { type: "submit", class: "primary" }, "Set"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await api("PUT", "/api/float", { amount: parseDollars(amount.value) });
        toast("Float set");
        await show();
      } catch (err) { refused(err); }
    });
    box.replaceChildren(
      h("p", { id: "float-figures" }, `Float ${money(f.float)}: used ${money(f.used)}, remaining ${money(f.remaining)} (at most ${money(f.max)})`),
      form);
  };
  await show();
}
