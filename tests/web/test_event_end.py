"""Ending an event and the per-event moment of the seed reveal (docs/fairness.md, "When seeds
are revealed"): with ``seed_reveal`` at ``event_end`` a closed table's hands serve no seed and
verify by their openings alone; once the admin ends the event the seeds are served and the whole
shuffle verifies with ``syndicate verify``. Ending closes every table, and refuses new tables
and new hands with named errors; only the event's admin may end it, and only once."""

from __future__ import annotations

import asyncio
import json
import random
import secrets

import pytest
from typer.testing import CliRunner

from syndicate.apps.cli import app as cli
from syndicate.apps.client import ActionRefused, ApiError, RoomClient, TableClient
from syndicate.poker.history import verify
from syndicate.store.models import ShoeRow
from tests.kit.poll import until
from tests.kit.room import PASSWORD
from tests.web.test_live_poker import play

HANDS = 3


def _seeds(room, table_id: int) -> dict[str, tuple[str, bool]]:
    with room.store.transaction() as repo:
        rows = repo.s.query(ShoeRow).filter(ShoeRow.table_id == table_id).all()
        return {r.commitment: (r.seed, r.revealed_at is not None) for r in rows}


def _refused(call, status: int, rule: str) -> str:
    with pytest.raises(ApiError) as e:
        call()
    assert (e.value.status, e.value.rule) == (status, rule), e.value
    return str(e.value)


def _event(client: RoomClient, event_id: int) -> dict:
    return next(e for e in client.events() if e["id"] == event_id)


def _clients(server, room, cast) -> dict[str, RoomClient]:
    ev = cast.event.id
    carol = room.accounts.add(ev, "Carol", "player", PASSWORD)
    for who in (cast.alice, cast.bob, carol):
        room.cashier.buy_in(cast.admin, who.id, 500_000)
    clients = {}
    for role, name in (("dealer", "Bokuden"), ("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol"),
                       ("spectator", "Sam"), ("admin", "admin"), ("boss", "Jean-Marc")):
        clients[role] = RoomClient(server.url)
        clients[role].sign_in(ev, name, PASSWORD)
    return clients


async def _barrier(url: str, table_id: int, token: str) -> str:
    """A dealer action queued after the table's close: by its answer the table has run its
    close-out (commands run in order). Returns the rule it was refused by."""
    dealer = await TableClient.connect(url, table_id, token)
    try:
        with pytest.raises(ActionRefused) as e:
            await dealer.act("start_round")
        return e.value.rule
    finally:
        await dealer.close()


def test_event_end_reveal_holds_seeds_past_the_table_close(server, room, cast, tmp_path) -> None:
    ev = cast.event.id
    clients = _clients(server, room, cast)
    admin = clients["admin"]
    assert _event(admin, ev)["seed_reveal"] == "table_close" and _event(admin, ev)["ended_at"] is None
    for who in ("dealer", "alice", "boss"):  # only the event's admin changes the setting
        _refused(lambda c=clients[who]: c.request("PATCH", f"/api/events/{ev}", {"seed_reveal": "event_end"}),
                 403, "event_settings")
    _refused(lambda: admin.request("PATCH", f"/api/events/{ev}", {"seed_reveal": "never"}), 422, "validation")
    assert admin.request("PATCH", f"/api/events/{ev}", {"seed_reveal": "event_end"})["seed_reveal"] == "event_end"

    table = clients["dealer"].open_table("Draw", game="poker", overrides={"ante": 50})
    asyncio.run(play(server.url, table["id"], {k: c.token for k, c in clients.items()}, HANDS, random.Random(3)))
    # The table has dealt: the promise made to its players stands.
    msg = _refused(lambda: admin.request("PATCH", f"/api/events/{ev}", {"seed_reveal": "table_close"}),
                   409, "seed_reveal_fixed")
    assert "fixed" in msg and _event(admin, ev)["seed_reveal"] == "event_end"

    clients["dealer"].request("POST", f"/api/tables/{table['id']}/status", {"status": "closed"})
    assert asyncio.run(_barrier(server.url, table["id"], clients["dealer"].token)) == "table_status"
    seeds = _seeds(room, table["id"])
    assert len(seeds) == HANDS and not any(revealed for _s, revealed in seeds.values())
    with room.store.transaction() as repo:
        hand_ids = [h.id for h in repo.hands(ev, table["id"], limit=100)]
    assert len(hand_ids) == HANDS
    for hand_id in hand_ids:  # closed, but no seed served: the cards shown verify by their openings
        for who in ("spectator", "admin"):
            doc = clients[who].hand_history(hand_id)
            text = json.dumps(doc)
            assert all(s not in text for s, _r in seeds.values())
            assert doc["hands"][0]["shoe"]["seed"] is None and verify(doc).ok

    ended = admin.request("POST", f"/api/events/{ev}/end")
    assert ended["ended_by"] == cast.admin.id and ended["ended_at"]
    assert _event(clients["spectator"], ev)["ended_at"] == ended["ended_at"]
    until(lambda: all(r for _s, r in _seeds(room, table["id"]).values()),
          what="the seeds to be revealed when the event ended")
    runner = CliRunner()
    for hand_id in hand_ids:
        doc = clients["spectator"].hand_history(hand_id)
        assert doc["hands"][0]["shoe"]["seed"] == seeds[doc["hands"][0]["shoe"]["commitment"]][0]
        path = tmp_path / f"hand-{hand_id}.json"
        path.write_text(json.dumps(doc))
        out = runner.invoke(cli, ["verify", str(path)])
        assert out.exit_code == 0 and "all from the committed order" in out.output, out.output
    for c in clients.values():
        c.close()


