"""The door (docs/door.md), on both databases: a guest list imported from CSV (all or nothing),
guests found by name and checked in, what they paid kept apart from the chips the ledger issued
at the rate, and vouchers that sign a guest in once. Every refusal names its rule and changes
nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from syndicate.room.door import parse_guest_list
from syndicate.room.errors import BadRequest, Conflict, Forbidden, NotFound, Unauthorized
from syndicate.room.ledger import player_key

pytestmark = pytest.mark.both_databases

GUESTS = "Name,Email,Table\nAko Tanaka,ako@example.org,3\nBen Ortiz,,\n\nCleo Park,c@example.org,1\n"
SESSION = timedelta(hours=12)


def _state(room, cast) -> tuple:  # type: ignore[no-untyped-def]
    """Everything the door may change: the accounts, the payments, the ledger's balances."""
    ev = cast.event.id
    return ([(a.id, a.name) for a in room.accounts.all(ev)], room.door.payments(cast.admin),
            [(a.key, a.balance) for a in room.ledger.accounts(ev)])


def _guest(room, cast, name: str) -> int:  # type: ignore[no-untyped-def]
    return next(g["id"] for g in room.door.guests(cast.admin, name) if g["name"] == name)


def test_a_guest_list_is_imported_and_searched_by_name(room, cast) -> None:
    made = room.door.import_guests(cast.admin, GUESTS)
    assert [g.name for g in made] == ["Ako Tanaka", "Ben Ortiz", "Cleo Park"]
    found = room.door.guests(cast.boss, "ORTIZ")
    assert [(g["name"], g["checked_in"], g["paid"], g["chips"]) for g in found] == [("Ben Ortiz", None, 0, 0)]
    assert {g["name"] for g in room.door.guests(cast.admin, "a")} >= {"Ako Tanaka", "Cleo Park"}


@pytest.mark.parametrize(("text", "rule", "said"), [
    ("Name\nAko\nako \n", "duplicate_guest", "line 3: 'ako' is already on the list at line 2"),
    ("Guest\nAko\n", "guest_list", "one is 'name'"),
    ("", "guest_list", "empty"),
    ("Name\nAko\n<script>\n", "guest_list", "line 3"),
    ("Name\nBot 3-1\n", "guest_list", "reserved"),
    ("Name\nMilo Park\nMiIo Park\n", "look_alike", "'MiIo Park' reads like 'Milo Park' (a guest on this list"),
    ("Name\nBokuden\n", "duplicate_guest", "already in this event"),
])
def test_a_bad_guest_list_is_refused_whole_and_changes_nothing(room, cast, text: str, rule: str, said: str) -> None:
    before = _state(room, cast)
    with pytest.raises((BadRequest, Conflict)) as e:
        room.door.import_guests(cast.admin, text)
    assert e.value.rule == rule and said in e.value.message, e.value.message
    assert _state(room, cast) == before


def test_a_guest_already_in_the_event_refuses_the_list(room, cast) -> None:
    room.door.import_guests(cast.admin, "name\nAko Tanaka\n")
    before = _state(room, cast)
    with pytest.raises(Conflict) as e:
        room.door.import_guests(cast.admin, "name\nDan Wu\nako tanaka\n")
    assert e.value.rule == "duplicate_guest" and "Ako Tanaka" in e.value.message
    assert _state(room, cast) == before


def test_check_in_records_the_payment_apart_from_the_chips(room, cast) -> None:
    room.door.import_guests(cast.admin, GUESTS)
    room.door.set_rate(cast.admin, 2_000, 100_000)  # $20 paid = $1,000 in chips
    ako, ben = _guest(room, cast, "Ako Tanaka"), _guest(room, cast, "Ben Ortiz")
    cashier_before = room.ledger.balance(cast.event.id, "cashier") if any(
        a.key == "cashier" for a in room.ledger.accounts(cast.event.id)) else 0
    p = room.door.check_in(cast.boss, ako, "cash", 2_500)
    assert (p.method, p.paid, p.chips) == ("cash", 2_500, 125_000)
    room.door.pay(cast.admin, ako, "card", 1_000)  # a second donation, at the rate
    assert room.ledger.balance(cast.event.id, player_key(ako)) == 175_000
    assert room.ledger.balance(cast.event.id, "cashier") == cashier_before - 175_000
    with pytest.raises(Conflict) as e:
        room.door.check_in(cast.admin, ben, "comp")  # no starting stack: a comp gets nothing to play
    assert e.value.rule == "door_stack"
    room.door.set_rate(cast.admin, 2_000, 100_000, stack=100_000)
    room.door.check_in(cast.admin, ben, "comp")
    assert room.ledger.balance(cast.event.id, player_key(ben)) == 100_000
    [g] = room.door.guests(cast.admin, "Ako")
    assert (g["paid"], g["chips"], len(g["receipts"])) == (3_500, 175_000, 2) and g["checked_in"]
    assert room.ledger.total(cast.event.id) == 0  # every chip traced: the ledger sums to zero


