"""event limits: the table stakes an event's admin allows, per game

Revision ID: 0007_house_float
Revises: 0006_event_end
Create Date: 2026-12-01 23:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007_house_float'
down_revision = '0006_event_end'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('event_limits',
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=10), nullable=False),
    sa.Column('min_bet', sa.BigInteger(), nullable=False),
    sa.Column('max_bet', sa.BigInteger(), nullable=False),
    sa.CheckConstraint("game IN ('blackjack','poker')", name=op.f('ck_event_limits_game')),
    sa.CheckConstraint('min_bet > 0 AND min_bet <= max_bet', name=op.f('ck_event_limits_bounds')),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_event_limits_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', 'game', name=op.f('pk_event_limits'))
    )


def downgrade() -> None:
    op.drop_table('event_limits')
