"""event end and the seed-reveal setting: when an event ended (and by whom), and whether its
shoes' seeds are revealed when each table closes or only when the event ends

Revision ID: 0006_event_end
Revises: 0004_canonical_names
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
    # Plain ADD COLUMN, not a batch rebuild: on SQLite a rebuild drops and re-creates `events`,
    # which every account row references, so it fails on any database that has accounts.
    op.add_column('events', sa.Column('seed_reveal', sa.String(length=20), nullable=False,
                                      server_default='table_close'))
    op.add_column('events', sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True))
    op.add_column('events', sa.Column('ended_by', sa.Integer(), nullable=True))
    if op.get_bind().dialect.name != 'sqlite':  # SQLite cannot add a constraint in place
        op.create_check_constraint('seed_reveal', 'events', "seed_reveal IN ('table_close','event_end')")


def downgrade() -> None:
    if op.get_bind().dialect.name != 'sqlite':
        op.drop_constraint('seed_reveal', 'events', type_='check')
    op.drop_column('events', 'ended_by')
    op.drop_column('events', 'ended_at')
    op.drop_column('events', 'seed_reveal')
