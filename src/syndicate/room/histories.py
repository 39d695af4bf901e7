"""Finished hands as downloadable histories, as each viewer may have them, and the search
through them.

A stored history is the house's copy: every card. What anyone else is served is
:func:`for_viewer` of it: while the seed is secret, a card goes only to its holder, unless it
was shown at the table (a showdown hand, the Ace shown with a four-card draw, every Blackjack
card but a hole card never turned). Each card served comes with its *opening* (position, card,
salt), checked by :func:`syndicate.core.fairness.check_openings` (docs/fairness.md). What is
shown and proved is each game's own (its :class:`~syndicate.room.games.HistoryFormat`).
"""

from __future__ import annotations

import copy
from typing import Any

from .errors import NotFound
from .games import GameKind, history_kind
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
    key = kind_of_history(doc).history.key  # a Blackjack shoe's rounds; draw hands (a deck each)
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


def spectator_hand(store: Store, event_id: int, hand_id: int) -> dict[str, Any]:
    """Finished hand ``hand_id`` alone, as a spectator may have it: its entry of the shoe's
    served copy (:func:`for_viewer` with no seat: only the cards shown at the table), without
    the shoe's openings and commitments (the screen shows a hand, it proves nothing), and who
    sat where by name. A hand in play is never served (NotFound)."""
    doc, seed, _ = _stored(store, event_id, hand_id, None)
    served = for_viewer(doc, seed, house=False, seats={})
    key = kind_of_history(served).history.key
    entry = next(r for r in served[key] if r.get("hand_id") == hand_id)
    entry.pop("shoe", None)
    with store.transaction() as repo:
        hand = repo.hand(hand_id)
        seated = _seated(repo, event_id, {hand_id}).get(hand_id, [])
    assert hand is not None  # _stored found it
    return {"game": served.get("game"), key: [entry], "hand_id": hand_id, "number": hand.number,
            "table": hand.table_id, "players": [{"seat": seat, "name": name} for seat, name in seated]}


def house_history(store: Store, event_id: int, hand_id: int) -> dict[str, Any]:
    """The stored copy with every card, for the server's own checks (a replay): never served
    as it is to anyone but the admin. A draw hand's deck gets its escrowed seed, which the
    engine needs to deal the hand again."""
    doc, seed, _ = _stored(store, event_id, hand_id, None)
    return kind_of_history(doc).history.house_copy(doc, seed)


def kind_of_history(doc: dict[str, Any]) -> GameKind:
    """The game a stored history is of (``room/games``); NotFound if no registered game's."""
    kind = history_kind(doc)
    if kind is None:
        raise NotFound("hand", f"no game the room runs writes this history (game {doc.get('game')!r})")
    return kind


def with_entries(history: dict[str, Any], entered: list[dict[str, Any]]) -> dict[str, Any]:
    """A one-hand history with who entered each action beside the engine's log: the round's
    (or hand's) ``entered_by``, a list of ``{"at": index in the log, "by": account id, "name",
    "for_seat"}``. A decision the table made itself (a timeout, a bot, a player who left) has
    no entry. It names no card, so every viewer may have it."""
    for entry in history[kind_of_history(history).history.key]:
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
    kind_of_history(out).history.served(out, seed_hex, house, seats)
    return out


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
    """Each seat's net in a stored one-hand history, as its game reads it."""
    return kind_of_history(history).history.results(history)


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
