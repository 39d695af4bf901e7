"""canonical account names: one account per name in an event, whatever its case, Unicode form or
spaces at either end

Revision ID: 0004_canonical_names
Revises: 0003
Create Date: 2026-12-01 22:30:00

Every account gets ``name_key``, the canonical form of its name (NFKC, case-folded, NFKC again,
stripped), unique per event. Names that were already equal in that form ("Admin", "admin ",
"ADMIN") cannot all keep it: the oldest account (lowest id) keeps its name; each later one is
renamed to its stripped name with the first free ``-2``, ``-3``, ... after it ("admin-2"), and
the migration logs every rename, so the admin can tell those people their new name. Nothing
else changes for them: password, role, sign-ins, chips and history belong to the account id.
Downgrading drops the key and keeps the new names.
"""

from __future__ import annotations

import logging
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = '0004_canonical_names'
down_revision = '0003'
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")


def _canonical(name: str) -> str:
    # A copy of syndicate.room.accounts.canonical_name as of this revision: a migration must
    # keep doing what it did when it was written, whatever the code does later.
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


def upgrade() -> None:
    # NOT NULL needs a default on SQLite's ADD COLUMN; every row gets its real key below.
    op.add_column('accounts', sa.Column('name_key', sa.String(length=100), nullable=False, server_default=''))
    accounts = sa.table('accounts', sa.column('id', sa.Integer), sa.column('event_id', sa.Integer),
                        sa.column('name', sa.String), sa.column('name_key', sa.String))
    conn = op.get_bind()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.event_id, accounts.c.name).order_by(accounts.c.id)).all()
    taken: dict[int, set[str]] = {}
    for _, event_id, name in rows:  # every name as it stands: a rename must not take another's
        taken.setdefault(event_id, set()).add(_canonical(name))
    kept: dict[int, dict[str, tuple[int, str]]] = {}
    for account_id, event_id, name in rows:
        key = _canonical(name)
        first = kept.setdefault(event_id, {}).get(key)
        if first is None:
            kept[event_id][key] = (account_id, name)
            conn.execute(accounts.update().where(accounts.c.id == account_id).values(name_key=key))
            continue
        n = 2
        while _canonical(f"{name.strip()}-{n}") in taken[event_id]:
            n += 1
        new = f"{name.strip()}-{n}"
        taken[event_id].add(_canonical(new))
        kept[event_id][_canonical(new)] = (account_id, new)
        conn.execute(accounts.update().where(accounts.c.id == account_id).values(name=new, name_key=_canonical(new)))
        log.warning("event %s: account %s renamed from %r to %r, since %r (account %s) is the same name "
                    "in another case, Unicode form or spacing", event_id, account_id, name, new, first[1], first[0])
    if conn.dialect.name != 'sqlite':  # SQLite cannot drop a default without rebuilding the table
        op.alter_column('accounts', 'name_key', server_default=None)
    op.create_index('uq_accounts_event_id_name_key', 'accounts', ['event_id', 'name_key'], unique=True)


def downgrade() -> None:
    op.drop_index('uq_accounts_event_id_name_key', table_name='accounts')
    # plain DROP COLUMN (SQLite 3.35+, PostgreSQL): a batch rebuild of accounts would fail on
    # SQLite, where the rows of other tables point at it
    op.execute('ALTER TABLE accounts DROP COLUMN name_key')
