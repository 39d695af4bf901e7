"""Replaying and verifying Blackjack hand histories (format: docs/hand-history.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core import money, play
from ..core.replays import by_clock, clock_moves, replay_json
from ..core.shoe import EnteredShoe, Shoe, commitment_of
from . import records as rec
from .round import Round, shuffled
from .rules import Rules


@dataclass
class ReplayResult:
    """What a replay found: a line per step, each seat's net, and whether it matched."""

    steps: list[str] = field(default_factory=list)
    results: dict[int, int] = field(default_factory=dict)  # seat -> net cents over all rounds
    rounds: int = 0
    matches: bool = True
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return replay_json("blackjack", self.rounds, self.matches, self.results, self.steps, self.problems)


@dataclass
class VerifyResult:
    ok: bool
    messages: list[str]
    cards_checked: int = 0
    pending: int = 0  # shoes that cannot be checked yet: no openings, seed still secret (not a failure)
    entered: int = 0  # shoes whose cards the dealer entered: no shuffle to verify (neither pass nor failure)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "cards_checked": self.cards_checked, "pending": self.pending,
                "entered": self.entered, "messages": self.messages}


def round_name(rnd: dict[str, Any]) -> str:
    """How a round is named to a person: by its evening-wide hand number when the history came
    from a card room (``hand_id``), else by its number in the history."""
    return f"hand {rnd['hand_id']}" if rnd.get("hand_id") is not None else f"round {rnd['number']}"


def replay(doc: dict[str, Any]) -> ReplayResult:
    """Re-run every round of the history through the engine and compare logs exactly."""
    rules = Rules.from_dict(doc["rules"])
    out = ReplayResult()
    shoes = doc.get("shoes") or []
    # A real shoe dealt by hand counts its cards over all its rounds, so its rounds share one.
    entered = {i: EnteredShoe(sj["decks"]) for i, sj in enumerate(shoes) if sj.get("entered")}
    for rnd in doc["rounds"]:
        number = round_name(rnd)
        stacks = {int(k): v for k, v in rnd["stacks"].items()}
        log = rnd["log"]
        by_hand = entered.get(rnd.get("shoe", -1))
        if by_hand is None:
            cards = [rec.from_json(r).card for r in log if r["type"] in ("card",)]
            start = next((r["shoe_position"] for r in log if r["type"] == "deal"), 0)
            rd = shuffled(rules, Shoe.for_replay(cards, start, rules.decks), stacks)
        else:
            rd = Round(rules, by_hand, stacks)
        out.steps.append(f"— {number} —")
        try:
            play.replay(rd, (rec.from_json(r) for r in log))
        except (ValueError, IndexError, TypeError) as e:
            out.matches = False
            out.problems.append(f"{number}: the engine refused a recorded action: {e}")
        produced = [rec.to_json(r) for r in rd.log]
        clock = clock_moves(rnd)
        for i, r in enumerate(rd.log):
            out.steps.append(by_clock(describe(r), clock[i]) if i in clock else describe(r))
        if produced != log:
            out.matches = False
            at = next((i for i, (a, b) in enumerate(zip(produced, log)) if a != b), min(len(produced), len(log)))
            out.problems.append(f"{number}: replay differs from the record at step {at + 1}")
        recorded = rnd.get("results")
        if recorded is not None and {str(k): v for k, v in rd.results().items()} != recorded:
            out.matches = False
            out.problems.append(f"{number}: results differ from the record")
        for seat, net in rd.results().items():
            out.results[seat] = out.results.get(seat, 0) + net
        out.rounds += 1
    return out


def steps_of(doc: dict[str, Any]) -> list[str]:
    """The rounds as lines of English, from the document as it stands (a hole card never
    turned over is not in a redacted copy)."""
    steps: list[str] = []
    for rnd in doc["rounds"]:
        steps.append(f"— {round_name(rnd)} —")
        clock = clock_moves(rnd)
        for i, r in enumerate(rnd["log"]):
            if r["type"] == "card" and r.get("card") is None:
                steps.append("dealer gets the hole card, face down (never shown)")
            elif r["type"] == "take_back" and r.get("card") is None:
                steps.append("card taken back (face down): the dealer's hole card, never shown, a correction")
            elif i in clock:
                steps.append(by_clock(describe(rec.from_json(r)), clock[i]))
            else:
                steps.append(describe(rec.from_json(r)))
    return steps


