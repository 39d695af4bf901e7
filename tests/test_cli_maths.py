"""The maths commands as a user runs them (the figures themselves are pinned in tests/maths)."""

import json

from typer.testing import CliRunner

from syndicate.cli import app

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
