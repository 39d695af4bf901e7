"""What the selected tests need from the machine besides .venv: PostgreSQL (the storage, server
and cluster tests), Redis and its ``redis-server`` binary (the cluster tests) and Chromium (the
browser tests). ``./run test`` checks before the first test, so a missing piece stops the run
with one line naming it and the command that provides it, instead of a wall of errors or
silently skipped tests. ``.ci/run`` starts and installs all three."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tests.kit.room import CHROMIUM, PG_SERVER, REDIS_SERVER

TESTS = Path(__file__).resolve().parent


def _under(item: Any, folder: str) -> bool:
    return (TESTS / folder) in Path(str(item.path)).resolve().parents


def needs(items: Iterable[Any]) -> set[str]:
    """Which of "postgresql", "redis", "chromium" the collected test items use."""
    out: set[str] = set()
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        params = getattr(getattr(item, "callspec", None), "params", {})
        if names & {"pg_url", "cluster_db"} or params.get("db_url") == "postgresql":
            out.add("postgresql")
        if _under(item, "cluster"):
            out |= {"postgresql", "redis"}
        if _under(item, "browser"):
            out.add("chromium")
    return out


def _pg_start_command() -> str:
    versions = sorted(os.listdir("/etc/postgresql")) if os.path.isdir("/etc/postgresql") else []
    return f"pg_ctlcluster {versions[-1] if versions else '<version>'} main start"


def postgresql_problem() -> str | None:
    from sqlalchemy import create_engine, text

    engine = create_engine(f"{PG_SERVER}/postgres", connect_args={"connect_timeout": 3})
    try:
        with engine.connect() as c:
            c.execute(text("select 1"))
        return None
    except Exception:
        if shutil.which("pg_ctlcluster") is None and shutil.which("postgres") is None:
            how = f"apt-get install postgresql && {_pg_start_command()}"
        else:
            how = _pg_start_command()
        return f"PostgreSQL is not answering at {PG_SERVER} (SYNDICATE_TEST_PG): {how}"
    finally:
        engine.dispose()


def redis_problem() -> str | None:
    import redis

    if shutil.which("redis-server") is None and not os.path.exists("/usr/bin/redis-server"):
        return "redis-server is not installed (the cluster tests run it): apt-get install redis-server"
    client = redis.Redis.from_url(REDIS_SERVER, socket_connect_timeout=3, socket_timeout=3)
    try:
        client.ping()
        return None
    except Exception:
        return (f"Redis is not answering at {REDIS_SERVER} (SYNDICATE_TEST_REDIS): "
                "redis-server --daemonize yes --port 6379 --save ''")
    finally:
        client.close()


def chromium_problem() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"Chromium is not installed at {CHROMIUM} (the browser tests drive it): apt-get install chromium"
    return None


CHECKS = {"postgresql": postgresql_problem, "redis": redis_problem, "chromium": chromium_problem}


def problems(items: Iterable[Any]) -> list[str]:
    """One line per missing piece that the selected tests need, in a fixed order."""
    wanted = needs(items)
    found = (CHECKS[name]() for name in CHECKS if name in wanted)
    return [p for p in found if p is not None]
