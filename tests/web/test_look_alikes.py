"""Names that read alike (Unicode TR39 skeletons, docs/walk-ins.md): a walk-in or an account whose
name reads like another account's (``aIice`` for ``alice``) or a roster dealer's is refused
naming the look-alike; a walk-in cannot take a roster dealer's name; an account under a walk-in's
name is refused and pointed at the link that makes the walk-in's history its own. Through the
API and the live socket, as the dealer and the admin meet them; every refusal changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from syndicate.apps.client import ActionRefused, ApiError, RoomClient, TableClient
from syndicate.room.lookalikes import look_alike_key, skeleton
from tests.kit.room import PASSWORD


def _client(server: Any, event_id: int, name: str) -> RoomClient:
    c = RoomClient(server.url)
    c.sign_in(event_id, name, PASSWORD)
    return c


def _create(admin: RoomClient, name: str, role: str = "player") -> Any:
    return admin.request("POST", "/api/accounts", {"name": name, "role": role, "password": PASSWORD})


def test_an_account_reading_like_another_is_refused_naming_it(server, room, cast) -> None:
    admin = _client(server, cast.event.id, "admin")
    before = [a["name"] for a in admin.request("GET", "/api/accounts")]
    for name, like in (("aIice", "Alice"), ("AIice", "Alice"), ("B0b", "Bob"), ("Sarn", "Sam"),
                       ("B0kuden", "Bokuden"), ("N0riko", "Noriko"), ("adrnin", "admin")):
        with pytest.raises(ApiError) as e:
            _create(admin, name)
        assert e.value.status == 409 and e.value.rule == "look_alike", (name, e.value)
        assert f"{name!r} reads like {like!r}" in str(e.value), e.value
    assert [a["name"] for a in admin.request("GET", "/api/accounts")] == before  # nothing was created
    for name in ("Kai", "Kal", "Alicia", "Bobby"):  # names that only resemble each other are fine
        assert _create(admin, name)["name"] == name
    with pytest.raises(ApiError) as e:
        _create(admin, "ALICE ")  # the same name in another case is the name rule's, as before
    assert e.value.rule == "name"


async def _seat(url: str, table_id: int, token: str, tries: list[tuple[str, str | None]]) -> list[str | None]:
    """The dealer seats walk-ins by name, each at a fresh seat: the rule each was refused with
    (None: seated). Each refusal leaves the table's version where it was."""
    dealer = await TableClient.connect(url, table_id, token)
    rules: list[str | None] = []
    seat = 1
    for name, _ in tries:
        before = dealer.version
        try:
            await dealer.act("seat_walk_in", seat=seat, name=name, amount=1_000)
            rules.append(None)
            seat += 1
        except ActionRefused as e:
            assert e.version == before, e
            rules.append(e.rule)
    await dealer.close()
    return rules


def test_a_walk_in_cannot_pass_for_a_player_or_take_a_dealers_name(server, room, cast) -> None:
    ev = cast.event.id
    dealer = _client(server, ev, "Bokuden")
    table = dealer.open_table("Look-alikes")
    tries = [
        ("aIice", "look_alike"),     # reads like Alice, a player who signs in
        ("Hana", None),              # a new walk-in
        ("H4na", None),              # 4 reads as no letter: another name
        ("Ryuusei", "roster_name"),  # on the roster, no account yet: kept for the dealer's account
        ("ryuusei ", "roster_name"),  # in any case and spacing
        ("N0riko", "look_alike"),    # reads like a dealer on the roster
        ("HAna", "seated"),          # the walk-in Hana, already at this table
        ("Han\u0430", "name"),        # a Cyrillic а: names are letters A-Z, digits and a few signs
        ("Gh0st", "look_alike"),     # reads like Ghost, a dealer's account
        ("Hanna", None),             # reads like no one
    ]
    rules = asyncio.run(_seat(server.url, table["id"], dealer.token or "", tries))
    assert rules == [want for _, want in tries], rules
    walk_ins = [w["name"] for w in _client(server, ev, "Jean-Marc").request("GET", "/api/walk-ins")]
    assert walk_ins == ["Hana", "H4na", "Hanna"]  # the refusals made no account
    assert room.ledger.audit(ev) == []


def test_an_account_under_a_walk_ins_name_is_told_of_the_link(server, room, cast) -> None:
    """Squatting: walk-in "Hana" played tonight; the admin making Hana an account is refused
    (the walk-in keeps the name and their hands), told to give the account another name and
    link the walk-in to it; the link then makes the walk-in's history the account's."""
    ev = cast.event.id
    dealer = _client(server, ev, "Bokuden")
    table = dealer.open_table("Squat")
    assert asyncio.run(_seat(server.url, table["id"], dealer.token or "", [("Hana", None)])) == [None]
    admin = _client(server, ev, "admin")
    [walk_in] = admin.request("GET", "/api/walk-ins")
    for name in ("Hana", "hana ", "HANA"):
        with pytest.raises(ApiError) as e:
            _create(admin, name)
        assert e.value.status == 409 and e.value.rule == "walk_in_name", e.value
        assert f"/api/walk-ins/{walk_in['id']}/link" in str(e.value) and "another name" in str(e.value)
        assert "link the walk-in to it" in str(e.value)
    assert _create(admin, "Hama")["name"] == "Hama"  # no look-alike of Hana: m reads as rn, not n
    account = _create(admin, "Hana K.")
    asyncio.run(_leave(server.url, table["id"], dealer.token or ""))
    linked = admin.request("POST", f"/api/walk-ins/{walk_in['id']}/link", {"player": account["id"]})
    assert linked["linked_to"] == account["id"], linked


async def _leave(url: str, table_id: int, token: str) -> None:
    dealer = await TableClient.connect(url, table_id, token)
    await dealer.act("cash_out_walk_in", seat=1)
    await dealer.wait(lambda s: not s["seats"])
    await dealer.close()


def test_skeletons_follow_tr39() -> None:
    """The standard's own examples and the classes' representatives: what matters is that
    confusable strings meet and others do not."""
    assert skeleton("p\u0430ypal") == skeleton("paypal")  # a Cyrillic а
    assert skeleton("rn") == skeleton("m") and skeleton("0") == skeleton("O") and skeleton("l") == skeleton("1")
    assert skeleton("I") == skeleton("l") and skeleton("i") != skeleton("l")
    assert look_alike_key("aIice") == look_alike_key("alice") == look_alike_key("Alice")
    assert look_alike_key("Kai") != look_alike_key("Kal")
    assert look_alike_key("ｂｏｂ") == look_alike_key("B0B")
