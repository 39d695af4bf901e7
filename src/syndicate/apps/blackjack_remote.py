"""Blackjack at a live table from the terminal (``syndicate play --server URL`` at a Blackjack
table): the keys, the prompts and the table drawn as text; and the basic-strategy player the load
tool's bots are, over :mod:`syndicate.apps.client`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..blackjack import basic
from ..blackjack.rules import Rules
from ..core.cards import card
from .terminal_table import hand_title, sure

#: The game these play (its id in the table's state).
GAME = "blackjack"

KEYS = {"h": "hit", "s": "stand", "d": "double", "p": "split", "r": "surrender", "i": "insurance",
        "e": "even_money", "n": "no_insurance", "o": "play_on"}



def greeting(state: dict[str, Any] | None, seat: int, buy_in: str) -> str:
    return (f"You sit at seat {seat} with {buy_in}. Keys: " + ", ".join(f"{k} {v}" for k, v in KEYS.items())
            + ", q leave.")


async def play(tc: Any, seat: int, rounds: int | None, input_fn: Callable[[str], str],
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
            if await sure(input_fn, f"Leave now? Your {money.format(at_risk)} on the table is forfeit."):
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



def basic_strategy(state: dict[str, Any], rules: Rules | dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """What a basic-strategy bot does in this state (an action and its fields), at a table
    with ``rules`` (:attr:`TableClient.rules`)."""
    rd = state["round"]
    legal = rd["legal_actions"]
    if rd["phase"] == "insurance":
        return ("even_money" if "even_money" in legal else "no_insurance"), {}
    if rd["phase"] == "early_surrender":
        return "play_on", {}
    seat = next(s for s in rd["seats"] if s["seat"] == state["you"]["seat"])
    hand = seat["hands"][rd["acting_hand"]]
    if not isinstance(rules, Rules):
        rules = Rules.from_dict(rules)
    choice = basic.decide(rules, [card(c) for c in hand["cards"]], card(rd["dealer"]["cards"][0]), legal)
    return choice, {}


#: A load-test table of Blackjack (``syndicate loadtest``): its stakes.
LOAD_OVERRIDES: dict[str, Any] = {"min_bet": 100, "max_bet": 10_000}


async def load_hand(t: Any) -> None:
    """One round at a load-test table ``t`` (:class:`syndicate.apps.loadbots.TableBots`): every
    player bets, the dealer deals, and the players play basic strategy."""
    by_seat = {i + 1: p for i, p in enumerate(t.players)}
    await t.act(t.dealer, "start_round")
    await t.together([t.bet(p) for p in t.players])
    await t.act(t.dealer, "deal")
    if "rules" not in t.kept:  # the table's rules, made once (not at every decision)
        t.kept["rules"] = Rules.from_dict(t.dealer.rules)
    rules = t.kept["rules"]
    await t.decisions(by_seat, "settled", lambda st, p: basic_strategy(st, rules))
