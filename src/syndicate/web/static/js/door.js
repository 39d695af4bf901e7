// The door's tablet (docs/door.md): the guest list imported from a CSV file, a guest found by
// name and checked in with what they paid, and their sign-in voucher shown as a QR code.
import { api, h, headerBar, inWords, money, parseDollars, signInForm, toast, whoAmI } from "./common.js";

const METHODS = [["cash", "Cash"], ["card", "Card"], ["comp", "Comp (free)"]];

function rateText(door) {
  if (!door || !door.paid) return "No exchange rate is set: the host sets one before payments buy chips.";
  const stack = door.stack ? `; every guest starts with ${money(door.stack)} in chips` : "";
  return `${money(door.paid)} paid buys ${money(door.chips)} in chips${stack}.`;
}

/** The host's rate and starting stack (the admin changes them; a pit boss reads them). */
function ratePanel(me, event, onChange) {
  const says = h("p", { "data-testid": "door-rate", role: "status" }, rateText(event.door));
  const box = h("section", { class: "card-box", "aria-labelledby": "rate-h" }, h("h2", { id: "rate-h" }, "Exchange rate"), says);
  if (me.account.role !== "admin") return box;
  const paid = h("input", { inputmode: "decimal", required: true, value: event.door && event.door.paid ? (event.door.paid / 100).toFixed(2) : "" });
  const chips = h("input", { inputmode: "decimal", required: true, value: event.door && event.door.chips ? (event.door.chips / 100).toFixed(2) : "" });
  const stack = h("input", { inputmode: "decimal", value: event.door && event.door.stack ? (event.door.stack / 100).toFixed(2) : "" });
  const form = h("form", { class: "inline", "aria-label": "Set the exchange rate" },
    h("label", {}, "Paid, dollars", paid), h("label", {}, "Buys chips, dollars", chips),
    h("label", {}, "Starting stack, dollars (optional)", stack),
    h("button", { type: "submit", class: "primary" }, "Set the rate"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const body = { paid: parseDollars(paid.value), chips: parseDollars(chips.value), stack: stack.value.trim() ? parseDollars(stack.value) : null };
      const out = await api("PUT", "/api/door/rate", body);
      says.textContent = rateText(out.door);
      onChange(out);
    } catch (e) { toast(inWords(e), true, e.rule); }
  });
  box.append(form);
  return box;
}

/** The guest list: a CSV file chosen on the tablet, imported whole or refused naming its lines. */
function importPanel(onDone) {
  const file = h("input", { type: "file", accept: ".csv,text/csv", "aria-label": "Guest list file (CSV)" });
  const said = h("p", { role: "status", "data-testid": "import-result" });
  const form = h("form", { class: "inline", "aria-label": "Import the guest list" },
    file, h("button", { type: "submit" }, "Import"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    said.textContent = "";
    if (!file.files.length) { said.textContent = "Choose the guest list's CSV file first."; return; }
    try {
      const out = await api("POST", "/api/door/guests", { csv: await file.files[0].text() });
      said.textContent = `${out.imported} guests imported.`;
      delete said.dataset.rule;
      onDone();
    } catch (e) { said.textContent = inWords(e); said.dataset.rule = e.rule; }
  });
  return h("section", { class: "card-box", "aria-labelledby": "import-h" },
    h("h2", { id: "import-h" }, "Guest list"),
    h("p", { class: "muted" }, "A CSV file whose first row names its columns, one of them \"name\"."), form, said);
}

/** A guest's voucher: the QR code their phone scans to sign in, shown once, with its address. */
function voucherBox(guest, v) {
  const img = v.qr ? h("img", { class: "qr voucher-qr", src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(v.qr)}`,
    alt: `QR code that signs ${guest.name} in` }) : null;
  return h("div", { class: "voucher", role: "group", "aria-label": `Voucher of ${guest.name}` },
    img || h("p", { class: "error" }, `No code: ${v.qr_refusal}`),
    h("p", {}, `${guest.name}: scan with the phone's camera to sign in. It works once, until ${new Date(v.expires).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.`),
    h("button", { type: "button", onclick: () => window.print() }, "Print"));
}

/** A door receipt to print (two copies, numbered), in a tab of its own. */
const receiptLink = (n) => h("a", { href: `/api/receipts/door/${n}`, target: "_blank", rel: "noopener" }, `Print receipt D-${n}`);

