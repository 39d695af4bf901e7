"""Chips into raffle tickets (docs/prize-draw.md): the rate, the rounding, the minimum each guest
is guaranteed and the cap, and each bad rule refused naming its rule."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from syndicate.prizes.tickets import TicketRate, TicketRuleError, convert


@pytest.mark.parametrize(("rounding", "chips", "tickets"), [
    ("down", 0, 0), ("down", 9_999, 0), ("down", 10_000, 1), ("down", 19_999, 1),
    ("up", 1, 1), ("up", 10_000, 1), ("up", 10_001, 2),
    ("nearest", 4_999, 0), ("nearest", 5_000, 1), ("nearest", 14_999, 1), ("nearest", 15_000, 2),
])
def test_one_ticket_per_rate_rounded_as_the_host_chose(rounding: str, chips: int, tickets: int) -> None:
    assert TicketRate(10_000, rounding).tickets(chips) == tickets


def test_everyone_guaranteed_one_and_nobody_over_the_cap() -> None:
    rate = TicketRate(10_000, "up", minimum=1, cap=20)
    assert [rate.tickets(c) for c in (0, 15_000, 200_000, 200_001, 10**9)] == [1, 2, 20, 20, 20]
    assert rate.describe() == "1 ticket per $100.00 of chips, rounded up, at least 1, at most 20"
    assert TicketRate(2_500).describe() == "1 ticket per $25.00 of chips"


def test_convert_leaves_out_a_guest_with_no_ticket() -> None:
    assert convert({7: 25_000, 3: 500, 9: 10_000}, TicketRate(10_000)) == {7: 2, 9: 1}
    assert convert({7: 25_000, 3: 0}, TicketRate(10_000, minimum=1)) == {3: 1, 7: 2}


@pytest.mark.parametrize(("kwargs", "rule"), [
    ({"rate": 0}, "ticket_rate"), ({"rate": -100}, "ticket_rate"), ({"rate": 100.0}, "ticket_rate"),
    ({"rate": True}, "ticket_rate"), ({"rate": 100, "rounding": "ceiling"}, "ticket_rounding"),
    ({"rate": 100, "minimum": -1}, "ticket_minimum"), ({"rate": 100, "cap": 0}, "ticket_cap"),
    ({"rate": 100, "minimum": 3, "cap": 2}, "ticket_cap"),
])
def test_a_bad_rule_is_refused_naming_it(kwargs: dict, rule: str) -> None:
    with pytest.raises(TicketRuleError) as e:
        TicketRate(**kwargs)
    assert e.value.rule == rule


@pytest.mark.parametrize("chips", [-1, 1.5, "100", None])
def test_bad_chips_are_refused(chips: object) -> None:
    with pytest.raises(TicketRuleError) as e:
        TicketRate(100).tickets(chips)  # type: ignore[arg-type]
    assert e.value.rule == "ticket_chips"


@given(rate=st.integers(1, 10**6), rounding=st.sampled_from(["down", "up", "nearest"]),
       minimum=st.integers(0, 5), extra=st.none() | st.integers(0, 50), a=st.integers(0, 10**9),
       b=st.integers(0, 10**9))
def test_more_chips_never_give_fewer_tickets_and_the_bounds_hold(rate: int, rounding: str, minimum: int,
                                                                 extra: int | None, a: int, b: int) -> None:
    cap = None if extra is None else max(1, minimum) + extra
    r = TicketRate(rate, rounding, minimum, cap)
    lo, hi = sorted((a, b))
    assert r.tickets(lo) <= r.tickets(hi)
    for c in (lo, hi):
        n = r.tickets(c)
        assert n >= minimum and (cap is None or n <= cap)
        assert c // rate <= n or n == cap  # rounding never takes a whole ticket away
        assert n <= -(-c // rate) or n == minimum  # nor gives more than rounding up would
