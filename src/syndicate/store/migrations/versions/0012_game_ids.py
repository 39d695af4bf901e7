"""game ids: the room checks a table's game against the games it runs (room/games), not a
CHECK constraint, so adding a game needs no migration

Revision ID: 0012_game_ids
Revises: 0011_account_kind
Create Date: 2026-12-05 12:00:00
"""

from __future__ import annotations

import re

import sqlalchemy as sa
from alembic import op

revision = '0012_game_ids'
down_revision = '0011_account_kind'
branch_labels = None
depends_on = None

#: The tables whose ``game`` column had a CHECK naming the two games of 0001 and 0007.
TABLES = ('card_tables', 'event_limits')
GAMES = "game IN ('blackjack','poker')"


def upgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        _sqlite_drop_checks()
        return
    for table in TABLES:
        op.drop_constraint('game', table, type_='check')


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        return  # SQLite keeps no constraint to add back in place; the room checks the game
    for table in TABLES:
        op.create_check_constraint('game', table, GAMES)


def _sqlite_drop_checks() -> None:
    """SQLite cannot drop a constraint, and a batch rebuild of ``card_tables`` fails once other
    rows reference it (see 0011). Removing a CHECK changes nothing stored, so the table's
    definition is edited in the schema itself, as SQLite documents for exactly this ("ALTER
    TABLE", section 7: removing CHECK constraints)."""
    bind = op.get_bind()
    version = int(bind.exec_driver_sql('PRAGMA schema_version').scalar() or 0)
    bind.exec_driver_sql('PRAGMA writable_schema=ON')
    for table in TABLES:
        sql = str(bind.execute(sa.text("SELECT sql FROM sqlite_master WHERE type='table' AND name=:t"),
                               {'t': table}).scalar())
        new = re.sub(rf",\s*CONSTRAINT ck_{table}_game CHECK \(game IN \('blackjack',\s*'poker'\)\)", '', sql)
        if new == sql:
            continue  # no such CHECK on this table: nothing to drop
        bind.execute(sa.text("UPDATE sqlite_master SET sql=:s WHERE type='table' AND name=:t"), {'s': new, 't': table})
    bind.exec_driver_sql(f'PRAGMA schema_version={version + 1}')
    bind.exec_driver_sql('PRAGMA writable_schema=OFF')
