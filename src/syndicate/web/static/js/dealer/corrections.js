// The corrections of a real-cards table, in the round's row of the dealer's tablet: take back the
// last card, declare a misdeal and, where a shoe lasts across hands, a new shoe between hands or
// the discards shuffled back in when it runs out during one (one place for both, so the row never
// changes its shape). Each asks for a confirmation but the take-back (docs/dealer.md).
import { h, inWords } from "../common.js";
import { gameOf } from "../games/index.js";

export function corrections(t, entry, pad) {
  const L = (x) => `${x} at ${t.name}`;
  const button = (label, text, onclick, cls = "") => h("button", { type: "button", class: cls, "aria-label": L(label), onclick }, text);
  const fix = async (action, done) => {
    pad.say("");
    try { await entry.sock.act(action); entry.say(done); } catch (e) { pad.say(inWords(e)); }
  };
  const takeBack = button("Take back the last card", "Take back", () => fix("take_back", "card taken back"));
  const misdeal = button("Declare a misdeal", "Misdeal", () => {
    if (confirm(`Declare a misdeal at ${t.name}? The hand is void and every bet goes back.`)) fix("misdeal", "misdeal: the hand is void");
  }, "danger");
  let shoeAction = "new_shoe";
  const shoe = gameOf(t.game).newShoe ? button("New shoe", "New shoe", () => {
    if (shoeAction === "new_shoe") {
      if (confirm(`A new shoe at ${t.name}? The card count starts again.`)) fix("new_shoe", "new shoe");
    } else if (confirm(`Shuffle the discards back into the shoe at ${t.name}? The cards on the table stay counted.`)) {
      fix("shuffle_discards", "the discards are shuffled back in");
    }
  }) : null;
  return {
    buttons: [takeBack, misdeal, shoe],
    /** Only what the server would accept now (the table's dealer's view lists it); a pit boss's
     * view does not: in play, then. */
    update(rd, inPlay) {
      const can = rd && rd.corrections;
      takeBack.disabled = can ? !can.includes("take_back") : !inPlay;
      misdeal.disabled = can ? !can.includes("misdeal") : !inPlay;
      if (!shoe) return;
      // at any time between cards; called for once the shoe is empty
      const empty = inPlay && rd.shoe && rd.shoe.entered && rd.shoe.remaining <= 0;
      shoeAction = inPlay ? "shuffle_discards" : "new_shoe";
      const label = inPlay ? "Shuffle in" : "New shoe";
      if (shoe.textContent !== label) {
        shoe.textContent = label;
        shoe.setAttribute("aria-label", L(inPlay ? "Shuffle in the discards" : label));
      }
      shoe.classList.toggle("primary", Boolean(empty));
    },
  };
}
