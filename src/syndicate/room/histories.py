"""Finished hands as downloadable histories, as each viewer may have them, and the search
through them.

A stored history is the house's copy: every card. What anyone else is served is
:func:`for_viewer` of it: while the seed is secret, a card goes only to its holder, unless it
was shown at the table (a showdown hand, the Ace shown with a four-card draw, every Blackjack
card but a hole card never turned). Each card served comes with its *opening* (position, card,
salt), checked by :func:`syndicate.core.fairness.check_openings` (docs/fairness.md).
"""

from __future__ import annotations

import copy
from typing import Any

from ..core.fairness import HIDDEN, blackjack_positions, is_legacy, poker_positions
from ..core.shoe import Shoe
from ..poker.dealing import ShuffledDeck
from ..poker.history import replay_hand
from .errors import NotFound
from .ports import Repo, Store
from .roles import ADMIN
from .values import Account


def _stored(store: Store, event_id: int, hand_id: int, viewer_id: int | None
            ) -> tuple[dict[str, Any], str | None, dict[int, int]]:
    with store.transaction() as repo:
        hand = repo.hand(hand_id)
        table = repo.table(hand.table_id) if hand else None
        if hand is None or table is None or table.event_id != event_id or hand.status == "playing":
            raise NotFound("hand", f"no finished hand {hand_id} in this event")
        same_shoe = [h for h in repo.hands(event_id, hand.table_id, hand.commitment, None, 10_000)
                     if h.status != "playing"]
        seed = repo.escrowed_seed(hand.commitment)
        seats: dict[int, int] = {}
        if viewer_id is not None:  # the viewer's seats, and those of the walk-ins linked to them
            mine = {viewer_id} | {a.id for a in repo.accounts(event_id) if a.linked_to == viewer_id}
            for h in same_shoe:
                seat = next((s for a, s in repo.hand_seats(h.id).items() if a in mine), None)
                if seat is not None:
                    seats[h.number] = seat
    doc = dict(same_shoe[-1].history)
    key = "rounds" if "rounds" in doc else "hands"  # Blackjack rounds; draw hands (a deck each)
    # Each round or hand carries its evening-wide number (its row's id): the number every page
    # and the replay say, beside the table's own count (``number``).
    doc[key] = [{**r, "hand_id": h.id} for h in same_shoe for r in h.history[key]]
    doc.pop("hand", None)
    return doc, seed, seats


def shoe_history(store: Store, event_id: int, hand_id: int, viewer: Account) -> dict[str, Any]:
    """The shoe of finished hand ``hand_id`` as one history in the engine's format: every
    finished hand dealt from that shoe so far (a Blackjack shoe's rounds; a draw hand's own
    deck), as ``viewer`` may see it (docs/fairness.md): until the seed is revealed, only the
    cards shown at the table and the viewer's own, each with its opening; the admin (the
    house, for audit) sees every card. A hand in play is never served."""
    doc, seed, seats = _stored(store, event_id, hand_id, viewer.id)
    return for_viewer(doc, seed, house=viewer.role == ADMIN, seats=seats)


def house_history(store: Store, event_id: int, hand_id: int) -> dict[str, Any]:
    """The stored copy with every card, for the server's own checks (a replay): never served
    as it is to anyone but the admin. A draw hand's deck gets its escrowed seed, which the
    engine needs to deal the hand again."""
    doc, seed, _ = _stored(store, event_id, hand_id, None)
    if seed is not None and "hands" in doc:
        doc["hands"] = [{**e, "shoe": {**e["shoe"], "seed": seed}} for e in doc["hands"]]
    return doc


def with_entries(history: dict[str, Any], entered: list[dict[str, Any]]) -> dict[str, Any]:
    """A one-hand history with who entered each action beside the engine's log: the round's
    (or hand's) ``entered_by``, a list of ``{"at": index in the log, "by": account id, "name",
    "for_seat"}``. A decision the table made itself (a timeout, a bot, a player who left) has
    no entry. It names no card, so every viewer may have it."""
    key = "rounds" if "rounds" in history else "hands"
    for entry in history[key]:
        entry["entered_by"] = [dict(e) for e in entered]
    return history


# -- the served copy ---------------------------------------------------------------------------
def for_viewer(doc: dict[str, Any], seed_hex: str | None, *, house: bool, seats: dict[int, int]) -> dict[str, Any]:
    """``doc`` (the stored house copy of a shoe's history) as one viewer may have it.

    ``seed_hex`` is the shoe's escrowed seed, used here only to make openings and position
    commitments (never copied into the result unless the stored doc already holds it, that
    is, it was revealed). ``house``: the admin, who sees every card. ``seats``: hand number ->
    the viewer's seat in that hand (a poker player sees their own cards).
    """
    out = copy.deepcopy(doc)
    if "rounds" in out:
        _blackjack(out, seed_hex, house)
    else:
        _poker(out, seed_hex, house, seats)
    return out


def _poker(doc: dict[str, Any], seed_hex: str | None, house: bool, seats: dict[int, int]) -> None:
    for entry in doc["hands"]:
        s = entry["shoe"]
        revealed = bool(s.get("seed"))
        viewer: int | str = seats.get(entry.get("number", 0), "spectator")
        visible = {p for p, seat, _c, shown in poker_positions(entry)
                   if house or revealed or shown or seat == viewer}
        original = copy.deepcopy(entry)
        if not house and not revealed:
            _redact_poker(entry, visible, viewer)
            s["stacked"] = None  # a stacked order is every card: the house's alone
        if seed_hex is None or s.get("entered") or is_legacy(s, seed_hex):
            continue
        # The server's own copy of the deck (re-stubs included) makes the openings.
        deck = replay_hand({**original, "shoe": {**original["shoe"], "seed": seed_hex, "stacked": None}}).dealer
        assert isinstance(deck, ShuffledDeck)  # entered hands were skipped above
        _publish(s, deck.shoe, sorted(visible))


