"""Opening the card room's database: SQLite by default, PostgreSQL on request.

The schema comes only from the Alembic migrations shipped in this package, run
programmatically (``upgrade head``) every time the server starts, so an old file is brought
up to date and a new one is created in place.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).with_name("migrations")
DEFAULT_SQLITE = "syndicate.db"


STARTUP_LOCK = 0x53594E44  # "SYND": the advisory lock of startup_lock()


def normalize_url(url: str | None) -> str:
    """``None`` → ``sqlite:///syndicate.db``; a bare path → SQLite; ``postgresql://`` → psycopg 3."""
    if not url:
        return f"sqlite:///{DEFAULT_SQLITE}"
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


class Database:
    """An engine and a session factory, with SQLite set up for a server: foreign keys on,
    WAL, and ``BEGIN IMMEDIATE`` so two writers queue instead of failing half-way."""

    def __init__(self, url: str | None = None, **engine_args: Any) -> None:
        self.url = normalize_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            engine_args.setdefault("connect_args", {"check_same_thread": False, "timeout": 30})
        else:
            engine_args.setdefault("pool_pre_ping", True)
        self.engine: Engine = create_engine(self.url, **engine_args)
        if self.is_sqlite:
            _sqlite_setup(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest migration."""
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    @contextmanager
    def startup_lock(self) -> Iterator[None]:
        """Held while a server prepares the database (migrations, the first event): several
        processes starting at once on PostgreSQL take turns. SQLite's writers queue anyway."""
        if self.is_sqlite:
            yield
            return
        with self.engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": STARTUP_LOCK})
            conn.commit()
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": STARTUP_LOCK})
                conn.commit()

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction: committed if the block ends normally, rolled back if it raises."""
        with self._sessions() as s, s.begin():
            yield s

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        # On the driver's connection: SQLAlchemy's statement machinery costs more than the
        # statement itself, on every transaction.
        conn.connection.driver_connection.execute("BEGIN IMMEDIATE")
