"""event end and the seed-reveal setting: when an event ended (and by whom), and whether its
shoes' seeds are revealed when each table closes or only when the event ends

Revision ID: 0006_event_end
Revises: 0003
Create Date: 2026-12-01 23:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006_event_end'
down_revision = '0004_canonical_names'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seed_reveal', sa.String(length=20), nullable=False,
                                      server_default='table_close'))
        batch_op.add_column(sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('ended_by', sa.Integer(), nullable=True))
        batch_op.create_check_constraint('seed_reveal', "seed_reveal IN ('table_close','event_end')")


def downgrade() -> None:
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_constraint('seed_reveal', type_='check')
        batch_op.drop_column('ended_by')
        batch_op.drop_column('ended_at')
        batch_op.drop_column('seed_reveal')
