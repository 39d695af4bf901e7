"""The load tools never hang on a failure (issue 16): a client that cannot connect, a socket that
never answers, a bot that raises, a socket the server closes and a load process killed mid-run
are each counted and named in the report, the other tables play on, and the run ends with what
they measured. These are failure paths, the same on either database: SQLite only."""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import random
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from syndicate.apps import loadbots, loadtest
from syndicate.apps.cli import app
from syndicate.apps.client import RoomClient
from tests.kit.room import PASSWORD, free_port

#: A run that has not returned by then hangs (a liveness bound, not a timing figure).
HANG = 120


def bounded(fn: Callable[[], Any]) -> Any:
    """``fn()`` in a thread; a test that would hang fails instead, naming the hang."""
    out: dict[str, Any] = {}

    def target() -> None:
        try:
            out["value"] = fn()
        except BaseException as e:  # handed to the test below
            out["error"] = e

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(HANG)
    assert not t.is_alive(), f"still running after {HANG} s: the load tool hangs"
    if "error" in out:
        raise out["error"]
    return out["value"]


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections (the kernel's backlog) and never says a word."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(64)
        yield s.getsockname()[1]


@pytest.fixture
def bots_password(server, cast) -> str:  # type: ignore[no-untyped-def]
    return loadtest.prepare_accounts(server.url, cast.event.id, "admin", PASSWORD, loadtest.plan(4, 2, 1))


def test_nothing_listening_every_client_fails_and_the_run_ends() -> None:
    specs = loadtest.plan(2, 2, 1)
    figures = bounded(lambda: loadtest.run(f"http://127.0.0.1:{free_port()}", 1, specs, "pw", seconds=1,
                                           think=0, warmup=0.2, procs=2, connect_timeout=2))
    assert figures.actions == 0 and figures.failed_tables == 2 and figures.failed_clients == 2 * 4
    assert "signing in load-dealer-" in figures.first_error and "ConnectError" in figures.first_error
    assert figures.to_json()["failed_clients"] == 8 and len(figures.to_json()["failures"]) == 2
    assert figures.failure_line().startswith("8 of 8 clients failed (2 of 2 tables stopped); first error: ")


def test_the_command_says_it_cannot_reach_the_room(monkeypatch) -> None:
    monkeypatch.setenv("SYNDICATE_ADMIN_PASSWORD", PASSWORD)
    url = f"http://127.0.0.1:{free_port()}"
    result = bounded(lambda: CliRunner().invoke(app, ["loadtest", url, "--tables", "1"]))
    assert result.exit_code == 2 and f"cannot reach the card room at {url}" in result.output


def test_a_socket_that_never_answers_times_out_and_the_command_reports_it(  # type: ignore[no-untyped-def]
        server, cast, silent_port, tmp_path, monkeypatch) -> None:
    """The WebSockets go to the server and to a silent port in turn (the issue: a load worker's
    TableClient.connect timed out), so every table has a client that cannot connect."""
    monkeypatch.setenv("SYNDICATE_ADMIN_PASSWORD", PASSWORD)
    out = tmp_path / "report.json"
    result = bounded(lambda: CliRunner().invoke(app, [
        "loadtest", f"{server.url},http://127.0.0.1:{silent_port}", "--event", str(cast.event.id),
        "--tables", "2", "--players", "2", "--duration", "1", "--think", "0", "--warmup", "0.2", "--procs", "1",
        "--connect-timeout", "1", "--json", str(out)]))
    assert result.exit_code == 1, result.output
    assert "failed: 6 of 6 clients failed (2 of 2 tables stopped)" in " ".join(result.output.split())
    assert "TimeoutError" in result.output and "connecting load-" in result.output
    report = __import__("json").loads(out.read_text())
    assert report["failed_clients"] == 6 and report["actions"] == 0 and "TimeoutError" in report["first_error"]


def test_a_table_that_cannot_start_stops_alone(server, cast, bots_password) -> None:  # type: ignore[no-untyped-def]
    specs = loadtest.plan(2, 2, 1)
    specs[1].dealer = "ghost dealer"  # no such account: the sign-in is refused
    figures = bounded(lambda: loadtest.run(server.url, cast.event.id, specs, bots_password, seconds=2, think=0,
                                           warmup=0.2, procs=1))
    assert figures.failed_tables == 1 and figures.failed_clients == 1 + 2 + 1
    assert figures.first_error.startswith("table of ghost dealer (poker), signing in ghost dealer: ApiError: 40")
    assert figures.actions > 10  # the other table played on
    assert figures.errors == 0, figures.error_kinds


def test_a_load_process_killed_mid_run_is_reported_and_the_rest_measured(  # type: ignore[no-untyped-def]
        server, cast, room, bots_password) -> None:
    specs = loadtest.plan(2, 2, 1, ("blackjack",))
    killed: list[int] = []

    def kill_one(elapsed: float, actions: int) -> None:
        if not killed and elapsed > 0.3:
            victim = mp.active_children()[0]
            os.kill(victim.pid, signal.SIGKILL)
            killed.append(victim.pid)

    figures = bounded(lambda: loadtest.run(server.url, cast.event.id, specs, bots_password, seconds=2, think=0,
                                           warmup=0.2, procs=2, progress=kill_one))
    assert killed
    assert figures.failed_tables == 1 and figures.failed_clients == 1 + 2 + 1
    assert "was killed by SIGKILL before it was done" in figures.first_error
    assert figures.actions > 10  # what the other process measured
    assert room.ledger.audit(cast.event.id) == []


class _Raises(loadbots.TableBots):
    """A bot with a bug: its second round raises."""

    rounds = 0

    async def hand(self) -> None:
        self.rounds += 1
        if self.rounds == 2:
            raise KeyError("round")
        await super().hand()


class _Stuck(loadbots.TableBots):
    """A table whose server stops answering: its round never ends."""

    async def hand(self) -> None:
        await asyncio.Event().wait()


class _Remembers(loadbots.TableBots):
    """Keeps its bots' tokens, for the test to sign one out (the server then closes its socket)."""

    def _token(self, name: str) -> str:
        self.tokens = getattr(self, "tokens", {})
        self.tokens[name] = super()._token(name)
        return self.tokens[name]


def test_a_bot_that_raises_a_stuck_table_and_a_closed_socket_stop_only_their_tables(  # type: ignore[no-untyped-def]
        server, cast, bots_password) -> None:
    specs = loadtest.plan(4, 2, 1, ("blackjack",))
    ev = cast.event.id

    async def scene() -> list[loadbots.Failure]:
        kinds = [loadbots.TableBots, _Raises, _Stuck, _Remembers]
        bots = [k(server.url, ev, s, bots_password, 0, random.Random(i)) for i, (k, s) in enumerate(zip(kinds, specs))]
        assert await loadbots.connect_tables(bots) == []

        async def sign_a_player_out() -> None:  # the server closes the sockets of that sign-in
            await asyncio.sleep(0.8)
            with RoomClient(server.url, bots[3].tokens[specs[3].players[0]]) as player:  # type: ignore[attr-defined]
                await asyncio.to_thread(player.sign_out)

        side = asyncio.create_task(sign_a_player_out())
        failures = await loadbots.play_tables(bots, warmup=0.1, seconds=2, grace=1)
        await side
        assert bots[0].failure is None and len(bots[0].latencies()) > 10  # the sound table played on
        assert all(b.closed for b in [bots[0].dealer, *bots[0].players])  # and every socket was closed
        return failures

    failures = bounded(lambda: asyncio.run(scene()))
    by_dealer = {f.error.split(" (")[0].removeprefix("table of "): f for f in failures}
    assert set(by_dealer) == {specs[1].dealer, specs[2].dealer, specs[3].dealer}
    assert all(f.clients == 4 and f.tables == 1 for f in failures)
    assert by_dealer[specs[1].dealer].error.endswith("playing: KeyError: 'round'")
    assert by_dealer[specs[2].dealer].error.endswith("playing: still waiting for the server 1 s after the end")
    assert "playing: Connection" in by_dealer[specs[3].dealer].error
