import json

import pytest
from typer.testing import CliRunner

from syndicate.apps.cli import app
from syndicate.blackjack.rules import KEYS, PRESETS, Rules, parse_value, preset
from syndicate.core.errors import ConfigError

REQUIRED_KEYS = [
    "decks", "penetration", "dealer_hits_soft_17", "blackjack_pays", "double_on", "double_for_less",
    "double_after_split", "max_split_hands", "split_by", "resplit_aces", "hit_split_aces", "surrender",
    "hole_card", "pay_naturals_immediately", "insurance", "even_money", "min_bet", "max_bet", "seats",
]
runner = CliRunner()


def test_every_key_the_issue_names():
    assert set(REQUIRED_KEYS) <= set(KEYS)


def test_three_presets_one_per_document():
    assert set(PRESETS) == {"syndicate", "jupiters", "notice"}
    # Where the documents disagree, the presets do too.
    assert PRESETS["syndicate"].double_on == "any" and PRESETS["jupiters"].double_on == "9-11"
    assert PRESETS["jupiters"].hole_card == "no_peek_obo" and PRESETS["syndicate"].hole_card == "peek"
    assert PRESETS["jupiters"].pay_naturals_immediately and not PRESETS["syndicate"].pay_naturals_immediately
    assert PRESETS["notice"].split_by == "value" and PRESETS["syndicate"].split_by == "rank"


def test_the_notice_does_not_peek():
    """The notice: "Having knowledge of their own hand and half the dealer's they may choose ..."
    and "After all players have completed their turns, the dealer will reveal their second card."
    No look at the hole card before the players play, so every bet they make stands."""
    assert PRESETS["notice"].hole_card == "no_peek_all" and not PRESETS["notice"].peeks


def test_jupiters_busted_split_hand_was_lost_when_it_busted():
    """Jupiter's 5.5.3 "When a player goes over 21, the hand is 'bust' and the dealer collects their
    bet, and removes their hand from the table immediately", before 7.3 "only the original bet will
    be collected by the dealer on all split and double down hands": the bust does not count toward
    the original bet. The other reading ("counts") stays the default of the key."""
    assert PRESETS["jupiters"].obo_split_bust == "lost"
    assert Rules().obo_split_bust == "counts"
    assert preset("jupiters", ["obo_split_bust=counts"]).obo_split_bust == "counts"


def test_overrides_parse_per_key():
    r = preset("syndicate", ["decks=2", "dealer_hits_soft_17=yes", "min_bet=$0.50", "double_on=10-11",
                             "penetration=0.8"])
    assert (r.decks, r.dealer_hits_soft_17, r.min_bet, r.double_on, r.penetration) == (2, True, 50, "10-11", 0.8)
    assert Rules.from_dict(r.to_dict()) == r


@pytest.mark.parametrize(
    "item, words",
    [("colour=red", "unknown rule key 'colour'; valid keys: decks"),
     ("decks=9", "decks: it must be a whole number from 1 to 8"),
     ("decks=two", "bad value 'two' for decks"),
     ("double_on=12", "one of 'any', '9-11', '10-11'"),
     ("insurance=maybe", "true or false"),
     ("obo_split_bust=kept", "obo_split_bust: it must be one of 'counts', 'lost'"),
     ("min_bet=-5", "bad value '-5' for min_bet"),
     ("min_bet=500", "min_bet ($500.00) is above max_bet"),
     ("penetration=0.1", "from 0.25 to 1.0"),
     ("decks", "--set takes key=value")],
)
def test_bad_overrides_are_clear(item, words):
    with pytest.raises(ConfigError) as e:
        preset("syndicate", [item])
    assert words in str(e.value)


def test_unknown_preset():
    with pytest.raises(ConfigError, match="presets: syndicate, jupiters, notice"):
        preset("vegas")


def test_parse_value_unknown_key():
    with pytest.raises(ConfigError, match="valid keys"):
        parse_value("nope", "1")


def test_cli_rules_lists_presets():
    out = runner.invoke(app, ["rules"])
    assert out.exit_code == 0
    for name in PRESETS:
        assert name in out.output


def test_cli_rules_json_has_every_key():
    out = runner.invoke(app, ["rules", "jupiters", "--json", "--set", "decks=2"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert list(data) == list(KEYS) and data["decks"] == 2 and data["double_on"] == "9-11"


def test_cli_rules_bad_key_is_a_clear_error():
    out = runner.invoke(app, ["rules", "syndicate", "--set", "colour=red"])
    assert out.exit_code == 2
    assert "unknown rule key 'colour'" in out.output and "valid keys" in out.output
