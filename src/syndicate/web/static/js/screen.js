// The room's big screen (docs/screen.md), for a television or a projector nobody touches: the
// leaderboard, the open tables with their join codes, the host's announcements and countdown, the
// featured table's hand a few hands behind, the prize draws as they are drawn. Public.
//
// It polls GET /api/events/{id}/screen every few seconds rather than opening the tables' sockets:
// a socket needs a sign-in, and it serves the hand in play, which the screen never shows. When an
// answer does not come the screen keeps what it shows, says "reconnecting" in a corner, and asks
// again, less often, until the room answers.
import { eventId, h, money, qrCode } from "./common.js";
import { titleOf } from "./games/index.js";
import { drawBox, featuredBox, revealing } from "./screen/panels.js";

/** How often the screen asks (ms), and the longest wait between tries while the room does not answer. */
const POLL_MS = 2000;
const MAX_RETRY_MS = 15000;
/** The longest the screen waits for one answer before it says it is reconnecting. */
const ANSWER_MS = 3000;
/** How long one page of a long list stays up (ms): 8 s, or `?seconds=N` in the screen's address. */
const PAGE_MS = 1000 * (Number(new URLSearchParams(location.search).get("seconds")) || 8);

const qrs = new Map(); // table id -> its join code, fetched once
let data = null;
let countdownEnds = null; // Date.now() when the countdown ends, by the server's count
let page = 0;

function skeleton() {
  const box = (id, title, ...body) => h("section", { class: "panel", id, "aria-labelledby": `${id}-h` },
    h("h2", { id: `${id}-h` }, title), ...body);
  document.getElementById("header").replaceWith(h("header", { class: "screen-top", id: "header" },
    h("h1", { id: "event-name" }, "Card room"),
    h("div", { id: "countdown", class: "countdown", role: "timer", "aria-live": "off", hidden: true }),
    h("div", { id: "clock", class: "clock", "aria-hidden": "true" }),
    h("p", { id: "reconnecting", class: "reconnecting", role: "status", hidden: true }, "Reconnecting…")));
  const main = document.getElementById("main");
  document.body.classList.add("big-screen");
  main.className = "screen";
  main.replaceChildren(
    h("div", { id: "announcements", class: "announcements", role: "status", "aria-live": "polite" }),
    h("div", { class: "screen-grid" },
      box("board", "Leaderboard", h("ol", { id: "leaders", class: "leaders", "data-fit": "" }), h("p", { class: "pages", id: "board-pages" })),
      box("tables", "Open tables", h("div", { id: "table-list", class: "table-list", "data-fit": "" }), h("p", { class: "pages", id: "tables-pages" })),
      h("div", { class: "side", id: "side" })));
}

/** The rows of a long list, a page at a time: as many as fit in `box`, the page turning every
 * PAGE_MS (the same clock turns every list). `make` draws one item. */
function paged(box, items, make, note, empty) {
  const pagesNote = document.getElementById(note);
  if (!items.length) { box.replaceChildren(h("p", { class: "muted" }, empty)); pagesNote.textContent = ""; return; }
  // measure how many fit: draw them all, then keep those whose bottom is inside the box
  box.replaceChildren(...items.map(make));
  const bottom = box.getBoundingClientRect().bottom;
  const kids = [...box.children];
  const fit = Math.max(1, kids.filter((k) => k.getBoundingClientRect().bottom <= bottom + 1).length);
  const pages = Math.ceil(items.length / fit);
  const at = page % pages;
  box.replaceChildren(...items.slice(at * fit, at * fit + fit).map(make));
  pagesNote.textContent = pages > 1 ? `Page ${at + 1} of ${pages}` : "";
}

function leader(r, i) {
  return h("li", { class: "leader" },
    h("span", { class: "rank" }, `${i + 1}`), h("span", { class: "name" }, r.player),
    h("span", { class: "won" }, money(r.won)));
}

function tableCard(t) {
  if (!qrs.has(t.id)) qrs.set(t.id, qrCode(`/tables/${t.id}/qr.svg`));
  const code = qrs.get(t.id);
  code.load();
  code.img.alt = `Join code of ${t.name}`;
  const seats = t.free_seats === 1 ? "1 free seat" : `${t.free_seats} free seats`;
  return h("article", { class: "table-card", dataset: { table: t.id }, "aria-label": t.name },
    h("div", { class: "table-text" },
      h("h3", {}, t.name),
      h("p", {}, `${titleOf(t.game)} · ${t.dealer}`),
      h("p", {}, `${money(t.min_bet)}–${money(t.max_bet)}`),
      h("p", { class: t.free_seats > 0 && t.status === "open" ? "free" : "full" },
        t.status === "open" ? seats : t.status)),
    h("div", { class: "qr-box" }, code.img));
}

