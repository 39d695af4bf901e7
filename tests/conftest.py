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

# Under pytest-xdist the workers already keep every core busy: a numba kernel's own threads
# (``parallel=True``) would only fight them for the cores, and for the small batches of a test
# their start-up costs more than they share (the bots' test: 4 s of CPU on one thread, 18 s on
# two). Each worker, and what it starts, runs the kernels on one thread; ``-n 0`` keeps them all.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")

# The odds' disk cache (syndicate.blackjack.maths.odds.cache_dir) is private to the run, so the tests
# compute their analyses as before and leave nothing in the user's cache; subprocesses inherit it.
if "SYNDICATE_CACHE_DIR" not in os.environ:
    os.environ["SYNDICATE_CACHE_DIR"] = tempfile.mkdtemp(prefix="syndicate-test-cache-")
    atexit.register(shutil.rmtree, os.environ["SYNDICATE_CACHE_DIR"], True)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_databases: run on SQLite and on PostgreSQL, where the database "
                                       "matters (storage, the ledger, a crash); the rest run on SQLite")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The card-room fixtures' database (tests/kit/room.py): SQLite, or both backends for a test
    marked ``both_databases`` (every test with ``SYNDICATE_TEST_DATABASES=both``). Always a
    parameter, so that every SQLite test shares one."""
    if "db_url" in metafunc.fixturenames and not _parametrizes(metafunc, "db_url"):
        from tests.kit.room import BACKENDS

        both = (metafunc.definition.get_closest_marker("both_databases") is not None
                or os.environ.get("SYNDICATE_TEST_DATABASES") == "both")
        metafunc.parametrize("db_url", BACKENDS if both else BACKENDS[:1], indirect=True, scope="session")


def _parametrizes(metafunc: pytest.Metafunc, name: str) -> bool:
    """The test names its own values of ``name`` (``pytest.mark.parametrize(name, ..., indirect=True)``)."""
    for mark in metafunc.definition.iter_markers("parametrize"):
        names = mark.args[0]
        if name in ([n.strip() for n in names.split(",")] if isinstance(names, str) else names):
            return True
    return False


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Stop before the first test if the machine lacks what the selected tests need
    (tests/prerequisites.py): one line, naming it and the command that provides it.

    Under pytest-xdist each worker collects and checks; a worker that finds something missing
    runs nothing and hands the line to the controller (``workeroutput``), which prints it once
    and ends the run with the same exit code as a single process does."""
    if config.option.collectonly or not items:
        return
    from tests.prerequisites import problems

    missing = problems(items)
    if not missing:
        return
    line = "./run test is missing " + "; ".join(missing)
    if hasattr(config, "workeroutput"):  # an xdist worker
        config.workeroutput["missing"] = line
        items.clear()
        return
    pytest.exit(line, returncode=pytest.ExitCode.USAGE_ERROR)


_MISSING = pytest.StashKey[str]()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """The xdist controller: a worker found a prerequisite missing (see above)."""
    line = getattr(node, "workeroutput", {}).get("missing")
    if line:
        node.config.stash[_MISSING] = line  # type: ignore[attr-defined]


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    line = session.config.stash.get(_MISSING, None)
    if line is not None:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(line)
        session.exitstatus = pytest.ExitCode.USAGE_ERROR


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
