"""Poker hand histories: our JSON document, replay, fairness verification and PHH export.

The JSON document (described in ``docs/hand-history-poker.md``) holds, per hand, the table
settings, the seats and stacks, the shoe's commitment and its revealed seed (or the stacked
order), and the full action log. Because the engine is a pure function of those inputs
and the players' decisions, :func:`replay` re-runs every hand and checks that the log comes
out identical, and :func:`verify` checks that every card dealt came from the deck that was
committed to before the hand.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..core import money
from ..core.cards import CardError, card, decks, text
from ..core.errors import RuleError
from ..core.replays import by_clock, clock_moves, replay_json
from ..core.shoe import EnteredShoe, Shoe, ShoeError, commitment_of, shuffled
from . import records as rec
from .draw import DrawHand, DrawRules
from .evaluator import spoken
from .table import DrawTable

FORMAT = "syndicate-history"
VERSION = 1
#: Our PHH variant code: spread-limit ("S", not a PHH betting structure) five-card draw ("5D").
PHH_VARIANT = "S5D"


class HistoryError(ValueError):
    """A document that is not a poker hand history this version understands."""


@dataclass
class ReplayResult:
    steps: list[str]
    net: dict[int, int]
    reproduced: bool
    messages: list[str] = field(default_factory=list)
    hands: int = 0

    # The names `syndicate replay` uses for every game (see syndicate.blackjack.history).
    @property
    def matches(self) -> bool:
        return self.reproduced

    @property
    def results(self) -> dict[int, int]:
        return self.net

    @property
    def rounds(self) -> int:
        return self.hands

    @property
    def problems(self) -> list[str]:
        return [] if self.reproduced else self.messages

    def to_json(self) -> dict[str, Any]:
        return replay_json("poker", self.hands, self.reproduced, self.net, self.steps, self.problems)


@dataclass
class VerifyResult:
    ok: bool
    messages: list[str]
    pending: int = 0  # hands that cannot be checked yet: no openings, seed still secret (not a failure)
    entered: int = 0  # hands whose cards the dealer entered: no shuffle to verify (neither pass nor failure)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "pending": self.pending, "entered": self.entered, "messages": self.messages}


# -- writing --------------------------------------------------------------------------------
def hand_to_json(hand: DrawHand, *, log: list[dict[str, Any]] | None = None,
                 rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """One hand's entry in a history document. ``log`` and ``rules``: the JSON of the hand's
    log records and of its rules, when the caller keeps them already (a live table writes the
    history of the hand in play on every change)."""
    shoe = hand.shoe
    if isinstance(shoe, EnteredShoe):
        # Real cards dealt by hand: nothing committed; the log's `card` records are the cards.
        shoe_json: dict[str, Any] = {"decks": shoe.decks, "start": hand._shoe_start, "commitment": None,
                                     "seed": None, "stacked": None, "entered": True}
        if shoe.shown_only:  # the face-down cards were counted, never named: "??" in every copy
            shoe_json["shown_only"] = True
    else:
        shoe_json = {
            "decks": shoe.decks,
            "start": hand._shoe_start,
            "commitment": shoe.commitment,
            "seed": shoe.seed_hex,
            "stacked": None if shoe.has_seed else text(shoe.order[:hand._shoe_len]),
        }
    return {
        "number": hand.number,
        "button": hand.button,
        "rules": hand.rules.to_dict() if rules is None else rules,
        "stacks": [[s, hand.start_stacks[s]] for s in sorted(hand.start_stacks)],
        "carry_in": hand.carry_in,
        "shoe": shoe_json,
        "complete": hand.is_terminal,
        "log": [r.to_json() for r in hand.log] if log is None else log,
        "result": {
            "stacks": [[s, hand.stacks[s]] for s in sorted(hand.stacks)],
            "carry_out": hand.carry_out,
            "net": [[s, n] for s, n in sorted(hand.results().items())],
        },
    }


def to_history(hand_or_table: DrawHand | DrawTable | Iterable[DrawHand]) -> dict[str, Any]:
    """The history document for one hand, a table's hands so far, or a list of hands."""
    table_log: list[dict[str, Any]] = []
    if isinstance(hand_or_table, DrawHand):
        hands = [hand_or_table]
    elif isinstance(hand_or_table, DrawTable):
        hands = list(hand_or_table.hands)
        if hand_or_table.hand is not None:
            hands.append(hand_or_table.hand)
        table_log = [r.to_json() for r in hand_or_table.log]
    else:
        hands = list(hand_or_table)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": "poker",
        "variant": "five-card-draw",
        "units": "cents",
        "hands": [hand_to_json(h) for h in hands],
    }
    if table_log:
        doc["table_log"] = table_log  # ante proposals and changes, players leaving
    return doc


