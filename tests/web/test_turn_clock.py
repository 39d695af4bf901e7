"""The turn clock is a table's setting (docs/dealer.md, "The turn clock"): its dealer sets it when
opening the table (or from the setup later), its event's admin defaults it per card source, and
without either a real-cards table has none; where a clock runs out, the move it makes is marked
as the clock's in the history and the replay, and the player and the dealer are told in words.
Played over HTTP and the WebSocket, as the dealer, the admin and the players meet it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from syndicate.apps.client import ActionRefused, ApiError, TableClient
from syndicate.blackjack import history as bj_history
from syndicate.poker import history as pk_history
from syndicate.room.live.clocks import Timers
from syndicate.web import create_app
from syndicate.web.security import Limits
from tests.kit.room import FAST_HASHER, LiveServer
from tests.web.test_real_cards import assert_schema, hands_of, players, sign_in

CLOCK = 0.4  # the server's clocks here: short, so that a test waits for them


@pytest.fixture
def server(database) -> Iterator[Callable[..., LiveServer]]:  # noqa: ANN001
    made: list[LiveServer] = []

    def make(timers: Timers) -> LiveServer:
        app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=timers,
                         limits=Limits(actions_per_second=10_000, action_burst=10_000))
        made.append(LiveServer(app))
        return made[-1]

    yield make
    for srv in made:
        srv.stop()


async def table_state(url: str, table_id: int, token: str) -> dict[str, Any]:
    c = await TableClient.connect(url, table_id, token)
    st = await c.wait(lambda s: True)
    await c.close()
    return st


def test_the_clock_is_set_by_the_dealer_and_defaulted_by_the_event(server, room, cast) -> None:
    """Off at a real-cards table unless someone sets it; the server's 30 s at a shuffled one; the
    dealer's choice when opening; the event's default for the tables opened after it; changed
    from the table by its dealer, kept with the table. Bad values are refused naming the rule."""
    ev = cast.event.id
    srv = server(Timers())  # the server's defaults: 30 s shuffled, none at real cards
    dealer, admin = sign_in(srv, ev, "Bokuden"), sign_in(srv, ev, "admin")

    def clock_of(t: dict[str, Any]) -> Any:
        return asyncio.run(table_state(srv.url, t["id"], dealer.token))["table"]["turn_clock"]

    assert clock_of(dealer.open_table("Real", cards="real")) is None
    assert clock_of(dealer.open_table("Shuffled")) == 30
    assert clock_of(dealer.open_table("Real 45", cards="real", turn_clock=45)) == 45
    assert clock_of(dealer.open_table("Shuffled off", turn_clock=None)) is None
    for bad in (3, 601, 2.5, "30"):
        with pytest.raises(ApiError) as e:
            dealer.open_table("Bad", cards="real", turn_clock=bad)  # type: ignore[arg-type]
        assert e.value.rule in ("turn_clock", "validation"), e.value.rule
    with pytest.raises(ApiError) as e:
        dealer.open_table("Bad", cards="real", turn_clock=3)
    assert e.value.rule == "turn_clock" and "from 5 to 600" in e.value.message

    # The event's defaults: only its admin sets them; tables opened afterwards take them.
    with pytest.raises(ApiError) as e:
        dealer.request("PATCH", f"/api/events/{ev}", {"turn_clock": {"real": 20}})
    assert e.value.rule == "event_settings"
    with pytest.raises(ApiError) as e:
        admin.request("PATCH", f"/api/events/{ev}", {"turn_clock": {"real": 4}})
    assert e.value.rule == "turn_clock"
    got = admin.request("PATCH", f"/api/events/{ev}", {"turn_clock": {"real": 20}})
    assert got["turn_clock"] == {"real": 20}
    got = admin.request("PATCH", f"/api/events/{ev}", {"turn_clock": {"shuffled": None}})
    assert got["turn_clock"] == {"real": 20, "shuffled": None} and got["seed_reveal"] == "table_close"
    assert clock_of(dealer.open_table("Real later", cards="real")) == 20
    assert clock_of(dealer.open_table("Shuffled later")) is None
    assert clock_of(dealer.open_table("Dealer's own", cards="real", turn_clock=60)) == 60  # the dealer's word first

    # The dealer changes it from the table (the tablet's setup); it stays with the table.
    real = dealer.open_table("Changed", cards="real")

    async def change() -> None:
        d = await TableClient.connect(srv.url, real["id"], dealer.token)
        with pytest.raises(ActionRefused) as e:
            await d.act("turn_clock", seconds=0)
        assert e.value.rule == "turn_clock"
        alice = await TableClient.connect(srv.url, real["id"], sign_in(srv, ev, "Alice").token)
        with pytest.raises(ActionRefused) as e:
            await alice.act("turn_clock", seconds=90)
        assert e.value.rule == "table_dealer"
        version = (await d.act("turn_clock", seconds=90))["version"]
        assert (await d.wait(lambda s: s["version"] >= version))["table"]["turn_clock"] == 90
        for c in (d, alice):
            await c.close()

    asyncio.run(change())
    assert dealer.request("GET", f"/api/tables/{real['id']}")["rules"]["turn_clock"] == 90
    srv.stop()
    again = server(Timers())  # a restart keeps it
    assert asyncio.run(table_state(again.url, real["id"], sign_in(again, ev, "Bokuden").token))["table"][
        "turn_clock"] == 90


def test_the_clock_moves_for_a_walk_in_and_a_player_and_says_so(server, room, cast) -> None:
    """The audit's case at a real-cards table whose clock runs: the clock declines an insurance
    and stands a walk-in. Every screen that acts for the seat shows the clock running; the move
    is marked as the clock's in the stored history, the served one, the replay and the host's
    check; and the player whose clock ran out, and the dealer, are told so in words."""
    ev = cast.event.id
    names = players(room, cast, 1)  # Alice
    srv = server(Timers(turn=None, real_turn=CLOCK))
    dealer = sign_in(srv, ev, "Bokuden")
    real = dealer.open_table("Real", overrides={"decks": 1, "min_bet": 100, "max_bet": 1_000}, cards="real")
    alice_token = sign_in(srv, ev, names[0]).token

    async def play() -> tuple[TableClient, TableClient, list[dict[str, Any]]]:
        d = await TableClient.connect(srv.url, real["id"], dealer.token)
        a = await TableClient.connect(srv.url, real["id"], alice_token)
        await d.act("seat_walk_in", seat=1, name="Kenji", amount=5_000)
        await a.act("sit", seat=2, amount=5_000)
        await d.act("start_round")
        await d.act("bet", seat=1, amount=500)
        await a.act("bet", amount=500)
        await d.act("deal")
        for c in ("8", "10", "A", "8", "9"):  # Kenji 8 8, Alice 19, the dealer's Ace up
            await d.act("card", card=c)
        version = (await d.act("card", card="4"))["version"]  # the hole card: no blackjack
        seen = []
        st = await d.wait(lambda s: s["version"] >= version)
        assert st["round"]["phase"] == "insurance" and st["clock"]["seat"] == 1  # the dealer's screen shows it
        seen.append(st["clock"])
        # Nobody decides: the clock declines insurance for both, then stands Kenji at 16.
        st = await d.wait(lambda s: s["round"]["phase"] == "playing" and s["round"]["to_act"] == 2, timeout=10)
        seen.append((await a.wait(lambda s: s["clock"] is not None and s["clock"]["seat"] == 2))["clock"])
        await a.act("stand")
        st = await d.wait(lambda s: s["round"]["card_needed"] is not None)
        await d.act("card", card="K")  # the dealer: A 4 K, 15
        await d.act("card", card="7")  # 22
        await d.wait(lambda s: s["round"]["phase"] == "settled")
        for c in (d, a):
            await c.close()
        return d, a, seen

    d, a, seen = asyncio.run(play())
    assert all(c["seconds"] == CLOCK and 0 <= c["left"] <= CLOCK for c in seen)
    told_dealer = [m["text"] for m in d.messages if m["type"] == "timed_out"]
    told_alice = [m["text"] for m in a.messages if m["type"] == "timed_out"]
    assert told_dealer == ["Time ran out for seat 1 (Kenji): the clock declined insurance for them",
                           "Time ran out for seat 2 (Alice): the clock declined insurance for them",
                           "Time ran out for seat 1 (Kenji): the clock stood for them"]
    assert told_alice == ["Time ran out: you declined insurance"]
    assert_schema(d.messages + a.messages)

    (hand,) = hands_of(room, ev, real["id"])
    rnd = hand.history["rounds"][0]
    marks = {e["at"]: e for e in rnd["entered_by"] if e.get("clock") is not None}
    assert [(rnd["log"][i]["type"], rnd["log"][i]["seat"]) for i in sorted(marks)] == [
        ("no_insurance", 1), ("no_insurance", 2), ("stand", 1)]
    assert all(e["by"] is None and e["clock"] == CLOCK and e["for_seat"] == rnd["log"][i]["seat"]
               for i, e in marks.items())
    (mine,) = [e for e in rnd["entered_by"] if e["for_seat"] == 2 and rnd["log"][e["at"]]["type"] == "stand"]
    assert mine["by"] == cast.alice.id and "clock" not in mine  # her own stand is hers
    # The replay (syndicate replay) and the host's check say whose moves they were.
    steps = bj_history.replay(hand.history).steps
    clocked = [s for s in steps if "the clock: time ran out" in s]
    assert clocked == [f"seat 1 declines insurance (the clock: time ran out after {CLOCK:g} s, not the player's choice)",
                       f"seat 2 declines insurance (the clock: time ran out after {CLOCK:g} s, not the player's choice)",
                       f"seat 1 stands on hand 1 (the clock: time ran out after {CLOCK:g} s, not the player's choice)"]
    served = sign_in(srv, ev, "Alice").request("GET", f"/api/hands/{hand.id}/history")
    assert sum("clock" in e for e in served["rounds"][0]["entered_by"]) == 3
    check = sign_in(srv, ev, "admin").request("GET", f"/api/hands/{hand.id}/check")
    assert sum("the clock: time ran out" in s for s in check["replay"]["steps"]) == 3
    assert room.ledger.audit(ev) == []


def test_a_draw_move_by_the_clock_is_marked(server, room, cast) -> None:
    """Five-card draw: a player who lets the clock run out checks (or folds); the stored and the
    replayed hand say the clock did it."""
    ev = cast.event.id
    names = players(room, cast, 2)
    srv = server(Timers(turn=CLOCK))
    dealer = sign_in(srv, ev, "Bokuden")
    draw = dealer.open_table("Draw", game="poker")
    tokens = [sign_in(srv, ev, n).token for n in names]

    async def play() -> list[TableClient]:
        d = await TableClient.connect(srv.url, draw["id"], dealer.token)
        ps = [await TableClient.connect(srv.url, draw["id"], t) for t in tokens]
        for n, p in enumerate(ps, start=1):
            await p.act("sit", seat=n, amount=2_000)
        await d.act("start_round")
        first = (await d.wait(lambda s: s["round"] is not None and s["round"]["to_act"] is not None))["round"]["to_act"]
        await d.wait(lambda s, f=first: s["round"]["to_act"] not in (None, f) or s["round"]["phase"] != "first_betting",
                     timeout=10)
        for c in (d, *ps):
            await c.close()
        return ps

    ps = asyncio.run(play())
    (hand,) = hands_of(room, ev, draw["id"])
    entry = hand.history["hands"][0]
    (mark,) = [e for e in entry["entered_by"] if "clock" in e][:1]
    assert entry["log"][mark["at"]]["type"] == "check" and mark["clock"] == CLOCK
    assert any("(the clock: time ran out" in s for s in pk_history.steps_of(hand.history))
    told = [m["text"] for p in ps for m in p.messages if m["type"] == "timed_out"]
    assert told and told[0] == "Time ran out: you checked"
