// Cards drawn as inline SVG: nothing fetched. A face-down card is a back and nothing else;
// the page renders only what the server sent, so a hidden card (null or "??") has no face here.

const SUIT = { s: ["♠", "spades", "#1b1b1b"], h: ["♥", "hearts", "#c0262d"], d: ["♦", "diamonds", "#c0262d"],
  c: ["♣", "clubs", "#1b1b1b"] };
const RANK = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "10" };
const NS = "http://www.w3.org/2000/svg";

/** Rank and suit of a card's text; a Blackjack card entered by its rank alone at a real-cards
 * table ("K", "T", "7") has no suit (docs/dealer.md). */
function parts(text) {
  return SUIT[text.slice(-1)] ? [text.slice(0, -1), text.slice(-1)] : [text, null];
}

/** A card as a person writes it: "10♠", "K♥"; a rank alone ("K") as it is; null or "??" as
 * "a face-down card". */
export function cardText(text) {
  if (!text || text === "??") return "a face-down card";
  const [r, s] = parts(text);
  return `${r === "T" ? "10" : r}${s ? SUIT[s][0] : ""}`;
}

/** A poker hand's name as a person reads it: a ten among its kickers as 10 ("(K 10 4 kickers)"),
 * not the T the engine's records keep. */
export const spokenHand = (name) => String(name || "").replace(/(?<=[( ])T(?=[ )])/g, "10");

export function cardName(text) {
  const [r, s] = parts(text);
  return s ? `${RANK[r] || r} of ${SUIT[s][1]}` : (RANK[r] || r);
}

function svg(inner) {
  const el = document.createElementNS(NS, "svg");
  el.setAttribute("viewBox", "0 0 60 84");
  el.setAttribute("aria-hidden", "true");
  el.setAttribute("focusable", "false");
  el.innerHTML = inner;
  return el;
}

/** A card: ``text`` like "As", or null / "??" for a face-down card. */
export function card(text, { small = false } = {}) {
  const span = document.createElement("span");
  span.className = "card";
  span.setAttribute("role", "img");
  if (!text || text === "??") {
    span.dataset.card = "back";
    span.setAttribute("aria-label", "face-down card");
    span.append(svg(
      '<rect x="1" y="1" width="58" height="82" rx="6" fill="#fff" stroke="#999"/>' +
      '<rect x="5" y="5" width="50" height="74" rx="4" fill="#7a1f2b"/>' +
      '<path d="M5 5 L55 79 M55 5 L5 79" stroke="#e4b84d" stroke-width="1" opacity=".5"/>' +
      '<rect x="12" y="12" width="36" height="60" rx="3" fill="none" stroke="#e4b84d" stroke-width="1.5"/>'));
    return span;
  }
  const [r, s] = parts(text);
  const [glyph, , colour] = s ? SUIT[s] : ["", "", "#1b1b1b"];
  const rank = r === "T" ? "10" : r;
  span.dataset.card = text;
  span.setAttribute("aria-label", cardName(text));
  span.append(svg(
    `<rect x="1" y="1" width="58" height="82" rx="6" fill="#fff" stroke="#888"/>` +
    `<text x="6" y="19" font-size="16" font-weight="700" fill="${colour}" font-family="sans-serif">${rank}</text>` +
    `<text x="6" y="34" font-size="14" fill="${colour}" font-family="sans-serif">${glyph}</text>` +
    // A card entered by its rank alone has no suit to draw: its rank stands in the middle.
    (s ? `<text x="30" y="60" font-size="30" text-anchor="middle" fill="${colour}" font-family="sans-serif">${glyph}</text>`
      : `<text x="30" y="58" font-size="28" font-weight="700" text-anchor="middle" fill="${colour}" font-family="sans-serif">${rank}</text>`)));
  if (small) span.classList.add("small");
  return span;
}

export function cards(list, opts) {
  const div = document.createElement("div");
  div.className = "cards";
  for (const c of list || []) div.append(card(c, opts));
  return div;
}

/** The ranks and suits in the order the dealer's card pad shows them (suit: code, sign, name). */
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUITS = [["s", "♠", "spades"], ["h", "♥", "hearts"], ["d", "♦", "diamonds"], ["c", "♣", "clubs"]];
