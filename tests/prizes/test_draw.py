"""The prize draw (docs/prize-draw.md): the same seed, tickets and witness give the same winners;
each ticket's chance is equal; a ticket wins once, and with one prize per guest a guest wins once;
a draw with no tickets or no prize is refused; a proof is verified, and any change to it is
found."""

from __future__ import annotations

import copy
import hashlib
from collections import Counter

import pytest

from syndicate.prizes import draw as d

SEED = hashlib.sha256(b"a seed for the tests").digest()
PRIZES = ["Signed football", "Dinner for two", "Spa day"]


def _proof(counts: dict[int, int], witness: str = "4 and 6", once: bool = False, seed: bytes | None = SEED) -> dict:
    tickets = d.number(counts)
    wins = d.draw(SEED, tickets, len(PRIZES), witness, once) if seed is not None else ()
    return d.proof(name="Wave 1", committed=d.commitment(SEED), tickets=tickets, prizes=PRIZES, witness=witness,
                   one_prize_per_guest=once, seed=seed, wins=wins)


def test_tickets_are_numbered_in_guest_order() -> None:
    assert d.number({9: 1, 2: 2, 5: 0}) == (d.Ticket(1, 2), d.Ticket(2, 2), d.Ticket(3, 9))


def test_the_same_inputs_give_the_same_winners_and_the_witness_changes_them() -> None:
    tickets = d.number({g: 3 for g in range(1, 21)})
    first = d.draw(SEED, tickets, 3, "4 and 6")
    assert first == d.draw(SEED, tickets, 3, "4 and 6")
    assert len({w.ticket for w in first}) == 3  # a ticket wins once
    others = {d.draw(SEED, tickets, 3, f"roll {i}") for i in range(20)}
    assert len(others) > 15  # the witness is in the key


def test_one_prize_per_guest() -> None:
    tickets = d.number({1: 50, 2: 1, 3: 1})
    for i in range(30):
        wins = d.draw(hashlib.sha256(bytes([i])).digest(), tickets, 3, "", one_prize_per_guest=True)
        assert sorted(w.holder for w in wins) == [1, 2, 3]


def test_prizes_left_when_the_tickets_run_out_are_not_drawn() -> None:
    wins = d.draw(SEED, d.number({4: 2}), 5)
    assert [w.prize for w in wins] == [1, 2] and {w.ticket for w in wins} == {1, 2}
    assert len(d.draw(SEED, d.number({4: 2, 5: 3}), 5, one_prize_per_guest=True)) == 2


def test_every_ticket_has_the_same_chance() -> None:
    """Over 6,000 seeds, the first prize's ticket among 6: each count within 5 standard
    deviations of 1,000 (a fixed set of seeds: the test always gives the same answer)."""
    tickets = d.number({1: 1, 2: 2, 3: 3})
    counts = Counter(d.draw(hashlib.sha256(i.to_bytes(4, "big")).digest(), tickets, 1)[0].ticket
                     for i in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(n - 1000) < 5 * (6000 * (1 / 6) * (5 / 6)) ** 0.5 for n in counts.values()), counts


@pytest.mark.parametrize(("tickets", "prizes", "rule"), [
    ((), 1, "draw_needs_tickets"), (d.number({1: 1}), 0, "draw_needs_prizes"),
    ((d.Ticket(1, 1), d.Ticket(3, 1)), 1, "draw_tickets"),
])
def test_a_draw_that_cannot_be_made_is_refused(tickets: tuple, prizes: int, rule: str) -> None:
    with pytest.raises(d.DrawError) as e:
        d.draw(SEED, tickets, prizes)
    assert e.value.rule == rule


def test_a_proof_verifies_and_before_the_draw_is_pending() -> None:
    v = d.verify(_proof({3: 2, 8: 5, 11: 1}))
    assert v.ok and not v.pending
    assert v.messages[0].startswith("8 tickets match their digest")
    assert v.messages[1] == "the revealed seed matches the commitment published before the draw"
    assert v.messages[2].startswith("prize 1 (Signed football): ticket ")
    early = d.verify(_proof({3: 2}, seed=None))
    assert early.ok and early.pending and early.messages[-1].endswith(d.commitment(SEED))


