// The admin page's prize draws (admin only, docs/prize-draw.md): a draw is created with its
// prizes and ticket rule (its seed committed at once), closed (the guests' chips into numbered
// tickets) and drawn with a witness from the room; each shows its commitment, its tickets and,
// once drawn, its winners and its proof to download.
import { api, currentEvent, eventId, h, money, parseDollars, refused, toast } from "../common.js";
import { accounts } from "./accounts.js";
import { cashier } from "./cashier.js";
import { panel } from "./panel.js";

const STATUS = { open: "open: the seed is committed", closed: "closed: its tickets are published", drawn: "drawn" };

function newDrawForm(done) {
  const name = h("input", { required: true, "aria-label": "Draw's name", placeholder: "Wave 1", maxlength: 100 });
  const kind = h("select", { "aria-label": "Kind of draw" },
    h("option", { value: "raffle" }, "A raffle: chips into tickets"), h("option", { value: "top" }, "Prizes to the most chips"));
  const rate = h("input", { required: true, inputmode: "decimal", "aria-label": "Chips per ticket, dollars", placeholder: "100.00" });
  const rounding = h("select", { "aria-label": "Rounding" },
    h("option", { value: "down" }, "Round down"), h("option", { value: "up" }, "Round up"), h("option", { value: "nearest" }, "Round to nearest"));
  const minimum = h("input", { inputmode: "numeric", "aria-label": "Tickets every guest gets at least", value: "0" });
  const cap = h("input", { inputmode: "numeric", "aria-label": "Most tickets a guest may have (blank: no cap)" });
  const prizes = h("textarea", { required: true, rows: 3, "aria-label": "Prizes, one a line: name, value in dollars",
    placeholder: "Hamper, 150\nDinner for two, 80" });
  const once = h("input", { type: "checkbox", "aria-label": "One prize per guest" });
  const ticketFields = [rate, rounding, minimum, cap, once];
  kind.addEventListener("change", () => { for (const f of ticketFields) f.disabled = kind.value === "top"; rate.required = kind.value !== "top"; });
  const form = h("form", { class: "stack", "aria-label": "New prize draw" },
    h("label", {}, "Name", name), kind, h("div", { class: "inline" }, h("label", {}, "Chips per ticket ($)", rate), rounding),
    h("div", { class: "inline" }, h("label", {}, "At least", minimum), h("label", {}, "At most", cap)),
    h("label", {}, "Prizes (name, value)", prizes), h("label", {}, once, " One prize per guest"),
    h("button", { type: "submit", class: "primary" }, "Create the draw"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const listed = prizes.value.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
        const at = l.lastIndexOf(",");
        return at > 0 ? { name: l.slice(0, at).trim(), value: parseDollars(l.slice(at + 1)) } : { name: l, value: 0 };
      });
      const body = kind.value === "top" ? { name: name.value.trim(), kind: "top", prizes: listed }
        : { name: name.value.trim(), kind: "raffle", tickets: { rate: parseDollars(rate.value), rounding: rounding.value,
          minimum: Number(minimum.value || 0), cap: cap.value.trim() ? Number(cap.value) : null },
        prizes: listed, one_prize_per_guest: once.checked };
      const d = await api("POST", "/api/draws", body);
      toast(`${d.draw} created: its seed is committed (${d.commitment.slice(0, 12)}…)`);
      form.reset();
      done();
    } catch (err) { refused(err); }
  });
  return form;
}

