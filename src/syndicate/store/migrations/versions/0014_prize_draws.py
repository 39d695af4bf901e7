"""prize draws (raffles, and prizes to the top chip counts): a draw's prizes, its ticket rule, its committed seed, the tickets it froze from
the chips it converted, the witness and the winners (docs/prize-draw.md)

Revision ID: 0014_prize_draws
Revises: 0013_door
Create Date: 2026-12-06 03:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0014_prize_draws'
down_revision = '0013_door'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('prize_draws',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('rate', sa.Text(), nullable=False),
    sa.Column('prizes', sa.Text(), nullable=False),
    sa.Column('one_prize_per_guest', sa.Boolean(), nullable=False),
    sa.Column('seed', sa.String(length=64), nullable=False),
    sa.Column('commitment', sa.String(length=64), nullable=False),
    sa.Column('tickets', sa.Text(), nullable=True),
    sa.Column('witness', sa.Text(), nullable=True),
    sa.Column('winners', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('drawn_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("kind IN ('raffle','top')", name=op.f('ck_prize_draws_kind')),
    sa.CheckConstraint("status IN ('open','closed','drawn')", name=op.f('ck_prize_draws_status')),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_prize_draws_event_id_events')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_prize_draws'))
    )
    op.create_index(op.f('ix_prize_draws_event_id'), 'prize_draws', ['event_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_prize_draws_event_id'), table_name='prize_draws')
    op.drop_table('prize_draws')
