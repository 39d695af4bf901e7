"""Stacks past the typed-amount guard ($10,000,000), on SQLite and PostgreSQL. The guard is for
what a person types; chips won are never "too large": a stack that won past it leaves the table
(the player's own leave, a walk-in's cash-out, the table's close), and a server starts on a
database where such a stack was left at a table. A walk-in's stack is sold chips up to the
guard and no further (rule ``stack_limit``). Every refusal names its rule and changes nothing;
the ledger is sound throughout and `syndicate admin check` says so."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from syndicate.apps.client import ActionRefused, ApiError, RoomClient, TableClient
from syndicate.apps.server import ledger_check
from syndicate.core import money
from syndicate.core.cards import parse
from syndicate.core.shoe import Shoe
from syndicate.room.cardroom import CardRoom
from syndicate.room.ledger import cash_key, cashier_account, table_account, transfer
from syndicate.room.live.clocks import Timers
from syndicate.room.seating import seat_walk_in, sell_chips, sit_down, stack_key
from syndicate.room.values import Move
from syndicate.store import Database, SqlStore
from syndicate.web import create_app
from syndicate.web.security import Limits
from tests.kit.room import FAST_HASHER, PASSWORD, LiveServer, ServerProcess, make_cast

# The ledger: amounts past the guard and past 32 bits, on each backend, and a start on such a database.
pytestmark = pytest.mark.both_databases

TOP = money.MAX_CENTS  # $10,000,000.00: the most anyone types
#: One player's round, over and over: the player Ts Kd (20), the dealer Th up and 8s in the
#: hole (18). The player stands and wins even money.
WIN = "Ts Th Kd 8s"


def winning_shoe(rules: Any) -> Shoe:
    return Shoe.stacked(parse(" ".join([WIN] * 300), distinct=False), decks=rules.decks)


@pytest.fixture
def server(database):  # noqa: ANN001, ANN201
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None),
                     limits=Limits(actions_per_second=10_000, action_burst=10_000), new_shoe=winning_shoe)
    srv = LiveServer(app)
    yield srv
    srv.stop()


def sign_in(url: str, event_id: int, name: str) -> RoomClient:
    c = RoomClient(url)
    c.sign_in(event_id, name, PASSWORD)
    return c


async def win_a_round(dealer: TableClient, player: TableClient | None, seat: int, bet: int) -> dict[str, Any]:
    """One round of the winning shoe at ``seat``: the bet, the deal, stand (entered by the dealer
    for a walk-in, when ``player`` is None). The settled state, as the dealer sees it."""
    acting = player or dealer
    fields = {} if player else {"seat": seat}
    await dealer.act("start_round")
    await acting.act("bet", amount=bet, **fields)
    ack = await dealer.act("deal")
    while True:
        st = await dealer.wait(lambda s, v=ack["version"]: s["version"] >= v)
        rd = st["round"]
        if rd["phase"] == "settled":
            return st
        mine = await acting.wait(lambda s, v=st["version"]: s["version"] >= v)
        legal = mine["round"]["legal_actions"] if player else next(
            x for x in mine["seats"] if x["seat"] == seat)["legal_actions"]
        ack = await acting.act(next(a for a in ("stand", "no_insurance", "play_on") if a in legal), **fields)


def stack_of(state: dict[str, Any], seat: int) -> int:
    return int(next(s["stack"] for s in state["seats"] if s["seat"] == seat))


def test_a_stack_won_past_the_guard_leaves_the_table(server, room, cast, db_url) -> None:
    """The red team's cases: a player sitting with the most anyone types wins a hand and leaves;
    a walk-in sold the most is refused a second sale, wins, and is cashed out; a table closes
    under a stack past the guard. None of it stops the table or strands a chip."""
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, TOP)
    c = {n: sign_in(server.url, ev, n) for n in ("Bokuden", "Alice", "Jean-Marc")}
    tid = c["Bokuden"].open_table("High rollers", overrides={"min_bet": 100, "max_bet": 50_000})["id"]

    async def go() -> dict[str, int]:
        dealer = await TableClient.connect(server.url, tid, c["Bokuden"].token)
        alice = await TableClient.connect(server.url, tid, c["Alice"].token)
        await alice.act("sit", seat=1, amount=TOP)
        st = await win_a_round(dealer, alice, 1, 50_000)
        won = stack_of(st, 1)
        assert won == TOP + 50_000 > TOP
        await alice.act("leave_seat")  # the stack past the guard goes back to her bankroll
        st = await dealer.wait(lambda s: not s["seats"])

        await dealer.act("seat_walk_in", seat=2, name="Kenji", amount=TOP)
        before = dealer.version
        with pytest.raises(ActionRefused) as e:  # a second $10M: past what a stack is sold
            await dealer.act("sell_chips", seat=2, amount=TOP)
        assert e.value.rule == "stack_limit" and e.value.version == before
        assert "$10,000,000.00" in e.value.message
        with pytest.raises(ActionRefused) as e:  # a cent past it, too
            await dealer.act("sell_chips", seat=2, amount=1)
        assert e.value.rule == "stack_limit"
        st = await win_a_round(dealer, None, 2, 50_000)
        kenji = stack_of(st, 2)
        assert kenji == TOP + 50_000
        with pytest.raises(ActionRefused) as e:  # a stack past the guard is sold nothing more
            await dealer.act("sell_chips", seat=2, amount=100)
        assert e.value.rule == "stack_limit"
        await dealer.act("cash_out_walk_in", seat=2)  # paid in cash at the table: every cent

        # Alice sits again with the most, wins, and the dealer closes the table under her.
        await alice.act("sit", seat=1, amount=TOP)
        st = await win_a_round(dealer, alice, 1, 50_000)
        last = stack_of(st, 1)
        c["Bokuden"].request("POST", f"/api/tables/{tid}/status", {"status": "closed"})
        await dealer.wait(lambda s: not s["seats"] and s["table"]["status"] == "closed")
        rules = {m.get("rule") for x in (dealer, alice) for m in x.messages if m.get("type") == "error"}
        assert "table_unavailable" not in rules
        for x in (dealer, alice):
            await x.close()
        return {"kenji": kenji, "last": last}

    got = asyncio.run(go())
    with room.store.transaction() as repo:
        kenji = repo.account_by_name(ev, "Kenji")
    assert kenji is not None
    balances = {a.key: a.balance for a in room.ledger.accounts(ev)}
    # Alice: bought in the most, sat down with it twice and won twice; all of it in her bankroll.
    assert balances[f"player:{cast.alice.id}"] == TOP + 50_000 + 50_000 == got["last"] + 50_000
    assert balances[stack_key(tid, cast.alice.id)] == 0
    assert balances[stack_key(tid, kenji.id)] == 0 and balances[f"player:{kenji.id}"] == 0
    # The table's cash paid Kenji his win on top of what he bought: the dealer is $500 short of it.
    assert balances[cash_key(tid)] == got["kenji"] - TOP == 50_000
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0
    # Every move past the guard is in the ledger as one entry of the whole amount.
    amounts = [x.line.amount for x in room.ledger.explain(ev, f"player:{cast.alice.id}")]
    assert TOP + 50_000 in amounts
    problems = ledger_check(db_url)[cast.event.name]
    assert not any("stranded" in p or "could not be restored" in p for p in problems), problems
    for x in c.values():
        x.close()


def test_a_server_starts_on_a_database_with_stacks_past_the_guard(db_url, tmp_path) -> None:
    """What an older server left behind: a walk-in sold $10M twice and a player who won past
    $10M, both still at an open table, and a closed table with a stack the older server could
    not move. `syndicate serve` starts on it: every stack goes back (the walk-in's to the
    table's cash), the ledger is sound, and the table deals again. A table whose restore fails
    (its stack names no account: a database damaged by hand) is set aside and reported; the
    others start."""
    if db_url.startswith("sqlite"):  # a file of its own: the server process opens it too
        db_url = f"sqlite:///{tmp_path / 'big.db'}"
    db = Database(db_url)
    db.migrate()
    room = CardRoom(SqlStore(db), FAST_HASHER)
    cast = make_cast(room)
    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, TOP)
    room.cashier.buy_in(cast.admin, cast.bob.id, 5_000)
    table = room.tables.open(cast.dealer, "Old server's", "blackjack")
    closed = room.tables.open(cast.dealer, "Closed by the old server", "blackjack")
    damaged = room.tables.open(cast.dealer, "Damaged", "blackjack")
    with room.store.transaction() as repo:
        kenji, *_ = seat_walk_in(repo, table, cast.dealer, "Kenji", 2, TOP)
        sell_chips(repo, table, cast.dealer, kenji, 2, TOP)  # what the older server allowed
        # The older server's stranding: a walk-in's seat dropped before the cash-out that failed.
        hiro, *_ = seat_walk_in(repo, table, cast.dealer, "Hiro", 3, TOP)
        repo.free_seat(table.id, 3)
        sit_down(repo, table, cast.alice, 1, TOP)
        house = table_account(repo, ev, table.id, table.name)
        alice_stack = repo.ledger_account(ev, stack_key(table.id, cast.alice.id), "player", "x")
        transfer(repo, ev, [Move(house.id, alice_stack.id, 75_000)], "blackjack", "Alice wins")
        sit_down(repo, closed, cast.bob, 1, 5_000)
        transfer(repo, ev, [Move(table_account(repo, ev, closed.id, closed.name).id,
                                 repo.ledger_account(ev, stack_key(closed.id, cast.bob.id), "player", "x").id,
                                 TOP)], "blackjack", "Bob wins big")
        repo.set_table_status(closed.id, "closed")
        ghost = repo.ledger_account(ev, stack_key(damaged.id, 999_999), "player", "nobody's")
        transfer(repo, ev, [Move(cashier_account(repo, ev).id, ghost.id, 1_234)], "sit_down", "by hand")
    before = {a.key: a.balance for a in room.ledger.accounts(ev)}
    assert before[stack_key(table.id, kenji.id)] == 2 * TOP
    assert before[stack_key(table.id, cast.alice.id)] == TOP + 75_000
    # `syndicate admin check` names each stranded stack (the closed table's, the damaged one's
    # once it is set aside), rather than "sound".
    problems = ledger_check(db_url)[cast.event.name]
    assert any(stack_key(closed.id, cast.bob.id) in p and "the table is closed" in p and "stranded" in p
               for p in problems), problems
    assert any(stack_key(table.id, hiro.id) in p and "no seat behind it" in p for p in problems), problems
    assert not any(stack_key(table.id, kenji.id) in p for p in problems)  # seated: his seat is behind it

    server = ServerProcess([sys.executable, "-m", "syndicate.apps.server", db_url, "127.0.0.1", "{port}"],
                           tmp_path / "server.log")
    try:
        out = Path(tmp_path / "server.log").read_text()
        assert f"Table {damaged.id} could not be restored" in out, out
        after = {a.key: a.balance for a in room.ledger.accounts(ev)}
        assert after[stack_key(table.id, kenji.id)] == 0 and after[f"player:{kenji.id}"] == 0
        assert after[stack_key(table.id, hiro.id)] == 0
        assert after[cash_key(table.id)] == 0  # sold 3 x $10M, paid back 3 x $10M
        assert after[stack_key(table.id, cast.alice.id)] == 0
        assert after[f"player:{cast.alice.id}"] == TOP + 75_000
        assert after[stack_key(closed.id, cast.bob.id)] == 0 and after[f"player:{cast.bob.id}"] == 5_000 + TOP
        assert after[ghost_key(damaged.id)] == 1_234  # set aside, untouched
        assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0
        with room.store.transaction() as repo:
            fault = repo.table(damaged.id)
            assert fault is not None and fault.fault is not None and "names no account" in fault.fault
            assert repo.table(table.id).fault is None  # type: ignore[union-attr]
        problems = ledger_check(db_url)[cast.event.name]
        assert len(problems) == 2, problems
        assert any(f"table {damaged.id} (Damaged) could not be restored" in p for p in problems)
        assert any(ghost_key(damaged.id) in p and "stranded" in p for p in problems)

        c = {n: sign_in(server.url, ev, n) for n in ("Bokuden", "Alice")}

        async def plays_again() -> None:
            with pytest.raises(ConnectionError):  # the damaged table: refused at hello, with its rule
                await TableClient.connect(server.url, damaged.id, c["Alice"].token)
            dealer = await TableClient.connect(server.url, table.id, c["Bokuden"].token)
            alice = await TableClient.connect(server.url, table.id, c["Alice"].token)
            await alice.act("sit", seat=1, amount=1_000)
            await dealer.act("start_round")
            await alice.act("bet", amount=100)
            await dealer.act("deal")
            for x in (dealer, alice):
                await x.close()

        asyncio.run(plays_again())
        for x in c.values():
            x.close()
    finally:
        server.stop()
        # Repaired by hand, as the host would: the damaged stack's chips back to the cashier,
        # and the next start finds nothing to set aside (the database may be other tests' too).
        with room.store.transaction() as repo:
            ghost = repo.ledger_account(ev, ghost_key(damaged.id), "player", "nobody's")
            if ghost.balance:
                transfer(repo, ev, [Move(ghost.id, cashier_account(repo, ev).id, ghost.balance)], "cash_out",
                         "repaired by hand")
            repo.set_table_fault(damaged.id, None)
        db.dispose()


def ghost_key(table_id: int) -> str:
    return stack_key(table_id, 999_999)



def test_a_cash_out_the_ledger_refuses_keeps_the_seat(server, room, cast, db_url, monkeypatch) -> None:
    """A seat stays, with its chips, until the write that cashes it out has committed. A write
    the ledger refuses is the leaving player's refusal (the table plays on); at the table's
    close the others go and the refused one stays, reported by `syndicate admin check` as
    stranded until a start returns it. The table never stops for everyone."""
    import syndicate.room.live.seats as seats_module
    from syndicate.room.errors import Conflict

    ev = cast.event.id
    room.cashier.buy_in(cast.admin, cast.alice.id, 5_000)
    room.cashier.buy_in(cast.admin, cast.bob.id, 5_000)
    c = {n: sign_in(server.url, ev, n) for n in ("Bokuden", "Alice", "Bob")}
    tid = c["Bokuden"].open_table("Refusing ledger")["id"]
    real = seats_module.stand_up

    def refusing(repo, table, seat, **more):  # noqa: ANN001, ANN003, ANN202
        if seat.account.id == cast.alice.id:
            raise Conflict("ledger_test", "the ledger refuses this one")
        return real(repo, table, seat, **more)

    monkeypatch.setattr(seats_module, "stand_up", refusing)

    async def go() -> None:
        dealer = await TableClient.connect(server.url, tid, c["Bokuden"].token)
        alice = await TableClient.connect(server.url, tid, c["Alice"].token)
        bob = await TableClient.connect(server.url, tid, c["Bob"].token)
        await alice.act("sit", seat=1, amount=3_000)
        await bob.act("sit", seat=2, amount=2_000)
        before = alice.version
        with pytest.raises(ActionRefused) as e:
            await alice.act("leave_seat")
        assert e.value.rule == "ledger_test" and e.value.version == before
        assert [s["player"] for s in alice.state["seats"]] == ["Alice", "Bob"]  # still seated, chips and all
        c["Bokuden"].request("POST", f"/api/tables/{tid}/status", {"status": "closed"})
        st = await dealer.wait(lambda s: s["table"]["status"] == "closed" and len(s["seats"]) == 1)
        assert [(s["player"], s["stack"]) for s in st["seats"]] == [("Alice", 3_000)]
        assert not any(m.get("rule") == "table_unavailable" for x in (dealer, alice, bob) for m in x.messages)
        await dealer.act("auto_deal", seconds=None)  # the table still answers
        for x in (dealer, alice, bob):
            await x.close()

    asyncio.run(go())
    assert room.ledger.balance(ev, f"player:{cast.bob.id}") == 5_000
    assert room.ledger.balance(ev, stack_key(tid, cast.alice.id)) == 3_000
    assert room.ledger.audit(ev) == []
    problems = ledger_check(db_url)[cast.event.name]
    assert any(stack_key(tid, cast.alice.id) in p and "stranded" in p for p in problems), problems
    for x in c.values():
        x.close()
    # The next start returns it to her bankroll (the start voids every table it finds: the
    # database may be other tests' too, whose tables it leaves as their own starts would).
    from syndicate.room.recovery import void_unfinished

    server.stop()
    assert void_unfinished(room).faults.get(tid) is None
    assert room.ledger.balance(ev, f"player:{cast.alice.id}") == 5_000
    assert not any(stack_key(tid, cast.alice.id) in p for p in ledger_check(db_url)[cast.event.name])


def test_the_cashier_cashes_out_a_whole_bankroll(server, room, cast) -> None:
    """`POST /api/cashier/cash-out-all`: the player's whole bankroll in one move, whatever it
    holds (two buy-ins of the most anyone types: past the guard); refused while their chips
    are at a table (rule ``at_table``, naming it: a seat, even one whose stack is all in the
    hand in play), for an empty bankroll (``empty_bankroll``), for a walk-in (``walk_in``) and
    for a dealer (``cash_out``). A refusal moves nothing."""
    ev = cast.event.id
    boss = sign_in(server.url, ev, "Jean-Marc")
    boss.buy_in(cast.alice.id, TOP)
    boss.buy_in(cast.alice.id, TOP)
    c = {n: sign_in(server.url, ev, n) for n in ("Bokuden", "Alice")}
    tid = c["Bokuden"].open_table("Cashier's", overrides={"min_bet": 100, "max_bet": 1_000})["id"]

    def everything(who: RoomClient, player: int) -> Any:
        return who.request("POST", "/api/cashier/cash-out-all", {"player": player})

    def refused(who: RoomClient, player: int, rule: str) -> str:
        before = {a.key: a.balance for a in room.ledger.accounts(ev)}
        with pytest.raises(ApiError) as e:
            everything(who, player)
        assert e.value.rule == rule, e.value
        assert {a.key: a.balance for a in room.ledger.accounts(ev)} == before
        return e.value.message

    async def at_the_table() -> None:
        dealer = await TableClient.connect(server.url, tid, c["Bokuden"].token)
        alice = await TableClient.connect(server.url, tid, c["Alice"].token)
        await alice.act("sit", seat=1, amount=1_000)
        assert f"table {tid}" in refused(boss, cast.alice.id, "at_table")
        await dealer.act("start_round")
        await alice.act("bet", amount=1_000)  # her whole stack in the round: zero behind, still seated
        refused(boss, cast.alice.id, "at_table")
        await dealer.act("deal")
        await win_a_round_finish(dealer, alice)
        await alice.act("leave_seat")
        for x in (dealer, alice):
            await x.close()

    asyncio.run(at_the_table())
    held = room.ledger.balance(ev, f"player:{cast.alice.id}")
    assert held == 2 * TOP + 1_000  # she won her $10 bet
    refused(c["Bokuden"], cast.alice.id, "cash_out")
    paid = everything(boss, cast.alice.id)
    assert paid == {"player": cast.alice.id, "amount": held, "balance": 0}
    assert room.ledger.balance(ev, f"player:{cast.alice.id}") == 0
    (line,) = [x.line for x in room.ledger.explain(ev, f"player:{cast.alice.id}") if x.line.amount == -held]
    assert line.kind == "cash_out" and "whole bankroll" in line.memo
    refused(boss, cast.alice.id, "empty_bankroll")
    table = room.tables.get(ev, tid)
    with room.store.transaction() as repo:
        kenji, *_ = seat_walk_in(repo, table, cast.dealer, "Kenji", 2, 500)
    refused(boss, kenji.id, "walk_in")
    assert room.ledger.audit(ev) == [] and room.ledger.total(ev) == 0
    for x in (boss, *c.values()):
        x.close()


async def win_a_round_finish(dealer: TableClient, player: TableClient) -> None:
    """The player stands until the dealt round of the winning shoe is settled."""
    while True:
        st = await dealer.wait(lambda s: True)
        if st["round"]["phase"] == "settled":
            return
        mine = await player.wait(lambda s, v=st["version"]: s["version"] >= v)
        legal = mine["round"]["legal_actions"]
        if not legal:
            await dealer.wait(lambda s, v=st["version"]: s["version"] > v)
            continue
        await player.act(next(a for a in ("stand", "no_insurance", "play_on") if a in legal))
