// A player's own page: their chips over the evening (their bankroll plus their stacks), and
// their raffle tickets in each draw, and what they won.
import { api, h, headerBar, money, signInForm, toast, whoAmI } from "./common.js";
import { stepChart } from "./charts.js";

async function main() {
  const me = await whoAmI();
  document.getElementById("header").replaceWith(Object.assign(headerBar("My evening", me), { id: "header" }));
  const main = document.getElementById("main");
  if (!me) { main.replaceChildren(h("h2", {}, "Sign in"), signInForm(() => location.reload())); return; }
  if (me.account.role !== "player") { main.replaceChildren(h("p", {}, "This page shows a player's chips: sign in as a player.")); return; }
  const chart = h("div", { class: "chart", "data-testid": "chart-mine", role: "img", "aria-label": "My chips over the evening" });
  const now = h("p", { "data-testid": "my-chips" });
  const tickets = h("ul", { "aria-label": "My raffle tickets", "data-testid": "my-tickets" });
  main.replaceChildren(h("section", { class: "card-box" }, h("h2", {}, `${me.account.name}: my chips over the evening`), now, chart),
    h("section", { class: "card-box" }, h("h2", {}, "My raffle tickets"), tickets));
  const draws = (await api("GET", "/api/me/tickets")).filter((d) => d.status !== "open");
  tickets.replaceChildren(...(draws.length ? draws.map((d) => h("li", {},
    `${d.name}: ${d.kind === "top" ? "prizes to the most chips" : d.tickets.length ? `ticket${d.tickets.length === 1 ? "" : "s"} ${d.tickets.join(", ")}` : "no ticket"}`,
    d.status === "drawn" ? (d.won.length ? `: you won ${d.won.join(" and ")}!` : ": drawn, no prize this time") : ": to be drawn"))
    : [h("li", {}, "No draw has closed yet: your chips turn into tickets when the host closes one.")]));
  const data = await api("GET", `/api/accounts/${me.account.id}/chips`);
  const values = data.series[0] ? data.series[0].values : [];
  now.textContent = `Now: ${money(values.length ? values[values.length - 1] : 0)} (bankroll and stacks at tables)`;
  stepChart(chart, data);
}

main().catch((e) => toast(e.message, true));