# -- reading --------------------------------------------------------------------------------
def _check_doc(doc: Any) -> list[dict[str, Any]]:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise HistoryError(f"not a {FORMAT} document")
    if doc.get("game") != "poker":
        raise HistoryError(f"this is a {doc.get('game')!r} history, not poker")
    if doc.get("version") != VERSION:
        raise HistoryError(
            f"history version {doc.get('version')!r} is not supported (expected {VERSION})"
        )
    hands = doc.get("hands")
    if not isinstance(hands, list):
        raise HistoryError("the document has no list of hands")
    return hands


def hand_name(entry: dict[str, Any]) -> str:
    """How a hand is named to a person: by its evening-wide number when the history came from
    a card room (``hand_id``), else by its number in the history."""
    return f"hand {entry['hand_id']}" if entry.get("hand_id") is not None else f"hand {entry.get('number')}"


def _shoe_for(entry: dict[str, Any]) -> Shoe | EnteredShoe:
    s = entry["shoe"]
    if s.get("entered"):
        if any(d["type"] in ("card", "take_back") and d["card"] == rec.HIDDEN for d in entry["log"]):
            raise HistoryError(f"{hand_name(entry)}: a copy with hidden cards cannot be replayed")
        return EnteredShoe(s.get("decks", 1), shown_only=bool(s.get("shown_only")))
    if s.get("seed"):
        return Shoe.from_seed(
            s["seed"], decks=s.get("decks", 1), penetration=1.0, burn=s.get("start", 0)
        )
    if s.get("stacked"):
        return Shoe.stacked(s["stacked"], burn=s.get("start", 0))
    recorded = _recorded_cards(entry)
    if recorded and rec.HIDDEN not in recorded and not any(d["type"] == "restub" for d in entry["log"]):
        # The house's copy before the seed is out: every card is in the record, in deal order.
        from ..core.cards import parse

        return Shoe.for_replay(parse(recorded, distinct=False), s.get("start", 0))
    raise HistoryError(
        f"{hand_name(entry)}: the seed was not revealed, so it cannot be replayed"
    )


def replay_hand(entry: dict[str, Any]) -> DrawHand:
    """Re-run one hand entry through the engine (raises if a decision is refused)."""
    rules = DrawRules.from_dict(entry["rules"])
    stacks = {int(s): int(v) for s, v in entry["stacks"]}
    hand = DrawHand(rules, stacks, entry["button"], _shoe_for(entry),
                    carry_in=entry.get("carry_in", 0), number=entry.get("number", 1))
    for d in entry["log"]:
        hand.apply(d)  # the decisions, and the cards when the dealer entered them
    return hand


def replay(doc: dict[str, Any]) -> ReplayResult:
    """Replay every hand of a history: human-readable steps, net per seat, and whether the
    engine reproduced the recorded log exactly."""
    steps: list[str] = []
    net: dict[int, int] = {}
    messages: list[str] = []
    reproduced = True
    for entry in _check_doc(doc):
        steps.append(f"{hand_name(entry).capitalize()}: button seat {entry.get('button')}, "
                     f"ante {money.format(entry['rules']['ante'])}"
                     + (f", {money.format(entry['carry_in'])} carried in"
                        if entry.get("carry_in") else ""))
        try:
            hand = replay_hand(entry)
        except (RuleError, ShoeError, HistoryError, ValueError, KeyError) as e:
            reproduced = False
            messages.append(f"{hand_name(entry)}: replay failed: {e}")
            continue
        got = [r.to_json() for r in hand.log]
        if got != entry["log"]:
            reproduced = False
            at = next((i for i, (a, b) in enumerate(zip(got, entry["log"])) if a != b),
                      min(len(got), len(entry["log"])))
            messages.append(
                f"{hand_name(entry)}: the replay differs from the record at step {at}"
            )
        clock = clock_moves(entry)
        steps.extend("  " + (by_clock(describe(r.to_json()), clock[i]) if i in clock else describe(r.to_json()))
                     for i, r in enumerate(hand.log))
        for s, n in hand.results().items():
            net[s] = net.get(s, 0) + n
    if reproduced:
        messages.append("replay reproduced the recorded log exactly")
    return ReplayResult(steps, net, reproduced, messages, hands=len(_check_doc(doc)))


