"""the door: what each guest paid at the door and the chips issued for it, the event's exchange
rate, and the guests' sign-in vouchers (docs/door.md)

Revision ID: 0013_door
Revises: 0012_game_ids
Create Date: 2026-12-06 03:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0013_door'
down_revision = '0012_game_ids'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (see 0006). JSON text: {"paid": cents, "chips": cents, "stack": cents or
    # null}; NULL: no door rate set.
    op.add_column('events', sa.Column('door', sa.Text(), nullable=True))
    op.create_table('door_payments',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('method', sa.String(length=10), nullable=False),
    sa.Column('paid', sa.BigInteger(), nullable=False),
    sa.Column('chips', sa.BigInteger(), nullable=False),
    sa.Column('by_account_id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("method IN ('cash','card','comp')", name=op.f('ck_door_payments_method')),
    sa.CheckConstraint('paid >= 0 AND chips >= 0', name=op.f('ck_door_payments_not_negative')),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_door_payments_account_id_accounts')),
    sa.ForeignKeyConstraint(['by_account_id'], ['accounts.id'], name=op.f('fk_door_payments_by_account_id_accounts')),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_door_payments_event_id_events')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_door_payments'))
    )
    op.create_index(op.f('ix_door_payments_event_id'), 'door_payments', ['event_id'], unique=False)
    op.create_index(op.f('ix_door_payments_account_id'), 'door_payments', ['account_id'], unique=False)
    op.create_table('vouchers',
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_vouchers_account_id_accounts')),
    sa.PrimaryKeyConstraint('token_hash', name=op.f('pk_vouchers'))
    )
    op.create_index(op.f('ix_vouchers_account_id'), 'vouchers', ['account_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_vouchers_account_id'), table_name='vouchers')
    op.drop_table('vouchers')
    op.drop_index(op.f('ix_door_payments_account_id'), table_name='door_payments')
    op.drop_index(op.f('ix_door_payments_event_id'), table_name='door_payments')
    op.drop_table('door_payments')
    op.drop_column('events', 'door')