/** One guest found: checked in or not, and what the door can do for them now. */
function guestRow(guest, redraw, tell) {
  const label = (what) => `${what} for ${guest.name}`;
  const method = h("select", { "aria-label": label("Payment") }, METHODS.map(([v, t]) => h("option", { value: v }, t)));
  const amount = h("input", { inputmode: "decimal", "aria-label": label("Paid, dollars"), placeholder: "20.00" });
  method.addEventListener("change", () => { amount.disabled = method.value === "comp"; if (amount.disabled) amount.value = ""; });
  const out = h("div", { class: "guest-out" });
  const pay = async (path) => {
    try {
      const body = method.value === "comp" ? { method: "comp" } : { method: method.value, paid: parseDollars(amount.value) };
      const p = await api("POST", `/api/door/guests/${guest.id}/${path}`, body);
      tell(`${guest.name}: receipt ${p.receipt}, ${p.method} ${money(p.paid)}, chips ${money(p.chips)}`, p.receipt);
      redraw();
    } catch (e) { toast(inWords(e), true, e.rule); }
  };
  const voucher = async () => {
    try {
      const v = await api("POST", `/api/door/guests/${guest.id}/voucher`);
      out.replaceChildren(voucherBox(guest, v));
    } catch (e) { toast(inWords(e), true, e.rule); }
  };
  const revoke = async () => {
    try {
      const r = await api("POST", `/api/door/guests/${guest.id}/voucher/revoke`);
      out.replaceChildren();
      tell(`${guest.name}: ${r.revoked} voucher${r.revoked === 1 ? "" : "s"} revoked`);
      redraw();
    } catch (e) { toast(inWords(e), true, e.rule); }
  };
  const status = guest.checked_in
    ? `Checked in at ${new Date(guest.checked_in).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}: paid ${money(guest.paid)}, chips ${money(guest.chips)} (receipt ${guest.receipts.join(", ")})`
    : "Not checked in";
  return h("li", { class: "guest", "aria-label": guest.name, "data-guest": guest.id },
    h("strong", {}, guest.name), h("span", { class: "muted" }, status),
    guest.receipts.length ? h("span", { class: "inline" }, guest.receipts.map(receiptLink)) : null,
    h("div", { class: "inline", role: "group", "aria-label": label("Payment at the door") }, method, amount,
      h("button", { type: "button", class: "primary", onclick: () => pay(guest.checked_in ? "payments" : "check-in") },
        guest.checked_in ? label("Add a payment") : label("Check in"))),
    h("div", { class: "inline" },
      h("button", { type: "button", onclick: voucher }, label(guest.voucher ? "New voucher" : "Voucher")),
      guest.voucher ? h("button", { type: "button", onclick: revoke }, label("Revoke the voucher")) : null),
    out);
}

/** The search: every keystroke asks again; the list is the guests whose name holds it. */
function searchPanel() {
  const q = h("input", { type: "search", "aria-label": "Find a guest by name", placeholder: "A name, or part of one", autocomplete: "off" });
  const list = h("ul", { class: "guests", "aria-label": "Guests found" });
  const count = h("p", { role: "status", class: "muted" });
  const said = h("p", { role: "status", "data-testid": "door-said" });  // the last receipt, kept in view
  const tell = (text, receipt = null) => {
    said.replaceChildren(text, receipt ? " " : "", receipt ? receiptLink(receipt) : "");
  };
  let asked = 0;
  const rows = new Map();  // guest id: the row drawn for them, and what it was drawn from
  const redraw = async () => {
    const mine = ++asked;
    try {
      const found = await api("GET", `/api/door/guests?q=${encodeURIComponent(q.value.trim().slice(0, 40))}`);
      if (mine !== asked) return;  // a later keystroke's answer is the one to show
      count.textContent = `${found.length} guest${found.length === 1 ? "" : "s"}, ${found.filter((g) => g.checked_in).length} checked in`;
      // A guest whose row says the same keeps it: what the door typed in it, and the button about
      // to be pressed, stay (a search's answer may come while a row is being filled in).
      const els = found.slice(0, 50).map((g) => {
        const key = JSON.stringify(g);
        const kept = rows.get(g.id);
        if (kept && kept.key === key) return kept.el;
        const el = guestRow(g, redraw, tell);
        rows.set(g.id, { key, el });
        return el;
      });
      const now = [...list.children];
      if (els.length !== now.length || els.some((el, i) => el !== now[i])) list.replaceChildren(...els);
    } catch (e) { toast(inWords(e), true, e.rule); }
  };
  q.addEventListener("input", redraw);
  return { el: h("section", { class: "card-box", "aria-labelledby": "find-h" }, h("h2", { id: "find-h" }, "Check in"), q, count, said, list), redraw };
}

async function main() {
  const me = await whoAmI();
  document.getElementById("header").replaceWith(Object.assign(headerBar("The door", me), { id: "header" }));
  const main = document.getElementById("main");
  if (!me) { main.replaceChildren(h("h2", {}, "Sign in"), signInForm(() => location.reload())); return; }
  if (!me.may.includes("run_door")) { main.replaceChildren(h("p", {}, "The door is run by the host or a pit boss: sign in as one.")); return; }
  const event = await api("GET", "/api/events/current");
  const search = searchPanel();
  main.replaceChildren(ratePanel(me, event, () => search.redraw()), search.el, importPanel(() => search.redraw()));
  search.redraw();
}

main().catch((e) => toast(inWords(e), true));
