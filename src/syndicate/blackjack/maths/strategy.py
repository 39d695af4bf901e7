"""The total-dependent basic strategy chart for a set of house rules, computed, not copied.

:func:`chart` derives the chart from the combinatorial analysis of :mod:`.odds`: for every
row (hard total, soft total, pair) and dealer up card it takes the action with the best
expectation summed over the two-card hands of that row, each weighted by how often it is
dealt. Hands of three or more cards follow the row's hit/stand fallback, as every printed
chart does. The bots and the engine's hint use :meth:`Chart.decide`.

Cell codes (the usual printed-chart legend): ``H`` hit, ``S`` stand, ``D`` double (else hit),
``Ds`` double (else stand), ``P`` split, ``Rh``/``Rs``/``Rp`` surrender (else hit / stand /
split).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...core.cards import Card
from ..rules import Rules
from . import odds

#: Up-card columns in chart order.
UPCARDS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")
LEGEND: dict[str, str] = {
    "H": "hit",
    "S": "stand",
    "D": "double, else hit",
    "Ds": "double, else stand",
    "P": "split",
    "Rh": "surrender, else hit",
    "Rs": "surrender, else stand",
    "Rp": "surrender, else split",
}
#: Cell colours shared by the terminal table and the picture.
COLOURS: dict[str, str] = {
    "H": "#d9534f",
    "S": "#f0c419",
    "D": "#3c8dd8",
    "Ds": "#7fb3e6",
    "P": "#3fae5a",
    "Rh": "#e6e6e6",
    "Rs": "#e6e6e6",
    "Rp": "#e6e6e6",
}
_TEXT_COLOURS: dict[str, str] = {"H": "#ffffff", "D": "#ffffff", "P": "#ffffff"}
ACTIONS = ("hit", "stand", "double", "split", "surrender")
HARD_ROWS = tuple(range(5, 21))
SOFT_ROWS = tuple(range(13, 21))
PAIR_ROWS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


def _up_label(upcard: Card) -> str:
    return "A" if upcard.value == 1 else str(upcard.value)


def _pair_label(value: int) -> str:
    return "A,A" if value == 1 else f"{value},{value}"


def _soft_label(total: int) -> str:
    return f"A,{total - 11}"


@dataclass(frozen=True)
class Chart:
    """A basic strategy chart: ``hard[total][up]``, ``soft[total][up]``, ``pairs[value][up]``
    (pair value 1 is aces), up cards labelled "2".."10", "A"."""

    rules: Rules
    hard: dict[int, dict[str, str]]
    soft: dict[int, dict[str, str]]
    pairs: dict[int, dict[str, str]]

    # -- playing -----------------------------------------------------------------------------
    def code(self, cards: Iterable[Card], upcard: Card, *, can_split: bool = True) -> str:
        """The chart cell for this hand (its pair row if it is a splittable two-card pair)."""
        hand = list(cards)
        up = _up_label(upcard)
        if can_split and len(hand) == 2 and hand[0].value == hand[1].value:
            cell = self.pairs[hand[0].value][up]
            if cell in ("P", "Rp"):
                return cell
        hard = sum(c.value for c in hand)
        soft = any(c.value == 1 for c in hand) and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total >= 21:
            return "S"
        if soft:
            return self.soft[total][up]
        if total < 4:
            return "H"
        return self.hard[total][up]

    def decide(self, cards: list[Card], upcard: Card, legal: set[str]) -> str:
        """The chart's action for ``cards`` against ``upcard``, always one of ``legal``.

        Answers the engine's early-surrender offer (``legal`` = surrender, play_on) too.

        Fallbacks: double becomes hit (``D``) or stand (``Ds``), surrender becomes the hit,
        stand or split it names, and a split the engine does not allow becomes the play of
        the hand's total.
        """
        if not legal:
            raise ValueError("decide() needs at least one legal action")
        cell = self.code(cards, upcard, can_split="split" in legal)
        if "play_on" in legal:  # the engine's early-surrender offer: surrender or play on
            return "surrender" if cell in ("Rh", "Rs", "Rp") and "surrender" in legal else "play_on"
        wanted = {
            "H": ["hit"],
            "S": ["stand"],
            "D": ["double", "hit"],
            "Ds": ["double", "stand"],
            "P": ["split"],
            "Rh": ["surrender", "hit"],
            "Rs": ["surrender", "stand"],
            "Rp": ["surrender", "split"],
        }[cell]
        for action in wanted:
            if action in legal:
                return action
        # A split the chart wants but the engine refuses was handled by can_split; what is
        # left is a hand the engine lets only stand (split aces) or only hit.
        for action in ("stand", "hit") if wanted[-1] == "stand" else ("hit", "stand"):
            if action in legal:
                return action
        return sorted(legal)[0]

    # -- output ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "upcards": list(UPCARDS),
            "legend": LEGEND,
            "hard": {str(t): {u: self.hard[t][u] for u in UPCARDS} for t in HARD_ROWS},
            "soft": {_soft_label(t): {u: self.soft[t][u] for u in UPCARDS} for t in SOFT_ROWS},
            "pairs": {_pair_label(v): {u: self.pairs[v][u] for u in UPCARDS} for v in PAIR_ROWS},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def rows(self) -> list[tuple[str, str, list[str]]]:
        """(section, row label, cells) in display order."""
        out: list[tuple[str, str, list[str]]] = []
        out += [("Hard", str(t), [self.hard[t][u] for u in UPCARDS]) for t in HARD_ROWS]
        out += [("Soft", _soft_label(t), [self.soft[t][u] for u in UPCARDS]) for t in SOFT_ROWS]
        out += [("Pairs", _pair_label(v), [self.pairs[v][u] for u in UPCARDS]) for v in PAIR_ROWS]
        return out

    def text(self) -> str:
        """Plain text, one row per line."""
        lines = ["      " + " ".join(f"{u:>3}" for u in UPCARDS)]
        section = ""
        for sec, label, cells in self.rows():
            if sec != section:
                lines.append(sec)
                section = sec
            lines.append(f"{label:>5} " + " ".join(f"{c:>3}" for c in cells))
        return "\n".join(lines)

    def render_rich(self) -> Any:
        """A Rich Table with coloured cells."""
        from rich.table import Table
        from rich.text import Text

        table = Table(title="Basic strategy: " + _rules_caption(self.rules), show_lines=False)
        table.add_column("Hand", justify="right", style="bold")
        for u in UPCARDS:
            table.add_column(u, justify="center")
        section = ""
        for sec, label, cells in self.rows():
            if sec != section:
                if section:
                    table.add_section()
                table.add_row(Text(sec, style="bold underline"), *[""] * len(UPCARDS))
                section = sec
            table.add_row(
                label,
                *[
                    Text(f" {c:<2} ",
                         style=f"bold {_TEXT_COLOURS.get(c, '#000000')} on {COLOURS[c]}")
                    for c in cells
                ],
            )
        table.caption = "  ".join(f"{k} {v}" for k, v in LEGEND.items())
        return table

    def save(self, path: str | Path, format: str | None = None) -> Path:
        """Draw the chart as a picture (``png`` or ``svg``; from the suffix if not given)."""
        path = Path(path)
        fmt = (format or path.suffix.lstrip(".") or "png").lower()
        if fmt not in ("png", "svg"):
            raise ValueError(f"chart pictures are png or svg, not {fmt!r}")
        import matplotlib

        matplotlib.use("Agg")
        matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: small, searchable SVG
        import matplotlib.pyplot as plt
        from matplotlib.patches import Rectangle

        rows = self.rows()
        n_rows = len(rows) + 3  # section headers
        fig_h = 0.28 * (n_rows + 4)
        fig, ax = plt.subplots(figsize=(6.4, fig_h))
        ax.set_xlim(0, 11)
        ax.set_ylim(0, n_rows + 2.6)
        ax.axis("off")
        y = n_rows + 1
        ax.text(5.5, y + 1.3, "Basic strategy — " + _rules_caption(self.rules), ha="center",
                va="center", fontsize=8, weight="bold")
        for k, u in enumerate(UPCARDS):
            ax.text(1.5 + k, y, u, ha="center", va="center", fontsize=8, weight="bold")
        section = ""
        for sec, label, cells in rows:
            if sec != section:
                y -= 1
                ax.text(0.05, y, sec, ha="left", va="center", fontsize=8, weight="bold")
                section = sec
            y -= 1
            ax.text(0.9, y, label, ha="right", va="center", fontsize=7)
            for k, c in enumerate(cells):
                ax.add_patch(Rectangle((1.0 + k, y - 0.5), 1, 1, facecolor=COLOURS[c],
                                       edgecolor="white", linewidth=0.8))
                ax.text(1.5 + k, y, c, ha="center", va="center", fontsize=7,
                        color=_TEXT_COLOURS.get(c, "#000000"))
        legend = "   ".join(f"{k}: {v}" for k, v in LEGEND.items())
        ax.text(5.5, y - 1.2, legend, ha="center", va="center", fontsize=5, wrap=True)
        fig.savefig(path, format=fmt, bbox_inches="tight", dpi=150)
        plt.close(fig)
        return path


def _rules_caption(r: Rules) -> str:
    parts = [
        f"{r.decks} deck{'s' if r.decks > 1 else ''}",
        "H17" if r.dealer_hits_soft_17 else "S17",
        f"double {r.double_on}",
        "DAS" if r.double_after_split else "no DAS",
        f"split to {r.max_split_hands}" if r.max_split_hands > 1 else "no split",
        f"{r.surrender} surrender" if r.surrender != "none" else "no surrender",
        {"peek": "peek",
         "no_peek_obo": "no hole card (OBO, split busts lost)" if r.obo_split_bust == "lost"
         else "no hole card (OBO)",
         "no_peek_all": "no hole card"}[r.hole_card],
        f"BJ {r.blackjack_pays}",
    ]
    return ", ".join(parts)


def chart(rules: Rules) -> Chart:
    """The total-dependent basic strategy for ``rules`` (cached; tables differing only in
    bets, seats or penetration share one chart)."""
    c = _chart(odds.canonical(rules))
    return c if c.rules == rules else replace(c, rules=rules)


@lru_cache(maxsize=64)
def _chart(rules: Rules) -> Chart:
    cells = odds.analyze(rules).chart_cells
    return Chart(rules=rules, hard=cells.hard, soft=cells.soft, pairs=cells.pairs)
