"""What each viewer of a live table sees, and the broadcast: every client its own view, a
hidden card in no message until it is shown. Viewers who see the same thing share one message
object, so the transport encodes it once (:mod:`syndicate.room.live.messages`).
"""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, Any

from ..seating import Seat
from ..values import Account
from .corrections import corrections, payout_messages
from .messages import PROTOCOL_VERSION, sharing

if TYPE_CHECKING:
    from .actor import Connection, TableActor

#: What every viewer sees alike: the table, its seats and the clock.
Common = tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any] | None]


def viewer_of(actor: TableActor, account: Account, seated: dict[int, int] | None = None,
              dealt: Container[int] | None = None) -> tuple[int | str, int | None]:
    """Whose eyes: a seat dealt into the round, the dealer, or a spectator; and the seat.
    A broadcast passes who sits where (account id → seat) and the seats dealt in, which it
    reads once for all its viewers."""
    if seated is None:
        seat = next((n for n, s in actor.seats.items() if s.account.id == account.id), None)
    else:
        seat = seated.get(account.id)
    if account.id == actor.table.dealer_id:
        return "dealer", seat
    if seat is not None and actor.game.has_hand and seat in (actor.game.hand_stacks() if dealt is None else dealt):
        return seat, seat
    return "spectator", seat


def view(actor: TableActor, account: Account, *, welcome: bool = False) -> dict[str, Any]:
    """What ``account`` may see now. The table's full rules come with the welcome only."""
    viewer, seat = viewer_of(actor, account)
    return _view(actor, viewer, account.id, seat, welcome)


def _view(actor: TableActor, viewer: int | str, account_id: int | None, seat: int | None,
          welcome: bool) -> dict[str, Any]:
    game = actor.game
    shown = game.has_hand
    table, seats, clock = _common(actor, welcome)
    if viewer == "dealer":
        # The dealer's console offers only what a seat they act for may do now: the list that
        # seat's own view carries, no more (it names no card). A copy: the others share seats.
        seats = [{**e, "legal_actions": game.legal_actions(e["seat"])} if e["walk_in"] or e["dealer_acts"]
                 else e for e in seats]
    round_ = game.round_view(viewer, actor.memo) if shown else None
    if round_ is not None and viewer == "dealer" and game.cards == "real":
        round_ = {**round_, "corrections": corrections(game, actor.seats, actor.dealt)}
    return {
        "table": table,
        "seats": seats,
        "you": {"account": account_id, "seat": seat},
        "hand": actor.hand_number if shown else None,
        "hand_id": actor.hand_id if shown else None,
        "clock": clock,
        "round": round_,
        "log": game.log_view(viewer, actor.memo) if shown else [],
    }


def _common(actor: TableActor, welcome: bool) -> Common:
    """The table, its seats and the clock: what every viewer sees alike. During a broadcast
    they are built once and the same objects go in every message (nothing changes a
    message after it is made: it is only encoded)."""
    if actor.memo is None or welcome:
        return _build_common(actor, welcome)
    if actor.shared is None:
        actor.shared = _build_common(actor, False)
    return actor.shared


def _build_common(actor: TableActor, welcome: bool) -> Common:
    game = actor.game
    rules = game.rules
    table: dict[str, Any] = {
        "id": actor.table.id, "name": actor.table.name, "game": game.name, "status": actor.table.status,
        "dealer_id": actor.table.dealer_id, "min_bet": rules.min_bet, "max_bet": rules.max_bet,
        "seats": game.seat_count, "auto_deal": actor.clock.auto_seconds, "turn_clock": actor.clock.timers.turn}
    if welcome:
        table["rules"] = rules.to_dict()
    table.update(game.table_view())
    if table.get("voided") is not None:  # the voided hand by its evening-wide number, if it was stored
        table["voided_hand_id"] = actor.voided_id
    seats = [{"seat": n, "player": s.account.name, "account": s.account.id, "stack": s.stack,
              "sitting_out": s.sitting_out, "walk_in": s.walk_in, "dealer_acts": s.dealer_acts, "bot": s.bot,
              "sale": {"id": s.sale.id, "amount": s.sale.amount, "status": s.sale.status}
              if s.sale is not None else None}
             for n, s in sorted(actor.seats.items())]
    clock = actor.clock.view(game.to_act) if game.in_play else None
    return table, seats, clock


def send_state(actor: TableActor, conn: Connection, kind: str = "state") -> None:
    conn.send({"type": kind, "protocol": PROTOCOL_VERSION, "version": actor.version,
               **view(actor, conn.account, welcome=kind == "welcome")})


def broadcast(actor: TableActor, answer: tuple[Connection, str] | None = None) -> bool:
    """Every client its own view. Viewers who see the same thing (every spectator; the
    dealer) share one message object, so the transport can encode it once. ``answer``: a
    client and the id of its action that made this change, which its state carries as
    ``ack``; whether that client was among the table's (and was sent it)."""
    spectators: dict[str, Any] | None = None
    actor.memo, actor.shared = {}, None
    seated = {s.account.id: n for n, s in actor.seats.items()}
    dealt = actor.game.hand_stacks() if actor.game.has_hand else {}
    answered = False
    try:
        with sharing():  # its messages die with it (see messages.sharing)
            for conn in list(actor.clients):
                viewer, seat = viewer_of(actor, conn.account, seated, dealt)
                if viewer == "spectator" and seat is None:
                    if spectators is None:
                        # "you" is the same for every watcher (they learnt who they are in the welcome)
                        spectators = _state_message(actor, "spectator", None, None)
                    msg = spectators
                else:
                    msg = _state_message(actor, viewer, conn.account.id, seat)
                if answer is not None and conn is answer[0]:
                    if msg is spectators:
                        msg = {**msg}  # a copy: the spectators' message is shared
                    msg["ack"] = answer[1]
                    answered = True
                conn.send(msg)
    finally:
        actor.memo = actor.shared = None
    return answered


def _state_message(actor: TableActor, viewer: int | str, account_id: int | None,
                   seat: int | None) -> dict[str, Any]:
    return {"type": "state", "protocol": PROTOCOL_VERSION, "version": actor.version,
            **_view(actor, viewer, account_id, seat, False)}


def tell_timeout(actor: TableActor, seat: int, s: Seat, move: str) -> None:
    """The player whose clock ran out, and the dealer (who may act for them), are told in
    words that the clock made the move, not them."""
    did = actor.game.passive.get(move, move)
    out = f" ({s.timeouts} in a row: sitting out until sitting in again)" if s.sitting_out else ""
    for conn in list(actor.clients):
        if conn.account.id == s.account.id:
            text = f"Time ran out: you {did}{out}"
        elif viewer_of(actor, conn.account)[0] == "dealer":
            text = f"Time ran out for seat {seat} ({s.account.name}): the clock {did} for them{out}"
        else:
            continue
        conn.send({"type": "timed_out", "hand": actor.hand_id, "seat": seat, "move": move, "text": text})


def tell_payouts(actor: TableActor) -> None:
    """Real cards: the dealer moves the chips, so their screens are told what to pay and take
    as each bet is settled, once (:func:`corrections.payout_messages`)."""
    if actor.game.cards != "real":
        return
    assert actor.hand_id is not None  # stored before anyone is told of it
    actor.told, messages = payout_messages(actor.game, actor.told, actor.hand_id)
    if not messages:
        return
    for conn in list(actor.clients):
        if viewer_of(actor, conn.account)[0] == "dealer":
            for m in messages:
                conn.send(m)
