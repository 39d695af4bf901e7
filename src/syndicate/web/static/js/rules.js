// A table's rules in words, its house edge (exact, computed by the server for these rules) and
// the basic-strategy chart for them.
import { api, h, headerBar, whoAmI } from "./common.js";
import { gameOf } from "./games/index.js";

const tableId = Number(location.pathname.split("/")[2]);

async function main() {
  const me = await whoAmI();
  document.getElementById("header").replaceWith(Object.assign(headerBar("Rules and odds", me), { id: "header" }));
  const o = await api("GET", `/api/tables/${tableId}/odds`);
  const t = o.table;
  const game = gameOf(t.game);
  const out = [h("h2", {}, `${t.name}: ${game.inText}`), h("p", {}, h("a", { href: `/tables/${t.id}` }, "Go to the table"))];
  out.push(h("section", { "aria-labelledby": "words" }, h("h2", { id: "words" }, "The rules"),
    h("ul", {}, game.rulesInWords(t.rules).map((x) => h("li", {}, x)))));
  out.push(...game.odds(o));
  document.getElementById("main").replaceChildren(...out);
}

main().catch((e) => { document.getElementById("main").textContent = `Could not load: ${e.message}`; });
