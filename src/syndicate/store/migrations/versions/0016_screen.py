"""the room's big screen: the host's announcements, countdown and featured table, per event (docs/screen.md)

Revision ID: 0016_screen
Revises: 0015_play_money
Create Date: 2026-12-07 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0016_screen'
down_revision = '0015_play_money'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('screens',
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('settings', sa.Text(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_by', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_screens_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', name=op.f('pk_screens'))
    )


def downgrade() -> None:
    op.drop_table('screens')
