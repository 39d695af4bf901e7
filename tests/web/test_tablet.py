"""The dealer's tablet, on the server's side (docs/dealer.md): the dealer's view lists what each
seat they act for may do now (and names no card it may not), and the pages' QR codes carry the
address the players reach, which a request's ``Host`` cannot change into another site's."""

from __future__ import annotations

import asyncio
import io
import json
import re
from typing import Any

import httpx
import pytest
import segno

from syndicate.apps.client import ActionRefused, TableClient
from syndicate.room.errors import BadRequest
from syndicate.room.live.clocks import Timers
from syndicate.web import create_app
from syndicate.web.pages import hide_cards
from syndicate.web.qr import public_url, qr_svg
from syndicate.web.security import Limits
from tests.kit.room import FAST_HASHER, LiveServer
from tests.web.test_walk_ins import sign_in

#: What the console may enter for a seat, with the fields each needs to be accepted.
TRIES: dict[str, dict[str, Any]] = {
    "bet": {"amount": 100}, "hit": {}, "stand": {}, "double": {}, "split": {}, "surrender": {},
    "insurance": {}, "no_insurance": {}, "even_money": {}, "play_on": {},
    "check": {}, "call": {}, "raise": {"amount": 50}, "fold": {}, "stand_pat": {}, "draw": {"discards": []},
}


async def legal_is_exactly_what_is_accepted(dealer: TableClient, seat: int, game: str) -> str:
    """The dealer's view lists ``legal`` for ``seat``: every other action the console could send
    is refused (changing nothing), and the first listed one is accepted. The action taken."""
    st = await dealer.wait(lambda s: True)
    legal = next(s for s in st["seats"] if s["seat"] == seat)["legal_actions"]
    assert legal, (seat, st["round"])
    offered = ["bet", "hit", "stand", "double", "split", "surrender", "insurance", "no_insurance", "even_money",
               "play_on"] if game == "blackjack" else ["check", "bet", "call", "raise", "fold", "draw", "stand_pat"]
    for action in offered:
        if action in legal:
            continue
        before = dealer.version
        with pytest.raises(ActionRefused) as e:
            await dealer.act(action, seat=seat, **TRIES[action])
        assert e.value.version == before and e.value.rule not in ("dealer_acts", "seat", "table_dealer"), e.value
    pick = next(a for a in ("no_insurance", "play_on", "stand", "check", "call", "stand_pat", "bet") if a in legal)
    await dealer.act(pick, seat=seat, **TRIES[pick] if pick == "bet" else {})
    return pick


async def _blackjack(url: str, table_id: int, tokens: dict[str, str]) -> None:
    dealer = await TableClient.connect(url, table_id, tokens["dealer"])
    alice = await TableClient.connect(url, table_id, tokens["alice"])
    bob = await TableClient.connect(url, table_id, tokens["bob"])
    await dealer.act("seat_walk_in", seat=1, name="Kenji", amount=5_000)
    await alice.act("sit", seat=2, amount=5_000)
    await bob.act("sit", seat=3, amount=5_000)
    await bob.act("let_dealer_act", allow=True)
    st = await dealer.wait(lambda s: len(s["seats"]) == 3 and s["seats"][2]["dealer_acts"])
    # Between rounds: nothing to do for anyone; Alice plays from her phone: no list for her seat.
    assert [s.get("legal_actions") for s in st["seats"]] == [[], None, []]
    await dealer.act("start_round")
    st = await dealer.wait(lambda s: s["round"] is not None and s["round"]["phase"] == "betting")
    assert {s["seat"]: s.get("legal_actions") for s in st["seats"]} == {1: ["bet"], 2: None, 3: ["bet"]}
    mine = await bob.wait(lambda s: s["version"] >= st["version"])
    assert mine["round"]["legal_actions"] == ["bet"]  # what Bob's own page offers
    for other in (alice, bob):  # no player's view carries a list for another seat
        assert all("legal_actions" not in s for s in other.state["seats"])
    await dealer.act("bet", seat=1, amount=100)
    await alice.act("bet", amount=100)
    await dealer.act("bet", seat=3, amount=100)
    last = (await dealer.act("deal"))["version"]
    while True:
        st = await dealer.wait(lambda s: s["version"] >= last)
        rd = st["round"]
        if rd["phase"] == "settled":
            break
        seat = rd["to_act"]
        if seat == 2:
            mine = await alice.wait(lambda s: s["version"] >= st["version"])
            assert next(s for s in st["seats"] if s["seat"] == 2).get("legal_actions") is None
            legal = mine["round"]["legal_actions"]
            last = (await alice.act(next(a for a in ("no_insurance", "play_on", "stand") if a in legal)))["version"]
            continue
        others = [s.get("legal_actions") for s in st["seats"] if s["seat"] != seat]
        assert all(x in ([], None) for x in others), others  # only the seat to act has a choice
        if seat == 3:  # Bob's own view lists the same
            mine = await bob.wait(lambda s: s["version"] >= st["version"])
            assert mine["round"]["legal_actions"] == next(s for s in st["seats"] if s["seat"] == 3)["legal_actions"]
        await legal_is_exactly_what_is_accepted(dealer, seat, "blackjack")
        last = dealer.version
    for c in (dealer, alice, bob):
        await c.close()