def _verify_openings(label: str, sj: dict[str, Any], rounds: list[dict[str, Any]]) -> tuple[bool, str, int]:
    from ..core.fairness import check_openings
    from .fairness import positions as blackjack_positions

    seen = [(p, c) for rnd in rounds for p, c, _shown in blackjack_positions(rnd) if c is not None]
    problems = check_openings(sj, seen)
    if problems:
        return False, f"{label}: " + "; ".join(problems), 0
    under, stub = _split_restub(sj, seen)
    message = (f"{label}: commitment {sj['commitment'][:16]}… matches; each of the {under} card(s) "
               "shown opens its committed position")
    if stub:
        message += (f"; {stub} card(s) of a re-stub (after the published root) check against the listed "
                    "position commitments only, which the seed's reveal proves")
    return True, message + (" (the whole shuffle checks when the seed is revealed: when the table "
                            "closes, or when the event ends if it reveals seeds then)"), len(seen)


def _split_restub(s: dict[str, Any], seen: list[tuple[int, str]]) -> tuple[int, int]:
    """How many of ``seen`` lie under the published root, and how many in a re-stub after it:
    a re-stub's position commitments did not exist when the root was published, so nothing
    but the seed binds them (docs/fairness.md)."""
    committed = s["committed"]
    stub = sum(p >= committed for p, _c in seen)
    return len(seen) - stub, stub


def _legacy(s: dict[str, Any], seed_hex: str) -> bool:
    from ..core.fairness import is_legacy

    return is_legacy(s, seed_hex)


def verify(doc: dict[str, Any]) -> VerifyResult:
    """Check every dealt card against the committed shoe order (recomputed from the seed)."""
    msgs: list[str] = []
    ok = True
    checked = 0
    pending = 0
    rounds_by_shoe: dict[int, list[dict[str, Any]]] = {}
    for rnd in doc["rounds"]:
        rounds_by_shoe.setdefault(rnd["shoe"], []).append(rnd)
    entered = 0
    for index, sj in enumerate(doc["shoes"]):
        label = f"shoe {index + 1}"
        seed, order = sj.get("seed"), sj.get("order")
        if sj.get("entered"):
            entered += 1
            msgs.append(f"{label}: real cards, entered by the dealer as they were dealt: there is no shuffle "
                        "to verify (nothing was committed; the history records the cards dealt)")
            continue
        if seed:
            if sj.get("seed_hash") is not None and commitment_of(bytes.fromhex(seed)) != sj["seed_hash"]:
                ok = False
                msgs.append(f"{label}: SHA-256 of the revealed seed does not match the seed hash")
                continue
            shoe = Shoe.from_seed(seed, sj["decks"], sj["penetration"], sj["burn"])
            if _legacy(sj, seed):
                pass  # dealt before per-position commitments: SHA-256(seed) is the commitment
            elif shoe.commitment != sj["commitment"]:
                ok = False
                msgs.append(f"{label}: the revealed seed's position commitments do not make the commitment")
                continue
        elif order:
            shoe = Shoe.stacked(order, penetration=sj["penetration"], burn=sj["burn"], decks=sj["decks"])
            if shoe.commitment != sj["commitment"]:
                ok = False
                msgs.append(f"{label}: the revealed order does not match the commitment")
                continue
        elif sj.get("positions") is not None:
            good, message, n = _verify_openings(label, sj, rounds_by_shoe.get(index, []))
            ok = ok and good
            checked += n
            msgs.append(message)
            continue
        else:  # no openings (stacked, or dealt before per-position commitments), nothing revealed yet
            pending += 1
            msgs.append(f"{label}: not yet verifiable: its seed is still secret and the history carries "
                        "no openings (a stacked shoe, or one dealt before per-position commitments); "
                        "verify again once it is revealed")
            continue
        shoe_ok = True
        for rnd in rounds_by_shoe.get(index, []):
            deal = next((r for r in rnd["log"] if r["type"] == "deal"), None)
            if deal is None:
                continue
            shoe.begin_round()
            if deal["shoe_position"] != shoe.position:
                shoe_ok = False
                msgs.append(
                    f"{label}, {round_name(rnd)}: dealing started at card {deal['shoe_position']}, "
                    f"but the shoe was at card {shoe.position}"
                )
                break
            for r in rnd["log"]:
                if r["type"] != "card":
                    continue
                expected = shoe.draw()
                checked += 1
                if r["card"] != expected.text:
                    shoe_ok = False
                    msgs.append(
                        f"{label}, {round_name(rnd)}: dealt {r['card']} where the committed order "
                        f"has {expected.text} (card {shoe.position})"
                    )
                    break
            if not shoe_ok:
                break
        ok = ok and shoe_ok
        if shoe_ok:
            msgs.append(f"{label}: commitment {sj['commitment'][:16]}… matches; every card dealt came from it")
    return VerifyResult(ok, msgs, checked, pending, entered)


