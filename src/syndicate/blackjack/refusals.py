"""Why the table's rules refuse a decision: each check returns ``None`` (allowed) or the
refusal as ``"rule: message"``, which :func:`refuse` raises as a typed error naming the rule.

The round asks these both to list the legal actions and to verify one, so the two never
disagree.
"""

from __future__ import annotations

from typing import Any

from ..core import money
from ..core.errors import BadAmount, IllegalAction, OutOfTurn
from .hands import PlayerHand, Seat
from .rules import Rules

# Refusals about how much (rather than whether) are BadAmount; the rest IllegalAction.
_AMOUNT_RULES = frozenset(("amount", "double_amount", "stack", "double_for_less"))


def refuse(why: str | None) -> None:
    """Raise the typed error for a refusal written as "rule: message" (None: allowed)."""
    if why:
        rule, msg = why.split(": ", 1)
        raise (BadAmount if rule in _AMOUNT_RULES else IllegalAction)(rule, msg)


def ok(verify: Any, *args: Any) -> bool:
    """The ``can_x`` of a ``verify_x``: whether it passes."""
    try:
        verify(*args)
    except (OutOfTurn, IllegalAction, BadAmount):
        return False
    return True


def insurance_refusal(rules: Rules, s: Seat) -> str | None:
    if not rules.insurance:
        return "insurance: this table does not offer insurance"
    if s.bet // 2 < 1 or s.stack < 1:
        return "insurance: not enough chips for an insurance bet"
    return None


def even_money_refusal(rules: Rules, s: Seat) -> str | None:
    if not rules.even_money:
        return "even_money: this table does not offer even money"
    if not s.hands[0].natural:
        return "even_money: even money is offered only on a blackjack"
    return None


def double_refusal(rules: Rules, s: Seat, h: PlayerHand, amount: Any = None) -> str | None:
    r = rules
    if len(h.cards) != 2 or h.doubled:
        return "double: you may double only on your first two cards"
    if h.from_split and not r.double_after_split:
        return "double_after_split: this table does not allow doubling after a split"
    if h.split_aces and not r.hit_split_aces:
        return "hit_split_aces: split aces receive one card each and may not be doubled"
    on = r.double_on
    if on != "any":
        total = h.total
        lo = 9 if on == "9-11" else 10
        if not lo <= total <= 11:
            return f"double_on: this table allows doubling only on {on}; this hand totals {total}"
    if amount is None:
        need = 1 if r.double_for_less else h.bet
        if s.stack < need:
            return f"stack: doubling needs {money.format(need)} and seat {s.number} has {money.format(s.stack)}"
        return None
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        return f"amount: a double is a positive number of cents, got {amount!r}"
    if amount > h.bet:
        return f"double_amount: a double is at most the original bet ({money.format(h.bet)})"
    if amount < h.bet and not r.double_for_less:
        return f"double_for_less: this table requires doubling for the full {money.format(h.bet)}"
    if amount > s.stack:
        return f"stack: seat {s.number} has only {money.format(s.stack)}"
    return None


def split_refusal(rules: Rules, s: Seat, h: PlayerHand) -> str | None:
    r = rules
    if len(h.cards) != 2:
        return "split: only the first two cards of a hand can be split"
    a, b = h.cards
    if a.value != b.value:
        return "split: only a pair (two cards of the same value) can be split"
    if r.split_by == "rank" and a.rank != b.rank:
        return "split_by: only a pair of the same rank can be split at this table (not a ten and a face)"
    if len(s.hands) >= r.max_split_hands:
        return f"max_split_hands: at most {r.max_split_hands} hands from one seat"
    if h.split_aces and not r.resplit_aces:
        return "resplit_aces: split aces may not be split again at this table"
    if s.stack < s.bet:
        return f"stack: splitting needs another {money.format(s.bet)}"
    return None


def surrender_refusal(rules: Rules, s: Seat, h: PlayerHand) -> str | None:
    if rules.surrender == "none":
        return "surrender: this table does not allow surrender"
    if len(s.hands) != 1 or len(h.cards) != 2:
        return "surrender: you may surrender only your first two cards, before any other decision"
    return None