def test_the_dealers_view_lists_what_a_seat_they_act_for_may_do(server, room, cast) -> None:
    ev = cast.event.id
    for p in (cast.alice, cast.bob):
        room.cashier.buy_in(cast.admin, p.id, 10_000)
    clients = {role: sign_in(server, ev, name) for role, name in
               (("dealer", "Bokuden"), ("alice", "Alice"), ("bob", "Bob"))}
    table = clients["dealer"].open_table("Legal", overrides={"min_bet": 100, "max_bet": 1_000})
    asyncio.run(_blackjack(server.url, table["id"], {k: c.token for k, c in clients.items()}))
    assert room.ledger.audit(ev) == []


async def _draw(url: str, table_id: int, tokens: dict[str, str]) -> list[dict[str, Any]]:
    """A draw hand between two walk-ins, every decision entered by the dealer from the list in the
    dealer's view: Hana bets, Taro folds. The dealer's messages."""
    dealer = await TableClient.connect(url, table_id, tokens["dealer"])
    await dealer.act("seat_walk_in", seat=1, name="Hana", amount=1_000)
    await dealer.act("seat_walk_in", seat=2, name="Taro", amount=1_000)
    await dealer.act("start_round")
    while True:
        st = await dealer.wait(lambda s: True)
        rd = st["round"]
        if rd["phase"] == "complete":
            break
        seat = rd["to_act"]
        legal = next(s for s in st["seats"] if s["seat"] == seat)["legal_actions"]
        assert all(s.get("legal_actions") == [] for s in st["seats"] if s["seat"] != seat)
        if seat == 1 and "bet" in legal:
            await dealer.act("bet", seat=1, amount=50)
        elif seat == 2 and "fold" in legal:
            await dealer.act("fold", seat=2)
        else:
            await legal_is_exactly_what_is_accepted(dealer, seat, "poker")
    messages = list(dealer.messages)
    await dealer.close()
    return messages


def test_the_dealers_lists_at_draw_name_no_card(server, room, cast) -> None:
    ev = cast.event.id
    clients = {role: sign_in(server, ev, name) for role, name in (("dealer", "Bokuden"),)}
    table = clients["dealer"].open_table("Legal draw", game="poker", overrides={"ante": 50})
    messages = asyncio.run(_draw(server.url, table["id"], {k: c.token for k, c in clients.items()}))
    with room.store.transaction() as repo:
        (hand,) = repo.hands(ev, table["id"], limit=5)
    log = hand.history["hands"][0]["log"]
    dealt = {c for r in log if r["type"] == "deal" for c in r["cards"]}
    assert len(dealt) == 10
    states = [m for m in messages if m.get("type") in ("welcome", "state")]
    assert any(s.get("legal_actions") for m in states for s in m["seats"])  # the lists were there
    # Taro folded: no card of the hand was ever shown, so none is in any message the dealer got.
    text = json.dumps(states)
    assert not [c for c in dealt if f'"{c}"' in text]


# -- the QR codes ---------------------------------------------------------------------------------
def served(url: str, path: str, **headers: str) -> httpx.Response:
    return httpx.get(url + path, headers=headers)


def decoded(svg_url: str) -> str:
    """What a scanner reads in segno's code of ``svg_url`` (zxing-cpp over segno's own PNG):
    the parameters the server draws with make a code that reads back."""
    import zxingcpp
    from PIL import Image

    png = io.BytesIO()
    segno.make_qr(svg_url, error="m").save(png, kind="png", scale=6, border=4)
    (found,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(png.getvalue())))
    return str(found.text)


def test_the_qr_codes_carry_the_address_the_request_reached(server, room, cast) -> None:
    table = sign_in(server, cast.event.id, "Bokuden").open_table("QR")
    lobby = served(server.url, "/qr.svg")
    assert lobby.status_code == 200 and lobby.headers["content-type"].startswith("image/svg+xml")
    assert lobby.headers["cache-control"] == "private, no-cache" and lobby.headers["vary"] == "Host"
    assert "content-security-policy" in lobby.headers  # the edges' headers, as on every answer
    want = server.url + "/"
    assert lobby.text == qr_svg(want, f"QR code of the card room's lobby: {want}")
    assert decoded(want) == want
    page = served(server.url, f"/tables/{table['id']}/qr.svg")
    want = f"{server.url}/tables/{table['id']}"
    assert page.status_code == 200 and page.text == qr_svg(want, f"QR code of the table QR: {want}")
    assert decoded(want) == want
    other = qr_svg(f"{server.url}/tables/{table['id'] + 1}", f"QR code of the table QR: {want}")
    assert other != page.text  # the code changes with the address: the comparison means something
    missing = served(server.url, "/tables/999999/qr.svg")
    assert missing.status_code == 404 and missing.json()["error"]["rule"] == "table"


