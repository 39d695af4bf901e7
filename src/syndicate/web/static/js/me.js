// A player's own page: their chips over the evening (their bankroll plus their stacks).
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
  main.replaceChildren(h("section", { class: "card-box" }, h("h2", {}, `${me.account.name}: my chips over the evening`), now, chart));
  const data = await api("GET", `/api/accounts/${me.account.id}/chips`);
  const values = data.series[0] ? data.series[0].values : [];
  now.textContent = `Now: ${money(values.length ? values[values.length - 1] : 0)} (bankroll and stacks at tables)`;
  stepChart(chart, data);
}

main().catch((e) => toast(e.message, true));
