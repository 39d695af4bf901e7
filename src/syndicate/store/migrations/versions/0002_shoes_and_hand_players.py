"""shoe seeds kept server-side; who played each hand

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('shoes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('commitment', sa.String(length=64), nullable=False),
    sa.Column('seed', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revealed_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], name=op.f('fk_shoes_table_id_card_tables')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_shoes')),
    sa.UniqueConstraint('commitment', name=op.f('uq_shoes_commitment'))
    )
    with op.batch_alter_table('shoes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_shoes_table_id'), ['table_id'], unique=False)

    op.create_table('hand_players',
    sa.Column('hand_id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_hand_players_account_id_accounts')),
    sa.ForeignKeyConstraint(['hand_id'], ['hands.id'], name=op.f('fk_hand_players_hand_id_hands')),
    sa.PrimaryKeyConstraint('hand_id', 'account_id', name=op.f('pk_hand_players'))
    )
    with op.batch_alter_table('hand_players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hand_players_account_id'), ['account_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('hand_players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hand_players_account_id'))

    op.drop_table('hand_players')
    with op.batch_alter_table('shoes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_shoes_table_id'))

    op.drop_table('shoes')
