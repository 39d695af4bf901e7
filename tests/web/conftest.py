import pytest

from syndicate.room.live import Timers
from syndicate.web import create_app
from tests.room.kit import FAST_HASHER, LiveServer, cast, database, db_url, pg_url, room  # noqa: F401


@pytest.fixture
def server(database):  # noqa: F811
    """A real server on the test database, the turn clock off (a module may define its own)."""
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None))
    srv = LiveServer(app)
    yield srv
    srv.stop()
