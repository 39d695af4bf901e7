// Shared by every page: REST calls, money display, sign-in, small DOM helpers.
// Money is integer cents from the server; it becomes dollars only here, for display.

export function money(cents) {
  if (cents === null || cents === undefined) return "—";
  const neg = cents < 0;
  const c = Math.abs(cents);
  const s = `$${Math.floor(c / 100).toLocaleString("en-US")}.${String(c % 100).padStart(2, "0")}`;
  return neg ? `−${s}` : s;
}

/** Dollars typed by a person ("5", "5.50", "$5") → cents, or null. */
export function parseDollars(text) {
  const m = String(text).trim().replace(/^\$/, "").match(/^(\d+)(?:\.(\d{1,2}))?$/);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] || "0").padEnd(2, "0"));
}

export class ApiError extends Error {
  /** `retryAfter`: the seconds a 429 says to wait (its Retry-After), else null. */
  constructor(status, rule, message, retryAfter = null) {
    super(message); this.status = status; this.rule = rule; this.retryAfter = retryAfter;
  }
}

/** 130 → "2 minutes 10 seconds": a wait in words, as the server says it. */
export function waitInWords(seconds) {
  const total = Math.max(1, Math.ceil(seconds));
  const m = Math.floor(total / 60), s = total % 60;
  const parts = m ? [`${m} minute${m === 1 ? "" : "s"}`] : [];
  if (s || !m) parts.push(`${s} second${s === 1 ? "" : "s"}`);
  return parts.join(" ");
}

export async function api(method, path, body) {
  const opts = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  const r = await fetch(path, opts);
  const text = await r.text();
  const data = text ? JSON.parse(text) : null;
  if (!r.ok) {
    const e = (data && data.error) || { rule: "http", message: `${r.status}` };
    const wait = Number(r.headers.get("Retry-After"));
    throw new ApiError(r.status, e.rule, e.message, wait > 0 ? wait : null);
  }
  return data;
}

/** h("button", {class: "x", onclick: f, "aria-label": "Hit"}, "Hit") */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** What each box was last drawn with by redraw(): the nodes put there and their markup. */
const drawn = new WeakMap();

/** Put `nodes` in `box`, unless the box still holds what it was last drawn with and the new
 * nodes are the same markup. A page that redraws on every message then keeps its elements when
 * nothing in them changed: a click whose press and release straddle the redraw still lands (the
 * browser drops a click whose release meets a new element), and the focus and a half-typed
 * amount stay. A kept element keeps its first handlers, so a handler reads what it acts on when
 * clicked, or from values its element's markup shows. Returns whether the box was redrawn. */
export function redraw(box, ...nodes) {
  const now = nodes.filter((n) => n !== null && n !== undefined && n !== false && n !== "");
  const html = now.map((n) => (n instanceof Element ? n.outerHTML : `\u0000${n instanceof Node ? n.textContent : n}`)).join("");
  const last = drawn.get(box);
  const kids = box.childNodes;
  if (last && last.html === html && kids.length === last.nodes.length && last.nodes.every((n, i) => kids[i] === n)) return false;
  // The focus follows a field that the redraw replaced by one of the same id. A text field
  // being typed into stays itself, in place of its replacement (with the replacement's
  // attributes): a new one would lose the selection and the caret, and keys meant to replace a
  // selected amount went after it instead ("500.00" + "200"). Read such a field's value with
  // fieldValue(), not through a reference to the replacement.
  const active = document.activeElement;
  const focused = active && active !== document.body && box.contains(active) ? active : null;
  box.replaceChildren(...now);
  drawn.set(box, { html, nodes: [...box.childNodes] });
  const again = focused && focused.id ? document.getElementById(focused.id) : null;
  if (again && box.contains(again)) {
    if (again !== focused && again.tagName === "INPUT" && focused.tagName === "INPUT" && again.type === focused.type
        && ["text", "number", "search", "tel"].includes(focused.type)) {
      const shown = focused.value;
      for (const a of [...focused.attributes]) if (!again.hasAttribute(a.name)) focused.removeAttribute(a.name);
      // (the value attribute too: it is the field's default, and a field typed into keeps what was
      // typed; only what differs, as setting a non-typed field's default moves its caret)
      for (const a of [...again.attributes]) if (focused.getAttribute(a.name) !== a.value) focused.setAttribute(a.name, a.value);
      again.replaceWith(focused);
      focused.focus();
      if (focused.value !== shown) focused.select(); // a new suggestion: see suggest()
    } else again.focus();
  }
  return true;
}

