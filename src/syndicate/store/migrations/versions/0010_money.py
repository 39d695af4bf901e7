"""money: why a table could not be restored at start (it is then served to no one until a start
restores it); who holds each seat of a live table (so a stack with no seat behind it is seen);
the event's limit on a walk-in's chip sale; the sales above it, waiting for a pit boss's or the
admin's approval

Revision ID: 0010_money
Revises: 0009_turn_clock
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0010_money'
down_revision = '0009_turn_clock'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (see 0006): a batch rebuild fails on SQLite once other rows reference the table.
    op.add_column('card_tables', sa.Column('fault', sa.Text(), nullable=True))
    op.add_column('events', sa.Column('sale_limit', sa.BigInteger(), nullable=True))
    op.create_table('chip_sales',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('walk_in_id', sa.Integer(), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('requested_by', sa.Integer(), nullable=False),
    sa.Column('requested_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('decided_by', sa.Integer(), nullable=True),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status IN ('pending','approved','refused','done','cancelled')",
                       name=op.f('ck_chip_sales_status')),
    sa.CheckConstraint('amount > 0', name=op.f('ck_chip_sales_amount_positive')),
    sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], name=op.f('fk_chip_sales_table_id_card_tables')),
    sa.ForeignKeyConstraint(['walk_in_id'], ['accounts.id'], name=op.f('fk_chip_sales_walk_in_id_accounts')),
    sa.ForeignKeyConstraint(['requested_by'], ['accounts.id'], name=op.f('fk_chip_sales_requested_by_accounts')),
    sa.ForeignKeyConstraint(['decided_by'], ['accounts.id'], name=op.f('fk_chip_sales_decided_by_accounts')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_chip_sales'))
    )
    op.create_index(op.f('ix_chip_sales_table_id'), 'chip_sales', ['table_id'], unique=False)
    op.create_table('table_seats',
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], name=op.f('fk_table_seats_table_id_card_tables')),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_table_seats_account_id_accounts')),
    sa.PrimaryKeyConstraint('table_id', 'seat', name=op.f('pk_table_seats'))
    )


def downgrade() -> None:
    op.drop_table('table_seats')
    op.drop_index(op.f('ix_chip_sales_table_id'), table_name='chip_sales')
    op.drop_table('chip_sales')
    op.drop_column('events', 'sale_limit')
    op.drop_column('card_tables', 'fault')