def steps_of(doc: dict[str, Any]) -> list[str]:
    """The hands as lines of English, from the document as it stands (a redacted copy shows
    ``??`` where a card was never shown)."""
    steps: list[str] = []
    for entry in _check_doc(doc):
        steps.append(f"{hand_name(entry).capitalize()}: button seat {entry.get('button')}")
        clock = clock_moves(entry)
        steps.extend("  " + (by_clock(describe(d), clock[i]) if i in clock else describe(d))
                     for i, d in enumerate(entry["log"]))
    return steps


def _verify_openings(entry: dict[str, Any]) -> tuple[bool, str]:
    """A hand whose seed is still secret: every card the history shows checks against its
    opening and the position commitments under the published root."""
    from ..core.fairness import check_openings
    from .fairness import positions as poker_positions

    n = hand_name(entry)
    seen = [(p, c) for p, _seat, c, _shown in poker_positions(entry) if c != rec.HIDDEN]
    problems = check_openings(entry["shoe"], seen)
    if problems:
        return False, f"{n}: " + "; ".join(problems)
    stub = sum(p >= entry["shoe"]["committed"] for p, _c in seen)
    message = f"{n}: ok, the {len(seen) - stub} card(s) shown here each open their committed position"
    if stub:  # a re-stub's commitments came after the root: only the seed binds them
        message += (f"; {stub} card(s) of a re-stub (after the published root) check against the listed "
                    "position commitments only, which the seed's reveal proves")
    return True, message + "; the rest of the deck checks when the seed is revealed (the table closes)"


def verify(doc: dict[str, Any]) -> VerifyResult:
    """Check the fairness of every hand: SHA-256(seed) equals the commitment published before
    the deal, the deck is the documented shuffle of that seed, and every card dealt (the
    deal, the draw, any re-stub) is the one the committed order and the rules produce."""
    from ..core.fairness import is_legacy

    messages: list[str] = []
    ok = True
    pending = 0
    entered = 0
    for entry in _check_doc(doc):
        n = hand_name(entry)
        s = entry["shoe"]
        if s.get("entered"):
            entered += 1
            messages.append(f"{n}: real cards, entered by the dealer as they were dealt: there is no "
                            "shuffle to verify (nothing was committed; the history records the cards dealt)")
            continue
        if s.get("seed"):
            seed = bytes.fromhex(s["seed"])
            if s.get("seed_hash") is not None and commitment_of(seed) != s["seed_hash"]:
                ok = False
                messages.append(f"{n}: SHA-256(seed) does not match the seed hash")
                continue
            if is_legacy(s, s["seed"]):
                pass  # dealt before per-position commitments: SHA-256(seed) is the commitment
            elif Shoe.from_seed(seed, s.get("decks", 1), 1.0, 0).commitment != s["commitment"]:
                ok = False
                messages.append(f"{n}: the seed's position commitments do not make the commitment")
                continue
            expected = shuffled(decks(s.get("decks", 1)), seed)
        elif s.get("stacked"):
            if hashlib.sha256(s["stacked"].encode()).hexdigest() != s["commitment"]:
                ok = False
                messages.append(f"{n}: the stacked order does not match the commitment")
                continue
            expected = None
            messages.append(f"{n}: stacked deck (a test or puzzle), not a random shuffle")
        elif s.get("positions") is not None:
            good, message = _verify_openings(entry)
            ok = ok and good
            messages.append(message)
            continue
        else:  # no openings (stacked, or dealt before per-position commitments), nothing revealed yet
            pending += 1
            messages.append(f"{n}: not yet verifiable: no revealed seed and no openings (a stacked deck, or "
                            "one dealt before per-position commitments); verify again once the seed is revealed")
            continue
        try:
            hand = replay_hand(entry)
        except (RuleError, ShoeError, HistoryError, ValueError, KeyError) as e:
            ok = False
            messages.append(f"{n}: replay failed: {e}")
            continue
        assert isinstance(hand.shoe, Shoe)  # entered hands were answered above
        if expected is not None and hand.shoe.order[:len(expected)] != expected:
            ok = False
            messages.append(f"{n}: the deck is not the shuffle of the revealed seed")
            continue
        recorded = _recorded_cards(entry)
        dealt = [c.text for c in hand.shoe.order[s.get("start", 0):hand.shoe.position]]
        if recorded != dealt:
            ok = False
            messages.append(
                f"{n}: the cards recorded are not the cards of the committed order"
            )
            continue
        if [r.to_json() for r in hand.log] != entry["log"]:
            ok = False
            messages.append(f"{n}: the recorded log differs from the replay")
            continue
        messages.append(f"{n}: ok, {len(dealt)} cards dealt, all from the committed order")
    return VerifyResult(ok, messages, pending, entered)