@pytest.mark.parametrize("host", ["evil.example", f"evil.example:{80}", "127.0.0.1:1", "localhost",
                                  "127.0.0.1@evil.example", "evil.example/path", "", "[::1]:1"])
def test_a_host_header_cannot_put_another_address_in_a_qr_code(server, host) -> None:
    """Any name but the room's own is refused at the door (rule ``host``, docs/security.md), the
    QR codes' routes included."""
    r = httpx.get(server.url + "/qr.svg", headers={"Host": host})
    assert r.status_code == 400, (host, r.text[:200])
    assert r.json()["error"]["rule"] == "host"
    assert "svg" not in r.headers["content-type"]


def test_localhost_is_answered_but_never_put_in_a_qr_code(server) -> None:
    """``localhost`` at the server's port is the room's own name on this machine (the pages
    answer it), but no phone can open it: a code is refused (rule ``public_url``), saying what
    to do."""
    port = server.url.rsplit(":", 1)[1]
    assert httpx.get(server.url + "/", headers={"Host": f"localhost:{port}"}).status_code == 200
    r = httpx.get(server.url + "/qr.svg", headers={"Host": f"localhost:{port}"})
    assert r.status_code == 400 and r.json()["error"]["rule"] == "public_url"
    assert "--lan" in r.json()["error"]["message"]


def test_a_public_url_wins_over_any_host(database, cast) -> None:  # noqa: F811
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, timers=Timers(turn=None),
                     limits=Limits(actions_per_second=10_000, action_burst=10_000),
                     public_url=" https://casino.example/night/ ", trusted_origins=["https://tables.example"])
    srv = LiveServer(app)
    try:
        for host in ("casino.example", "tables.example", f"127.0.0.1:{srv.port}", f"localhost:{srv.port}"):
            r = httpx.get(srv.url + "/qr.svg", headers={"Host": host})
            want = "https://casino.example/night/"
            assert r.status_code == 200 and r.text == qr_svg(want, f"QR code of the card room's lobby: {want}")
        r = httpx.get(srv.url + "/qr.svg", headers={"Host": "evil.example"})  # not a name of the room
        assert r.status_code == 400 and r.json()["error"]["rule"] == "host"
    finally:
        srv.stop()
    # A trusted origin is this server's too (behind a TLS proxy on this machine, which says https).
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, trusted_origins=["https://tables.example"])
    srv = LiveServer(app)
    try:
        r = httpx.get(srv.url + "/qr.svg", headers={"Host": "tables.example", "X-Forwarded-Proto": "https"})
        want = "https://tables.example/"
        assert r.status_code == 200 and r.text == qr_svg(want, f"QR code of the card room's lobby: {want}")
        r = httpx.get(srv.url + "/qr.svg", headers={"Host": "tables.example"})  # plain http: not that origin
        assert r.status_code == 400 and r.json()["error"]["rule"] == "public_url"
    finally:
        srv.stop()


@pytest.mark.parametrize("bad", ["casino.example", "ftp://casino.example", "https://", "https://a@casino.example",
                                 "https://casino.example/?x=1", "https://casino.example/#x", "https://casino.example:x"])
def test_a_public_url_is_checked(bad) -> None:
    with pytest.raises(BadRequest) as e:
        public_url(bad)
    assert e.value.rule == "public_url"


# -- what the card check shows a player -----------------------------------------------------------
def test_the_card_check_hides_a_card_entered_by_its_rank_alone() -> None:
    """An engine's refusal names a card of the full history; a player's copy of the check must
    not: suited ("Ah", "A♥", "10♥"), quoted, or a Blackjack card entered without its suit ("A",
    "T", "10", "7"), while the round and step numbers and the counts stay readable."""
    from syndicate.core.cards import card
    from syndicate.core.shoe import EnteredShoe

    for text in ("A", "T", "10", "7", "K", "Ah", "Th", "10h"):
        shoe = EnteredShoe(1)
        c = card(text, suitless=True)
        while shoe.refusal(c) is None:
            shoe.take(c)
        line = f"round 3: the engine refused a recorded action: {shoe.refusal(c)}"
        hidden = hide_cards(line)
        assert hidden.startswith("round 3: the engine refused a recorded action: ?? "), (text, hidden)
        assert not re.search(r"(?<![\w])(10|[2-9TJQKA])([cdhs♠♥♦♣])?(?= (cannot|has))", hidden), hidden
        assert "1-deck" in hidden or "one of each card" in hidden  # the rest reads as it did
    assert hide_cards("unknown card 'A': write a rank") == "unknown card ??: write a rank"
    assert hide_cards("hand 2: replay failed: a card needs a suit here: 'T' is a rank alone") == \
        "hand 2: replay failed: a card needs a suit here: ?? is a rank alone"
    assert hide_cards("round 12: replay differs from the record at step 7") == \
        "round 12: replay differs from the record at step 7"
    assert hide_cards("hand 4: ok, 25 cards dealt, all from the committed order") == \
        "hand 4: ok, 25 cards dealt, all from the committed order"
    assert hide_cards("Kd and 10♣ then 9s") == "?? and ?? then ??"
