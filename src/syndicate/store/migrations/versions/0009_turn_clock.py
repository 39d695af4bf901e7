"""turn clock: each event's default turn clock for the tables opened in it, per card source

Revision ID: 0009_turn_clock
Revises: 0008_walk_ins
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0009_turn_clock'
down_revision = '0008_walk_ins'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (see 0006). JSON text: {"real": seconds or null, "shuffled": ...}, a key
    # only for what the admin set; NULL: nothing set (the room's defaults: docs/server.md).
    op.add_column('events', sa.Column('turn_clock', sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column('events', 'turn_clock')
