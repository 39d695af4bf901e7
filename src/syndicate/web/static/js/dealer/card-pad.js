// The card entry of a real-cards table on the dealer's tablet: the card the hand waits for, the
// game's pad (Blackjack: 13 rank buttons; draw: 52 cards, a row per suit), and a field to type a
// card ("Ah", "10", "K") and press Enter. A refusal is said here, loudly, to the dealer alone.
import { h, handTitle, inWords } from "../common.js";
import { gameOf } from "../games/index.js";

const OVER = new Set(["settled", "complete"]);

export function cardPad(t, entry) {
  const L = (x) => `${x} at ${t.name}`;
  const awaited = h("p", { class: "awaited", id: `need-${t.id}`, "aria-live": "assertive", "aria-atomic": "true" });
  const refusal = h("p", { class: "error refusal", role: "alert" });
  const hint = h("p", { class: "hint", role: "status" });
  const send = async (card) => {
    refusal.textContent = "";
    try {
      await entry.sock.act("card", { card });
      entry.say(""); // the card is on the felt and on the screen (never named here: the hole card)
    } catch (e) {
      // Only the dealer hears a refusal (it could tell the hole card): say it here, loudly.
      refusal.textContent = `${card}: ${inWords(e)}`;
      refusal.dataset.rule = e.rule;
    }
  };
  const own = gameOf(t.game).cardPad({ t, L, send, entry, refusal, say: entry.say });
  const typed = h("input", { autocomplete: "off", autocapitalize: "characters", spellcheck: "false", placeholder: own.placeholder });
  const form = h("form", { class: "inline typed", "aria-label": L("Type a card") }, h("label", { class: "field" }, "Type a card", typed), h("button", { type: "submit" }, "Enter card"));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); const c = typed.value.trim(); if (c) { typed.value = ""; send(c); } });
  // The prompt and the message under the pad keep their height whatever they say: the pad never
  // moves under the dealer's finger.
  const el = h("section", { class: "card-entry", "aria-label": L("Cards") }, awaited, ...own.top, own.pad,
    h("div", { class: "pad-message" }, refusal, hint), ...own.bottom);
  const update = () => {
    const s = entry.state;
    const rd = s && s.round;
    const need = rd && rd.card_needed_text;
    // What the dealer deals now at a real-cards draw table (face down: counted, never entered).
    const dealing = rd && rd.deal_text ? rd.deal_text[0].toUpperCase() + rd.deal_text.slice(1) : null;
    // The dealer's to do, highlighted: a card to enter, a ruling, the deck running out at a draw.
    el.classList.toggle("waiting", Boolean(need || (rd && (rd.ruling_text || (rd.to_deal && rd.to_deal.from_muck)))));
    const text = need ? `Next card: ${need}` : rd && rd.ruling_text ? `Ruling: ${rd.ruling_text}`
      : !rd ? (s && s.table.voided ? `${s.table.voided_hand_id ? `Hand ${s.table.voided_hand_id}` : "The hand"} was voided (misdeal): start the next one` : "No hand in play")
        : rd.to_act ? (dealing ? `${dealing}; then seat ${rd.to_act} to act` : `No card needed: seat ${rd.to_act} to act`)
          : rd.phase === "betting" ? "Bets are open: deal when they are in"
            : OVER.has(rd.phase) ? `${handTitle(s)} is over: pay out, then start the next` : "No card needed";
    if (awaited.textContent !== text) awaited.textContent = text; // a live region: say it once
    const empty = need && rd.shoe && rd.shoe.entered && rd.shoe.remaining <= 0;
    const say = empty ? "The shoe is empty: shuffle the discards in" : "";
    if (hint.textContent !== say) hint.textContent = say;
    own.update(rd, Boolean(rd) && OVER.has(rd.phase));
  };
  update();
  return { el, typed: form, update, say: (x) => { refusal.textContent = x; } };
}
