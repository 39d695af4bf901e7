"""money: why a table could not be restored at start (it is then served to no one until a start
restores it)

Revision ID: 0009_money
Revises: 0008_walk_ins
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0009_money'
down_revision = '0008_walk_ins'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (see 0006): a batch rebuild fails on SQLite once other rows reference the table.
    op.add_column('card_tables', sa.Column('fault', sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column('card_tables', 'fault')
