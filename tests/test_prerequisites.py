"""./run test stops at once, with one line naming what is missing and how to provide it, when
the machine lacks what the selected tests need; under CI a browser test never skips quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _pytest(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})


def test_without_postgresql_the_run_stops_with_one_line() -> None:
    out = _pytest("tests/store/test_store.py", SYNDICATE_TEST_PG="postgresql+psycopg://postgres@127.0.0.1:1")
    assert out.returncode == pytest.ExitCode.USAGE_ERROR, out.stdout + out.stderr
    lines = [line for line in (out.stdout + out.stderr).splitlines() if "PostgreSQL is not answering" in line]
    assert len(lines) == 1 and "pg_ctlcluster" in lines[0]
    assert " passed" not in out.stdout and " error" not in out.stdout


def test_without_chromium_the_browser_tests_stop_the_run() -> None:
    out = _pytest("tests/browser", SYNDICATE_TEST_CHROMIUM="/nonexistent/chromium")
    assert out.returncode == pytest.ExitCode.USAGE_ERROR, out.stdout + out.stderr
    assert "Chromium is not installed at /nonexistent/chromium" in out.stdout + out.stderr
    assert "apt-get install chromium" in out.stdout + out.stderr
    assert "skipped" not in out.stdout


def test_tests_that_need_nothing_run_without_any_of_it() -> None:
    out = _pytest("tests/test_money.py", SYNDICATE_TEST_PG="postgresql+psycopg://postgres@127.0.0.1:1",
                  SYNDICATE_TEST_CHROMIUM="/nonexistent/chromium")
    assert out.returncode == 0, out.stdout + out.stderr


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
