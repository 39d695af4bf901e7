"""A real-cards table's corrections, over the WebSocket as the dealer (and an attacker) meet them
(docs/dealer.md): the rules each refusal names are the ones the docs name.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from syndicate.client import ActionRefused, TableClient
from tests.web.test_real_cards import servers  # noqa: F401  (a fixture)
from tests.web.test_real_cards import sign_in

RULES = {"decks": 1, "min_bet": 100, "max_bet": 1_000}


async def refused(client: TableClient, action: str, **fields: Any) -> ActionRefused:
    with pytest.raises(ActionRefused) as e:
        await client.act(action, **fields)
    return e.value


def test_the_rules_named_are_the_docs_rules(servers, room, cast) -> None:  # noqa: F811
    """A card with no round in play is refused as the docs say (``card_not_needed``), before any
    round and once one is over; a bet entered with no amount says so in a host's words."""
    ev = cast.event.id
    srv = servers()
    dealer = sign_in(srv, ev, "Bokuden")
    real = dealer.open_table("Real", overrides=RULES, cards="real")

    async def play() -> None:
        d = await TableClient.connect(srv.url, real["id"], dealer.token)
        await d.act("seat_walk_in", seat=1, name="Kenji", amount=5_000)
        before = await refused(d, "card", card="K")
        assert before.rule == "card_not_needed" and "no round is in play" in before.message
        await d.act("start_round")
        empty = await refused(d, "bet", seat=1)
        assert (empty.rule, empty.message) == ("amount", "type an amount to bet")
        await d.act("bet", seat=1, amount=500)
        await d.act("deal")
        for c in ("10", "10", "10", "10"):  # seat 1 20, the dealer 10 up and 10 in the hole
            await d.act("card", card=c)
        await d.act("stand", seat=1)
        st = await d.wait(lambda s: s["round"]["phase"] == "settled")
        after = await refused(d, "card", card="K")
        assert after.rule == "card_not_needed" and "the round is over" in after.message
        assert after.version == st["version"] == d.version  # nothing changed
        await d.close()

    asyncio.run(play())
