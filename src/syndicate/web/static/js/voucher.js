// A guest's phone, opened by their voucher's QR code (/voucher#<secret>): signs them in with no
// password typed. The secret is in the address's fragment, which the browser never sends to the
// server; the page takes it out of the address bar at once.
import { api, h, headerBar, inWords, toast } from "./common.js";

async function main() {
  const secret = decodeURIComponent(location.hash.slice(1));
  history.replaceState(null, "", location.pathname);  // the secret leaves the address bar and the history
  document.getElementById("header").replaceWith(Object.assign(headerBar("Welcome", null), { id: "header" }));
  const main = document.getElementById("main");
  const said = h("p", { role: "status", "data-testid": "voucher-result" }, "Signing you in…");
  main.replaceChildren(h("section", { class: "card-box" }, said));
  if (!secret) { said.textContent = "This address holds no voucher: scan the code on your card again."; return; }
  try {
    const out = await api("POST", "/api/voucher", { voucher: secret });
    const me = await api("GET", "/api/session");
    document.getElementById("header").replaceWith(Object.assign(headerBar("Welcome", me), { id: "header" }));
    said.textContent = `Welcome, ${out.account.name}: you are signed in.`;
    said.after(h("p", {}, h("a", { href: "/", class: "button primary" }, "Go to the tables")));
  } catch (e) {
    said.textContent = inWords(e);
    said.dataset.rule = e.rule;
  }
}

main().catch((e) => toast(inWords(e), true));
// Another voucher's address opened in this tab (the address bar, a link) changes only the
// fragment, and the browser does not load the page again: take that voucher as if it had.
window.addEventListener("hashchange", () => { if (location.hash.length > 1) main().catch((e) => toast(inWords(e), true)); });
