"""account kind: what an account is (a person, a bot, a walk-in), in a column of its own, filled
from the password-hash markers that told bots and walk-ins apart until now

Revision ID: 0011_account_kind
Revises: 0010_money
Create Date: 2026-12-05 07:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0011_account_kind'
down_revision = '0010_money'
branch_labels = None
depends_on = None

KINDS = "kind IN ('person','bot','walk_in')"
#: The markers the older code wrote as a bot's or a walk-in's password hash, by kind.
MARKERS = {'bot': '!bot: no password signs in', 'walk_in': '!walk-in: no password signs in'}
#: What every bot's and walk-in's password hash is from now on: it matches no password and says
#: nothing of the account (syndicate.room.values.NO_PASSWORD).
NO_PASSWORD = '!no password signs in'

accounts = sa.table('accounts', sa.column('kind', sa.String), sa.column('password_hash', sa.String))


def upgrade() -> None:
    # Plain ADD COLUMN (see 0006): a batch rebuild of `accounts` fails on SQLite once other rows
    # reference it. SQLite takes the CHECK inline (it cannot add a constraint in place).
    if op.get_bind().dialect.name == 'sqlite':
        op.execute("ALTER TABLE accounts ADD COLUMN kind VARCHAR(10) DEFAULT 'person' NOT NULL "
                   f"CONSTRAINT ck_accounts_kind CHECK ({KINDS})")
    else:
        op.add_column('accounts', sa.Column('kind', sa.String(length=10), nullable=False, server_default='person'))
        op.create_check_constraint('kind', 'accounts', KINDS)
    for kind, marker in MARKERS.items():
        op.execute(accounts.update().where(accounts.c.password_hash == marker)
                   .values(kind=kind, password_hash=NO_PASSWORD))


def downgrade() -> None:
    for kind, marker in MARKERS.items():
        op.execute(accounts.update().where(accounts.c.kind == kind).values(password_hash=marker))
    if op.get_bind().dialect.name != 'sqlite':
        op.drop_constraint('kind', 'accounts', type_='check')
    op.drop_column('accounts', 'kind')
