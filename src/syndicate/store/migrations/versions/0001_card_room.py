"""the card room: events, accounts, roster, tables, ledger, hands

Revision ID: 0001
Revises: 
Create Date: 2026-12-01 00:14:31.120717
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_events')),
    sa.UniqueConstraint('name', name=op.f('uq_events_name'))
    )
    op.create_table('accounts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('role', sa.String(length=20), nullable=False),
    sa.Column('password_hash', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("role IN ('admin','pit_boss','dealer','player','spectator')", name=op.f('ck_accounts_role')),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_accounts_event_id_events')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_accounts')),
    sa.UniqueConstraint('event_id', 'name', name='event_name')
    )
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_accounts_event_id'), ['event_id'], unique=False)

    op.create_table('ledger_accounts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=60), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('balance', sa.BigInteger(), nullable=False),
    sa.CheckConstraint("kind <> 'player' OR balance >= 0", name=op.f('ck_ledger_accounts_player_not_negative')),
    sa.CheckConstraint("kind IN ('player','table','cashier')", name=op.f('ck_ledger_accounts_kind')),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_ledger_accounts_event_id_events')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_accounts')),
    sa.UniqueConstraint('event_id', 'key', name='event_key')
    )
    with op.batch_alter_table('ledger_accounts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ledger_accounts_event_id'), ['event_id'], unique=False)

    op.create_table('roster',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('dealer', sa.String(length=100), nullable=False),
    sa.Column('pit_boss', sa.String(length=100), nullable=False),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_roster_event_id_events')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_roster')),
    sa.UniqueConstraint('event_id', 'dealer', name='event_dealer')
    )
    with op.batch_alter_table('roster', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_roster_event_id'), ['event_id'], unique=False)

    op.create_table('auth_tokens',
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind IN ('session','token')", name=op.f('ck_auth_tokens_kind')),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_auth_tokens_account_id_accounts')),
    sa.PrimaryKeyConstraint('token_hash', name=op.f('pk_auth_tokens'))
    )
    with op.batch_alter_table('auth_tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auth_tokens_account_id'), ['account_id'], unique=False)

    op.create_table('card_tables',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('game', sa.String(length=20), nullable=False),
    sa.Column('rules', sa.Text(), nullable=False),
    sa.Column('seats', sa.Integer(), nullable=False),
    sa.Column('dealer_id', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("game IN ('blackjack','poker')", name=op.f('ck_card_tables_game')),
    sa.CheckConstraint("status IN ('open','paused','closed')", name=op.f('ck_card_tables_status')),
    sa.CheckConstraint('seats >= 1 AND seats <= 10', name=op.f('ck_card_tables_seats')),
    sa.ForeignKeyConstraint(['dealer_id'], ['accounts.id'], name=op.f('fk_card_tables_dealer_id_accounts')),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_card_tables_event_id_events')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_card_tables'))
    )
    with op.batch_alter_table('card_tables', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_card_tables_event_id'), ['event_id'], unique=False)

    op.create_table('roster_changes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('roster_id', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(length=10), nullable=False),
    sa.Column('by_account_id', sa.Integer(), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("action IN ('authorize','revoke')", name=op.f('ck_roster_changes_action')),
    sa.ForeignKeyConstraint(['by_account_id'], ['accounts.id'], name=op.f('fk_roster_changes_by_account_id_accounts')),
    sa.ForeignKeyConstraint(['roster_id'], ['roster.id'], name=op.f('fk_roster_changes_roster_id_roster')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_roster_changes'))
    )
    with op.batch_alter_table('roster_changes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_roster_changes_roster_id'), ['roster_id'], unique=False)

    op.create_table('hands',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=20), nullable=False),
    sa.Column('commitment', sa.String(length=64), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('history', sa.Text(), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status IN ('playing','settled','voided')", name=op.f('ck_hands_status')),
    sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], name=op.f('fk_hands_table_id_card_tables')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_hands')),
    sa.UniqueConstraint('table_id', 'number', name='table_number')
    )
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hands_commitment'), ['commitment'], unique=False)
        batch_op.create_index(batch_op.f('ix_hands_table_id'), ['table_id'], unique=False)

    op.create_table('ledger_transactions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=30), nullable=False),
    sa.Column('memo', sa.String(length=300), nullable=False),
    sa.Column('by_account_id', sa.Integer(), nullable=True),
    sa.Column('hand_id', sa.Integer(), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['by_account_id'], ['accounts.id'], name=op.f('fk_ledger_transactions_by_account_id_accounts')),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_ledger_transactions_event_id_events')),
    sa.ForeignKeyConstraint(['hand_id'], ['hands.id'], name=op.f('fk_ledger_transactions_hand_id_hands')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_transactions'))
    )
    with op.batch_alter_table('ledger_transactions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ledger_transactions_event_id'), ['event_id'], unique=False)

    op.create_table('ledger_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('transaction_id', sa.Integer(), nullable=False),
    sa.Column('source_id', sa.Integer(), nullable=False),
    sa.Column('dest_id', sa.Integer(), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=False),
    sa.CheckConstraint('amount > 0', name=op.f('ck_ledger_entries_amount_positive')),
    sa.CheckConstraint('source_id <> dest_id', name=op.f('ck_ledger_entries_two_accounts')),
    sa.ForeignKeyConstraint(['dest_id'], ['ledger_accounts.id'], name=op.f('fk_ledger_entries_dest_id_ledger_accounts')),
    sa.ForeignKeyConstraint(['source_id'], ['ledger_accounts.id'], name=op.f('fk_ledger_entries_source_id_ledger_accounts')),
    sa.ForeignKeyConstraint(['transaction_id'], ['ledger_transactions.id'], name=op.f('fk_ledger_entries_transaction_id_ledger_transactions')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_entries'))
    )
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.create_index('ix_ledger_entries_dest', ['dest_id'], unique=False)
        batch_op.create_index('ix_ledger_entries_source', ['source_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_ledger_entries_transaction_id'), ['transaction_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ledger_entries_transaction_id'))
        batch_op.drop_index('ix_ledger_entries_source')
        batch_op.drop_index('ix_ledger_entries_dest')

    op.drop_table('ledger_entries')
    with op.batch_alter_table('ledger_transactions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ledger_transactions_event_id'))

    op.drop_table('ledger_transactions')
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hands_table_id'))
        batch_op.drop_index(batch_op.f('ix_hands_commitment'))

    op.drop_table('hands')
    with op.batch_alter_table('roster_changes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_roster_changes_roster_id'))

    op.drop_table('roster_changes')
    with op.batch_alter_table('card_tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_card_tables_event_id'))

    op.drop_table('card_tables')
    with op.batch_alter_table('auth_tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auth_tokens_account_id'))

    op.drop_table('auth_tokens')
    with op.batch_alter_table('roster', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_roster_event_id'))

    op.drop_table('roster')
    with op.batch_alter_table('ledger_accounts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ledger_accounts_event_id'))

    op.drop_table('ledger_accounts')
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_accounts_event_id'))

    op.drop_table('accounts')
    op.drop_table('events')
