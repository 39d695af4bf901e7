// A table's join code on the dealer's pages: a button that shows the QR code of the table's page,
// large, for a player's phone to scan (drawn by the server: GET /tables/{id}/qr.svg, which says
// the address in its title).
import { h, qrCode } from "../common.js";

export function joinCode(t) {
  const code = qrCode(`/tables/${t.id}/qr.svg`);
  const close = h("button", { type: "button", class: "primary" }, "Close");
  const dialog = h("dialog", { class: "join", "aria-labelledby": `join-h-${t.id}` },
    h("h2", { id: `join-h-${t.id}` }, `Scan to join ${t.name}`), code.img, code.text, close);
  close.addEventListener("click", () => dialog.close());
  const button = h("button", { type: "button", "aria-label": `Show the join code of ${t.name}`, onclick: () => {
    dialog.showModal();
    code.load();
  } }, "Join code");
  return { button, dialog };
}
