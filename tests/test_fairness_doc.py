"""An independent verifier written from docs/fairness.md alone: it uses hashlib and hmac, not
syndicate's hashing, and checks a real hand's openings (seed secret) and, once the seed is
revealed, the whole shuffle. syndicate only plays the hand and serves the history."""

from __future__ import annotations

import hashlib
import hmac
import random
import struct

from syndicate.core.shoe import Shoe
from syndicate.poker import bots
from syndicate.poker.dealing import deal_hand
from syndicate.poker.draw import DrawHand
from syndicate.poker.history import to_history
from syndicate.poker.rules import DrawRules
from syndicate.room.histories import for_viewer

RANKS, SUITS = "23456789TJQKA", "cdhs"


# -- the verifier, from the doc ----------------------------------------------------------------
def be4(i: int) -> bytes:
    return i.to_bytes(4, "big")


def doc_shuffle(seed: bytes, decks: int) -> list[str]:
    cards = [r + s for _ in range(decks) for r in RANKS for s in SUITS]
    k = 0
    buf: list[int] = []

    def nxt() -> int:
        nonlocal k
        while not buf:
            buf.extend(struct.unpack(">8I", hashlib.sha256(seed + k.to_bytes(8, "big")).digest()))
            k += 1
        return buf.pop(0)

    for i in range(len(cards) - 1, 0, -1):
        m = i + 1
        u = nxt()
        while u >= 2**32 - 2**32 % m:
            u = nxt()
        j = u % m
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def doc_position_commitment(salt: bytes, i: int, card: str) -> bytes:
    return hashlib.sha256(salt + be4(i) + card.encode("ascii")).digest()


def doc_poker_positions(entry: dict) -> list[tuple[int, str]]:
    pos = entry["shoe"]["start"]
    out = []
    deals = [d for d in entry["log"] if d["type"] == "deal"]
    for k in range(5):
        for d in deals:
            out.append((pos, d["cards"][k]))
            pos += 1
    for d in entry["log"]:
        if d["type"] == "draw":
            for c in d["received"]:
                out.append((pos, c))
                pos += 1
    return out


def doc_verify_openings(shoe: dict, cards: list[tuple[int, str]]) -> int:
    raw = [bytes.fromhex(c) for c in shoe["positions"]]
    assert hashlib.sha256(b"".join(raw[:shoe["committed"]])).hexdigest() == shoe["commitment"]
    opened = {o["position"]: o for o in shoe["openings"]}
    checked = 0
    for p, card in cards:
        if card == "??":
            assert p not in opened
            continue
        o = opened[p]
        assert o["card"] == card
        assert doc_position_commitment(bytes.fromhex(o["salt"]), p, card) == raw[p]
        checked += 1
    return checked


def doc_verify_seed(shoe: dict, cards: list[tuple[int, str]]) -> None:
    seed = bytes.fromhex(shoe["seed"])
    assert hashlib.sha256(seed).hexdigest() == shoe["seed_hash"]
    order = doc_shuffle(seed, shoe["decks"])
    commitments = [doc_position_commitment(hmac.new(seed, b"position" + be4(i), hashlib.sha256).digest(), i, c)
                   for i, c in enumerate(order)]
    assert hashlib.sha256(b"".join(commitments)).hexdigest() == shoe["commitment"]
    for p, card in cards:
        assert order[p] == card


# -- a real hand ---------------------------------------------------------------------------------
def _hand(seed: int) -> tuple[DrawHand, Shoe]:
    shoe = Shoe.new(1, penetration=1.0, burn=0)
    hand = deal_hand(DrawRules(), {1: 5_000, 2: 5_000, 3: 5_000}, 1, shoe)
    rng = random.Random(seed)
    while not hand.is_terminal:
        bots.act(hand, hand.to_act, rng)
    return hand, shoe


def test_an_independent_verifier_checks_a_real_hands_openings_then_its_seed() -> None:
    for n in range(6):
        hand, shoe = _hand(n)
        stored = to_history(hand)
        stored["hands"][0]["shoe"]["seed"] = None  # as the live room stores it: not yet revealed
        served = for_viewer(stored, shoe.escrow_hex(), house=False, seats={})
        entry = served["hands"][0]
        assert entry["shoe"]["seed"] is None and shoe.escrow_hex() not in str(served)
        cards = doc_poker_positions(entry)
        doc_verify_openings(entry["shoe"], cards)
        # The holder's copy: their own five (and draws) open too.
        mine = for_viewer(stored, shoe.escrow_hex(), house=False, seats={1: 1})["hands"][0]
        own = doc_verify_openings(mine["shoe"], doc_poker_positions(mine))
        assert own >= 5
        # The seed revealed (the table closed): the whole shuffle checks.
        stored["hands"][0]["shoe"]["seed"] = shoe.escrow_hex()
        full = for_viewer(stored, shoe.escrow_hex(), house=False, seats={})["hands"][0]
        doc_verify_seed(full["shoe"], doc_poker_positions(full))


def test_the_verifier_refuses_a_forged_opening() -> None:
    hand, shoe = _hand(1)
    stored = to_history(hand)
    stored["hands"][0]["shoe"]["seed"] = None
    entry = for_viewer(stored, shoe.escrow_hex(), house=True, seats={})["hands"][0]
    cards = doc_poker_positions(entry)
    p, card = cards[0]
    other = next(c for _, c in cards if c != card)
    forged = [(p, other)] + cards[1:]
    entry["shoe"]["openings"][0]["card"] = other
    try:
        doc_verify_openings(entry["shoe"], forged)
    except AssertionError:
        return
    raise AssertionError("a forged opening passed")


def test_known_answer_all_zero_seed() -> None:
    assert doc_shuffle(bytes(32), 1)[:8] == "Ks 7d 7s 8c 5h 8s 6h Jh".split()
    shoe = Shoe.from_seed(bytes(32), 1, 1.0, 0)
    commitments = [doc_position_commitment(hmac.new(bytes(32), b"position" + be4(i), hashlib.sha256).digest(), i, c)
                   for i, c in enumerate(doc_shuffle(bytes(32), 1))]
    assert shoe.commitment == hashlib.sha256(b"".join(commitments)).hexdigest()
