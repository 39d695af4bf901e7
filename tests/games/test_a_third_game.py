"""A third game, added the way docs/architecture.md ("Adding a game") says: its package (here
tests/games/high_card.py, not src), one ``GameKind``, one ``register`` call. The card room then
opens a table of it, seats players, plays a hand, moves the chips in the ledger and keeps the
hand's history, without a line of the room, the store or the web naming it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from syndicate.room import games
from syndicate.room.errors import BadRequest
from syndicate.room.histories import finished_hands, shoe_history
from syndicate.room.live.clocks import Timers
from syndicate.room.seating import stack_key
from tests.games.high_card import HIGH_CARD, ID
from tests.kit.table import local_room


@pytest.fixture
def high_card() -> Iterator[games.GameKind]:
    games.register(HIGH_CARD)  # the registry line a game's own module would hold
    try:
        yield HIGH_CARD
    finally:
        games.unregister(ID)


def test_the_registry_names_the_games() -> None:
    assert games.game_ids() == ("blackjack", "poker")
    assert games.kind_of("poker").title == "Five-card draw"
    with pytest.raises(BadRequest) as e:
        games.kind_of(ID)
    assert e.value.rule == "game"


def test_a_registered_game_plays_in_the_card_room(room, cast, high_card) -> None:
    ev = cast.event.id
    for who in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, who.id, 10_000)
    table = room.tables.open(cast.dealer, "High card", ID, overrides={"ante": 200})
    assert (table.game, table.seats, table.rules["ante"]) == (ID, 6, 200)
    with pytest.raises(BadRequest) as e:  # its stakes are held to its bounds like any game's
        room.tables.open(cast.dealer, "Too high", ID, overrides={"ante": 5_000})
    assert e.value.rule == "table_limits"
    assert room.tables.bounds(ev)[ID] == (100, 1_000)

    async def go() -> dict:
        async with local_room(room, Timers()) as local:
            dealer = await local.connect(table.id, cast.dealer)
            alice = await local.connect(table.id, cast.alice)
            bob = await local.connect(table.id, cast.bob)
            await alice.act("sit", seat=1, amount=2_000)
            await bob.act("sit", seat=2, amount=2_000)
            await dealer.act("start_round")
            st = await local.settle(dealer)
            assert st["table"]["game"] == ID and st["hand"] == 1
            assert sorted(st["round"]["cards"]) == ["1", "2"]  # JSON keys
            return st

    st = asyncio.run(go())
    stacks = {s["seat"]: s["stack"] for s in st["seats"]}
    assert sum(stacks.values()) == 4_000  # the pot went to the winner (or was split): nothing made or lost
    assert room.ledger.audit(ev) == []
    assert room.ledger.balance(ev, f"table:{table.id}") == 0
    assert room.ledger.balance(ev, stack_key(table.id, cast.alice.id)) == stacks[1]
    assert room.ledger.balance(ev, stack_key(table.id, cast.bob.id)) == stacks[2]

    found = finished_hands(room.store, ev, table.id)
    assert [(h["game"], h["status"]) for h in found] == [(ID, "settled")]
    assert found[0]["results"] == {"1": stacks[1] - 2_000, "2": stacks[2] - 2_000}
    served = shoe_history(room.store, ev, found[0]["id"], cast.alice)
    assert served["game"] == ID and [h["hand_id"] for h in served["hands"]] == [found[0]["id"]]
    assert HIGH_CARD.history.replay(served).matches
