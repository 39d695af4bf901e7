"""A prize draw that anyone can check (docs/prize-draw.md).

Before a draw's tickets are known the room publishes ``commitment`` = SHA-256 of a secret
32-byte seed. When the draw closes, its tickets are frozen (numbered 1, 2, ... in guest order,
and hashed); anyone in the room may then give a ``witness`` (words called out, a die's roll),
and only then is the seed revealed. The winners follow from the seed, the tickets' digest and
the witness alone, so the house could not pick its seed to suit the tickets, nor the tickets to
suit its seed without knowing the witness. :func:`verify` recomputes a published proof."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..core.errors import RuleError

#: The message's prefix in the draw key's HMAC: the draw's own domain.
DOMAIN: Final = b"syndicate/prize-draw/"
#: The proof's ``kind`` and ``version``.
KIND: Final = "syndicate prize draw"
VERSION: Final = 1


class DrawError(RuleError):
    """A draw that cannot be made (no tickets, no prize) or a proof that is not one."""


@dataclass(frozen=True, slots=True)
class Ticket:
    number: int
    holder: int


@dataclass(frozen=True, slots=True)
class Win:
    """Prize ``prize`` (1 for the first listed) went to ticket ``ticket``, held by ``holder``."""

    prize: int
    ticket: int
    holder: int


def new_seed() -> bytes:
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """What is published before the tickets are known: SHA-256 of the seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


def number(counts: Mapping[int, int]) -> tuple[Ticket, ...]:
    """The tickets of ``counts`` (holder: how many), numbered from 1 in holder order."""
    out: list[Ticket] = []
    for holder in sorted(counts):
        n = counts[holder]
        if type(n) is not int or n < 0:
            raise DrawError("draw_tickets", f"a guest holds a whole number of tickets, not {n!r}")
        out += [Ticket(len(out) + k + 1, holder) for k in range(n)]
    return tuple(out)


def digest(tickets: Sequence[Ticket]) -> str:
    """SHA-256, in hex, of the tickets as text: a line ``<number> <holder>`` for each, in
    number order, each line ended by a newline."""
    for i, t in enumerate(tickets, 1):
        if t.number != i:
            raise DrawError("draw_tickets", f"tickets are numbered 1, 2, 3 and so on without a gap: "
                            f"ticket {i} is numbered {t.number}")
    text = "".join(f"{t.number} {t.holder}\n" for t in tickets)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _numbers(key: bytes) -> Iterator[int]:
    """The draw's stream: block k is SHA-256(key || k as 8 bytes), eight 32-bit numbers each."""
    k = 0
    while True:
        yield from struct.unpack(">8I", hashlib.sha256(key + k.to_bytes(8, "big")).digest())
        k += 1


def draw(seed: bytes, tickets: Sequence[Ticket], prizes: int, witness: str = "",
         one_prize_per_guest: bool = False) -> tuple[Win, ...]:
    """The winners of ``prizes`` prizes, in the order they are listed. A ticket wins once; with
    ``one_prize_per_guest`` a winner's other tickets leave the draw too. When the tickets run out
    first, the prizes left are not drawn (the answer is shorter)."""
    if not tickets:
        raise DrawError("draw_needs_tickets", "a draw needs tickets: convert chips (or give tickets) first")
    if type(prizes) is not int or prizes < 1:
        raise DrawError("draw_needs_prizes", "a draw needs at least one prize to draw for")
    if len(seed) != 32:
        raise DrawError("draw_seed", "a draw's seed is 32 bytes")
    key = hmac.new(seed, DOMAIN + bytes.fromhex(digest(tickets)) + witness.encode("utf-8"), hashlib.sha256).digest()
    stream = _numbers(key)
    left = list(tickets)
    wins: list[Win] = []
    for prize in range(1, prizes + 1):
        if not left:
            break
        m = len(left)
        limit = 2**32 - 2**32 % m  # rejection keeps every ticket's chance equal
        u = next(stream)
        while u >= limit:
            u = next(stream)
        won = left.pop(u % m)
        wins.append(Win(prize, won.number, won.holder))
        if one_prize_per_guest:
            left = [t for t in left if t.holder != won.holder]
    return tuple(wins)


