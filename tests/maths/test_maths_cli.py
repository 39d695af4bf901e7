"""The command bodies the CLI wires, called directly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from syndicate.apps import maths_cli
from syndicate.blackjack.rules import preset


def _console() -> Console:
    return Console(record=True, width=140, color_system=None)


def test_odds_json_and_house_view() -> None:
    c = _console()
    maths_cli.odds_blackjack(preset("syndicate"), True, 200, 2_500, 4.0, c)
    data = json.loads(c.export_text())
    assert data["expectation_pct"] < 0 and "basic_strategy_expectation_pct" in data
    assert data["house"]["rounds"] == 800
    c = _console()
    maths_cli.odds_blackjack(preset("notice"), False, None, None, None, c)
    out = c.export_text()
    assert "basic strategy" in out and "bust" in out
    with pytest.raises(ValueError):
        maths_cli.odds_blackjack(preset("notice"), False, 100, None, None, _console())


def test_strategy_formats(tmp_path: Path) -> None:
    c = _console()
    maths_cli.strategy_cmd(preset("syndicate"), "text", None, c)
    assert "Pairs" in c.export_text()
    c = _console()
    maths_cli.strategy_cmd(preset("syndicate"), "json", None, c)
    assert json.loads(c.export_text())["pairs"]["8,8"]["10"] == "P"
    maths_cli.strategy_cmd(preset("jupiters"), "svg", tmp_path / "c.svg", _console())
    assert (tmp_path / "c.svg").exists()
    with pytest.raises(ValueError):
        maths_cli.strategy_cmd(preset("syndicate"), "gif", None, _console())


def test_simulate_cmd() -> None:
    c = _console()
    maths_cli.simulate_cmd(preset("syndicate"), 200_000, 1, 2, True, True, c)
    data = json.loads(c.export_text())
    assert data["rounds"] == 200_000 and "exact_basic_strategy_pct" in data
    c = _console()
    maths_cli.simulate_cmd(preset("jupiters"), 200_000, 1, 1, False, False, c)
    assert "Simulated expectation" in c.export_text()
