"""Draw poker odds, enumerated exactly, against the classic published figures.

Source for the figures: the standard draw-poker improvement tables (e.g. Wikipedia, "Poker
probability", section on draw poker; Wizard of Odds, "Five Card Draw" odds), which are exact
fractions of C(47, k) draws.
"""

import json
from math import comb

import pytest
from typer.testing import CliRunner

from syndicate.apps.cli import app
from syndicate.core.cards import CardError, parse
from syndicate.poker.bots import strength
from syndicate.poker.maths.odds import allowed, discard_options, draw_odds


def test_pair_drawing_three():
    o = draw_odds("As Ad Kc Qh 2s", "Kc Qh 2s")
    assert o.draws == comb(47, 3) == 16_215
    c = o.categories
    assert c["Two Pair"] == pytest.approx(2_592 / 16_215)
    assert c["Three of a Kind"] == pytest.approx(1_854 / 16_215)
    assert c["Full House"] == pytest.approx(165 / 16_215)
    assert c["Four of a Kind"] == pytest.approx(45 / 16_215)
    assert o.improve == pytest.approx(4_656 / 16_215)  # 28.71%


def test_flush_and_straight_draws():
    assert draw_odds("Ah Kh 8h 4h 2c", "2c").categories["Flush"] == pytest.approx(9 / 47)
    assert draw_odds("9c Th Jd Qs 2c", "2c").categories["Straight"] == pytest.approx(8 / 47)
    assert draw_odds("9c Th Jd Ks 2c", "2c").categories["Straight"] == pytest.approx(4 / 47)


def test_royal_draw():
    c = draw_odds("Ah Kh Qh Jh 2c", "2c").categories
    assert c["Royal Flush"] == pytest.approx(1 / 47) and c["Flush"] == pytest.approx(8 / 47)


def test_stand_pat_changes_nothing():
    o = draw_odds("2c 3d 4h 5s 6c", "")
    assert o.draws == 1 and o.categories == {"Straight": 1.0} and o.improve == 0


def test_the_ace_rule_limits_the_options():
    options = discard_options("As 9d 7c 4h 2s")
    sizes = {len(o.discard) for o in options}
    assert max(sizes) == 4
    assert all(o.discard != tuple(parse("As 9d 7c 4h")) for o in options)
    fours = [o for o in options if len(o.discard) == 4]
    assert len(fours) == 1 and parse("As")[0] not in fours[0].discard
    assert not allowed(parse("Ks 9d 7c 4h 2s"), parse("9d 7c 4h 2s"))
    assert max(len(o.discard) for o in discard_options("Ks 9d 7c 4h 2s")) == 3


def test_the_best_option_for_a_pair_is_to_draw_three():
    best = discard_options("As Ad Kc Qh 2s")[0]
    assert best.discard == tuple(parse("Kc Qh 2s"))


def test_bad_hands_are_clear_errors():
    with pytest.raises(CardError):
        draw_odds("As Ad Kc Qh", "")
    with pytest.raises(CardError):
        draw_odds("As Ad Kc Qh 2s", "3s")
    with pytest.raises(CardError):
        draw_odds("As As Kc Qh 2s", "")


def test_bots_value_a_draw_by_its_exact_odds():
    """Before the draw a four-flush is worth what the flush draw makes of it."""
    four_flush = strength(parse("Ah Kh 8h 4h 2c"), before_draw=True)
    nothing = strength(parse("Kd 9c 7h 5s 2d"), before_draw=True)
    assert four_flush > nothing
    assert four_flush == pytest.approx(
        sum(p * w for p, w in _weights(draw_odds("Ah Kh 8h 4h 2c", "2c").categories)), rel=1e-9
    )


def _weights(categories):
    from syndicate.poker.bots import _MADE
    from syndicate.poker.evaluator import CATEGORIES

    return [(p, _MADE[CATEGORIES.index(name)]) for name, p in categories.items()]


def test_cli_odds_poker():
    runner = CliRunner()
    out = runner.invoke(app, ["odds", "poker", "As Ad Kc Qh 2s", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["options"][0]["discard"] == ["Kc", "Qh", "2s"]
    out = runner.invoke(app, ["odds", "poker", "Ks 9d 7c 4h 2s", "--discard", "9d 7c 4h 2s"])
    assert out.exit_code == 2 and "4 when the card kept is an Ace" in out.output
    out = runner.invoke(app, ["odds", "poker"])
    assert out.exit_code == 2
