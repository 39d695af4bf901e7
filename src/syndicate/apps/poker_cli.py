"""Terminal entry points for poker, as plain functions the ``syndicate`` Typer app wires in.

``play_poker`` is one human (seat 1) against bots; actions are read from ``input_fn`` so
tests can script a whole session. ``print_poker_table`` prints the frequency table of all
2,598,960 five-card hands, computed by evaluating every one of them.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from ..core import money
from ..core.cards import CardError
from ..core.errors import RuleError
from ..core.shoe import Shoe
from ..poker import bots
from ..poker.draw import DrawHand
from ..poker.history import describe, to_history
from ..poker.rules import DrawRules
from ..poker.state import DRAW
from ..poker.table import DrawTable
from ..poker.views import log_view, view
from .keys import key_reader
from .poker_tui import render_frequency_table, render_table

HUMAN = 1

HELP = (
    "Commands: check (k), call (c), bet AMOUNT (b 1.50), raise AMOUNT (r 1), fold (f); "
    "in the draw: draw CARDS or positions (d As 7c, d 1 2 5), pat (p); quit (q)."
)


def hand_seed(master: bytes, number: int) -> bytes:
    """Each hand's shoe seed: SHA-256(master seed || "poker-hand" || hand number, u32 BE).

    A session started with ``--seed`` therefore deals the same cards every time."""
    return hashlib.sha256(master + b"poker-hand" + number.to_bytes(4, "big")).digest()


class Quit(Exception):
    """The human asked to leave the table."""


def _parse_command(hand: DrawHand, text: str) -> tuple[str, Any]:
    words = text.strip().split()
    if not words:
        raise ValueError("type a command (help for the list)")
    verb, args = words[0].lower(), words[1:]
    alias = {"k": "check", "c": "call", "b": "bet", "r": "raise", "f": "fold", "d": "draw",
             "p": "stand_pat", "pat": "stand_pat", "stand": "stand_pat", "q": "quit", "x": "check"}
    verb = alias.get(verb, verb)
    if verb == "quit":
        raise Quit
    if verb in ("bet", "raise"):
        if len(args) != 1:
            raise ValueError(f"{verb} needs an amount, as in '{verb} 1.50'")
        return verb, money.parse(args[0])
    if verb == "draw":
        cards = hand.cards[HUMAN]
        if args and all(a.isdigit() for a in args):
            idx = [int(a) for a in args]
            if any(not 1 <= i <= len(cards) for i in idx):
                raise ValueError("card positions are 1..5, left to right")
            return verb, [cards[i - 1] for i in idx]
        return verb, args
    if verb in ("check", "call", "fold", "stand_pat"):
        return verb, None
    raise ValueError(f"unknown command {words[0]!r}. {HELP}")


def _apply(hand: DrawHand, seat: int, action: str, arg: Any) -> Any:
    if action == "bet":
        return hand.bet(seat, arg)
    if action == "raise":
        return hand.raise_(seat, arg)
    if action == "draw":
        return hand.draw(seat, arg)
    return getattr(hand, action)(seat)


def _prompt(hand: DrawHand) -> str:
    legal = hand.legal_actions(HUMAN)
    f = money.format
    extra = []
    owe = hand.to_call(HUMAN)
    if hand.phase != DRAW and owe > 0:
        extra.append(f"{f(min(owe, hand.stacks[HUMAN]))} to call")
    br = hand.bet_range(HUMAN)
    if br:
        extra.append(f"bet {f(br[0])}–{f(br[1])}")
    rr = hand.raise_range(HUMAN)
    if rr:
        extra.append(f"raise by {f(rr[0])}–{f(rr[1])}")
    return f"Your move [{' / '.join(legal)}]" + (f" ({', '.join(extra)})" if extra else "") + ": "


def _fold_out(hand: DrawHand, rng: random.Random) -> None:
    """Finish a hand the human walked away from: they fold (or stand pat in the draw)."""
    while not hand.is_terminal:
        seat = hand.to_act
        assert seat is not None
        if seat != HUMAN:
            bots.act(hand, seat, rng)
        elif hand.phase == DRAW:
            hand.stand_pat(seat)
        else:
            hand.fold(seat)


def play_poker(
    players: int = 4,
    ante: str = "0.50",
    seed: str | None = None,
    console: Console | None = None,
    input_fn: Callable[[str], str] = input,
    *,
    stack: str = "20.00",
    hands: int | None = None,
    save: str | Path | None = None,
) -> DrawTable:
    """Play five-card draw in the terminal: you in seat 1 against ``players - 1`` bots.

    ``seed`` (64 hex digits) makes the session reproducible; without it every hand's deck
    comes from the OS's CSPRNG. ``hands`` stops after that many hands; ``save`` writes the
    session's history (JSON, replayable with ``syndicate replay``) when it ends.
    """
    console = console or Console()
    if not 2 <= players <= 7:
        raise ValueError("players must be 2..7")
    rules = DrawRules(ante=money.parse(ante))
    start = money.parse(stack)
    master = bytes.fromhex(seed) if seed else secrets.token_bytes(32)
    if len(master) != 32:
        raise ValueError("the seed is 64 hex digits (32 bytes)")
    rng = random.Random(master)
    seats = {s: start for s in range(1, players + 1)}
    table = DrawTable(seats, rules, button=players)
    names = {s: ("You" if s == HUMAN else f"Bot {s}") for s in seats}
    console.print(
        f"[bold]Five-card draw[/]: you against {players - 1} bots, "
        f"ante {money.format(rules.ante)}, {money.format(start)} each. {HELP}"
    )
    played = 0
    try:
        while hands is None or played < hands:
            if HUMAN not in table.seats or len(table.seats) < 2:
                break
            number = len(table.hands) + 1
            shoe = Shoe.from_seed(hand_seed(master, number), decks=1, penetration=1.0, burn=0)
            hand = table.start_hand(shoe)
            console.print(f"Hand #{number}: deck commitment {shoe.commitment[:16]}…")
            events: list[str] = []
            seen = 0
            while not hand.is_terminal:
                seat = hand.to_act
                assert seat is not None
                if seat != HUMAN:
                    bots.act(hand, seat, rng)
                else:
                    new = log_view(hand, HUMAN)[seen:]
                    seen += len(new)
                    events.extend(describe(d) for d in new if d["type"] not in ("ante",))
                    console.print(render_table(view(hand, HUMAN), names, events))
                    while True:
                        try:
                            action, arg = _parse_command(hand, input_fn(_prompt(hand)))
                            _apply(hand, HUMAN, action, arg)
                            break
                        except Quit:
                            # Leaving folds the hand: the chips in the pot are lost. Never on one key.
                            try:
                                sure = key_reader(input_fn)(
                                    f"Leave now? You fold and lose the {money.format(hand.total[HUMAN])} you put "
                                    "in the pot. [y] (or q again) to leave, any other key to stay: ").strip().lower()
                            except EOFError:  # no one left to answer (the input ended): leave, as asked
                                sure = "y"
                            if sure in ("y", "yes", "q", "quit"):
                                raise
                            console.print("You stay: play on.")
                        except (RuleError, ValueError, CardError) as e:
                            console.print(f"[red]{e}[/]")
            new = log_view(hand, HUMAN)[seen:]
            events.extend(describe(d) for d in new if d["type"] not in ("ante",))
            console.print(render_table(view(hand, HUMAN), names, events))
            net = hand.results().get(HUMAN, 0)
            verdict = "You win" if net > 0 else "You lose" if net < 0 else "You break even"
            amount = " " + money.format(abs(net)) if net else ""
            console.print(f"[bold]{verdict}{amount}[/] this hand.")
            table.finish()
            played += 1
            if hands is None:
                # one key at a terminal (syndicate.apps.keys); moves stay lines: they carry amounts and cards
                answer = key_reader(input_fn)("Any key for the next hand, q to quit: ").strip().lower()
                if answer in ("q", "quit"):
                    break
    except (Quit, EOFError, KeyboardInterrupt):
        console.print("Leaving the table.")
        if table.hand is not None and not table.hand.is_terminal:
            _fold_out(table.hand, rng)
    table.finish()
    mine = table.seats.get(HUMAN, 0)
    console.print(f"You leave with {money.format(mine)} ({money.format(mine - start)}).")
    if save is not None:
        table_doc = to_history(table)
        Path(save).write_text(json.dumps(table_doc, indent=1))
        console.print(f"History saved to {save} (replay it with: syndicate replay {save}).")
    return table


def print_poker_table(console: Console | None = None) -> list[tuple[str, int, float]]:
    """Print (and return) the category counts and probabilities over all 2,598,960 hands."""
    from ..poker.maths.batch import frequency_table

    console = console or Console()
    rows = frequency_table()
    console.print(render_frequency_table(rows))
    return rows