@pytest.mark.parametrize(("call", "rule"), [
    (lambda room, cast, g: room.door.check_in(cast.admin, g, "cash", 2_000), "already_checked_in"),
    (lambda room, cast, g: room.door.check_in(cast.admin, g, "cheque", 2_000), "method"),
    (lambda room, cast, g: room.door.pay(cast.admin, g, "cash", 0), "paid"),
    (lambda room, cast, g: room.door.pay(cast.admin, g, "cash", 20.0), "paid"),
    (lambda room, cast, g: room.door.pay(cast.admin, g, "comp", 0), "method"),
    (lambda room, cast, g: room.door.pay(cast.admin, cast.dealer.id, "cash", 100), "guest"),
    (lambda room, cast, g: room.door.pay(cast.admin, 10**6, "cash", 100), "guest"),
    (lambda room, cast, g: room.door.pay(cast.alice, g, "cash", 100), "run_door"),
    (lambda room, cast, g: room.door.pay(cast.dealer, g, "cash", 100), "run_door"),
])
def test_a_bad_payment_is_refused_naming_its_rule_and_changes_nothing(room, cast, call, rule: str) -> None:
    room.door.import_guests(cast.admin, GUESTS)
    room.door.set_rate(cast.admin, 2_000, 100_000)
    ako = _guest(room, cast, "Ako Tanaka")
    room.door.check_in(cast.admin, ako, "cash", 2_000)
    before = _state(room, cast)
    with pytest.raises((BadRequest, Conflict, Forbidden, NotFound)) as e:
        call(room, cast, ako)
    assert e.value.rule == rule, e.value
    assert _state(room, cast) == before


def test_a_voucher_signs_its_guest_in_once(room, cast) -> None:
    room.door.import_guests(cast.admin, GUESTS)
    ako = _guest(room, cast, "Ako Tanaka")
    secret, expires = room.door.issue_voucher(cast.admin, ako)
    assert timedelta(hours=11) < expires - datetime.now(UTC) <= timedelta(hours=12)
    assert [g["voucher"] for g in room.door.guests(cast.admin, "Ako")] == [True]
    session, guest = room.door.redeem(secret, SESSION)
    assert guest.id == ako and room.accounts.authenticate(session).id == ako
    with pytest.raises(Unauthorized) as e:
        room.door.redeem(secret, SESSION)
    assert e.value.rule == "voucher_used" and "signs in once" in e.value.message
    assert [g["voucher"] for g in room.door.guests(cast.admin, "Ako")] == [False]


def test_a_revoked_or_replaced_voucher_signs_in_no_one(room, cast) -> None:
    room.door.import_guests(cast.admin, GUESTS)
    ako, ben = _guest(room, cast, "Ako Tanaka"), _guest(room, cast, "Ben Ortiz")
    first, _ = room.door.issue_voucher(cast.admin, ako)
    second, _ = room.door.issue_voucher(cast.boss, ako)  # a lost card: a new one replaces it
    with pytest.raises(Unauthorized) as e:
        room.door.redeem(first, SESSION)
    assert e.value.rule == "voucher_revoked"
    bens, _ = room.door.issue_voucher(cast.admin, ben)
    assert room.door.revoke_vouchers(cast.admin, ben) == 1
    with pytest.raises(Unauthorized) as e:
        room.door.redeem(bens, SESSION)
    assert e.value.rule == "voucher_revoked"
    for bad in ("x" * 43, "", None, 7, "y" * 500):
        with pytest.raises(Unauthorized) as e:
            room.door.redeem(bad, SESSION)
        assert e.value.rule == "voucher"
    assert room.door.redeem(second, SESSION)[1].id == ako


def test_an_expired_voucher_is_refused(room, cast, monkeypatch) -> None:
    import syndicate.room.door as door

    room.door.import_guests(cast.admin, GUESTS)
    secret, expires = room.door.issue_voucher(cast.admin, _guest(room, cast, "Cleo Park"))
    monkeypatch.setattr(door, "now", lambda: expires + timedelta(seconds=1))
    with pytest.raises(Unauthorized) as e:
        room.door.redeem(secret, SESSION)
    assert e.value.rule == "voucher_expired"


def test_no_password_signs_a_guest_in(room, cast) -> None:
    room.door.import_guests(cast.admin, GUESTS)
    for password in ("", "!no password signs in", "password"):
        with pytest.raises(Unauthorized) as e:
            room.accounts.sign_in(cast.event.id, "Ako Tanaka", password)
        assert e.value.rule == "credentials"


def test_the_csv_parser_reads_what_spreadsheets_write() -> None:
    """A byte-order mark, CRLF line ends, quoted cells, and a semicolon for a separator (what a
    spreadsheet set to a European locale writes)."""
    assert parse_guest_list('\ufeffName,Note\r\n"Ben Ortiz","VIP, table 1"\r\nAko,\r\n') == ["Ben Ortiz", "Ako"]
    assert parse_guest_list("Email;Name\r\na@example.org;Cleo Park\r\n;Dan Wu\r\n") == ["Cleo Park", "Dan Wu"]