def standings_digest(standings: Sequence[tuple[int, int]]) -> str:
    """SHA-256, in hex, of a top-chips draw's standings as text: a line ``<holder> <chips>`` for
    each guest, in holder order, each ended by a newline."""
    holders = [h for h, _ in standings]
    if holders != sorted(set(holders)):
        raise DrawError("draw_standings", "the standings list each guest once, in the order of their id")
    return hashlib.sha256("".join(f"{h} {c}\n" for h, c in standings).encode("ascii")).hexdigest()


def top(seed: bytes, standings: Sequence[tuple[int, int]], prizes: int, witness: str = "") -> tuple[Win, ...]:
    """The prizes of a top-chips draw, in the order listed, to the guests with the most chips
    (``standings``: holder, chips): the first prize to the most. Guests with as many chips are
    ordered by SHA-256(key || holder as 8 bytes), the key made as a raffle's from the
    standings' digest: the seed, committed before, decides a tie. A win's ticket is 0."""
    if not standings:
        raise DrawError("draw_needs_tickets", "a top-chips draw needs guests with chips")
    if type(prizes) is not int or prizes < 1:
        raise DrawError("draw_needs_prizes", "a draw needs at least one prize to draw for")
    key = hmac.new(seed, DOMAIN + b"top/" + bytes.fromhex(standings_digest(standings)) + witness.encode("utf-8"),
                   hashlib.sha256).digest()
    order = sorted(standings, key=lambda s: (-s[1], hashlib.sha256(key + s[0].to_bytes(8, "big")).digest()))
    return tuple(Win(i, 0, h) for i, (h, _) in enumerate(order[:prizes], 1))


def proof(*, name: str, committed: str, tickets: Sequence[Ticket], prizes: Sequence[str], witness: str,
          one_prize_per_guest: bool, seed: bytes | None = None, wins: Sequence[Win] = ()) -> dict[str, Any]:
    """The draw as published: ``committed`` before anything else; until the draw, no ``seed``
    and no winners."""
    return {
        "kind": KIND, "version": VERSION, "draw": name,
        "commitment": committed,
        "seed": None if seed is None else seed.hex(),
        "witness": witness, "one_prize_per_guest": one_prize_per_guest,
        "prizes": list(prizes),
        "tickets": [[t.number, t.holder] for t in tickets],
        "tickets_digest": digest(tickets),
        "winners": [{"prize": w.prize, "ticket": w.ticket, "holder": w.holder} for w in wins],
    }


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    pending: bool
    messages: tuple[str, ...]


def verify(doc: Mapping[str, Any]) -> Verdict:
    """Recompute a published draw: the seed against the commitment, the tickets against their
    digest, and every winner from the seed, the tickets and the witness."""
    if doc.get("kind") == KIND and doc.get("draw_kind") == "top":
        return _verify_top(doc)
    try:
        if doc.get("kind") != KIND or doc.get("version") != VERSION:
            raise DrawError("draw_proof", f"not a prize draw's proof (kind {KIND!r}, version {VERSION})")
        tickets = tuple(Ticket(int(n), int(h)) for n, h in doc["tickets"])
        said_digest, committed = str(doc["tickets_digest"]), str(doc["commitment"])
        prizes, witness = list(doc["prizes"]), str(doc["witness"])
        once = bool(doc["one_prize_per_guest"])
        claimed = [Win(int(w["prize"]), int(w["ticket"]), int(w["holder"])) for w in doc["winners"]]
        seed_hex = doc["seed"]
    except (KeyError, TypeError, ValueError) as e:
        raise DrawError("draw_proof", f"the proof is not whole: {e}") from None
    out: list[str] = []
    ok = True
    real = digest(tickets)
    if real != said_digest:
        ok = False
        out.append(f"the tickets do not match their digest: {real} is not {said_digest}")
    else:
        out.append(f"{len(tickets)} tickets match their digest {real}")
    seed = _opened(seed_hex, committed, ok, out)
    if isinstance(seed, Verdict):
        return seed
    try:
        wins = list(draw(seed, tickets, len(prizes), witness, once))
    except DrawError as e:
        return Verdict(False, False, (*out, f"no draw can be made from this proof: {e.message}"))
    for i, prize in enumerate(prizes, 1):
        want = next((w for w in wins if w.prize == i), None)
        got = next((w for w in claimed if w.prize == i), None)
        if want == got:
            out.append(f"prize {i} ({prize}): " + (f"ticket {want.ticket} (guest {want.holder})" if want
                                                     else "not drawn: no ticket was left"))
        else:
            ok = False
            out.append(f"prize {i} ({prize}): the proof says {_said(got)}, the draw gives {_said(want)}")
    if len(claimed) > len(wins):
        ok = False
        out.append(f"the proof names {len(claimed) - len(wins)} winner(s) the draw does not give")
    return Verdict(ok, False, tuple(out))


