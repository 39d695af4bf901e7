"""a night whose chips have no cash value, and the cap on the value of its prizes (docs/charity-night.md)

Revision ID: 0015_play_money
Revises: 0014_prize_draws
Create Date: 2026-12-06 05:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0015_play_money'
down_revision = '0014_prize_draws'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('events', sa.Column('play_money', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column('events', sa.Column('prize_cap', sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('events') as batch:
        batch.drop_column('prize_cap')
        batch.drop_column('play_money')