def _recorded_cards(entry: dict[str, Any]) -> list[str]:
    """The cards of a recorded hand in the order they left the shoe (the deal goes one card
    at a time round the table from the button's left)."""
    deals = [d for d in entry["log"] if d["type"] == "deal"]
    out = [d["cards"][k] for k in range(5) for d in deals]
    out += [c for d in entry["log"] if d["type"] == "draw" for c in d["received"]]
    return out


# -- human-readable steps --------------------------------------------------------------------
def _pretty(cards: Iterable[str]) -> str:
    """Cards as a person writes them ("10♠ K♥"); a hidden card stays ``??``."""
    out = []
    for c in cards:
        try:
            out.append(c if c == rec.HIDDEN else card(c).pretty)
        except CardError:
            out.append(c)
    return " ".join(out)


def describe(d: dict[str, Any]) -> str:
    """One record as a line of English."""
    f = money.format
    kind = d["type"]
    seat = f"Seat {d['seat']}" if "seat" in d else ""
    allin = " (all-in)" if d.get("all_in") else ""
    if kind == "ante":
        return f"{seat} antes {f(d['amount'])}{allin}"
    if kind == "deal":
        return f"{seat} is dealt {_pretty(d['cards'])}"
    if kind == "phase":
        return f"-- {d['phase'].replace('_', ' ')} --"
    if kind == "check":
        return f"{seat} checks"
    if kind == "bet":
        return f"{seat} bets {f(d['amount'])}{allin}"
    if kind == "call":
        return f"{seat} calls {f(d['amount'])}{allin}"
    if kind == "raise":
        return f"{seat} raises {f(d['by'])} to {f(d['to'])}{allin}"
    if kind == "fold":
        return f"{seat} folds"
    if kind == "draw":
        shown = f", showing {_pretty([d['shown']])}" if d.get("shown") else ""
        return (f"{seat} discards {len(d['discards'])} ({_pretty(d['discards'])}) and draws "
                f"{_pretty(d['received'])}{shown}")
    if kind == "stand_pat":
        return f"{seat} stands pat"
    if kind == "card":
        return f"{seat} is dealt {_pretty([d['card']])} (entered by the dealer)"
    if kind == "discard":
        shown = f", showing {_pretty([d['shown']])}" if d.get("shown") else ""
        return f"{seat} discards {len(d['discards'])} ({_pretty(d['discards'])}){shown}"
    if kind == "take_back":
        return f"Card taken back ({_pretty([d['card']])}): {seat}'s, a correction"
    if kind == "ruling":
        ruled = "dead: it wins nothing" if d["dead"] else "to stand"
        return f"{seat} drew four cards but shows no Ace: the dealer rules the hand {ruled}"
    if kind == "restub":
        how = "shuffled into" if d["shuffled"] else "stacked as"
        return f"The deck is out: {d['cards']} mucked cards {how} a new stub"
    if kind == "uncalled":
        return f"{seat} takes back {f(d['amount'])} nobody called"
    if kind == "show":
        return f"{seat} shows {_pretty(d['cards'])}: {spoken(d['name'])}"
    if kind == "award":
        pot = "the main pot" if d["pot"] == 0 else f"side pot {d['pot']}"
        return f"{seat} wins {f(d['amount'])} from {pot}"
    if kind == "carry":
        return f"{f(d['amount'])} cannot be split in whole chips and carries over to the next pot"
    return str(d)


