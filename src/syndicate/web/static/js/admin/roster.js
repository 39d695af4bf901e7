// The admin page's roster of authorized dealers: authorize a dealer under a pit boss, revoke one.
import { api, eventId, h, refused, toast } from "../common.js";

export async function roster(me) {
  const ev = await eventId();
  const r = await api("GET", `/api/events/${ev}/roster`);
  const dealer = h("input", { name: "dealer", required: true });
  const bossNames = r.pit_bosses.map((g) => g.pit_boss);
  const boss = h("select", { name: "pit_boss" }, bossNames.map((b) => h("option", { value: b }, b)));
  const form = h("form", { class: "inline", "aria-label": "Authorize a dealer" },
    h("label", {}, "Dealer", dealer), me.account.role === "admin" ? h("label", {}, "Pit boss", boss) : null,
    h("button", { type: "submit", class: "primary" }, "Authorize"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api("POST", "/api/roster/authorize", { dealer: dealer.value, pit_boss: me.account.role === "admin" ? boss.value : null });
      toast(`${dealer.value} is authorized`);
      roster(me);
    } catch (err) { refused(err); }
  });
  const groups = r.pit_bosses.map((g) => h("div", {}, h("h3", {}, `Pit boss: ${g.pit_boss}`),
    h("ul", { "aria-label": `Dealers under ${g.pit_boss}` }, g.dealers.map((d) => h("li", {}, d === g.pit_boss ? `${d} (pit boss) ` : `${d} `,
      h("button", { type: "button", class: "danger", "aria-label": `Revoke ${d}`, onclick: async () => {
        // Revoking closes or hands over the dealer's open tables: never on one click. A pit boss
        // who deals stops dealing and stays the pit boss of the group.
        const stays = d === g.pit_boss ? ` ${d} stays the pit boss of this group.` : "";
        if (!confirm(`Revoke ${d}? Their open tables are closed or handed over to another dealer.${stays}`)) return;
        try { await api("POST", "/api/roster/revoke", { dealer: d }); toast(`${d} is revoked`); roster(me); } catch (err) { refused(err); }
      } }, "Revoke")))),
    g.revoked.length ? h("p", { class: "muted" }, `Revoked: ${g.revoked.join(", ")}`) : null));
  document.getElementById("roster").replaceChildren(form, ...groups);
}
