"""Crash safety: a server process killed with SIGKILL in the middle of a hand, on SQLite and on
PostgreSQL. On restart the unfinished hand is void and every bet on it returned (docs/server.md),
every stack goes back to its bankroll, the ledger still sums to zero and explains every
balance, and the table plays on. Also the server's command functions."""

from __future__ import annotations

import asyncio
import io
import sys
from pathlib import Path

import pytest

from syndicate.apps.client import RoomClient, TableClient
from syndicate.apps.history import verify
from syndicate.apps.server import admin_create, prepare
from syndicate.room.ledger import player_key
from syndicate.room.seating import stack_key
from tests.kit.room import PASSWORD, ServerProcess, hand_in_play

# A crash: what each backend kept when the process was killed, and the restart's recovery.
pytestmark = pytest.mark.both_databases


def server_process(db_url: str, log: Path) -> ServerProcess:
    return ServerProcess([sys.executable, "-m", "syndicate.apps.server", db_url, "127.0.0.1", "{port}"], log)


async def _into_a_hand(url: str, table_id: int, tokens: dict[str, str]) -> int:
    """Play until a hand is dealt and waiting for a player; returns that hand's number."""
    dealer = await TableClient.connect(url, table_id, tokens["dealer"])
    alice = await TableClient.connect(url, table_id, tokens["alice"])
    bob = await TableClient.connect(url, table_id, tokens["bob"])
    return int((await hand_in_play(dealer, alice, bob))["hand"])


async def _play_one(url: str, table_id: int, tokens: dict[str, str]) -> dict:
    dealer = await TableClient.connect(url, table_id, tokens["dealer"])
    alice = await TableClient.connect(url, table_id, tokens["alice"])
    await alice.act("sit", seat=1, amount=2_000)
    await dealer.act("start_round")
    await alice.act("bet", amount=200)
    last = (await dealer.act("deal"))["version"]
    while True:
        st = await alice.wait(lambda s: s["version"] >= last)
        if st["round"]["phase"] == "settled":
            break
        last = (await alice.act("stand" if "stand" in st["round"]["legal_actions"] else "no_insurance"))["version"]
    for c in (dealer, alice):
        await c.close()
    return st


