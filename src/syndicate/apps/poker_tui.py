"""Drawing a five-card draw table with Rich, from a viewer's :meth:`DrawHand.view`.

Rendering works only from the view (never from the hand itself), so the terminal can show
the human nothing the engine would not show that seat.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..core import money
from ..core.cards import card

_RED = {"d", "h"}


def card_text(t: str) -> Text:
    """A card as coloured text (``"??"`` face down)."""
    if t == "??":
        return Text("[??]", style="bold white on blue")
    c = card(t)
    return Text(f"[{c.pretty}]", style="bold red" if c.suit in _RED else "bold")


def cards_text(cards: list[str] | None) -> Text:
    if cards is None:
        return Text("(folded)", style="dim")
    out = Text()
    for i, t in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(t))
    return out


def seat_marks(view: dict[str, Any], s: dict[str, Any]) -> list[str]:
    """What to note beside a seat of a draw view: button, to act, all-in, hand, winnings."""
    marks = []
    if s["seat"] == view["button"]:
        marks.append("D")
    if s["seat"] == view["to_act"]:
        marks.append("◀ to act")
    if s["all_in"]:
        marks.append("all-in")
    if s["value"]:
        marks.append(str(s["value"]))
    if s["won"]:
        marks.append(f"wins {money.format(s['won'])}")
    return marks


def render_table(
    view: dict[str, Any], names: dict[int, str], events: list[str] | None = None
) -> Panel:
    """The table as ``view``'s viewer sees it: seats, stacks, bets, cards, pots, recent events."""
    f = money.format
    t = Table(expand=True, show_lines=False)
    t.add_column("Seat")
    t.add_column("Player")
    t.add_column("Stack", justify="right")
    t.add_column("Bet", justify="right")
    t.add_column("Cards")
    t.add_column("")
    for s in view["seats"]:
        seat = s["seat"]
        marks = seat_marks(view, s)
        style = "dim" if s["folded"] else ("bold yellow" if seat == view["viewer"] else "")
        t.add_row(str(seat), Text(names.get(seat, f"Seat {seat}"), style=style), f(s["stack"]),
                  f(s["bet"]) if s["bet"] else "", cards_text(s["cards"]), " ".join(marks))
    pots = " + ".join(f(p["amount"]) for p in view["pots"]) or f(view["pot"])
    head = Text(f"Hand #{view['hand']}  ·  {view['phase'].replace('_', ' ')}  ·  pot {pots}"
                f"  ·  ante {f(view['ante'])}", style="bold")
    if view["carry_in"]:
        head.append(f"  ·  {f(view['carry_in'])} carried in")
    parts: list[Any] = [head, t]
    if events:
        parts.append(Text("\n".join(events[-8:]), style="cyan"))
    return Panel(Group(*parts), title="Five-card draw", border_style="green")


def render_frequency_table(rows: list[tuple[str, int, float]]) -> Table:
    """The frequency table of all 2,598,960 five-card hands."""
    t = Table(title="Five-card poker hands: all 2,598,960 deals")
    t.add_column("Hand")
    t.add_column("Count", justify="right")
    t.add_column("Probability", justify="right")
    t.add_column("Odds (1 in)", justify="right")
    total = sum(n for _name, n, _p in rows)
    for name, n, p in rows:
        t.add_row(name, f"{n:,}", f"{p:.6%}", f"{total / n:,.1f}" if n else "-")
    t.add_row("Total", f"{total:,}", "100%", "")
    return t
