import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings

# CI runs more examples; locally the default profile keeps the suite quick.
settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The odds' disk cache (syndicate.blackjack.odds.cache_dir) is private to the run, so the tests
# compute their analyses as before and leave nothing in the user's cache; subprocesses inherit it.
if "SYNDICATE_CACHE_DIR" not in os.environ:
    os.environ["SYNDICATE_CACHE_DIR"] = tempfile.mkdtemp(prefix="syndicate-test-cache-")
    atexit.register(shutil.rmtree, os.environ["SYNDICATE_CACHE_DIR"], True)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Stop before the first test if the machine lacks what the selected tests need
    (tests/prerequisites.py): one line, naming it and the command that provides it."""
    if session.config.option.collectonly or not session.items:
        return
    from tests.prerequisites import problems

    missing = problems(session.items)
    if missing:
        pytest.exit("./run test is missing " + "; ".join(missing), returncode=pytest.ExitCode.USAGE_ERROR)


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def _fail_browser_skip(report: pytest.TestReport | pytest.CollectReport) -> None:
    """Under CI a browser test never skips quietly: a skip there means the browser tests did not
    run, which CI must not pass."""
    if report.skipped and _in_ci() and "tests/browser" in report.nodeid.replace(os.sep, "/"):
        report.outcome = "failed"
        report.longrepr = f"CI: the browser test would have been skipped ({report.longrepr})"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    outcome = yield
    _fail_browser_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> object:
    outcome = yield
    _fail_browser_skip(outcome.get_result())
