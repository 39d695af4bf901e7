"""What an account is (a person, a bot, a walk-in) is its ``kind``. Migration 0011 on SQLite and
PostgreSQL fills it from the password-hash markers that told bots and walk-ins apart before, and
leaves no marker to tell them by; from then on the kind, never the hash, decides, and no one signs
in as a bot or a walk-in, whatever their hash."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from syndicate.room.cardroom import CardRoom
from syndicate.room.errors import Unauthorized
from syndicate.room.ledger import is_bot, is_walk_in, now
from syndicate.room.values import BOT, NO_PASSWORD, PERSON, WALK_IN
from syndicate.store import Database, SqlStore
from tests.kit.room import FAST_HASHER, PASSWORD
from tests.store.test_canonical_names import _upgrade, fresh  # noqa: F401

#: What the older code wrote as a bot's and a walk-in's password hash (before 0011).
OLD_BOT = "!bot: no password signs in"
OLD_WALK_IN = "!walk-in: no password signs in"


def test_0011_fills_the_kind_from_the_old_markers(fresh: Database) -> None:  # noqa: F811
    _upgrade(fresh, "0010_money")
    hashed = FAST_HASHER.hash(PASSWORD)
    with fresh.engine.begin() as c:
        c.execute(text("INSERT INTO events (id, name, created_at) VALUES (1, 'Old night', :at)"), {"at": now()})
        for i, name, role, hash_ in ((1, "Boku", "dealer", hashed), (2, "Kenji", "player", OLD_WALK_IN),
                                     (3, "Bot 1-2", "player", OLD_BOT), (4, "Alice", "player", hashed)):
            c.execute(text("INSERT INTO accounts (id, event_id, name, name_key, role, password_hash, created_at) "
                           "VALUES (:i, 1, :n, :k, :r, :h, :at)"),
                      {"i": i, "n": name, "k": name.lower(), "r": role, "h": hash_, "at": now()})
    _upgrade(fresh, "head")
    store = SqlStore(fresh)
    with store.transaction() as repo:
        accounts = repo.accounts(1)
    assert [(a.name, a.kind) for a in accounts] == [("Boku", PERSON), ("Kenji", WALK_IN), ("Bot 1-2", BOT),
                                                    ("Alice", PERSON)]
    # No marker is left to tell a kind by: bots and walk-ins share one hash no password matches.
    assert [a.password_hash for a in accounts if a.kind != PERSON] == [NO_PASSWORD, NO_PASSWORD]
    assert [a.password_hash for a in accounts if a.kind == PERSON] == [hashed, hashed]
    assert [a.name for a in accounts if is_walk_in(a)] == ["Kenji"] and [a.name for a in accounts if is_bot(a)] == [
        "Bot 1-2"]
    assert accounts[1].to_json()["walk_in"] is True and "walk_in" not in accounts[0].to_json()

    room = CardRoom(store, FAST_HASHER)
    assert room.accounts.sign_in(1, "Alice", PASSWORD)[1].kind == PERSON
    for name in ("Kenji", "Bot 1-2"):
        for password in (PASSWORD, NO_PASSWORD, OLD_BOT, OLD_WALK_IN):
            with pytest.raises(Unauthorized):
                room.accounts.sign_in(1, name, password)

    # The database keeps to the three kinds, and an account is a person unless said otherwise.
    with pytest.raises(IntegrityError), fresh.engine.begin() as c:
        c.execute(text("UPDATE accounts SET kind = 'robot' WHERE id = 1"))
    with fresh.engine.begin() as c:
        c.execute(text("INSERT INTO accounts (id, event_id, name, name_key, role, password_hash, created_at) "
                       "VALUES (5, 1, 'Sam', 'sam', 'spectator', :h, :at)"), {"h": hashed, "at": now()})
    with store.transaction() as repo:
        assert [a.kind for a in repo.accounts(1)] == [PERSON, WALK_IN, BOT, PERSON, PERSON]


def test_the_kind_not_the_hash_says_who_signs_in(room, cast) -> None:
    """A bot or a walk-in with a real password's hash still signs in with no password; a person
    whose hash reads like the old bot marker is no bot."""
    ev = cast.event.id
    hashed = FAST_HASHER.hash(PASSWORD)
    with room.store.transaction() as repo:
        bot = repo.add_account(ev, "Bot 99-1", "player", hashed, now(), kind=BOT)
        walk_in = repo.add_account(ev, "Walker K.", "player", hashed, now(), kind=WALK_IN)
        person = repo.add_account(ev, "Mallory", "player", OLD_BOT, now())
    assert (bot.kind, walk_in.kind, person.kind) == (BOT, WALK_IN, PERSON)
    assert is_bot(bot) and is_walk_in(walk_in) and not is_bot(person) and not is_walk_in(person)
    for name in (bot.name, walk_in.name):
        with pytest.raises(Unauthorized) as refused:
            room.accounts.sign_in(ev, name, PASSWORD)
        assert refused.value.rule == "credentials"
    assert room.accounts.sign_in(ev, "Alice", PASSWORD)[1].id == cast.alice.id
