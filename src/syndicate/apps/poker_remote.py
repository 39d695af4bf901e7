"""Five-card draw at a live table from the terminal (``syndicate play --server URL`` at a draw
table): the local poker game's commands, the ante proposals put to the player, and the table
drawn as text, over :mod:`syndicate.apps.client`."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from .terminal_table import hand_title, sure

#: The game these play (its id in the table's state).
GAME = "poker"

DRAW_HELP = ("Commands: check (k), call (c), bet AMOUNT (b 1.50), raise AMOUNT (r 1), fold (f); "
             "in the draw: draw CARDS or positions (d As 7c, d 1 2 5), pat (p); q leaves.")


_DRAW_ALIASES = {"k": "check", "x": "check", "c": "call", "b": "bet", "r": "raise", "f": "fold", "d": "draw",
                 "p": "stand_pat", "pat": "stand_pat", "stand": "stand_pat", "q": "quit", "quit": "quit"}



def greeting(state: dict[str, Any] | None, seat: int, buy_in: str) -> str:
    return (f"Five-card draw at {state['table']['name'] if state else 'the table'}: "
            f"you sit at seat {seat} with {buy_in}. {DRAW_HELP}")


class _Leave(Exception):
    """The player typed q."""


def parse_draw_command(text: str, cards: list[str] | None) -> tuple[str, dict[str, Any]]:
    """A typed poker command → (protocol action, its fields). Amounts are dollars ("1.50");
    draw takes your cards by name ("7h 2c") or by position, 1 to 5 from the left ("1 4").
    Raises ValueError naming what is wrong."""
    from ..core import money

    words = text.strip().split()
    if not words:
        raise ValueError(f"type a command. {DRAW_HELP}")
    verb, args = _DRAW_ALIASES.get(words[0].lower(), words[0].lower()), words[1:]
    if verb == "quit":
        raise _Leave
    if verb in ("bet", "raise"):
        if len(args) != 1:
            raise ValueError(f"{verb} needs an amount in dollars, as in '{verb} 1.50'")
        try:
            return verb, {"amount": money.parse(args[0])}
        except money.MoneyError as e:
            raise ValueError(str(e)) from None
    if verb == "draw":
        held = list(cards or [])
        if args and all(a.isdigit() for a in args):
            idx = [int(a) for a in args]
            if any(not 1 <= i <= len(held) for i in idx) or len(set(idx)) != len(idx):
                raise ValueError(f"card positions are 1..{len(held)}, left to right, each once")
            return verb, {"discards": [held[i - 1] for i in idx]}
        by_name = {c.lower(): c for c in held}
        unknown = [a for a in args if a.lower() not in by_name]
        if unknown:
            raise ValueError(f"you do not hold {', '.join(unknown)}: your cards are {' '.join(held)}")
        return verb, {"discards": [by_name[a.lower()] for a in args]}
    if verb in ("check", "call", "fold", "stand_pat"):
        return verb, {}
    raise ValueError(f"unknown command {words[0]!r}. {DRAW_HELP}")


def _ante_proposal(state: dict[str, Any], seat: int) -> int | None:
    """The ante the dealer proposes, if the table shows one still waiting for ``seat``."""
    p = state.get("table", {}).get("ante_proposal")
    if isinstance(p, dict) and isinstance(p.get("amount"), int) and seat in p.get("waiting_for", [seat]):
        return int(p["amount"])
    return None


async def play(tc: Any, seat: int, rounds: int | None, input_fn: Callable[[str], str],
                     out: Callable[[str], None]) -> None:
    from ..core import money
    from .client import ActionRefused

    seen = -1
    finished: set[int] = set()
    asked: set[tuple[int | None, int]] = set()  # (hand, amount) of ante proposals put to the player
    while rounds is None or len(finished) < rounds:
        st = await tc.wait(lambda s: s["version"] > seen, timeout=3600)
        seen = st["version"]
        rd = st["round"]
        in_hand = rd is not None and rd["phase"] != "complete"
        ante = _ante_proposal(st, seat)
        if ante is not None and not in_hand and (st["hand"], ante) not in asked:
            asked.add((st["hand"], ante))
            raw = await asyncio.to_thread(
                input_fn, f"The dealer proposes an ante of {money.format(ante)}. Accept? [y/n, q leaves]: ")
            if raw.strip().lower() == "q":
                break
            if raw.strip().lower() in ("y", "yes"):
                try:
                    await tc.act("accept_ante")
                    out(f"You accept the {money.format(ante)} ante.")
                except ActionRefused as e:
                    out(f"refused: {e.message}")
            continue
        stack = next((s["stack"] for s in st["seats"] if s["seat"] == seat), 0)
        mine = next((s for s in rd["seats"] if s["seat"] == seat), None) if rd is not None else None
        if mine is None:
            if stack == 0 and not in_hand:
                out("You have no chips left at this table.")
                break
            continue  # not dealt into this hand: wait for the next
        if rd["phase"] == "complete":
            if st["hand"] not in finished:
                finished.add(st["hand"])
                out(render_draw(st, seat))
                net = (mine["won"] or 0) - mine["total"]
                verdict = "You win" if net > 0 else "You lose" if net < 0 else "You break even"
                out(f"{verdict}{' ' + money.format(abs(net)) if net else ''} this hand.")
            continue
        legal = rd["legal_actions"]
        if not legal:
            continue
        out(render_draw(st, seat))
        raw = await asyncio.to_thread(input_fn, draw_prompt(rd))
        try:
            action, fields = parse_draw_command(raw, mine["cards"])
        except _Leave:
            if await sure(input_fn, f"Leave now? You fold and lose the {money.format(mine['total'])} you put in the pot."):
                break
            out("You stay: play on.")
            seen -= 1
            continue
        except ValueError as e:
            out(str(e))
            seen -= 1  # ask again on the same state
            continue
        if action not in legal:
            out(f"not now: you may {' / '.join(legal)}")
            seen -= 1
            continue
        try:
            await tc.act(action, **fields)
        except ActionRefused as e:
            out(f"refused: {e.message}")
            seen -= 1


def draw_prompt(rd: dict[str, Any]) -> str:
    """What the player to act may do, with the amounts (as the local game asks)."""
    from ..core import money

    f = money.format
    extra = []
    if rd.get("to_call"):
        extra.append(f"{f(rd['to_call'])} to call")
    if rd.get("bet_range"):
        lo, hi = rd["bet_range"]
        extra.append(f"bet {f(lo)}–{f(hi)}")
    if rd.get("raise_range"):
        lo, hi = rd["raise_range"]
        extra.append(f"raise by {f(lo)}–{f(hi)}")
    return f"Your move [{' / '.join(rd['legal_actions'])} / q]" + (f" ({', '.join(extra)})" if extra else "") + ": "


def _cards(cards: list[str] | None) -> str:
    from ..core.cards import card

    if cards is None:
        return "(folded)"
    return " ".join("[??]" if c == "??" else f"[{card(c).pretty}]" for c in cards)


def render_draw(state: dict[str, Any], seat: int | None = None) -> str:
    """A draw table's state as text, from the view alone (so it shows nothing the server did
    not): the hand, the pot, then each seat's stack, bet, cards and marks."""
    from ..core import money
    from .poker_tui import seat_marks

    f = money.format
    rd = state["round"]
    if rd is None:
        return "No hand in play."
    names = {s["seat"]: s["player"] for s in state["seats"]}
    pots = " + ".join(f(p["amount"]) for p in rd["pots"]) or f(rd["pot"])
    head = (f"{hand_title(state)} · {rd['phase'].replace('_', ' ')} · pot {pots} · ante {f(rd['ante'])}"
            + (f" · {f(rd['carry_in'])} carried in" if rd["carry_in"] else ""))
    lines = [head]
    for s in rd["seats"]:
        n = s["seat"]
        marks = seat_marks(rd, s)
        who = "You" if n == seat else names.get(n, f"Seat {n}")
        bet = f"bet {f(s['bet'])}" if s["bet"] else ""
        lines.append(f"  {n}  {who:<12} {f(s['stack']):>9}  {bet:<12} {_cards(s['cards']):<26} {' '.join(marks)}"
                     .rstrip())
    return "\n".join(lines)