def _changed(doc: dict, change) -> dict:  # type: ignore[no-untyped-def]
    doc = copy.deepcopy(doc)
    change(doc)
    return doc


@pytest.mark.parametrize(("what", "change", "said"), [
    ("a winner", lambda p: p["winners"][0].update(ticket=p["winners"][0]["ticket"] % 8 + 1), "the draw gives"),
    ("a ticket's holder", lambda p: p["tickets"][0].__setitem__(1, 8), "do not match their digest"),
    ("the witness", lambda p: p.__setitem__("witness", "5 and 6"), "the draw gives"),
    ("the seed", lambda p: p.__setitem__("seed", "00" * 32), "does not match the commitment"),
    ("an extra winner", lambda p: p["winners"].append({"prize": 4, "ticket": 1, "holder": 3}), "does not give"),
    ("two prizes' winners swapped", lambda p: [w.update(prize=3 - w["prize"]) for w in p["winners"][:2]],
     "the draw gives"),
    ("a prize drawn twice", lambda p: p["winners"].append(dict(p["winners"][0])), "does not give"),
])
def test_any_change_to_a_proof_is_found(what: str, change, said: str) -> None:  # type: ignore[no-untyped-def]
    doc = _proof({3: 2, 8: 5, 11: 1})
    v = d.verify(_changed(doc, change))
    assert not v.ok, what
    assert any(said in m for m in v.messages), v.messages


@pytest.mark.parametrize("doc", [{}, {"kind": d.KIND, "version": 1}, {"kind": "other", "version": 1},
                                 {**_proof({1: 1}), "seed": "zz"}])
def test_what_is_not_a_proof_is_refused(doc: dict) -> None:
    with pytest.raises(d.DrawError) as e:
        d.verify(doc)
    assert e.value.rule == "draw_proof"


def test_prizes_to_the_most_chips_and_a_tie_decided_by_the_seed() -> None:
    standings = [(3, 50_000), (5, 90_000), (8, 50_000), (9, 10_000)]
    wins = d.top(SEED, standings, 3, "a four")
    assert [w.holder for w in wins][:1] == [5] and {w.holder for w in wins[1:]} == {3, 8}
    assert [w.ticket for w in wins] == [0, 0, 0] and [w.prize for w in wins] == [1, 2, 3]
    seconds = {d.top(hashlib.sha256(bytes([i])).digest(), standings, 2)[1].holder for i in range(40)}
    assert seconds == {3, 8}  # the tie goes either way, as the seed says
    assert len(d.top(SEED, standings, 10)) == 4  # more prizes than guests: the rest are not drawn
    with pytest.raises(d.DrawError) as e:
        d.top(SEED, [], 1)
    assert e.value.rule == "draw_needs_tickets"
    with pytest.raises(d.DrawError) as e:
        d.top(SEED, [(5, 1), (3, 2)], 1)  # not in holder order
    assert e.value.rule == "draw_standings"


def test_a_top_chips_proof_verifies_and_a_change_is_found() -> None:
    standings = [(3, 50_000), (5, 90_000), (8, 50_000)]
    wins = d.top(SEED, standings, 2, "w")
    doc = d.top_proof(name="Top", committed=d.commitment(SEED), standings=standings, prizes=["Cup", "Pen"],
                      witness="w", seed=SEED, wins=wins)
    assert d.verify(doc).ok
    assert d.verify({**doc, "seed": None}).pending
    for change in (lambda p: p["standings"][0].__setitem__(1, 99_000),
                   lambda p: p["winners"].reverse(), lambda p: p.__setitem__("seed", "11" * 32)):
        bad = copy.deepcopy(doc)
        change(bad)
        assert not d.verify(bad).ok