def test_kill_9_mid_hand_then_restart(db_url, room, cast, tmp_path) -> None:
    if db_url.startswith("sqlite"):  # a file of its own: the server process opens it too
        db_url = f"sqlite:///{tmp_path / 'crash.db'}"
        from syndicate.room.cardroom import CardRoom
        from syndicate.store import Database, SqlStore
        from tests.kit.room import FAST_HASHER, make_cast

        db = Database(db_url)
        db.migrate()
        room = CardRoom(SqlStore(db), FAST_HASHER)
        cast = make_cast(room)
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 20_000)
    room.cashier.buy_in(cast.admin, cast.bob.id, 20_000)

    server = server_process(db_url, tmp_path / "server.log")
    try:
        clients = {}
        for role, name in (("dealer", "Bokuden"), ("alice", "Alice"), ("bob", "Bob")):
            clients[role] = RoomClient(server.url)
            clients[role].sign_in(ev, name, PASSWORD)
        table = clients["dealer"].open_table("Crash", overrides={"min_bet": 100, "max_bet": 2_000})
        tokens = {k: c.token for k, c in clients.items()}
        hand = asyncio.run(_into_a_hand(server.url, table["id"], tokens))
        for c in clients.values():
            c.close()
    finally:
        server.kill9()

    # Dead mid-hand: the hand is stored as playing, its bets are on the table in the ledger.
    with room.store.transaction() as repo:
        playing = [h for h in repo.hands(ev, table["id"], limit=1000) if h.status == "playing"]
        settled = [h for h in repo.hands(ev, table["id"], limit=1000) if h.status == "settled"]
    assert [h.number for h in playing] == [hand]
    assert room.ledger.audit(ev) == []
    assert room.ledger.balance(ev, stack_key(table["id"], cast.alice.id)) < 5_000 + 10_000
    net = {1: 0, 2: 0}
    for h in settled:
        for seat, n in h.history["rounds"][0]["results"].items():
            net[int(seat)] += n

    server = server_process(db_url, tmp_path / "server.log")
    try:
        # The hand is void, every bet returned, every stack back in its bankroll.
        with room.store.transaction() as repo:
            assert repo.hand(playing[0].id).status == "voided"
        assert room.ledger.audit(ev) == []
        assert room.ledger.total(ev) == 0
        for who, seat in ((cast.alice, 1), (cast.bob, 2)):
            assert room.ledger.balance(ev, stack_key(table["id"], who.id)) == 0
            assert room.ledger.balance(ev, player_key(who.id)) == 20_000 + net[seat]
        lines = room.ledger.explain(ev, player_key(cast.alice.id))
        assert lines[-1].balance == 20_000 + net[1]
        assert any(x.line.kind == "void" for x in room.ledger.explain(ev, stack_key(table["id"], cast.alice.id)))
        # And the table plays on.
        clients = {}
        for role, name in (("dealer", "Bokuden"), ("alice", "Alice")):
            clients[role] = RoomClient(server.url)
            clients[role].sign_in(ev, name, PASSWORD)
        st = asyncio.run(_play_one(server.url, table["id"], {k: c.token for k, c in clients.items()}))
        assert st["round"]["phase"] == "settled" and st["hand"] == hand + 1
        voided = clients["alice"].hands(table=table["id"], limit=1000)
        assert any(h["status"] == "voided" for h in voided)
        # The shoe the crash cut short is not revealed on restart (its table is still open: the
        # seed waits for the table to close), yet its hands, the voided one included, verify
        # card by card from the openings of the cards shown.
        doc = clients["alice"].hand_history(playing[0].id)
        assert not any(s.get("seed") for s in doc["shoes"])
        assert all(s.get("openings") for s in doc["shoes"])
        checked = verify(doc)
        assert checked.ok and checked.cards_checked > 0, checked
        assert any(r.get("number") == hand for r in doc["rounds"])
        for c in clients.values():
            c.close()
        assert room.ledger.audit(ev) == []
    finally:
        server.stop()


def test_a_table_closed_by_revoking_its_dealer_after_a_restart_reveals_its_seeds(db_url, room, cast,
                                                                                 tmp_path) -> None:
    """After a restart a table has no runner until someone joins it. Revoking its dealer then
    closed it in the database and nothing revealed its shoes' seeds until the next restart: the
    revocation now closes it as the status route does, seeds and all, at once."""
    if db_url.startswith("sqlite"):
        db_url = f"sqlite:///{tmp_path / 'revoke.db'}"
        from syndicate.room.cardroom import CardRoom
        from syndicate.store import Database, SqlStore
        from tests.kit.room import FAST_HASHER, make_cast

        db = Database(db_url)
        db.migrate()
        room = CardRoom(SqlStore(db), FAST_HASHER)
        cast = make_cast(room)
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 20_000)
    server = server_process(db_url, tmp_path / "server.log")
    try:
        clients = {}
        for role, name in (("dealer", "Bokuden"), ("alice", "Alice")):
            clients[role] = RoomClient(server.url)
            clients[role].sign_in(ev, name, PASSWORD)
        table = clients["dealer"].open_table("Revoked", overrides={"min_bet": 100, "max_bet": 2_000})
        asyncio.run(_play_one(server.url, table["id"], {k: c.token for k, c in clients.items()}))
        for c in clients.values():
            c.close()
    finally:
        server.stop()
    with room.store.transaction() as repo:
        unrevealed = [c for t, c, _ in repo.unrevealed_shoes() if t == table["id"]]
    assert len(unrevealed) == 1  # the table is open: its shoe's seed is kept

    server = server_process(db_url, tmp_path / "server.log")
    try:
        boss, alice = RoomClient(server.url), RoomClient(server.url)
        boss.sign_in(ev, "Jean-Marc", PASSWORD)
        alice.sign_in(ev, "Alice", PASSWORD)
        [hand] = alice.hands(table=table["id"])
        assert not any(s.get("seed") for s in alice.hand_history(hand["id"])["shoes"])
        # nobody joined the table since the restart: it has no runner in this process
        assert boss.request("POST", "/api/roster/revoke", {"dealer": "Bokuden"})["active"] is False
        assert boss.request("GET", f"/api/tables/{table['id']}")["status"] == "closed"
        with room.store.transaction() as repo:
            assert [c for t, c, _ in repo.unrevealed_shoes() if t == table["id"]] == []
        doc = alice.hand_history(hand["id"])
        assert [s["commitment"] for s in doc["shoes"]] == unrevealed and all(s.get("seed") for s in doc["shoes"])
        checked = verify(doc)  # the whole shuffle now checks against the published seed
        assert checked.ok and checked.cards_checked > 0, checked
        boss.close()
        alice.close()
        assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0
    finally:
        server.stop()