def _blackjack(doc: dict[str, Any], seed_hex: str | None, house: bool) -> None:
    sj = doc["shoes"][0] if doc.get("shoes") else None
    revealed = bool(sj and (sj.get("seed") or sj.get("order")))
    visible: list[int] = []
    for rnd in doc["rounds"]:
        for p, _card, shown in blackjack_positions(rnd):
            if house or revealed or shown:
                visible.append(p)
        if not house and not revealed:
            turned = any(r["type"] == "reveal" for r in rnd["log"])
            for r in rnd["log"]:
                if r["type"] in ("card", "take_back") and not r["face_up"] and not turned:
                    r["card"] = None  # the hole card was never shown (nor one taken back)
    if sj is None or seed_hex is None or sj.get("entered") or is_legacy(sj, seed_hex):
        return
    shoe = Shoe.from_seed(seed_hex, sj["decks"], sj["penetration"], sj["burn"])
    for rnd in doc["rounds"]:  # dealing again reproduces any re-stub
        shoe.begin_round()
        for _ in blackjack_positions(rnd):
            shoe.draw()
    _publish(sj, shoe, visible)


def _redact_poker(entry: dict[str, Any], visible: set[int], viewer: int | str) -> None:
    """Every card of the log a viewer may not see becomes ``"??"``: by position, so a hand
    shown down shows in its deal record too, while its discards stay hidden."""
    pos = entry["shoe"].get("start", 0)
    deals = [d for d in entry["log"] if d["type"] == "deal"]
    cards = {id(d): list(d["cards"]) for d in deals}
    for k in range(5):
        for d in deals:
            if pos not in visible:
                cards[id(d)][k] = HIDDEN
            pos += 1
    for d in deals:
        d["cards"] = cards[id(d)]
    # Entered cards (a real-cards table): each card's own record, and the draw decided before
    # its cards, hide like the deal and draw records they make.
    shown = {(seat, c) for p, seat, c, _s in poker_positions(entry) if p in visible}
    for d in entry["log"]:
        if d["type"] in ("card", "take_back") and d["seat"] != viewer and (d["seat"], d["card"]) not in shown:
            d["card"] = HIDDEN
        elif d["type"] == "discard" and d["seat"] != viewer:
            d["discards"] = [HIDDEN] * len(d["discards"])
    for d in entry["log"]:
        if d["type"] == "draw":
            received = []
            for c in d["received"]:
                received.append(c if pos in visible else HIDDEN)
                pos += 1
            d["received"] = received
            if d["seat"] != viewer:  # mucked face down: only their holder saw them
                d["discards"] = [HIDDEN] * len(d["discards"])


def _publish(s: dict[str, Any], shoe: Shoe, visible: list[int]) -> None:
    if shoe.commitment != s["commitment"]:  # the escrow is not this shoe's seed: serve no proof
        raise ValueError("the escrowed seed does not make the published commitment")
    s["seed_hash"] = shoe.seed_hash
    s["committed"] = shoe.committed
    s["positions"] = shoe.positions()
    s["openings"] = [shoe.opening(p) for p in sorted(set(visible))]


# -- the search --------------------------------------------------------------------------------
def finished_hands(store: Store, event_id: int, table: int | None = None, commitment: str | None = None,
                   limit: int = 100, player: int | None = None) -> list[dict[str, Any]]:
    """Finished hands (settled or voided) of the event, searchable by table, shoe commitment
    and player, in order, each with who played it by name and each seat's net. A hand in play
    is never listed: its stored log holds the hole card. Whether the asker may search another
    player's hands is the caller's check."""
    with store.transaction() as repo:
        found = [h for status in ("settled", "voided")
                 for h in repo.hands(event_id, table, commitment, status, limit, player)]
        seated = _seated(repo, event_id, {h.id for h in found})
    found.sort(key=lambda h: h.id)
    return [{"id": h.id, "table": h.table_id, "number": h.number, "game": h.game, "status": h.status,
             "commitment": h.commitment, "started_at": h.started_at.isoformat(),
             "results": _results(h.history), "players": _players(seated.get(h.id, []), _results(h.history))}
            for h in found[:limit]]


def _results(history: dict[str, Any]) -> dict[str, int] | None:
    """Each seat's net in a stored one-hand history, whichever game's format."""
    if "rounds" in history:
        results = history["rounds"][0].get("results")
        return dict(results) if results is not None else None
    return {str(seat): net for seat, net in history["hands"][0]["result"]["net"]}


def _seated(repo: Repo, event_id: int, hand_ids: set[int]) -> dict[int, list[tuple[int, str]]]:
    """(seat, player name) of each hand in ``hand_ids``, in seat order."""
    names = {a.id: a.name for a in repo.accounts(event_id)}
    out: dict[int, list[tuple[int, str]]] = {}
    for hand_id, account_id, seat in repo.hand_players(event_id, sorted(hand_ids)):
        out.setdefault(hand_id, []).append((seat, names.get(account_id, f"account {account_id}")))
    return out


def _players(seated: list[tuple[int, str]], results: dict[str, int] | None) -> list[dict[str, Any]]:
    """Who played the hand, by name, with their net (None while unknown: a voided hand)."""
    return [{"seat": seat, "name": name, "net": (results or {}).get(str(seat))} for seat, name in seated]
