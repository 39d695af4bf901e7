"""What a charity night adds to the end-of-night report (docs/door.md, docs/prize-draw.md): the
money taken at the door by method, apart from the chips issued for it; the chips the draws
converted; and each draw's tickets, prizes, winners and proof (its commitment, and its seed once
drawn)."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..core import money
from .values import DoorPayment, Entry, PrizeDraw


@dataclass(frozen=True, slots=True)
class PrizeLine:
    name: str
    value: int
    ticket: int | None  # the winning ticket; None: not drawn
    winner: str | None


@dataclass(frozen=True, slots=True)
class DrawLine:
    id: int
    name: str
    status: str
    tickets: int
    guests: int
    prizes: list[PrizeLine]
    commitment: str
    seed: str | None  # shown once drawn


@dataclass(frozen=True, slots=True)
class Charity:
    paid: dict[str, int]  # cents taken at the door, by method (cash, card; comps pay 0)
    payments: int
    comps: int
    chips_issued: int  # the chips the door's payments bought
    chips_converted: int  # the chips the draws turned into tickets
    draws: list[DrawLine]
    #: the cash walk-ins paid for chips at the tables on a night whose chips have no cash value:
    #: donations too (their chips stay on their name)
    at_tables: int = 0

    @property
    def donations(self) -> int:
        return sum(self.paid.values())


def charity(payments: Iterable[DoorPayment], draws: Iterable[PrizeDraw], entries: Iterable[Entry],
            names: Mapping[int, str], play_money: bool = False) -> Charity | None:
    """The night's door and draws; None for a night with neither that is not a night whose chips
    have no cash value."""
    payments, draws, entries = list(payments), list(draws), list(entries)
    if not payments and not draws and not play_money:
        return None
    paid = {m: sum(p.paid for p in payments if p.method == m) for m in ("cash", "card")}
    lines = []
    for d in draws:
        won = {p: (t, h) for p, t, h in d.winners or []}
        lines.append(DrawLine(
            d.id, d.name, d.status, 0 if d.kind == "top" else len(d.tickets or []),
            len({(h if d.kind == "raffle" else n) for n, h in d.tickets or []}),
            [PrizeLine(p["name"], p["value"], won[i][0] if i in won else None,
                       names.get(won[i][1], f"account {won[i][1]}") if i in won else None)
             for i, p in enumerate(d.prizes, 1)],
            d.commitment, d.seed if d.status == "drawn" else None))
    return Charity(paid, len(payments), sum(1 for p in payments if p.method == "comp"),
                   sum(p.chips for p in payments), sum(e.amount for e in entries if e.kind == "prizes"), lines,
                   sum(e.amount for e in entries if e.kind == "walk_in_buy_in" and e.source_key.startswith("cash:"))
                   if play_money else 0)


def text_lines(c: Charity) -> list[str]:
    m = money.format
    out = ["", f"Donations at the door: {m(c.donations)} (cash {m(c.paid['cash'])}, card {m(c.paid['card'])}; "
               f"{c.payments} payments, {c.comps} comps); chips issued for them {m(c.chips_issued)}; "
               f"chips converted into tickets {m(c.chips_converted)}."]
    if c.at_tables:
        out.append(f"Donations at the tables (walk-ins' chips, paid in cash to their dealers): {m(c.at_tables)}.")
    for d in c.draws:
        out.append(f"Draw {d.name} ({d.status}): {d.tickets} tickets of {d.guests} guests; commitment {d.commitment}"
                   + (f"; seed {d.seed}" if d.seed else ""))
        out += [f"  {p.name} ({m(p.value)}): " + (f"ticket {p.ticket}, {p.winner}" if p.ticket else "not drawn")
                for p in d.prizes]
    return out


def html_parts(c: Charity, table: Callable[..., str]) -> list[str]:
    m = money.format
    parts = [table("Donations and chips at the door", ["Cash", "Card", "Payments", "Comps", "Chips issued",
                                                       "Chips converted"],
                   [[m(c.paid["cash"]), m(c.paid["card"]), c.payments, c.comps, m(c.chips_issued),
                     m(c.chips_converted)]], {0, 1, 2, 3, 4, 5})]
    if c.at_tables:
        parts.append(f"<p>Donations at the tables (walk-ins' chips, paid in cash to their dealers): "
                     f"{m(c.at_tables)}.</p>")
    for d in c.draws:
        parts.append(table(f"Draw {d.name} ({d.status}): {d.tickets} tickets of {d.guests} guests",
                           ["Prize", "Value", "Ticket", "Winner"],
                           [[p.name, m(p.value), p.ticket or "", p.winner or "not drawn"] for p in d.prizes], {1, 2}))
        parts.append(f'<p class="muted">Commitment {html.escape(d.commitment)}'
                     + (f"; seed {html.escape(d.seed)}" if d.seed else "; the seed is shown once drawn")
                     + ". <code>syndicate verify</code> checks the draw's proof.</p>")
    return parts
