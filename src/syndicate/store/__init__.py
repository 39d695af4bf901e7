"""Storage for the card room: SQLAlchemy 2 models, the repository the room's services use, and
the Alembic migrations (run on start). SQLite by default, PostgreSQL with a ``postgresql://`` URL."""

from .database import Database, normalize_url
from .repo import SqlRepo
from .transactions import SqlStore

__all__ = ["Database", "SqlRepo", "SqlStore", "normalize_url"]
