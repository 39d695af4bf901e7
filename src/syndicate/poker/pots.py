"""Pots: the main pot and side pots under table stakes, and splitting a pot between winners.

Table stakes means a player can never be asked for more than they have in front of them;
a player who cannot match a bet goes all-in for what they have and can win from each other
player at most what they put in. That is what side pots are: the chips are sliced at every
all-in level, each slice is contested only by the players who reached it, and each is
split on its own.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, NamedTuple

ODD_CHIP_RULES = ("carry", "left_of_button")


class Pot(NamedTuple):
    """``amount`` cents contested by the ``eligible`` seats (folded players are never eligible)."""

    amount: int
    eligible: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return {"amount": self.amount, "eligible": list(self.eligible)}


def side_pots(contributions: Mapping[int, int], live: Collection[int]) -> list[Pot]:
    """Slice everything put in (``contributions``, antes included) into the main pot and side pots.

    Each slice ends at the smallest total among live players still in it; folded players'
    chips count in every slice they reached but give them no claim on it. Slices with the
    same eligible players are merged, so the result is the main pot first, then each side pot.
    """
    remaining = {s: a for s, a in contributions.items() if a > 0}
    pots: list[Pot] = []
    while remaining:
        in_slice = sorted(s for s in remaining if s in live)
        if not in_slice:
            # Only dead money is left (cannot happen once uncalled bets are returned): it goes to
            # the last pot rather than vanish.
            dead = sum(remaining.values())
            if pots:
                pots[-1] = Pot(pots[-1].amount + dead, pots[-1].eligible)
            else:
                pots.append(Pot(dead, ()))
            break
        level = min(remaining[s] for s in in_slice)
        amount = 0
        for s in list(remaining):
            take = min(remaining[s], level)
            amount += take
            if remaining[s] == take:
                del remaining[s]
            else:
                remaining[s] -= take
        eligible = tuple(in_slice)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
    return pots


def split(
    amount: int, winners: Sequence[int], chip: int, odd_chip: str = "carry"
) -> tuple[dict[int, int], int]:
    """Share ``amount`` between ``winners`` (in order from the button's left); return
    (cents per winner, remainder carried into the next pot).

    The seed: "If the pot cannot be divided evenly using available chips, each winning player
    receives the nearest whole chip value. Any leftover chips (the remainder) carry over into
    the next pot." So with ties each winner gets the same whole number of chips and the rest
    carries (``odd_chip="carry"``). The alternative card-room rule, ``"left_of_button"``, hands
    the leftover chips out one at a time to the winners nearest the button's left instead.
    A single winner takes the whole pot, odd cents included.
    """
    if not winners:
        raise ValueError("a pot needs at least one winner")
    if odd_chip not in ODD_CHIP_RULES:
        raise ValueError(f"odd_chip must be one of {ODD_CHIP_RULES}, got {odd_chip!r}")
    if len(winners) == 1:
        return {winners[0]: amount}, 0
    n = len(winners)
    share = amount // (n * chip) * chip
    shares = {w: share for w in winners}
    rest = amount - share * n
    if odd_chip == "carry":
        return shares, rest
    i = 0
    while rest > 0:
        give = min(chip, rest)
        shares[winners[i % n]] += give
        rest -= give
        i += 1
    return shares, 0


def settle(
    pots: Sequence[Pot], values: Mapping[int, Any], order: Sequence[int], chip: int,
    odd_chip: str = "carry",
) -> tuple[list[tuple[int, int, int]], list[tuple[int, int]]]:
    """Award each pot on its own to the best of its eligible players' ``values`` (anything
    comparable, higher is better), splitting ties with :func:`split` in ``order``.

    Returns (awards as (pot index, seat, amount), remainders as (pot index, amount)).
    """
    awards: list[tuple[int, int, int]] = []
    carried: list[tuple[int, int]] = []
    for i, pot in enumerate(pots):
        best = max(values[s] for s in pot.eligible)
        winners = [s for s in order if s in pot.eligible and values[s] == best]
        shares, rest = split(pot.amount, winners, chip, odd_chip)
        awards.extend((i, s, shares[s]) for s in winners)
        if rest:
            carried.append((i, rest))
    return awards, carried
