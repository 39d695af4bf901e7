"""Prize draws in the room (docs/prize-draw.md), on both databases: a draw commits to its seed
when created, converts the guests' bankrolls into tickets when closed (the chips go back to the
cashier: out of play, and never converted twice), and names its winners from the seed, the
tickets and the witness; its proof hides the seed until then and verifies after. Two waves
convert each its own chips. Every refusal names its rule and changes nothing."""

from __future__ import annotations

import json

import pytest

from syndicate.prizes import draw as raffle
from syndicate.room.draws import proof
from syndicate.room.errors import BadRequest, Conflict, Forbidden, NotFound
from syndicate.room.ledger import player_key

pytestmark = pytest.mark.both_databases

RULE = {"rate": 10_000, "rounding": "up", "minimum": 1, "cap": 30}  # a ticket per $100, rounded up
PRIZES = [{"name": "Hamper", "value": 15_000}, {"name": "Wine", "value": 4_000}]


def _guests(room, cast, chips: dict[str, int]) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Guests from the door, each checked in with ``chips`` (at $1 = $1 in chips): name: id."""
    room.door.import_guests(cast.admin, "name\n" + "".join(f"{n}\n" for n in chips))
    room.door.set_rate(cast.admin, 100, 100)
    ids = {}
    for name, c in chips.items():
        [g] = [g for g in room.door.guests(cast.admin, name) if g["name"] == name]
        room.door.check_in(cast.admin, g["id"], "cash", c)
        ids[name] = g["id"]
    return ids


def _state(room, cast) -> tuple:  # type: ignore[no-untyped-def]
    return ([(d.id, d.status, d.tickets, d.winners) for d in room.draws.all(cast.admin)],
            [(a.key, a.balance) for a in room.ledger.accounts(cast.event.id)])


def test_a_draw_from_chips_to_winners(room, cast) -> None:
    ids = _guests(room, cast, {"Ako": 25_000, "Ben": 100, "Cleo": 300_000_000})
    d = room.draws.create(cast.admin, "Wave 1", RULE, PRIZES)
    before = proof(d)
    assert before["status"] == "open" and before["seed"] is None and before["tickets"] == []
    assert d.seed not in json.dumps(before) and d.seed not in json.dumps([proof(x) for x in room.draws.all(cast.alice)])
    assert before["commitment"] == raffle.commitment(bytes.fromhex(d.seed))
    ev = cast.event.id
    d = room.draws.close(cast.admin, d.id)
    counts = {h: sum(1 for _, x in d.tickets if x == h) for h in ids.values()}
    assert counts == {ids["Ako"]: 3, ids["Ben"]: 1, ids["Cleo"]: 30}  # rounded up, at least 1, at most 30
    assert all(room.ledger.balance(ev, player_key(g)) == 0 for g in ids.values())  # converted, out of play
    assert room.ledger.total(ev) == 0
    closed = proof(d)
    assert closed["seed"] is None and len(closed["tickets"]) == 34
    d = room.draws.draw(cast.admin, d.id, "a six and a two")
    done = proof(d)
    assert done["seed"] == d.seed and len(done["winners"]) == 2
    verdict = raffle.verify(json.loads(json.dumps(done)))
    assert verdict.ok and not verdict.pending, verdict.messages
    mine = room.draws.tickets_of(room.accounts.get(ev, ids["Ako"]))
    assert mine[0]["tickets"] == [n for n, h in d.tickets if h == ids["Ako"]]


def test_two_waves_convert_each_their_own_chips(room, cast) -> None:
    ids = _guests(room, cast, {"Ako": 20_000, "Ben": 40_000})
    w1 = room.draws.create(cast.admin, "Wave 1", {"rate": 10_000}, PRIZES[:1])
    w2 = room.draws.create(cast.admin, "Wave 2", {"rate": 10_000}, PRIZES[1:])
    assert room.draws.close(cast.admin, w1.id).tickets == [(1, ids["Ako"]), (2, ids["Ako"]), (3, ids["Ben"]),
                                                          (4, ids["Ben"]), (5, ids["Ben"]), (6, ids["Ben"])]
    with pytest.raises(Conflict) as e:
        room.draws.close(cast.admin, w2.id)  # every bankroll is empty: no ticket to make
    assert e.value.rule == "draw_needs_tickets"
    room.door.pay(cast.admin, ids["Ben"], "card", 10_000)  # Ben gives more later in the night
    assert room.draws.close(cast.admin, w2.id).tickets == [(1, ids["Ben"])]
    assert room.ledger.total(cast.event.id) == 0


@pytest.mark.parametrize(("call", "rule"), [
    (lambda r, c, d: r.draws.close(c.admin, d), "draw_closed"),
    (lambda r, c, d: r.draws.draw(c.admin, d, "x"), "draw_drawn"),
    (lambda r, c, d: r.draws.draw(c.admin, d, "x" * 201), "witness"),
    (lambda r, c, d: r.draws.draw(c.alice, d, ""), "run_draws"),
    (lambda r, c, d: r.draws.close(c.boss, d), "run_draws"),
    (lambda r, c, d: r.draws.get(c.admin, 10**6), "draw"),
    (lambda r, c, d: r.draws.create(c.admin, "W", {"rate": 0}, PRIZES), "ticket_rate"),
    (lambda r, c, d: r.draws.create(c.admin, "W", {"rate": 100, "rounding": "ceil"}, PRIZES), "ticket_rounding"),
    (lambda r, c, d: r.draws.create(c.admin, "W", {"rate": 100}, []), "draw_needs_prizes"),
    (lambda r, c, d: r.draws.create(c.admin, "W", {"rate": 100}, [{"name": "", "value": 1}]), "prizes"),
    (lambda r, c, d: r.draws.create(c.admin, "", {"rate": 100}, PRIZES), "name"),
])
def test_a_bad_request_is_refused_naming_its_rule_and_changes_nothing(room, cast, call, rule: str) -> None:
    _guests(room, cast, {"Ako": 20_000})
    d = room.draws.create(cast.admin, "Wave 1", {"rate": 10_000}, PRIZES)
    room.draws.close(cast.admin, d.id)
    room.draws.draw(cast.admin, d.id, "")
    before = _state(room, cast)
    with pytest.raises((BadRequest, Conflict, Forbidden, NotFound)) as e:
        call(room, cast, d.id)
    assert e.value.rule == rule, e.value
    assert _state(room, cast) == before


def test_a_draw_is_made_only_once_closed(room, cast) -> None:
    _guests(room, cast, {"Ako": 20_000})
    d = room.draws.create(cast.admin, "Wave 1", {"rate": 10_000}, PRIZES)
    before = _state(room, cast)
    with pytest.raises(Conflict) as e:
        room.draws.draw(cast.admin, d.id, "")
    assert e.value.rule == "draw_open" and _state(room, cast) == before


def test_prizes_to_the_most_chips(room, cast) -> None:
    ids = _guests(room, cast, {"Ako": 20_000, "Ben": 90_000, "Cleo": 55_000})
    d = room.draws.create(cast.admin, "Top chips", None, PRIZES, kind="top")
    assert proof(d)["draw_kind"] == "top" and proof(d)["seed"] is None
    d = room.draws.close(cast.admin, d.id)
    assert d.tickets == sorted((g, c) for g, c in ((ids["Ako"], 20_000), (ids["Ben"], 90_000), (ids["Cleo"], 55_000)))
    assert all(room.ledger.balance(cast.event.id, player_key(g)) == 0 for g in ids.values())
    d = room.draws.draw(cast.admin, d.id, "")
    assert [(p, h) for p, _, h in d.winners] == [(1, ids["Ben"]), (2, ids["Cleo"])]
    assert raffle.verify(json.loads(json.dumps(proof(d)))).ok
    assert room.ledger.total(cast.event.id) == 0
    with pytest.raises(BadRequest) as e:
        room.draws.create(cast.admin, "Other", None, PRIZES, kind="bingo")
    assert e.value.rule == "draw_kind"
