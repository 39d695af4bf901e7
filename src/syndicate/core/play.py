"""Driving a game's engine: chance as an action, replay and take-back, for every game.

An engine never draws a card. Whenever one is needed it stops and says which
(:attr:`Engine.card_needed`, a :class:`~syndicate.core.shoe.CardNeed`), and whoever drives it
supplies the card with :meth:`Engine.deal_card`: a committed shuffled shoe (:func:`deal_from`) or
the dealer's tablet at a real-cards table. Every input (a decision, an entered card) is a record
appended to :attr:`Engine.log`, and :meth:`Engine.apply` applies one logged input again, so a
replay is the inputs applied in order to a fresh engine (:func:`replay`) and a take-back is a
replay of the inputs before the last card (:func:`take_back`).

The interface an engine offers (:class:`Engine`):

- ``log``: the records of the hand, inputs and what the engine did by itself;
- ``card_needed``: the card the engine waits for, or ``None``;
- ``deal_card(c)``: the card that landed where ``card_needed`` said (checked, refused with a
  typed error that changes nothing);
- ``apply(record)``: one logged input applied again (records the engine writes by itself are
  skipped; a ``take_back`` note is copied);
- ``last_input()``: the index in ``log`` of the last input, or -1;
- ``verify_take_back()``: raises, naming the rule, unless the last input is a card that may be
  taken back;
- ``restart()``: a fresh engine of the same hand before any input (same rules, stacks, source);
- ``taken_back(record)``: called on the rebuilt engine with the card record taken back: appends
  the ``take_back`` note to its log (and gives the card back to the source's count) and returns
  the note.

Engines compiled with mypyc have no ``__dict__`` to swap, so a take-back returns the rebuilt
engine: callers hold on to the returned object.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from .cards import Card
from .shoe import CardNeed

__all__ = ["Engine", "deal_from", "replay", "take_back"]


class Engine(Protocol):
    """What :func:`deal_from`, :func:`replay` and :func:`take_back` need of a game's engine."""

    @property
    def log(self) -> list[Any]: ...

    @property
    def card_needed(self) -> CardNeed | None: ...

    def deal_card(self, c: Any) -> Any: ...

    def apply(self, record: Any) -> None: ...

    def last_input(self) -> int: ...

    def verify_take_back(self) -> None: ...

    def restart(self) -> Any: ...

    def taken_back(self, record: Any) -> Any: ...


E = TypeVar("E", bound=Engine)


def deal_from(engine: Engine, draw: Callable[[], Card]) -> None:
    """Deal every card the engine waits for from ``draw`` (a shuffled shoe's ``draw``), until
    it waits for a decision or the hand is over."""
    while engine.card_needed is not None:
        engine.deal_card(draw())


def replay(engine: E, records: Iterable[Any]) -> E:
    """Apply the logged inputs among ``records`` to ``engine`` in order; returns it."""
    for r in records:
        engine.apply(r)
    return engine


def take_back(engine: E) -> tuple[E, Any]:
    """Undo the last card entered: returns the engine rebuilt exactly as it was before that
    card (the same card is needed again, a ``take_back`` note in its log) and the card's record.
    Refused (the engine's typed error, nothing changed) unless the last input is a card."""
    engine.verify_take_back()
    i = engine.last_input()
    taken = engine.log[i]
    fresh: E = replay(engine.restart(), engine.log[:i])
    fresh.taken_back(taken)
    return fresh, taken