function render() {
  if (!data) return;
  tick();  // the countdown first: its box in the header takes room from what is measured below
  document.getElementById("event-name").textContent = data.event.name;
  document.title = `${data.event.name} — the big screen`;
  const notes = data.announcements.length ? data.announcements : [];
  const strip = document.getElementById("announcements");
  const said = notes.map((a) => h("p", { class: "announcement" }, a));
  if (strip.textContent !== notes.join("")) strip.replaceChildren(...said);
  strip.hidden = !notes.length;
  paged(document.getElementById("leaders"), data.leaderboard, leader, "board-pages", "No player yet.");
  // tables in the order the lobby lists them, their QR codes kept from one answer to the next
  paged(document.getElementById("table-list"), data.tables, tableCard, "tables-pages", "No table is open yet.");
  const side = [drawBox(data.draws), featuredBox(data.featured), rotationBox(data.rotation)].filter(Boolean);
  const box = document.getElementById("side");
  box.replaceChildren(...side);
  for (const el of side) fitText(el);
}

/** Room for a list of who is next on the floor (the dealers' rotation), when the answer carries
 * one (`rotation`: [{name, table, at}]): drawn under the other side panels; nothing otherwise. */
export function rotationBox(rotation) {
  if (!Array.isArray(rotation) || !rotation.length) return null;
  return h("section", { class: "panel", "aria-labelledby": "rotation-h" }, h("h2", { id: "rotation-h" }, "Next on the floor"),
    h("ul", { class: "plain" }, rotation.map((r) => h("li", {}, [r.name, r.table,
      r.at && new Date(r.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })].filter(Boolean).join(" · ")))));
}

/** Shrink a side panel's type until it holds all it says (a long list of winners, a table of
 * seven): nothing on the screen is cut off. */
function fitText(el) {
  let scale = 1;
  el.style.setProperty("--fit", "1");
  while (scale > 0.45 && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)) {
    scale -= 0.05;
    el.style.setProperty("--fit", scale.toFixed(2));
  }
}

/** The countdown and the clock, once a second. */
function tick() {
  const now = new Date();
  document.getElementById("clock").textContent = now.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const box = document.getElementById("countdown");
  const c = data && data.countdown;
  box.hidden = !c;
  if (!c) return;
  const left = Math.max(0, Math.round((countdownEnds - Date.now()) / 1000));
  const hh = Math.floor(left / 3600), mm = Math.floor((left % 3600) / 60), ss = left % 60;
  const text = left === 0 ? "now" : hh ? `${hh}:${String(mm).padStart(2, "0")}:${String(ss).padStart(2, "0")}` : `${mm}:${String(ss).padStart(2, "0")}`;
  const label = `${c.label}: ${text}`;
  if (box.textContent !== label) {
    box.replaceChildren(h("span", { class: "label" }, c.label), h("span", { class: "left" }, text));
    box.setAttribute("aria-label", left === 0 ? `${c.label}: now` : `${c.label} in ${hh ? `${hh} h ` : ""}${mm} min ${ss} s`);
  }
}

async function poll(ev) {
  // A network that drops mid-request can leave it waiting for minutes: past ANSWER_MS the room
  // counts as not answering (the note shows, the screen asks again).
  const r = await fetch(`/api/events/${ev}/screen`, { cache: "no-store", credentials: "same-origin",
    signal: AbortSignal.timeout(ANSWER_MS) });
  if (!r.ok) throw new Error(`the room answered ${r.status}`);
  return r.json();
}

/** Ask, draw, and ask again; while the room does not answer, keep what is shown and say so. */
async function loop(ev) {
  let wait = POLL_MS;
  for (;;) {
    try {
      data = await poll(ev);
      countdownEnds = data.countdown ? Date.now() + data.countdown.seconds_left * 1000 : null;
      document.getElementById("reconnecting").hidden = true;
      document.getElementById("main").dataset.fresh = data.now;
      render();
      wait = POLL_MS;
    } catch {
      document.getElementById("reconnecting").hidden = false;
      wait = Math.min(MAX_RETRY_MS, wait * 1.5);
    }
    await new Promise((done) => setTimeout(done, wait));
  }
}

async function main() {
  skeleton();
  let ev = null;
  while (ev === null) {  // a screen switched on before the room: it waits for it
    try { ev = await eventId(); } catch { ev = null; }
    if (ev === null) {
      document.getElementById("reconnecting").hidden = false;
      await new Promise((done) => setTimeout(done, POLL_MS));
    }
  }
  setInterval(tick, 1000);
  setInterval(() => { page += 1; render(); }, PAGE_MS);
  setInterval(() => { if (revealing()) render(); }, 1000);  // a draw's winners, one by one
  addEventListener("resize", render);
  await loop(ev);
}

main();