# -- PHH export ------------------------------------------------------------------------------
def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def hand_to_phh(entry: dict[str, Any]) -> list[tuple[str, Any]]:
    """The PHH fields of one hand entry, in the order the spec lists them."""
    rules = entry["rules"]
    stacks = dict((int(s), v) for s, v in entry["stacks"])
    button = entry["button"]
    seats = sorted(stacks)
    i = seats.index(button)
    order = seats[i + 1:] + seats[:i + 1]  # p1 = the button's left … pN = the button
    p = {s: f"p{k + 1}" for k, s in enumerate(order)}
    antes = {s: 0 for s in order}
    street: dict[int, int] = {s: 0 for s in order}
    actions: list[str] = []
    for d in entry["log"]:
        kind = d["type"]
        if kind == "ante":
            antes[d["seat"]] = d["amount"]
        elif kind == "deal":
            actions.append(f"d dh {p[d['seat']]} {''.join(d['cards'])}")
        elif kind == "phase":
            street = {s: 0 for s in order}
        elif kind in ("check", "call"):
            street[d["seat"]] += d.get("amount", 0)
            actions.append(f"{p[d['seat']]} cc")
        elif kind in ("bet", "raise"):
            street[d["seat"]] += d["amount"]
            actions.append(f"{p[d['seat']]} cbr {street[d['seat']]}")
        elif kind == "fold":
            actions.append(f"{p[d['seat']]} f")
        elif kind == "draw":
            actions.append(f"{p[d['seat']]} sd {''.join(d['discards'])}")
            actions.append(f"d dh {p[d['seat']]} {''.join(d['received'])}")
        elif kind == "stand_pat":
            actions.append(f"{p[d['seat']]} sd")
        elif kind == "show":
            actions.append(f"{p[d['seat']]} sm {''.join(d['cards'])}")
        elif kind == "ruling" and d["dead"]:  # mucked by the ruling: a dead hand shows nothing
            actions.append(f"{p[d['seat']]} sm # dead hand: drew four cards but showed no Ace")
    finishing = dict((int(s), v) for s, v in entry["result"]["stacks"])
    fields: list[tuple[str, Any]] = [
        ("variant", PHH_VARIANT),
        ("ante_trimming_status", True),
        ("antes", [antes[s] for s in order]),
        ("blinds_or_straddles", [0 for _ in order]),
        ("min_bet", rules["min_bet"]),
        ("starting_stacks", [stacks[s] for s in order]),
        ("actions", actions),
        ("_seats", [s for s in order]),
        ("seat_count", rules.get("max_players", 7)),
        ("hand", entry.get("hand_id") or entry.get("number", 1)),
        ("finishing_stacks", [finishing[s] for s in order]),
        ("currency", "USD"),
        ("_units", "cents"),
        ("_max_bet", rules["max_bet"]),
        ("_min_raise", rules["min_raise"]),
        ("_max_raise", rules["max_raise"]),
        ("_raise_cap", -1 if rules["raise_cap"] is None else rules["raise_cap"]),
        ("_chip", rules["chip"]),
        ("_max_discard", rules["max_discard"]),
        ("_ace_discard", rules["ace_discard"]),
        ("_odd_chip", rules["odd_chip"]),
        ("_carry_in", entry.get("carry_in", 0)),
        ("_carry_out", entry["result"]["carry_out"]),
    ]
    if entry["shoe"].get("entered"):
        fields.append(("_entered", True))  # real cards entered by the dealer: nothing committed
    else:
        fields.append(("_commitment", entry["shoe"]["commitment"]))
    if entry["shoe"].get("seed"):
        fields.append(("_seed", entry["shoe"]["seed"]))
    return fields


def to_phh(doc: dict[str, Any]) -> str:
    """The history as PHH (TOML). One hand is a plain ``.phh`` file; several hands are a
    ``.phhs`` file with one ``[n]`` table per hand."""
    hands = _check_doc(doc)
    out: list[str] = []
    for entry in hands:
        fields = hand_to_phh(entry)
        if len(hands) > 1:
            out.append(f"[{entry.get('number', len(out) + 1)}]")
        out.extend(f"{k} = {_toml_value(v)}" for k, v in fields)
        out.append("")
    return "\n".join(out)