/** The value of the field with `el`'s id now on the page (redraw() may have kept the one being
 * typed into in place of `el`), or `el`'s own. */
export const fieldValue = (el) => (document.getElementById(el.id) ?? el).value;

/** The inputs a person typed into (see keptInput). */
const typed = new WeakSet();

/** An amount field that outlives redraws: a new input with this `id`, which takes over what was
 * typed into the one now on the page. The typed value goes on as the value, not the markup, so
 * that redraw() still sees an unchanged box (and keeps the very input being typed into). */
export function keptInput(id, attrs) {
  const prev = document.getElementById(id);
  const el = h("input", { ...attrs, id });
  if (prev && typed.has(prev)) { el.value = prev.value; typed.add(el); }
  el.addEventListener("input", () => typed.add(el));
  return el;
}

/** Put a suggested `value` in a field made by keptInput, unless a person typed into it. A field
 * with the focus gets the new value selected, so that the keys typed next replace it: a person
 * (or a test's fill) who selected the old suggestion, or tapped the empty field, and typed as the
 * bankroll arrived got "501.00" + "200" = "501.00200" from a value set under the caret. */
export function suggest(input, value) {
  if (!input || typed.has(input) || value === null || value === undefined || input.value === value) return;
  input.value = value;
  if (input === document.activeElement) input.select();
}

/** Make a field a person typed into (made by keptInput) take suggestions again. */
export const forget = (input) => typed.delete(input);

/** A refusal (an ApiError, or a live `error`) as a person reads it: its message, in words, as a
 * sentence. */
export function inWords(e) {
  const text = (e && e.message) || "Refused";
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Show a refusal with `toast`, its rule in the data. */
export const refused = (e) => toast(inWords(e), true, e && e.rule);

/** A message for a moment. A page with a place for them (the table's dock, over its actions)
 * has its own `#toasts`, in the flow, so that a message covers nothing; elsewhere they float in
 * a corner. */
export function toast(message, bad = false, rule = null) {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  // A refusal is said in words; the rule it names stays in the data, for tools and tests.
  const t = h("div", { class: bad ? "toast bad" : "toast", "data-rule": rule }, message);
  box.append(t);
  setTimeout(() => t.remove(), bad ? 6000 : 3500);
}

let _current = null;
/** The current event as `/api/events/current` has it (id, name, ended_at, play_money, door),
 * read once a page (`fresh`: again, after the admin changed a setting); null while the room has
 * no event yet. The event the pages are about is the one the deployment names as current
 * (`syndicate serve --event`), never the newest nor one a link names: any admin can create an
 * event, and it must not take over every visitor's lobby and sign-in form. */
export async function currentEvent(fresh = false) {
  if (!_current || fresh) {
    _current = api("GET", "/api/events/current").catch((e) => {
      _current = null;  // asked again next time
      if (e.status === 404) return null;  // no event yet: the pages say so
      throw e;
    });
  }
  return _current;
}

/** Whether chips have no cash value tonight (a charity night): nothing pays them out as money. */
export async function playMoney() {
  try {
    const ev = await currentEvent();
    return Boolean(ev && ev.play_money);
  } catch { return false; }
}

/** The current event's id (null: no event yet). */
export async function eventId() {
  const ev = await currentEvent();
  return ev ? ev.id : null;
}

/** The signed-in account ({account, may}) or null. */
export async function whoAmI() {
  // /api/session answers 200 either way: a signed-out page logs no 401.
  const me = await api("GET", "/api/session");
  return me && me.account ? me : null;
}

/** A sign-in form; resolves when signed in (cookie set). */
export function signInForm(onDone) {
  const name = h("input", { name: "name", autocomplete: "username", required: true });
  const pw = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
  const msg = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "inline", "aria-label": "Sign in" },
    h("label", {}, "Name", name), h("label", {}, "Password", pw),
    h("button", { type: "submit", class: "primary" }, "Sign in"), msg);
  let waiting = null;
  const waitOut = (seconds) => {  // a 429: the wait in words, then word when it is over (two announcements)
    msg.textContent = `Too many failed sign-ins for this name from here. Try again in ${waitInWords(seconds)}.`;
    waiting = setTimeout(() => { waiting = null; msg.textContent = "You can try again now."; }, seconds * 1000);
  };
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (waiting) { clearTimeout(waiting); waiting = null; }
    msg.textContent = "";
    try {
      const out = await api("POST", `/api/events/${await eventId()}/session`, { name: name.value, password: pw.value });
      onDone(out.account);
    } catch (e) {
      if (e.status === 429 && e.retryAfter) waitOut(e.retryAfter);
      else msg.textContent = e.message;
    }
  });
  return form;
}

