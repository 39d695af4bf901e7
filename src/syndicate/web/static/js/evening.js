// The admin page's "evening" panel: the house's result per table and the leading players'
// chips over time (charts.js), and the end-of-night report: the printable page, the ledger
// as CSV (and each player's summary as CSV) and the JSON. `refresh()` asks again; the admin page
// calls it every few seconds, and only what changed is drawn again.
import { api, h, money } from "./common.js";
import { stepChart } from "./charts.js";

export function evening(root) {
  const house = h("div", { class: "chart", "data-testid": "chart-house", "aria-label": "The house's result per table over time", role: "img" });
  const leaders = h("div", { class: "chart", "data-testid": "chart-leaders", "aria-label": "The leading players' chips over time", role: "img" });
  const summary = h("p", { "data-testid": "report-summary" });
  root.replaceChildren(
    h("div", { class: "report-links", role: "group", "aria-label": "The end-of-night report" },
      h("a", { href: "/api/report/page", target: "_blank", rel: "noopener", class: "button" }, "Printable report"),
      h("a", { href: "/api/report/ledger.csv", download: "ledger.csv", class: "button", "data-testid": "report-csv" }, "Download the ledger (CSV)"),
      h("a", { href: "/api/report/players.csv", download: "players.csv", class: "button", "data-testid": "report-players-csv" },
        "Download each player's summary (CSV)"),
      h("a", { href: "/api/report", download: "report.json", class: "button" }, "Report (JSON)")),
    summary,
    h("h3", {}, "The house's result per table"), house,
    h("h3", {}, "Chips of the leading players"), leaders);
  let last = null;
  async function refresh() {
    try {
      const [rep, hs, ls] = await Promise.all([api("GET", "/api/report"), api("GET", "/api/series/house"), api("GET", "/api/series/leaders")]);
      const t = rep.totals;
      const text = `House result ${money(t.house_result)} over ${t.hands} hand${t.hands === 1 ? "" : "s"}; players' nets ${money(t.players_net)}; `
        + (rep.play_money ? `chips issued ${money(t.buy_ins)}, converted for the prize draws ${money(t.cash_outs)}`
          : `bought ${money(t.buy_ins)}, cashed out ${money(t.cash_outs)}`)
        + (t.in_play ? `; ${money(t.in_play)} in hands still in play. ` : ". ")
        + (rep.agrees ? "The totals agree with the ledger audit." : `The totals DO NOT agree: ${rep.audit.join("; ")}`);
      if (summary.textContent !== text) summary.textContent = text;
      const now = JSON.stringify([hs, ls]);
      if (now === last) return;
      last = now;
      stepChart(house, hs);
      stepChart(leaders, ls);
    } catch (err) { summary.textContent = err.message; }
  }
  return { refresh };
}