def describe(r: Any) -> str:
    """One line of English per record, for `syndicate replay`."""
    t = r.type
    who = "dealer" if getattr(r, "seat", None) == rec.DEALER else f"seat {getattr(r, 'seat', '?')}"
    if t == "bet":
        return f"{who} bets {money.format(r.amount)}"
    if t == "withdraw":
        return f"{who} takes back {money.format(r.amount)} and leaves"
    if t == "deal":
        return f"dealing to seats {', '.join(map(str, r.seats))}"
    if t == "card":
        if r.seat == rec.DEALER:
            return f"dealer gets {r.card.pretty}" + ("" if r.face_up else " (hole card, face down)")
        return f"{who} hand {r.hand + 1} gets {r.card.pretty}"
    if t == "insurance":
        return f"{who} takes insurance for {money.format(r.amount)}"
    if t == "no_insurance":
        return f"{who} declines insurance"
    if t == "even_money":
        return f"{who} takes even money"
    if t == "play_on":
        return f"{who} declines to surrender"
    if t == "surrender":
        return f"{who} surrenders hand {r.hand + 1}"
    if t == "peek":
        return "dealer peeks: " + ("blackjack!" if r.blackjack else "no blackjack")
    if t == "hit":
        return f"{who} hits hand {r.hand + 1}"
    if t == "stand":
        return f"{who} stands on hand {r.hand + 1}" + (" (by rule)" if r.auto else "")
    if t == "double":
        return f"{who} doubles hand {r.hand + 1} for {money.format(r.amount)}"
    if t == "split":
        return f"{who} splits hand {r.hand + 1} (another {money.format(r.amount)})"
    if t == "leave":
        return f"{who} leaves, forfeiting the bets on the table"
    if t == "reveal":
        return f"dealer reveals the hole card: {r.card.pretty}"
    if t == "take_back":
        where = ("the dealer's hole card" if not r.face_up else "the dealer's card") if r.seat == rec.DEALER \
            else f"{who} hand {r.hand + 1}'s card"
        return f"card taken back ({r.card.pretty}): {where}, a correction"
    if t == "shuffle":
        return (f"dealer shuffles the discards back into the shoe: {r.returned} card(s) back in, the "
                f"{r.on_table} on the table still out")
    if t == "payout":
        if r.hand == -1:
            return f"{who}: {OUTCOMES.get(r.outcome, r.outcome)}, {money.format(r.returned)} back (net {money.format(r.net)})"
        return (f"{who} hand {r.hand + 1}: {OUTCOMES.get(r.outcome, r.outcome)}, {money.format(r.returned)} back "
                f"(net {money.format(r.net)})")
    return t.replace("_", " ")


#: A bet's outcome in words (the record keeps the engine's name of it).
OUTCOMES = {
    "win": "wins", "lose": "loses", "push": "push", "blackjack": "blackjack", "bust": "bust",
    "surrender": "surrendered", "even_money": "even money", "forfeit": "forfeited",
    "insurance_win": "insurance won", "insurance_lose": "insurance lost", "insurance_forfeit": "insurance forfeited",
}
