"""An independent verifier written from docs/prize-draw.md alone: hashlib, hmac and the JSON
proof, none of syndicate's code. It recomputes proofs syndicate publishes, and finds a proof
whose winner was changed."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import struct

from syndicate.prizes import draw


# -- the verifier, from the doc ----------------------------------------------------------------
def doc_winners(seed: bytes, tickets: list[list[int]], prizes: int, witness: str, once: bool) -> list[dict]:
    text = "".join(f"{n} {h}\n" for n, h in tickets).encode("ascii")
    digest = hashlib.sha256(text).digest()
    key = hmac.new(seed, b"syndicate/prize-draw/" + digest + witness.encode("utf-8"), hashlib.sha256).digest()
    numbers: list[int] = []
    block = 0

    def nxt() -> int:
        nonlocal block
        if not numbers:
            numbers.extend(struct.unpack(">8I", hashlib.sha256(key + block.to_bytes(8, "big")).digest()))
            block += 1
        return numbers.pop(0)

    left = [list(t) for t in tickets]
    out = []
    for prize in range(1, prizes + 1):
        if not left:
            break
        m = len(left)
        u = nxt()
        while u >= 2**32 - (2**32 % m):
            u = nxt()
        number, holder = left.pop(u % m)
        out.append({"prize": prize, "ticket": number, "holder": holder})
        if once:
            left = [t for t in left if t[1] != holder]
    return out


def doc_verify(proof: dict) -> bool:
    seed = bytes.fromhex(proof["seed"])
    text = "".join(f"{n} {h}\n" for n, h in proof["tickets"]).encode("ascii")
    return (hashlib.sha256(seed).hexdigest() == proof["commitment"]
            and hashlib.sha256(text).hexdigest() == proof["tickets_digest"]
            and [n for n, _ in proof["tickets"]] == list(range(1, len(proof["tickets"]) + 1))
            and doc_winners(seed, proof["tickets"], len(proof["prizes"]), proof["witness"],
                            proof["one_prize_per_guest"]) == proof["winners"])


# -- against what syndicate publishes ------------------------------------------------------------
def _published(rng: random.Random) -> dict:
    counts = {rng.randrange(1, 10_000): rng.randrange(0, 40) for _ in range(rng.randrange(1, 30))}
    if not any(counts.values()):
        counts[1] = 1
    seed = rng.randbytes(32)
    prizes = [f"prize {i}" for i in range(rng.randrange(1, 12))] or ["prize"]
    witness = rng.choice(["", "3 and 5", "Ünïcode ♠ wïtness", str(rng.random())])
    once = rng.random() < 0.5
    tickets = draw.number(counts)
    wins = draw.draw(seed, tickets, len(prizes), witness, once)
    doc = draw.proof(name="Wave", committed=draw.commitment(seed), tickets=tickets, prizes=prizes,
                     witness=witness, one_prize_per_guest=once, seed=seed, wins=wins)
    return json.loads(json.dumps(doc))  # as it is read back from the published file


def test_the_doc_verifies_what_syndicate_publishes() -> None:
    rng = random.Random(20261206)
    for _ in range(300):
        assert doc_verify(_published(rng))


def test_the_doc_finds_a_changed_winner() -> None:
    rng = random.Random(7)
    proof = _published(rng)
    while len(proof["tickets"]) < 2:
        proof = _published(rng)
    w = proof["winners"][0]
    other = next(t for t in proof["tickets"] if t[0] != w["ticket"])
    w["ticket"], w["holder"] = other
    assert not doc_verify(proof)
    assert not draw.verify(proof).ok


def doc_top(seed: bytes, standings: list[list[int]], prizes: int, witness: str) -> list[dict]:
    text = "".join(f"{h} {c}\n" for h, c in standings).encode("ascii")
    key = hmac.new(seed, b"syndicate/prize-draw/top/" + hashlib.sha256(text).digest() + witness.encode("utf-8"),
                   hashlib.sha256).digest()
    order = sorted(standings, key=lambda s: (-s[1], hashlib.sha256(key + s[0].to_bytes(8, "big")).digest()))
    return [{"prize": i, "holder": h} for i, (h, _) in enumerate(order[:prizes], 1)]


def test_the_doc_verifies_a_top_chips_draw() -> None:
    rng = random.Random(99)
    for _ in range(100):
        holders = sorted(rng.sample(range(1, 500), rng.randrange(1, 25)))
        standings = [(h, rng.choice([100, 5_000, 5_000, rng.randrange(1, 10**7)])) for h in holders]
        seed, witness, prizes = rng.randbytes(32), rng.choice(["", "6"]), [f"p{i}" for i in range(rng.randrange(1, 6))]
        wins = draw.top(seed, standings, len(prizes), witness)
        doc = json.loads(json.dumps(draw.top_proof(name="Top", committed=draw.commitment(seed), standings=standings,
                                                   prizes=prizes, witness=witness, seed=seed, wins=wins)))
        text = "".join(f"{h} {c}\n" for h, c in doc["standings"]).encode("ascii")
        assert hashlib.sha256(text).hexdigest() == doc["standings_digest"]
        assert hashlib.sha256(bytes.fromhex(doc["seed"])).hexdigest() == doc["commitment"]
        assert doc_top(bytes.fromhex(doc["seed"]), doc["standings"], len(doc["prizes"]), doc["witness"]) == doc["winners"]
