"""./run test stops at once, with one line naming what is missing and how to provide it, when
the machine lacks what the selected tests need; under CI a browser test never skips quietly.

Checked directly on the hooks of tests/conftest.py and the checks of tests/prerequisites.py,
with the machine's pieces pointed somewhere they are not (no pytest run inside this one)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import tests.prerequisites as prerequisites
from tests.conftest import pytest_collection_modifyitems, pytest_sessionfinish, pytest_testnodedown

TESTS = Path(__file__).resolve().parent
NO_PG = "postgresql+psycopg://postgres@127.0.0.1:1"


def _item(path: str, *fixtures: str, **params: str) -> Any:
    """A collected test as the prerequisites read it: its file, fixtures and parameters."""
    return SimpleNamespace(path=TESTS / path, fixturenames=list(fixtures), callspec=SimpleNamespace(params=params))


#: tests/store/test_store.py's tests: on SQLite and on PostgreSQL (marked both_databases).
STORE = [_item("store/test_store.py", "database", "db_url", db_url=b) for b in ("sqlite", "postgresql")]
BROWSER = [_item("browser/test_pages.py", "world")]
MONEY = [_item("test_money.py")]


class _Reporter:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def write_line(self, line: str) -> None:
        self.lines.append(line)


def _config(worker: bool = False) -> Any:
    config = SimpleNamespace(option=SimpleNamespace(collectonly=False), stash=pytest.Stash())
    if worker:
        config.workeroutput = {}
    return config


def _stop(items: list[Any]) -> tuple[int | None, str]:
    """The collection hook of one process (no xdist): its exit code and line, or (None, "") if
    the run goes on."""
    try:
        pytest_collection_modifyitems(None, _config(), items)  # type: ignore[arg-type]
    except pytest.exit.Exception as e:
        return e.returncode, e.msg
    return None, ""


def _stop_under_xdist(items: list[Any]) -> tuple[list[Any], int, list[str]]:
    """The same run under pytest-xdist: what a worker keeps of its tests, and the controller's
    exit status and the lines it prints once every worker is down."""
    worker = _config(worker=True)
    pytest_collection_modifyitems(None, worker, items)  # type: ignore[arg-type]
    reporter = _Reporter()
    controller = _config()
    controller.pluginmanager = SimpleNamespace(get_plugin=lambda name: reporter)
    for _ in range(2):  # two workers, each finding the same thing
        pytest_testnodedown(SimpleNamespace(workeroutput=dict(worker.workeroutput), config=controller), None)
    session = SimpleNamespace(config=controller, exitstatus=pytest.ExitCode.OK)
    pytest_sessionfinish(session, pytest.ExitCode.OK)  # type: ignore[arg-type]
    return items, session.exitstatus, reporter.lines


def test_without_postgresql_the_run_stops_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prerequisites, "PG_SERVER", NO_PG)
    code, line = _stop(list(STORE))
    assert code == pytest.ExitCode.USAGE_ERROR, line
    lines = [x for x in line.splitlines() if "PostgreSQL is not answering" in x]
    assert len(lines) == 1 and "pg_ctlcluster" in lines[0]
    assert line == lines[0] and line.startswith("./run test is missing PostgreSQL is not answering at " + NO_PG)
    # Under xdist: no worker runs a test, and the controller prints the line once.
    kept, status, printed = _stop_under_xdist(list(STORE))
    assert kept == [] and status == pytest.ExitCode.USAGE_ERROR and printed == [line]


def test_without_chromium_the_browser_tests_stop_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prerequisites, "CHROMIUM", "/nonexistent/chromium")
    code, line = _stop(list(BROWSER))
    assert code == pytest.ExitCode.USAGE_ERROR, line
    assert "Chromium is not installed at /nonexistent/chromium" in line
    assert "apt-get install chromium" in line
    kept, status, printed = _stop_under_xdist(list(BROWSER))
    assert kept == [] and status == pytest.ExitCode.USAGE_ERROR and printed == [line]


def test_tests_that_need_nothing_run_without_any_of_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prerequisites, "PG_SERVER", NO_PG)
    monkeypatch.setattr(prerequisites, "CHROMIUM", "/nonexistent/chromium")
    assert prerequisites.needs(MONEY) == set()
    assert _stop(list(MONEY)) == (None, "")
    kept, status, printed = _stop_under_xdist(list(MONEY))
    assert kept == MONEY and status == pytest.ExitCode.OK and printed == []


def test_each_kind_of_test_needs_its_pieces() -> None:
    """What the run checks for, by the tests selected: a test on SQLite only needs nothing."""
    assert prerequisites.needs(STORE[:1]) == set()
    assert prerequisites.needs(STORE) == {"postgresql"}
    assert prerequisites.needs([_item("cluster/test_cluster.py", "nodes")]) == {"postgresql", "redis"}
    assert prerequisites.needs([_item("web/test_api.py", "cluster_db")]) == {"postgresql"}
    assert prerequisites.needs(BROWSER) == {"chromium"}


@pytest.mark.parametrize("ci,outcome", [("true", "failed"), ("", "skipped")])
def test_a_browser_skip_fails_under_ci(monkeypatch: pytest.MonkeyPatch, ci: str, outcome: str) -> None:
    from tests.conftest import _fail_browser_skip

    monkeypatch.setenv("CI", ci)
    report = pytest.TestReport("tests/browser/test_card_room.py::test_x", ("x", 1, "x"), {}, "skipped",
                               ("x", 1, "Skipped: no browser"), "call")
    _fail_browser_skip(report)
    assert report.outcome == outcome
    other = pytest.TestReport("tests/test_money.py::test_x", ("x", 1, "x"), {}, "skipped",
                              ("x", 1, "Skipped"), "call")
    _fail_browser_skip(other)
    assert other.outcome == "skipped"