def test_first_start_prints_the_admin_password_once(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'first.db'}"
    out = io.StringIO()
    prepare(url, out=out).dispose()
    assert "password:" in out.getvalue()
    password = out.getvalue().split("password: ")[1].split()[0]
    again = io.StringIO()
    prepare(url, out=again).dispose()
    assert again.getvalue() == ""
    from syndicate.room.cardroom import CardRoom
    from syndicate.store import Database, SqlStore

    db = Database(url)
    room = CardRoom(SqlStore(db))
    ev = room.accounts.events()[0]
    assert room.accounts.sign_in(ev.id, "admin", password)[1].role == "admin"
    # The notice's roster is in place.
    assert {g["pit_boss"] for g in room.roster.public(ev.id)["pit_bosses"]} == {"Jean-Marc", "Miles"}
    admin_create(url, "Second admin", "a long enough password")
    assert room.accounts.sign_in(ev.id, "Second admin", "a long enough password")[1].role == "admin"
    from syndicate.room.errors import BadRequest, Conflict

    with pytest.raises(Conflict):
        admin_create(url, "Second admin", "a long enough password")
    with pytest.raises(BadRequest):
        admin_create(url, "Third", "short")
    db.dispose()


def test_bot_chips_go_back_to_the_house_float_after_a_crash(db_url, room, cast, tmp_path) -> None:
    """Bots sit with the house's chips (the admin's float). Killed with bots seated, the server
    comes back with those chips in the float, not in bot bankrolls, every cent in the ledger,
    and no bot on the public leaderboard."""
    if db_url.startswith("sqlite"):
        db_url = f"sqlite:///{tmp_path / 'bots.db'}"
        from syndicate.room.cardroom import CardRoom
        from syndicate.store import Database, SqlStore
        from tests.kit.room import FAST_HASHER, make_cast

        db = Database(db_url)
        db.migrate()
        room = CardRoom(SqlStore(db), FAST_HASHER)
        cast = make_cast(room)
    ev = cast.event.id
    room.cashier.set_float(cast.admin, 2 * 100 * 500)
    room.cashier.buy_in(cast.admin, cast.alice.id, 5_000)

    async def seat_bots(url: str, table_id: int, token: str) -> None:
        dealer = await TableClient.connect(url, table_id, token)
        await dealer.act("add_bots", count=2)
        await dealer.wait(lambda s: len(s["seats"]) == 2)
        await dealer.close()

    server = server_process(db_url, tmp_path / "server.log")
    try:
        dealer = RoomClient(server.url)
        dealer.sign_in(ev, "Bokuden", PASSWORD)
        table = dealer.open_table("Bots crash", overrides={"min_bet": 100, "max_bet": 500})
        asyncio.run(seat_bots(server.url, table["id"], dealer.token or ""))
        dealer.close()
    finally:
        server.kill9()
    assert room.cashier.float_status(ev)["used"] == 100_000  # the crash left them at the table

    server = server_process(db_url, tmp_path / "server.log")
    try:
        status = room.cashier.float_status(ev)
        assert status == {"float": 100_000, "used": 0, "remaining": 100_000, "max": 10_000_000}
        bots = [a for a in room.ledger.accounts(ev) if a.name.startswith("Bot ")]
        assert bots and all(a.balance == 0 for a in bots)
        assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0
        board = RoomClient(server.url).http.get(f"/api/events/{ev}/leaderboard").json()
        assert [r["player"] for r in board] == ["Alice"]
    finally:
        server.stop()
