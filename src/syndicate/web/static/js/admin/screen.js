// The admin page's big screen (admin only, docs/screen.md): the address to open on the room's
// television, and what it shows beside the tables and the leaderboard: the host's announcements,
// a countdown ("Tables close in 15 minutes", "Raffle at 22:00") and a featured table, a hand or
// more behind its play.
import { api, eventId, h, refused, toast } from "../common.js";
import { panel } from "./panel.js";

/** What the screen shows now, in words. */
function said(s) {
  const parts = [];
  parts.push(s.announcements.length ? `${s.announcements.length} announcement${s.announcements.length === 1 ? "" : "s"}` : "no announcement");
  if (s.countdown) {
    const at = new Date(s.countdown.ends_at);
    parts.push(`the countdown "${s.countdown.label}" to ${at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`);
  } else parts.push("no countdown");
  parts.push(s.featured ? `the featured table ${s.featured.name || s.featured.table}, ${s.featured.delay} hand${s.featured.delay === 1 ? "" : "s"} behind` : "no featured table");
  return `The screen shows ${parts.join(", ")}.`;
}

export async function screenPanel() {
  const ev = await eventId();
  const path = `/api/events/${ev}/screen`;
  const status = h("p", { id: "screen-now", role: "status" });
  const notes = h("textarea", { rows: 3, id: "screen-announcements", "aria-label": "Announcements, one a line",
    placeholder: "Raffle at 10 pm\nLast orders at the bar at 11" });
  const label = h("input", { id: "countdown-label", "aria-label": "Countdown to", placeholder: "Tables close", maxlength: 60 });
  const minutes = h("input", { id: "countdown-minutes", inputmode: "numeric", "aria-label": "In minutes", placeholder: "15", size: 4 });
  const at = h("input", { id: "countdown-at", type: "time", "aria-label": "Or at" });
  const table = h("select", { id: "featured-table", "aria-label": "Featured table" });
  const delay = h("input", { id: "featured-delay", type: "number", min: 1, max: 20, value: 1, "aria-label": "Hands behind the table" });

  const show = (s) => { status.textContent = said(s); notes.value = s.announcements.join("\n"); };
  const save = async (body, done) => {
    try {
      const s = await api("PATCH", path, body);
      const shown = await api("GET", path);
      show({ ...s, featured: shown.featured ? { ...s.featured, name: shown.featured.name } : s.featured });
      toast(done);
    } catch (err) { refused(err); }
  };
  const tables = async () => {
    const open = await api("GET", `/api/events/${ev}/lobby`);
    const keep = table.value;
    table.replaceChildren(...open.map((t) => h("option", { value: String(t.id) }, `${t.name} (${t.dealer})`)));
    if (keep) table.value = keep;
  };

  const announce = h("form", { class: "stack", "aria-label": "Announcements on the screen" },
    h("label", { class: "field" }, "Announcements, one a line (at most 6)", notes),
    h("button", { type: "submit", class: "primary" }, "Show the announcements"));
  announce.addEventListener("submit", (e) => {
    e.preventDefault();
    save({ announcements: notes.value.split("\n").map((l) => l.trim()).filter(Boolean) }, "The announcements are on the screen");
  });

  const countdown = h("form", { class: "inline", "aria-label": "Countdown on the screen" },
    h("label", { class: "field" }, "Countdown to", label), h("label", { class: "field" }, "In minutes", minutes),
    h("label", { class: "field" }, "Or at", at), h("button", { type: "submit", class: "primary" }, "Start the countdown"),
    h("button", { type: "button", onclick: () => save({ countdown: null }, "The countdown is off the screen") }, "No countdown"));
  countdown.addEventListener("submit", (e) => {
    e.preventDefault();
    const body = { label: label.value.trim() || "Tables close" };
    if (minutes.value.trim()) body.minutes = Number(minutes.value);
    else if (at.value) {  // the next time of day it is so, on this computer's clock and zone
      const [hh, mm] = at.value.split(":").map(Number);
      const when = new Date();
      when.setHours(hh, mm, 0, 0);
      if (when <= new Date()) when.setDate(when.getDate() + 1);
      body.ends_at = when.toISOString();
    } else { toast("Say when: in how many minutes, or at what time", true); return; }
    save({ countdown: body }, `The countdown "${body.label}" is on the screen`);
  });

  const feature = h("form", { class: "inline", "aria-label": "Featured table on the screen" },
    h("label", { class: "field" }, "Featured table", table), h("label", { class: "field" }, "Hands behind", delay),
    h("button", { type: "submit", class: "primary" }, "Feature the table"),
    h("button", { type: "button", onclick: () => save({ featured: null }, "No table is featured") }, "No featured table"));
  feature.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!table.value) { toast("Open a table first: only an open table is featured", true); return; }
    save({ featured: { table: Number(table.value), delay: Number(delay.value) } }, "The table is featured on the screen");
  });

  // what the screen shows now, before the forms appear: nothing typed is overwritten by it
  await tables();
  const s = await api("GET", path);
  show({ announcements: s.announcements, countdown: s.countdown, featured: s.featured });
  document.getElementById("main").append(panel("screen", "The big screen",
    h("p", {}, "For a television or a projector in the room: open ", h("a", { href: "/screen", target: "_blank", rel: "noopener" }, "the big screen"),
      " (no sign-in) and leave it. It shows the leaderboard, the open tables with their join codes, the prize draws and what you set here."),
    status, announce, countdown, feature));
  table.addEventListener("focus", () => tables().catch(() => {}));
}