#: A load-test table of five-card draw (``syndicate loadtest``): the default stakes.
LOAD_OVERRIDES: dict[str, Any] = {}


async def load_hand(t: Any) -> None:
    """One hand at a load-test table ``t`` (:class:`syndicate.apps.loadbots.TableBots`): a player
    short of chips takes a fresh stack, then each plays :func:`draw_bot`."""
    by_seat = {i + 1: p for i, p in enumerate(t.players)}
    for seat, p in by_seat.items():  # a player short of chips takes a fresh stack
        stack = next((s["stack"] for s in p.state["seats"] if s["seat"] == seat), 0) if p.state else 0
        if stack < 1_000:
            await t.act(p, "leave_seat")
            await t.act(p, "sit", seat=seat, amount=t.chips)
    await t.act(t.dealer, "start_round")
    await t.decisions(by_seat, "complete", lambda st, p: draw_bot(st, t.rng))


def draw_bot(state: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A draw player: a legal action at random, bets and raises at the ends of their range,
    draws of up to three (never the four an Ace allows: the server would ask to see it)."""
    rd = state["round"]
    legal = [a for a in rd["legal_actions"] if a != "fold"] or rd["legal_actions"]
    action = rng.choice(legal)
    if action in ("bet", "raise"):
        lo, hi = rd["bet_range" if action == "bet" else "raise_range"]
        return action, {"amount": rng.choice([lo, hi])}
    if action == "draw":
        mine = next(s for s in rd["seats"] if s["seat"] == state["you"]["seat"])
        return action, {"discards": rng.sample(mine["cards"], rng.randint(0, 3))}
    return action, {}
