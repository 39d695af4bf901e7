import pytest

from syndicate.core import money


@pytest.mark.parametrize(
    "text, cents",
    [("$0.50", 50), ("0.5", 50), ("5", 500), ("5.00", 500), ("$12.25", 1225), ("1,250.75", 125_075),
     (".75", 75), ("0", 0), ("$ 3", 300), ("2.500", 250), (700, 700)],
)
def test_parse(text, cents):
    assert money.parse(text) == cents
    assert isinstance(money.parse(text), int)


@pytest.mark.parametrize(
    "text, words",
    [("-5", "negative"), ("$-1", "negative"), ("0.005", "fraction of a cent"), ("1.001", "fraction of a cent"),
     ("abc", "not an amount"), ("", "not an amount"), ("5$", "not an amount"), ("1e3", "not an amount"),
     ("99999999999", "too large"), (-1, "negative"), (10**12, "too large"), (1.5, "not an amount"),
     (True, "not an amount"), ("nan", "not an amount")],
)
def test_parse_rejects(text, words):
    with pytest.raises(money.MoneyError) as e:
        money.parse(text)
    assert words in str(e.value)


@pytest.mark.parametrize("cents, text", [(50, "$0.50"), (0, "$0.00"), (123_456, "$1,234.56"), (-1250, "-$12.50")])
def test_format(cents, text):
    assert money.format(cents) == text


def test_round_trip():
    for cents in (0, 1, 99, 100, 101, 12_345, money.MAX_CENTS):
        assert money.parse(money.format(cents)) == cents
