"""The cluster gap of the seed reveal (docs/fairness.md, "When seeds are revealed"): a table
closed while no process holds it has no hand in play, so the process that closes it (or ends
its event) reveals its seeds under the table's lease, instead of leaving them until some
process takes the table over. Two real processes; the one that ran the table is stopped, the
other ends the event."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from typer.testing import CliRunner

from syndicate.apps.cli import app as cli
from syndicate.apps.client import ActionRefused, RoomClient, TableClient
from syndicate.store.models import ShoeRow
from tests.cluster.conftest import Node
from tests.cluster.test_cluster import play_round, tokens


def _seeds(room: Any, table_id: int) -> dict[str, tuple[str, bool]]:
    with room.store.transaction() as repo:
        rows = repo.s.query(ShoeRow).filter(ShoeRow.table_id == table_id).all()
        return {r.commitment: (r.seed, r.revealed_at is not None) for r in rows}


def test_event_end_reveals_the_seeds_of_a_table_no_process_holds(nodes: list[Node], cluster_room,
                                                                 tmp_path) -> None:
    room, cast = cluster_room
    a, b = nodes
    ev = cast.event.id
    room.events.set_seed_reveal(cast.admin, ev, "event_end")
    for who in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, who.id, 20_000)
    tok = tokens(a.url, ev, "Bokuden", "Alice", "admin")
    with RoomClient(a.url, tok["Bokuden"]) as rest:
        tid = rest.open_table("Ran on a", overrides={"min_bet": 100, "max_bet": 2_000})["id"]

    async def play_then_close() -> str:
        dealer = await TableClient.connect(a.url, tid, tok["Bokuden"])  # a runs the table
        alice = await TableClient.connect(a.url, tid, tok["Alice"])
        await alice.act("sit", seat=1, amount=5_000)
        for _ in range(2):
            await play_round(dealer, {1: alice})
        with RoomClient(a.url, tok["Bokuden"]) as rest:
            rest.request("POST", f"/api/tables/{tid}/status", {"status": "closed"})
        # The close reaches a through Redis; a broadcasts the closed table once it closed it out.
        await dealer.wait(lambda s: s["table"]["status"] == "closed")
        with pytest.raises(ActionRefused) as e:
            await dealer.act("start_round")
        for c in (dealer, alice):
            await c.close()
        return e.value.rule

    assert asyncio.run(play_then_close()) == "table_status"
    seeds = _seeds(room, tid)
    assert seeds and not any(r for _s, r in seeds.values())  # event_end: the close reveals nothing
    a.stop()  # the process that held the table is gone; its lease was given up or runs out
    with room.store.transaction() as repo:
        lease = repo.leases(tid)[tid]
    deadline = time.monotonic() + 30
    while lease.expires_at >= datetime.now(UTC):
        assert time.monotonic() < deadline
        time.sleep(0.05)

    with RoomClient(b.url, tok["admin"]) as admin:
        ended = admin.request("POST", f"/api/events/{ev}/end")
        assert ended["ended_at"]
        # b revealed them in the request itself: no process held the table.
        assert all(r for _s, r in _seeds(room, tid).values())
        with room.store.transaction() as repo:
            hand_ids = [h.id for h in repo.hands(ev, tid, limit=100)]
        assert len(hand_ids) == 2
        for hand_id in hand_ids:
            doc = admin.hand_history(hand_id)
            assert [s["seed"] for s in doc["shoes"]] == [seeds[s["commitment"]][0] for s in doc["shoes"]]
            path = tmp_path / f"hand-{hand_id}.json"
            path.write_text(json.dumps(doc))
            out = CliRunner().invoke(cli, ["verify", str(path)])
            # Checked from the seed, not from openings only: the whole shuffle.
            assert out.exit_code == 0 and "when the seed is revealed" not in out.output, out.output
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0