def _opened(seed_hex: Any, committed: str, ok: bool, out: list[str]) -> bytes | Verdict:
    """The revealed seed, checked against the commitment (said in ``out``); or, while it is
    secret or when it does not match, the verdict so far."""
    if seed_hex is None:
        return Verdict(ok, True, (*out, f"the seed is still secret: the draw is committed to {committed}"))
    try:
        seed = bytes.fromhex(str(seed_hex))
    except ValueError:
        raise DrawError("draw_proof", "the revealed seed is not hexadecimal") from None
    if commitment(seed) != committed:
        return Verdict(False, False, (*out, "the revealed seed does not match the commitment published before the draw"))
    out.append("the revealed seed matches the commitment published before the draw")
    return seed


def _said(w: Win | None) -> str:
    return "no winner" if w is None else f"ticket {w.ticket} (guest {w.holder})"


def top_proof(*, name: str, committed: str, standings: Sequence[tuple[int, int]], prizes: Sequence[str],
              witness: str, seed: bytes | None = None, wins: Sequence[Win] = ()) -> dict[str, Any]:
    """A top-chips draw as published: its standings instead of tickets."""
    return {
        "kind": KIND, "version": VERSION, "draw_kind": "top", "draw": name, "commitment": committed,
        "seed": None if seed is None else seed.hex(), "witness": witness, "prizes": list(prizes),
        "standings": [[h, c] for h, c in standings],
        "standings_digest": standings_digest(standings) if standings else None,
        "winners": [{"prize": w.prize, "holder": w.holder} for w in wins],
    }


def _verify_top(doc: Mapping[str, Any]) -> Verdict:
    try:
        if doc.get("version") != VERSION:
            raise DrawError("draw_proof", f"not a prize draw's proof (version {VERSION})")
        standings = [(int(h), int(c)) for h, c in doc["standings"]]
        said, committed, prizes = doc["standings_digest"], str(doc["commitment"]), list(doc["prizes"])
        witness, seed_hex = str(doc["witness"]), doc["seed"]
        claimed = [(int(w["prize"]), int(w["holder"])) for w in doc["winners"]]
        real = standings_digest(standings) if standings else None
    except (KeyError, TypeError, ValueError) as e:
        raise DrawError("draw_proof", f"the proof is not whole: {e}") from None
    out: list[str] = []
    if real != said:
        return Verdict(False, False, (f"the standings do not match their digest: {real} is not {said}",))
    out.append(f"{len(standings)} guests' chips match their digest {real}")
    seed = _opened(seed_hex, committed, True, out)
    if isinstance(seed, Verdict):
        return seed
    want = [(w.prize, w.holder) for w in top(seed, standings, len(prizes), witness)]
    ok = want == claimed
    out += [f"prize {p} ({prizes[p - 1]}): guest {h}" for p, h in want] if ok else [
        f"the proof's winners {claimed} are not the draw's {want}"]
    return Verdict(ok, False, tuple(out))