def test_ending_an_event_closes_its_tables_and_refuses_new_ones(server, room, cast) -> None:
    ev = cast.event.id
    clients = _clients(server, room, cast)
    admin, dealer = clients["admin"], clients["dealer"]
    played = dealer.open_table("Played", game="blackjack")
    idle = dealer.open_table("Idle", game="poker", overrides={"ante": 50})
    paused = dealer.open_table("Paused", game="poker", overrides={"ante": 50})
    dealer.request("POST", f"/api/tables/{paused['id']}/status", {"status": "paused"})

    async def seat_alice() -> None:
        alice = await TableClient.connect(server.url, played["id"], clients["alice"].token)
        await alice.act("sit", seat=1, amount=5_000)
        await alice.close()

    asyncio.run(seat_alice())
    before = room.ledger.audit(ev)
    for who in ("dealer", "alice", "boss", "spectator"):  # role-checked like the other admin actions
        _refused(lambda c=clients[who]: c.request("POST", f"/api/events/{ev}/end"), 403, "end_event")
    assert _event(admin, ev)["ended_at"] is None

    admin.request("POST", f"/api/events/{ev}/end")
    with room.store.transaction() as repo:
        assert {t.id: t.status for t in repo.tables(ev)} == {played["id"]: "closed", idle["id"]: "closed",
                                                             paused["id"]: "closed"}
    assert room.tables.lobby(ev) == []
    msg = _refused(lambda: admin.request("POST", f"/api/events/{ev}/end"), 409, "event_ended")
    assert "ended" in msg
    _refused(lambda: dealer.open_table("Late"), 409, "event_ended")
    _refused(lambda: dealer.request("POST", f"/api/tables/{idle['id']}/status", {"status": "open"}), 400, "closed")
    assert asyncio.run(_barrier(server.url, played["id"], dealer.token)) == "table_status"
    # Alice's stack went back to her bankroll at the close; she can still sign in, and be cashed out.
    late = RoomClient(server.url)
    late.sign_in(ev, "Alice", PASSWORD)
    assert late.ledger(cast.alice.id)["balance"] == 500_000
    assert admin.cash_out(cast.alice.id, 500_000) == 0
    assert room.ledger.audit(ev) == before == []
    late.close()
    for c in clients.values():
        c.close()


def test_with_event_end_a_table_closed_with_no_runner_keeps_its_seeds_until_the_end(server, room, cast) -> None:
    """LiveRoom.closed on a table this process never ran: nothing is due at its close with
    ``event_end``; the event's end reveals it, and no other event's seeds."""
    from datetime import UTC, datetime

    ev = cast.event.id
    room.events.set_seed_reveal(cast.admin, ev, "event_end")
    other = room.accounts.create_event("Other " + cast.event.name)
    room.roster.seed_notice(other.id)
    other_dealer = room.accounts.add(other.id, "Bokuden", "dealer", PASSWORD)
    elsewhere = room.tables.open(other_dealer, "Elsewhere")
    dealer, admin = RoomClient(server.url), RoomClient(server.url)
    dealer.sign_in(ev, "Bokuden", PASSWORD)
    admin.sign_in(ev, "admin", PASSWORD)
    closing = dealer.open_table("Closing", game="poker", overrides={"ante": 50})
    with room.store.transaction() as repo:
        repo.add_shoe(closing["id"], secrets.token_hex(32), secrets.token_hex(32), datetime.now(UTC))
        repo.add_shoe(elsewhere.id, secrets.token_hex(32), secrets.token_hex(32), datetime.now(UTC))
    dealer.request("POST", f"/api/tables/{closing['id']}/status", {"status": "closed"})
    assert not any(r for _s, r in _seeds(room, closing["id"]).values())
    admin.request("POST", f"/api/events/{ev}/end")
    assert all(r for _s, r in _seeds(room, closing["id"]).values())  # in the request: no runner to wait for
    assert not any(r for _s, r in _seeds(room, elsewhere.id).values())
    dealer.close()
    admin.close()
