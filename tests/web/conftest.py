from typing import Any

import pytest

from syndicate.core.cards import parse
from syndicate.core.shoe import Shoe
from syndicate.room.live.clocks import Timers
from syndicate.web import create_app
from syndicate.web.security import Limits
from tests.kit.room import FAST_HASHER, LiveServer, cast, database, db_url, pg_url, room  # noqa: F401


@pytest.fixture
def server(database):  # noqa: F811
    """A real server on the test database, the turn clock off (a module may define its own), and
    the live rate limit out of the way of bots that act as fast as the machine lets them (the
    limits have tests of their own in tests/hostile)."""
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None),
                     limits=Limits(actions_per_second=10_000, action_burst=10_000))
    srv = LiveServer(app)
    yield srv
    srv.stop()


#: One seat's Blackjack round, over and over: Ts Kd (20) against the dealer's Th up and 8s in
#: the hole (18). No insurance, no natural: every round waits for the seat's decision, and the
#: seat that stands wins even money.
WIN = "Ts Th Kd 8s"


@pytest.fixture
def stacked_server(database):  # noqa: F811
    """:func:`server` with every shoe stacked with :data:`WIN`."""
    def shoe(rules: Any) -> Shoe:
        return Shoe.stacked(parse(" ".join([WIN] * 300), distinct=False), decks=rules.decks)

    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None),
                     limits=Limits(actions_per_second=10_000, action_burst=10_000), new_shoe=shoe)
    srv = LiveServer(app)
    yield srv
    srv.stop()