export async function signOut() {
  await api("DELETE", "/api/session");
  location.reload();
}

/** Once the event has ended, a notice under the header of every page: no more hands, and what
 * to do (a player sees the cashier). Checked when a page opens, and again by a page that learns
 * its table closed (the lobby, every time it refreshes). */
export async function eventNotice(me = null) {
  let ev = null;
  try { ev = await api("GET", "/api/events/current"); } catch { return; }
  const header = document.querySelector("header.bar");
  const old = document.getElementById("event-ended");
  if (!ev || !ev.ended_at || !header) { if (old) old.remove(); return; }
  const role = me && me.account ? me.account.role : "player";
  const what = ev.play_money
    ? (role === "player" ? "No more hands are dealt. Your chips count for the prize draws." : "Every table is closed; the players' chips count for the prize draws.")
    : role === "dealer" ? "Every table is closed: send players to the cashier to cash out their chips."
      : role === "admin" || role === "pit_boss" ? "Every table is closed; players cash out their chips at the cashier."
        : "No more hands are dealt. See the cashier (the host or a pit boss) to cash out your chips.";
  const text = `${ev.name} has ended. ${what}`;
  if (old && old.textContent === text) return;
  const note = h("div", { id: "event-ended", class: "event-ended", role: "alert" }, text);
  if (old) old.replaceWith(note); else header.after(note);
}

/** The header bar every page shares. */
export function headerBar(title, me) {
  const who = me
    ? h("span", { class: "who" }, h("span", {}, `${me.account.name} (${me.account.role.replace("_", " ")})`),
      h("button", { type: "button", onclick: signOut }, "Sign out"))
    : h("span", { class: "who" });
  queueMicrotask(() => eventNotice(me)); // once the page has put the header in place
  return h("header", { class: "bar" },
    h("h1", {}, title),
    h("nav", { "aria-label": "Pages" },
      h("a", { href: "/" }, "Lobby"),
      me && me.account.role === "player" ? h("a", { href: "/me" }, "My evening") : null,
      me && ["dealer", "admin", "pit_boss"].includes(me.account.role) ? h("a", { href: "/dealer" }, "Dealer console") : null,
      me && ["admin", "pit_boss"].includes(me.account.role) ? h("a", { href: "/admin" }, "Admin") : null,
      me && ["admin", "pit_boss"].includes(me.account.role) ? h("a", { href: "/door" }, "Door") : null,
      me && ["admin", "pit_boss"].includes(me.account.role) ? h("a", { href: "/screen" }, "Big screen") : null),
    who);
}

/** A client-generated action id (crypto.randomUUID needs a secure context; a LAN page has none). */
export function newId() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** A QR code the server draws (`path`: /qr.svg, /tables/{id}/qr.svg): an image and the address
 * it carries (the SVG's title ends with it), or why there is none. `load()` fetches it once and
 * resolves to the address (undefined when there is no code). */
export function qrCode(path) {
  const img = h("img", { class: "qr", alt: "", hidden: true });
  const text = h("p", { class: "qr-url" }, "Loading the code…");
  let done = null;
  const load = () => done || (done = (async () => {
    const r = await fetch(path, { credentials: "same-origin" });
    const body = await r.text();
    if (!r.ok) { text.textContent = `No code: ${JSON.parse(body).error.message}`; return; }
    const title = new DOMParser().parseFromString(body, "image/svg+xml").querySelector("title");
    const url = title ? (title.textContent.match(/(https?:\/\/\S+)$/) || [""])[0] : "";
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(body)}`;
    img.alt = `QR code of ${url}`;
    img.hidden = false;
    text.textContent = url;
    return url;
  })().catch((e) => { done = null; text.textContent = `No code: ${e.message}`; }));
  return { img, text, load };
}

/** A hand as every page names it: by its evening-wide number (the state's `hand_id`, the number
 * the admin's search, the replay, the report and the ledger say), known from its first bet or
 * ante; before that, a new hand. */
export function handTitle(state) {
  return state.hand_id ? `Hand ${state.hand_id}` : "New hand";
}
