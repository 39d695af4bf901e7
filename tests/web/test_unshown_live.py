"""The finding "unshown poker cards are served to everyone", end to end: a real server, draw
hands played on WebSockets, then every way a finished hand is served (history, PHH, hand
search, the fairness check) asked by a spectator, another player, the holder and the admin.
While the table is open no seed is served and no card never shown reaches anyone but its
holder and the admin; once the table closes, the seeds are out and the whole shuffle verifies."""

from __future__ import annotations

import asyncio
import json
import random
import secrets

from syndicate.apps.client import RoomClient
from syndicate.poker.fairness import positions as poker_positions
from syndicate.poker.history import verify
from syndicate.store.models import ShoeRow
from tests.kit.poll import until
from tests.kit.room import PASSWORD
from tests.web.test_live_poker import play

HANDS = 12


def _get(client: RoomClient, path: str) -> tuple[str, object]:
    r = client.http.get(path, headers={"Authorization": f"Bearer {client.token}"})
    assert r.status_code == 200, r.text
    return r.text, (r.json() if r.headers["content-type"].startswith("application/json") else None)


def _seeds(room, table_id: int) -> dict[str, tuple[str, bool]]:
    with room.store.transaction() as repo:
        rows = repo.s.query(ShoeRow).filter(ShoeRow.table_id == table_id).all()
        return {r.commitment: (r.seed, r.revealed_at is not None) for r in rows}


def test_unshown_cards_and_seeds_stay_hidden_until_the_table_closes(server, room, cast, db_url) -> None:
    ev = cast.event.id
    carol = room.accounts.add(ev, "Carol", "player", PASSWORD)
    for who in (cast.alice, cast.bob, carol):
        room.cashier.buy_in(cast.admin, who.id, 500_000)
    clients = {}
    for role, name in (("dealer", "Bokuden"), ("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol"),
                       ("spectator", "Sam"), ("admin", "admin")):
        clients[role] = RoomClient(server.url)
        clients[role].sign_in(ev, name, PASSWORD)
    table = clients["dealer"].open_table("Draw", game="poker", overrides={"ante": 50})
    asyncio.run(play(server.url, table["id"], {k: c.token for k, c in clients.items()}, HANDS, random.Random(5)))

    with room.store.transaction() as repo:
        stored = {h.id: h for h in repo.hands(ev, table["id"], limit=1000)}
    seeds = _seeds(room, table["id"])
    assert len(seeds) == HANDS and not any(revealed for _s, revealed in seeds.values())
    secret = [s for s, _r in seeds.values()]
    seat_of = {"alice": 1, "bob": 2, "carol": 4, "spectator": None, "admin": "all"}
    folded_or_unshown = 0
    for hand_id, h in stored.items():
        truth = poker_positions(h.history["hands"][0])
        for who, mine in seat_of.items():
            c = clients[who]
            text, doc = _get(c, f"/api/hands/{hand_id}/history")
            phh, _ = _get(c, f"/api/hands/{hand_id}/phh")
            check_text, check = _get(c, f"/api/hands/{hand_id}/check")
            search_text, _ = _get(c, f"/api/hands?table={table['id']}")
            for s in secret:  # no seed served to anyone, the admin included, while the table is open
                assert s not in text + phh + check_text + search_text
            entry = doc["hands"][0]
            served = poker_positions(entry)
            may = {p for p, seat, _card, shown in truth if mine == "all" or shown or seat == mine}
            for (p, _seat, card, _sh), (_p, _s, got, _x) in zip(truth, served, strict=True):
                assert got == (card if p in may else "??"), (who, hand_id, p)
            assert {o["position"] for o in entry["shoe"]["openings"]} == may
            assert verify(doc).ok and check["verify"]["ok"] and check["replay"]["matches"], check
            visible = {card for p, _s, card, _sh in truth if p in may}
            hidden = {card for p, _s, card, _sh in truth if p not in may} - visible
            folded_or_unshown += len(hidden)
            actions = next(line for line in phh.splitlines() if line.startswith("actions"))
            steps = " ".join(check["replay"]["steps"]) + " " + " ".join(check["verify"]["messages"])
            for card in hidden:
                assert card not in actions and card not in steps.split() and f'"{card}"' not in search_text, \
                    (who, hand_id, card)
    assert folded_or_unshown > 0  # the test saw cards that must stay hidden

    # The table closes: its seeds are published, and every hand verifies from its seed.
    clients["dealer"].request("POST", f"/api/tables/{table['id']}/status", {"status": "closed"})
    until(lambda: all(r for _s, r in _seeds(room, table["id"]).values()),
          what="the seeds to be revealed after the table closed")
    for hand_id in stored:
        doc = clients["spectator"].hand_history(hand_id)
        shoe = doc["hands"][0]["shoe"]
        assert shoe["seed"] == seeds[shoe["commitment"]][0]
        result = verify(doc)
        assert result.ok and "all from the committed order" in " ".join(result.messages), result
        assert "??" not in json.dumps(doc["hands"][0]["log"])
    for c in clients.values():
        c.close()


def test_a_table_closed_with_no_runner_reveals_its_seeds_at_once(server, room, cast) -> None:
    """A table this process never ran (say, after a restart) has no hand in play: closing it
    publishes its kept seeds straight away, and no other table's."""
    from datetime import UTC, datetime

    ev = cast.event.id
    dealer = RoomClient(server.url)
    dealer.sign_in(ev, "Bokuden", PASSWORD)
    closing = dealer.open_table("Closing", game="poker", overrides={"ante": 50})
    staying = dealer.open_table("Staying", game="poker", overrides={"ante": 50})
    with room.store.transaction() as repo:
        repo.add_shoe(closing["id"], secrets.token_hex(32), secrets.token_hex(32), datetime.now(UTC))
        repo.add_shoe(staying["id"], secrets.token_hex(32), secrets.token_hex(32), datetime.now(UTC))
    dealer.request("POST", f"/api/tables/{closing['id']}/status", {"status": "closed"})
    assert all(r for _s, r in _seeds(room, closing["id"]).values())
    assert not any(r for _s, r in _seeds(room, staying["id"]).values())
    dealer.close()