function drawBox(d, done) {
  const who = (id) => (accounts.find((a) => a.id === id) || { name: `guest ${id}` }).name;
  const act = async (path, body) => {
    try { await api("POST", `/api/draws/${d.id}/${path}`, body); done(); } catch (err) { refused(err); }
  };
  const witness = h("input", { "aria-label": `Witness for ${d.draw}`, placeholder: "A die's roll, words called out", maxlength: 200 });
  const top = d.draw_kind === "top";
  const holders = new Set(top ? d.standings.map(([holder]) => holder) : d.tickets.map(([, holder]) => holder));
  const body = [
    h("p", {}, `${d.rule}; ${d.one_prize_per_guest ? "one prize per guest; " : ""}${STATUS[d.status]}`),
    h("p", { class: "muted mono" }, `Commitment ${d.commitment}`),
    h("ol", { "aria-label": `Prizes of ${d.draw}` }, d.prizes.map((p, i) => {
      const w = d.winners.find((x) => x.prize === i + 1);
      return h("li", {}, `${p} (${money(d.values[i])})`, w ? `: ${w.ticket ? `ticket ${w.ticket}, ` : ""}${who(w.holder)}` : "");
    })),
  ];
  if (d.status !== "open") body.push(h("p", {}, top ? `${holders.size} guests' chips counted` : `${d.tickets.length} tickets, ${holders.size} guests`));
  if (d.status === "open") {
    body.push(h("button", { type: "button", class: "primary", onclick: () => act("close") },
      top ? `Close ${d.draw}: count the chips` : `Close ${d.draw}: chips into tickets`));
  }
  if (d.status === "closed") {
    body.push(h("div", { class: "inline" }, witness,
      h("button", { type: "button", class: "primary", onclick: () => act("draw", { witness: witness.value }) }, `Draw ${d.draw}`)));
  }
  if (d.status === "drawn") {
    const blob = new Blob([JSON.stringify(d, null, 2)], { type: "application/json" });
    body.push(h("a", { href: URL.createObjectURL(blob), download: `draw-${d.id}.json` }, `The proof of ${d.draw} (syndicate verify)`));
  }
  return h("article", { class: "draw", "aria-label": d.draw, "data-status": d.status }, h("h3", {}, d.draw), ...body);
}

/** The night's rules for the draws: whether chips have a cash value, and the cap on the prizes. */
async function nightRules() {
  const ev = await currentEvent(true);
  const play = h("input", { type: "checkbox", checked: Boolean(ev && ev.play_money) });
  const cap = h("input", { inputmode: "decimal", "aria-label": "The prizes' value capped at, dollars (blank: no cap)", placeholder: "no cap" });
  const said = h("p", { class: "muted", role: "status" });
  const say = (e) => {
    cap.value = e.prize_cap === null || e.prize_cap === undefined ? "" : (e.prize_cap / 100).toFixed(2);
    said.textContent = (e.play_money ? "Chips have no cash value: nothing is cashed out, chips count for the draws. " : "Chips are cashed out for money. ")
      + (e.prize_cap === null || e.prize_cap === undefined ? "No cap on the prizes." : `The prizes are capped at ${money(e.prize_cap)} in all.`);
  };
  const patch = async (body) => {
    try {
      const e = await api("PATCH", `/api/events/${await eventId()}`, body);
      say(e);
      await currentEvent(true);
      cashier();
      toast("The night's rules are saved");
    } catch (err) {
      if ("play_money" in body) play.checked = !body.play_money;  // refused: the box shows what holds
      refused(err);
    }
  };
  play.addEventListener("change", () => patch({ play_money: play.checked }));
  const form = h("form", { class: "stack", "aria-label": "The night's rules" },
    h("label", {}, play, " Chips have no cash value (a charity night)"),
    h("div", { class: "inline" }, h("label", {}, "Prizes capped at ($)", cap), h("button", { type: "submit" }, "Save the cap")), said);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const c = cap.value.trim() ? parseDollars(cap.value) : null;
    if (cap.value.trim() && c === null) { toast("The cap in dollars, like 500 or 500.00, or blank for none", true); return; }
    patch({ prize_cap: c });
  });
  const events = await api("GET", "/api/events");
  say(events.find((x) => x.current) || { play_money: false, prize_cap: null });
  return form;
}

export async function prizeDraws() {
  const list = h("div", { id: "draw-list" });
  const show = async () => {
    const draws = await api("GET", "/api/draws");
    list.replaceChildren(...(draws.length ? draws.map((d) => drawBox(d, show)) : [h("p", { class: "muted" }, "No draw yet.")]));
  };
  document.getElementById("main").append(panel("draws", "Prize draws", await nightRules(), newDrawForm(show), list));
  await show();
}
