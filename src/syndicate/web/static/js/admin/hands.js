// The admin page's hand histories: searched by table, player or shoe commitment, each with its
// replay step by step beside its log, and the fairness check.
import { api, h, money, refused } from "../common.js";
import { titleOf } from "../games/index.js";
import { replayViewer } from "../replay.js";
import { playerSelect } from "./accounts.js";

export function handSearch() {
  const table = h("input", { type: "number", min: "1", placeholder: "any", "aria-label": "Table number" });
  const player = playerSelect("Player", () => true, "anyone");
  const commitment = h("input", { placeholder: "64 hex digits", "aria-label": "Shoe commitment", size: "24" });
  const list = h("div");
  const viewer = h("div", { "aria-live": "polite" });
  const search = async (e) => {
    e && e.preventDefault();
    const q = new URLSearchParams();
    if (table.value) q.set("table", table.value);
    if (player.value) q.set("player", player.value);
    if (commitment.value.trim()) q.set("commitment", commitment.value.trim());
    try {
      const hands = await api("GET", `/api/hands?${q}`);
      // one hand number everywhere: the evening-wide id (the replay's title and the download say it too)
      list.replaceChildren(hands.length ? h("div", { class: "hands-found" }, h("table", { class: "data", "aria-label": "Hands found" },
        h("thead", {}, h("tr", {}, ["Hand", "Table", "Game", "Status", "Started", "Players", ""].map((x) => h("th", {}, x)))),
        h("tbody", {}, hands.map((x) => h("tr", {}, h("td", {}, `Hand ${x.id}`), h("td", {}, `table ${x.table}`), h("td", {}, titleOf(x.game)),
          h("td", {}, x.status), h("td", {}, x.started_at.replace("T", " ").slice(0, 19)),
          h("td", { class: "players" }, h("ul", { class: "plain", "aria-label": `Players of hand ${x.id}` }, (x.players || []).map((p) =>
            h("li", {}, `${p.name}: `, h("span", { class: p.net > 0 ? "up" : p.net < 0 ? "down" : "" }, p.net === null || p.net === undefined ? (x.status === "voided" ? "voided" : "—") : money(p.net)))))),
          h("td", {}, h("button", { type: "button", "aria-label": `Replay hand ${x.id}`, onclick: () => replay(x, viewer) }, "Replay"),
            " ", h("a", { href: `/api/hands/${x.id}/history`, download: `hand-${x.id}.json` }, "Download"))))))) : h("p", { class: "muted" }, "No hand found."));
    } catch (err) { refused(err); }
  };
  const form = h("form", { class: "inline", "aria-label": "Search hands" },
    h("label", {}, "Table", table), h("label", {}, "Player", player), h("label", {}, "Commitment", commitment),
    h("button", { type: "submit", class: "primary" }, "Search"));
  form.addEventListener("submit", search);
  document.getElementById("hands").replaceChildren(form, list, viewer);
}

async function replay(hand, viewer) {
  try {
    const [doc, c] = await Promise.all([api("GET", `/api/hands/${hand.id}/history`), api("GET", `/api/hands/${hand.id}/check`)]);
    viewer.replaceChildren(replayViewer(doc, hand, [
      h("p", { "data-testid": "replay-match" }, c.replay.matches ? "The engine reproduces this hand exactly." : `The replay differs: ${c.replay.problems.join("; ")}`),
      h("p", { "data-testid": "fairness" }, "Fairness check: ",
        h("strong", {}, !c.verify.ok ? "FAILED"
          // Real cards entered by the dealer: no shuffle was committed, so no claim either way (docs/dealer.md).
          : c.verify.entered ? "nothing to verify: real cards, entered by the dealer as they were dealt"
          // No openings (a stacked shoe, or one dealt before per-position commitments): no claim until the reveal.
          : c.verify.pending ? "not yet verifiable (no openings: it checks once its seed or order is revealed)"
            : "verified: every card shown opens its committed position"),
        ` — ${c.verify.messages.join(" ")}`),
      h("p", { class: "muted" }, c.commitment ? `Commitment ${c.commitment} (${c.hands_in_shoe} hand(s) of this shoe so far)`
        : `No commitment: real cards (${c.hands_in_shoe} hand(s) of this shoe so far)`)]));
  } catch (err) { refused(err); }
}
