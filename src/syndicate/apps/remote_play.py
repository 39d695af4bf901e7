"""Play at a live table from the terminal (``syndicate play --server URL``): whichever game the
table deals, its own terminal player (``<game>_remote``) asks and draws, over
:mod:`syndicate.apps.client`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from . import blackjack_remote, poker_remote

#: Each game's terminal player, by the game's id: its greeting and its play.
PLAYERS = {m.GAME: m for m in (blackjack_remote, poker_remote)}


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
    from ..room.errors import BadRequest
    from .client import RoomClient, TableClient

    rest = RoomClient(url)
    try:
        me = await asyncio.to_thread(rest.sign_in, event, name, password)
        tc = await TableClient.connect(url, table_id, rest.token or "")
        try:
            game = (tc.state or {}).get("table", {}).get("game")
            player = PLAYERS.get(game)
            if player is None:
                raise BadRequest("game", f"this terminal cannot play {game!r}; it plays {', '.join(PLAYERS)}")
            await tc.act("sit", seat=seat, amount=buy_in)
            out(player.greeting(tc.state, seat, money.format(buy_in)))
            await player.play(tc, seat, rounds, input_fn, out)
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

