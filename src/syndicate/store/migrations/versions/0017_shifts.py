"""the dealers' shifts: each dealer's clocking in and out, breaks and tables taken and left; who
dealt each hand; the host's shift and break lengths (docs/dealer.md, "Shifts, breaks and handovers")

Revision ID: 0017_shifts
Revises: 0016_screen
Create Date: 2026-12-06 05:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0017_shifts'
down_revision = '0016_screen'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('shift_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=True),
    sa.Column('by_account_id', sa.Integer(), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind IN ('clock_in','clock_out','break','back','take','leave')",
                       name=op.f('ck_shift_events_kind')),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_shift_events_event_id_events')),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_shift_events_account_id_accounts')),
    sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], name=op.f('fk_shift_events_table_id_card_tables')),
    sa.ForeignKeyConstraint(['by_account_id'], ['accounts.id'],
                            name=op.f('fk_shift_events_by_account_id_accounts')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_shift_events'))
    )
    op.create_index(op.f('ix_shift_events_event_id'), 'shift_events', ['event_id'], unique=False)
    # Plain ADD COLUMN (as 0008): a batch rebuild of `hands` fails on SQLite once other rows
    # reference it; SQLite takes the foreign key inline.
    if op.get_bind().dialect.name == 'sqlite':
        op.execute('ALTER TABLE hands ADD COLUMN dealer_id INTEGER REFERENCES accounts (id)')
    else:
        op.add_column('hands', sa.Column('dealer_id', sa.Integer(), nullable=True))
        op.create_foreign_key(op.f('fk_hands_dealer_id_accounts'), 'hands', 'accounts', ['dealer_id'], ['id'])
    op.add_column('events', sa.Column('shift_minutes', sa.Integer(), nullable=True))
    op.add_column('events', sa.Column('break_minutes', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('events') as batch:
        batch.drop_column('break_minutes')
        batch.drop_column('shift_minutes')
    if op.get_bind().dialect.name != 'sqlite':
        op.drop_constraint(op.f('fk_hands_dealer_id_accounts'), 'hands', type_='foreignkey')
    op.drop_column('hands', 'dealer_id')
    op.drop_index(op.f('ix_shift_events_event_id'), table_name='shift_events')
    op.drop_table('shift_events')
