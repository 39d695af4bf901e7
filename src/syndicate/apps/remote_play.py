"""Play at a live table from the terminal (``syndicate play --server URL``): the keys, the
prompts and the table drawn as text, over :mod:`syndicate.apps.client`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

KEYS = {"h": "hit", "s": "stand", "d": "double", "p": "split", "r": "surrender", "i": "insurance",
        "e": "even_money", "n": "no_insurance", "o": "play_on"}

DRAW_HELP = ("Commands: check (k), call (c), bet AMOUNT (b 1.50), raise AMOUNT (r 1), fold (f); "
             "in the draw: draw CARDS or positions (d As 7c, d 1 2 5), pat (p); q leaves.")
_DRAW_ALIASES = {"k": "check", "x": "check", "c": "call", "b": "bet", "r": "raise", "f": "fold", "d": "draw",
                 "p": "stand_pat", "pat": "stand_pat", "stand": "stand_pat", "q": "quit", "quit": "quit"}


def play_remote(url: str, event: int, name: str, password: str, table: int, *, seat: int = 1,
                buy_in: int = 10_000, rounds: int | None = None, input_fn: Callable[[str], str] = input,
                out: Callable[[str], None] = print) -> int:
    """Play at a live table from the terminal (``syndicate play --server URL``), whichever game
    the table deals: the welcome says which.

    Signs in and sits at ``seat`` with ``buy_in`` cents from the bankroll. At Blackjack the keys
    are the terminal game's (h s d p r i e n, plus o to play on when offered surrender; q
    leaves) and bets are typed in dollars ("5", "0.50"). At five-card draw the commands are the
    local poker game's (:data:`DRAW_HELP`), and an ante proposal the table shows is put to you.
    Stops after ``rounds`` rounds (hands) if given. Returns the player's bankroll after leaving
    the table, in cents.
    """
    return asyncio.run(_play_remote(url, event, name, password, table, seat, buy_in, rounds, input_fn, out))


async def _play_remote(url: str, event: int, name: str, password: str, table_id: int, seat: int, buy_in: int,
                       rounds: int | None, input_fn: Callable[[str], str], out: Callable[[str], None]) -> int:
    from ..core import money
    from .client import RoomClient, TableClient

    rest = RoomClient(url)
    try:
        me = await asyncio.to_thread(rest.sign_in, event, name, password)
        tc = await TableClient.connect(url, table_id, rest.token or "")
        try:
            game = (tc.state or {}).get("table", {}).get("game", "blackjack")
            await tc.act("sit", seat=seat, amount=buy_in)
            if game == "poker":
                out(f"Five-card draw at {tc.state['table']['name'] if tc.state else 'the table'}: "
                    f"you sit at seat {seat} with {money.format(buy_in)}. {DRAW_HELP}")
                await _play_draw(tc, seat, rounds, input_fn, out)
            else:
                out(f"You sit at seat {seat} with {money.format(buy_in)}. Keys: " +
                    ", ".join(f"{k} {v}" for k, v in KEYS.items()) + ", q leave.")
                await _play_blackjack(tc, seat, rounds, input_fn, out)
        finally:
            with contextlib.suppress(Exception):
                await tc.act("leave_seat")
                await tc.wait(lambda s: all(x["seat"] != seat for x in s["seats"]), timeout=60)
            await tc.close()
        bankroll = (await asyncio.to_thread(rest.ledger, me["id"]))["balance"]
    finally:
        rest.close()
    out(f"You leave the table. Your bankroll: {money.format(bankroll)}.")
    return int(bankroll)


async def _play_blackjack(tc: Any, seat: int, rounds: int | None, input_fn: Callable[[str], str],
                          out: Callable[[str], None]) -> None:
    from ..core import money
    from .client import ActionRefused

    seen = -1
    finished: set[int] = set()
    while rounds is None or len(finished) < rounds:
        st = await tc.wait(lambda s: s["version"] > seen, timeout=3600)
        seen = st["version"]
        stack = next((s["stack"] for s in st["seats"] if s["seat"] == seat), 0)
        rd = st["round"]
        if rd is None or seat not in {s["seat"] for s in rd["seats"]}:
            continue
        mine = next(s for s in rd["seats"] if s["seat"] == seat)
        if rd["phase"] == "settled":
            if st["hand"] not in finished:
                finished.add(st["hand"])
                out(render(st, seat))
            continue
        if rd["phase"] == "betting" and mine["bet"] == 0:
            raw = (await asyncio.to_thread(input_fn, f"Stack {money.format(stack)}. Your bet (q to leave): ")).strip()
            if raw.lower() == "q":
                break
            try:
                await tc.act("bet", amount=money.parse(raw))
            except (ActionRefused, money.MoneyError) as e:
                out(f"refused: {e}")
                seen -= 1  # ask again on the same state
            continue
        legal = rd["legal_actions"]
        if not legal:
            continue
        out(render(st, seat))
        keys = [k for k, a in KEYS.items() if a in legal]
        raw = (await asyncio.to_thread(input_fn, f"Your move [{' '.join(keys)} q]: ")).strip().lower()
        if raw == "q":
            at_risk = sum(h["bet"] for h in mine["hands"]) + (mine.get("insurance") or 0)
            if await _sure(input_fn, f"Leave now? Your {money.format(at_risk)} on the table is forfeit."):
                break
            out("You stay: play on.")
            seen -= 1
            continue
        if raw not in keys:
            out(f"choose one of {' '.join(keys)}")
            seen -= 1  # ask again on the same state
            continue
        try:
            await tc.act(KEYS[raw])
        except ActionRefused as e:
            out(f"refused: {e.message}")
            seen -= 1


class _Leave(Exception):
    """The player typed q."""


async def _sure(input_fn: Callable[[str], str], question: str) -> bool:
    """Leaving with chips in play forfeits them: asked first, never on one key."""
    try:
        answer = await asyncio.to_thread(input_fn, f"{question} [y] (or q again) to leave, any other key to stay: ")
    except EOFError:  # no one left to answer (the input ended): leave, as asked
        return True
    return answer.strip().lower() in ("y", "yes", "q", "quit")


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


async def _play_draw(tc: Any, seat: int, rounds: int | None, input_fn: Callable[[str], str],
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
            if await _sure(input_fn, f"Leave now? You fold and lose the {money.format(mine['total'])} you put in the pot."):
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


def hand_title(state: dict[str, Any]) -> str:
    """The hand by its evening-wide number, as every page says it (``hand_id``: known once the
    hand is stored, at its first bet or ante)."""
    return f"Hand {state['hand_id']}" if state.get("hand_id") is not None else "New hand"


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


def render(state: dict[str, Any], seat: int | None = None) -> str:
    """A state as a few lines of text: the dealer, then every seat's hands."""
    from ..core import money

    rd = state["round"]
    if rd is None:
        return "No round in play."
    dealer = " ".join(c or "??" for c in rd["dealer"]["cards"])
    lines = [f"{hand_title(state)} ({rd['phase']}). Dealer: {dealer}"
             + (f" = {rd['dealer']['total']}" if rd["dealer"]["total"] is not None else "")]
    for s in rd["seats"]:
        who = "you" if s["seat"] == seat else f"seat {s['seat']}"
        hands = "; ".join(
            f"{' '.join(h['cards'])} = {h['total']} ({money.format(h['bet'])})"
            + (f" {h['outcome']}" if h["outcome"] else "") for h in s["hands"]) or f"bet {money.format(s['bet'])}"
        lines.append(f"  {who}: {hands}" + (f", net {money.format(s['net'])}" if s["net"] is not None else ""))
    return "\n".join(lines)
