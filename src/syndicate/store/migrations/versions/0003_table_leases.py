"""table leases: one owning server process per live table, fenced by an epoch

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('table_leases',
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('owner', sa.String(length=64), nullable=False),
    sa.Column('epoch', sa.BigInteger(), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], name=op.f('fk_table_leases_table_id_card_tables')),
    sa.PrimaryKeyConstraint('table_id', name=op.f('pk_table_leases'))
    )
    with op.batch_alter_table('table_leases', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_table_leases_expires_at'), ['expires_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('table_leases', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_table_leases_expires_at'))
    op.drop_table('table_leases')
