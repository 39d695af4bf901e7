// The lobby: open tables by game, the roster as the event notice lists it, the leaderboard, and
// the lobby's QR code for the host's screen.
// Public; refreshed every few seconds.
import { api, eventId, eventNotice, h, headerBar, money, qrCode, signInForm, whoAmI } from "./common.js";
import { byGame } from "./games/index.js";

/** The page in the shell's root: the sign-in, the open tables, the roster, the leaderboard and
 * the lobby's join code. */
function skeleton() {
  const box = (id, title, attrs, ...body) => h("section", { "aria-labelledby": `${id}-h`, class: "card-box", ...attrs }, h("h2", { id: `${id}-h` }, title), ...body);
  const main = document.getElementById("main");
  main.setAttribute("aria-busy", "true");
  main.replaceChildren(
    h("section", { id: "signin", "aria-labelledby": "signin-h", hidden: true }, h("h2", { id: "signin-h" }, "Sign in")),
    h("div", { class: "grid" },
      box("tables", "Open tables", { style: "grid-column: 1 / -1" }, h("div", { id: "tables" }, h("p", { class: "muted" }, "Loading…"))),
      box("roster", "Authorized dealers", {},
        h("p", { class: "muted" }, "\"Blackjack requires a dealer. Authorized dealers will make it known when tables are open.\""),
        h("div", { id: "roster" })),
      box("board", "Leaderboard", {}, h("div", { id: "leaderboard" })),
      box("join", "Join from your phone", { class: "card-box join-box" }, h("div", { id: "join" }))));
}

async function main() {
  const me = await whoAmI();
  document.getElementById("header").replaceWith(Object.assign(headerBar("Card room", me), { id: "header" }));
  if (!me) {
    const s = document.getElementById("signin");
    s.hidden = false;
    s.append(h("p", { class: "muted" }, "Sign in to take a seat or watch a table."), signInForm(() => location.reload()));
  }
  // The lobby's own code, for the host's screen: a phone that scans it opens this page.
  const code = qrCode("/qr.svg");
  document.getElementById("join").replaceChildren(code.img, code.text,
    h("a", { href: "/qr.svg", class: "button" }, "The code alone, to fill a screen"));
  const [, url] = await Promise.all([refresh(me), code.load()]);
  if (url && /^https?:\/\/(127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?\//.test(url)) {
    // a room served on this machine alone (./run): a phone cannot open this address
    code.text.after(h("p", { class: "muted", id: "join-hint" },
      "Only this computer can open this address. To let phones join, serve the room on the local network: ./run serve --lan"));
  }
  document.getElementById("main").setAttribute("aria-busy", "false");
  setInterval(() => { refresh(me).catch(() => {}); eventNotice(me); }, 3000);
}

async function refresh(me) {
  const ev = await eventId();
  const [tables, roster, board] = await Promise.all([
    api("GET", `/api/events/${ev}/lobby`), api("GET", `/api/events/${ev}/roster`),
    api("GET", `/api/events/${ev}/leaderboard`)]);
  renderTables(tables, me);
  renderRoster(roster);
  renderBoard(board);
}

function renderTables(tables, me) {
  const box = document.getElementById("tables");
  const out = [];
  for (const [game, list] of byGame(tables)) {
    out.push(h("h3", {}, game.title));
    if (!list.length) { out.push(h("p", { class: "muted" }, "No table open.")); continue; }
    out.push(withColumnLabels(h("table", { class: "data stack", "aria-label": `${game.title} tables` },
      h("thead", {}, h("tr", {}, ["Table", "Rules", "Stakes", "Free seats", "Dealer", "Status", ""].map((x) => h("th", {}, x)))),
      h("tbody", {}, list.map((t) => h("tr", { dataset: { table: t.id } },
        h("td", {}, t.name),
        h("td", {}, t.summary),
        h("td", {}, `${money(t.min_bet)}–${money(t.max_bet)}`),
        h("td", { class: "num" }, `${t.free_seats} of ${t.seats}`),
        h("td", {}, t.dealer),
        h("td", {}, t.status + (t.playing ? ", in play" : "")),
        h("td", {},
          me && me.account.role === "player" && t.free_seats > 0 && t.status === "open"
            ? h("a", { href: `/tables/${t.id}`, "aria-label": `Join a seat at ${t.name}` }, "Join a seat") : null, " ",
          h("a", { href: `/tables/${t.id}?watch=1`, "aria-label": `Watch ${t.name}` }, "Watch"), " ",
          h("a", { href: `/tables/${t.id}/rules`, "aria-label": `Rules and odds of ${t.name}` }, "Rules"))))))));
  }
  box.replaceChildren(...out);
}

/** On a phone the rows stack and the heading row is hidden: each cell then carries its column's
 * name (shown by the stylesheet before the value). */
function withColumnLabels(table) {
  const names = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
  for (const tr of table.querySelectorAll("tbody tr")) [...tr.children].forEach((td, i) => { if (names[i]) td.dataset.label = names[i]; });
  return table;
}

// A pit boss on the roster deals too (the notice lists Jean-Marc and Miles among the authorized
// dealers): they head their own group and are named in it.
function renderRoster(roster) {
  const box = document.getElementById("roster");
  box.replaceChildren(...roster.pit_bosses.map((g) => h("div", {},
    h("h3", {}, `Pit boss: ${g.pit_boss}`),
    h("ul", { "aria-label": `Dealers under ${g.pit_boss}` },
      g.dealers.map((d) => h("li", {}, d === g.pit_boss ? `${d} (pit boss)` : d))),
    g.revoked.length ? h("p", { class: "muted" }, `Revoked: ${g.revoked.join(", ")}`) : null)));
}

/** Players by what they won at the tables (the server's order), with the chips they hold. */
function renderBoard(board) {
  const box = document.getElementById("leaderboard");
  if (!board.length) { box.replaceChildren(h("p", { class: "muted" }, "No player yet.")); return; }
  box.replaceChildren(h("table", { class: "data", "aria-label": "Leaderboard" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", { class: "num" }, "Won"), h("th", { class: "num" }, "Chips"))),
    h("tbody", {}, board.map((r, i) => h("tr", {}, h("td", {}, i + 1), h("td", {}, r.player),
      h("td", { class: "num" }, money(r.won)), h("td", { class: "num" }, money(r.balance)))))));
}

skeleton();
main().catch((e) => { document.getElementById("tables").textContent = `Could not load the lobby: ${e.message}`; });
