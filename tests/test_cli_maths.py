"""The maths commands as a user runs them (the figures themselves are pinned in tests/maths)."""

import json

from typer.testing import CliRunner

from syndicate.apps.cli import app

runner = CliRunner()


def test_odds_blackjack_json_names_both_expectations():
    out = runner.invoke(app, ["odds", "blackjack", "--rules", "syndicate", "--set", "decks=2", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert -2 < data["expectation_pct"] < 1
    assert data["basic_strategy_expectation_pct"] <= data["expectation_pct"] + 1e-9


def test_odds_blackjack_house_view_needs_all_three():
    out = runner.invoke(app, ["odds", "blackjack", "--hands-per-hour", "60"])
    assert out.exit_code == 2


def test_odds_bad_rule_is_a_clear_error():
    out = runner.invoke(app, ["odds", "blackjack", "--set", "decks=12"])
    assert out.exit_code == 2 and "decks" in out.output


def test_strategy_text_and_bad_format():
    out = runner.invoke(app, ["strategy", "--rules", "notice"])
    assert out.exit_code == 0 and "Hard" in out.output
    out = runner.invoke(app, ["strategy", "--format", "gif"])
    assert out.exit_code == 2 and "formats: text, json, png, svg" in out.output


def test_simulate_small_seeded_run_is_reproducible():
    args = ["simulate", "--rounds", "20000", "--seed", "7", "--workers", "1", "--json"]
    a = runner.invoke(app, args)
    b = runner.invoke(app, [*args[:-2], "2", "--json"])
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    assert json.loads(a.output)["mean_pct"] == json.loads(b.output)["mean_pct"]


def test_odds_blackjack_answers_from_the_disk_cache_without_numba(tmp_path) -> None:
    """A rule set analysed once is kept on disk: the next process answers with the same figures
    without importing numba (most of the old start-up), and a damaged file is recomputed."""
    import json as _json
    import os
    import subprocess
    import sys

    code = ("import sys, json; from syndicate.blackjack.maths import odds; from syndicate.blackjack.rules import preset;"
            "a = odds.analyze(preset('syndicate').with_(decks=8));"
            "print(json.dumps([a.expectation_pct, a.basic_strategy_expectation_pct, a.from_cache,"
            " 'numba' in sys.modules, a.chart_cells == odds._compute(a.rules, False).chart_cells"
            " if a.from_cache else True]))")
    env = {**os.environ, "SYNDICATE_CACHE_DIR": str(tmp_path)}

    def run() -> list:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        assert out.returncode == 0, out.stderr
        return _json.loads(out.stdout)

    first = run()
    assert first[2] is False and first[3] is True  # computed, with numba
    files = list((tmp_path / "odds").glob("*.json"))
    assert len(files) == 1
    second = subprocess.run([sys.executable, "-c", code.replace(
        "a.chart_cells == odds._compute(a.rules, False).chart_cells if a.from_cache else True", "True")],
        capture_output=True, text=True, env=env, timeout=300)
    hit = _json.loads(second.stdout)
    assert hit[:2] == first[:2] and hit[2] is True and hit[3] is False  # the same figures, no numba
    assert run()[4] is True  # the kept chart is the computed chart
    files[0].write_text("{not json")
    again = run()
    assert again[2] is False and again[:2] == first[:2]
