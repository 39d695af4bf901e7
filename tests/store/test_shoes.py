"""Migration 0002 on SQLite and PostgreSQL: shoe seeds kept server-side until revealed, and who
played each hand (the search by player)."""

from __future__ import annotations

import secrets

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from syndicate.room.errors import Conflict
from syndicate.room.ledger import now
from syndicate.store import Database
from syndicate.store.models import Base, HandPlayerRow, ShoeRow

# Storage: the shoes' and hands' rows and queries on each backend.
pytestmark = pytest.mark.both_databases


def _commitment() -> str:
    return secrets.token_hex(32)


def test_the_migrations_build_exactly_the_models(database: Database) -> None:
    with database.engine.connect() as c:
        diff = compare_metadata(MigrationContext.configure(c), Base.metadata)
    assert diff == []


def test_a_shoe_is_kept_until_revealed(room, cast) -> None:
    t = room.tables.open(cast.dealer, "Shoes")
    c1, c2, seed1, seed2 = _commitment(), _commitment(), secrets.token_hex(32), secrets.token_hex(32)
    with room.store.transaction() as repo:
        repo.add_shoe(t.id, c1, seed1, now())
        repo.add_shoe(t.id, c2, seed2, now())
        hand_id = repo.add_hand(t.id, 1, "blackjack", c1, {"shoes": [{"commitment": c1}], "rounds": []}, now())
    with room.store.transaction() as repo:
        mine = [s for s in repo.unrevealed_shoes() if s[0] == t.id]
    assert mine == [(t.id, c1, seed1), (t.id, c2, seed2)]

    with room.store.transaction() as repo:
        repo.reveal_seed(c1, seed1)
    with room.store.transaction() as repo:
        assert [s for s in repo.unrevealed_shoes() if s[0] == t.id] == [(t.id, c2, seed2)]
        hand = repo.hand(hand_id)
        assert hand is not None and hand.history["shoes"][0]["seed"] == seed1  # as before 0002
        revealed = repo.s.scalar(select(ShoeRow).where(ShoeRow.commitment == c1))  # type: ignore[attr-defined]
        assert revealed.revealed_at is not None and revealed.seed == seed1


def test_reveal_without_a_stored_shoe_still_writes_the_histories(room, cast) -> None:
    t = room.tables.open(cast.dealer, "Old shoes")
    c = _commitment()
    with room.store.transaction() as repo:
        hand_id = repo.add_hand(t.id, 1, "blackjack", c, {"shoes": [{"commitment": c}], "rounds": []}, now())
        repo.reveal_seed(c, "ab" * 32)
    with room.store.transaction() as repo:
        assert repo.hand(hand_id).history["shoes"][0]["seed"] == "ab" * 32  # type: ignore[union-attr]


def test_a_commitment_is_stored_once(room, cast) -> None:
    t = room.tables.open(cast.dealer, "Twice")
    c = _commitment()
    with room.store.transaction() as repo:
        repo.add_shoe(t.id, c, "00" * 32, now())
    with pytest.raises(Conflict) as e, room.store.transaction() as repo:
        repo.add_shoe(t.id, c, "11" * 32, now())
    assert e.value.rule == "shoe"
    with room.store.transaction() as repo:
        assert [s for s in repo.unrevealed_shoes() if s[1] == c] == [(t.id, c, "00" * 32)]


def test_a_shoe_needs_a_real_table(database: Database) -> None:
    with pytest.raises(IntegrityError), database.session() as s:
        s.add(ShoeRow(table_id=2_000_000_000, commitment=_commitment(), seed="00", created_at=now()))
        s.flush()


def test_hands_are_searched_by_player(room, cast) -> None:
    t = room.tables.open(cast.dealer, "Players")
    ev = cast.event.id
    with room.store.transaction() as repo:
        both = repo.add_hand(t.id, 1, "poker", _commitment(), {}, now(), [(1, cast.alice.id), (2, cast.bob.id)])
        bob_only = repo.add_hand(t.id, 2, "poker", _commitment(), {}, now(), players=[(3, cast.bob.id)])
        nobody = repo.add_hand(t.id, 3, "poker", _commitment(), {}, now())
    with room.store.transaction() as repo:
        assert [h.id for h in repo.hands(ev, player=cast.alice.id)] == [both]
        assert [h.id for h in repo.hands(ev, player=cast.bob.id)] == [both, bob_only]
        assert [h.id for h in repo.hands(ev, t.id, player=cast.bob.id, limit=1)] == [both]
        assert [h.id for h in repo.hands(ev, player=cast.spectator.id)] == []
        assert [h.id for h in repo.hands(ev, t.id)] == [both, bob_only, nobody]
        seats = repo.s.execute(select(HandPlayerRow.account_id, HandPlayerRow.seat)  # type: ignore[attr-defined]
                               .where(HandPlayerRow.hand_id == both).order_by(HandPlayerRow.seat)).all()
    assert [tuple(r) for r in seats] == [(cast.alice.id, 1), (cast.bob.id, 2)]


def test_a_player_is_in_a_hand_once(room, cast) -> None:
    t = room.tables.open(cast.dealer, "Once")
    with pytest.raises(ValueError, match="twice"), room.store.transaction() as repo:
        repo.add_hand(t.id, 1, "poker", _commitment(), {}, now(), [(1, cast.alice.id), (2, cast.alice.id)])
    with room.store.transaction() as repo:
        assert repo.hands(cast.event.id, t.id) == []  # nothing written
