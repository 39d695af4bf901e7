"""walk-ins: a walk-in's link to a player's account, and the tables' cash counts

Revision ID: 0008_walk_ins
Revises: 0007_house_float
Create Date: 2026-12-02 02:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008_walk_ins'
down_revision = '0007_house_float'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (see 0006): a batch rebuild of `accounts` fails on SQLite once other rows
    # reference it. SQLite takes the foreign key inline (Alembic would add it as a constraint,
    # which SQLite cannot do in place).
    if op.get_bind().dialect.name == 'sqlite':
        op.execute('ALTER TABLE accounts ADD COLUMN linked_to INTEGER REFERENCES accounts (id)')
    else:
        op.add_column('accounts', sa.Column('linked_to', sa.Integer(), nullable=True))
        op.create_foreign_key(op.f('fk_accounts_linked_to_accounts'), 'accounts', 'accounts', ['linked_to'], ['id'])
    op.create_index(op.f('ix_accounts_linked_to'), 'accounts', ['linked_to'], unique=False)
    op.create_table('cash_counts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('counted', sa.BigInteger(), nullable=False),
    sa.Column('expected', sa.BigInteger(), nullable=False),
    sa.Column('by_account_id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['by_account_id'], ['accounts.id'], name=op.f('fk_cash_counts_by_account_id_accounts')),
    sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], name=op.f('fk_cash_counts_table_id_card_tables')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_cash_counts'))
    )
    op.create_index(op.f('ix_cash_counts_table_id'), 'cash_counts', ['table_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_cash_counts_table_id'), table_name='cash_counts')
    op.drop_table('cash_counts')
    op.drop_index(op.f('ix_accounts_linked_to'), table_name='accounts')
    if op.get_bind().dialect.name != 'sqlite':
        op.drop_constraint(op.f('fk_accounts_linked_to_accounts'), 'accounts', type_='foreignkey')
    op.drop_column('accounts', 'linked_to')
