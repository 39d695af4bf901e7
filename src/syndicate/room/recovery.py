"""After a crash or a takeover: an unfinished hand is void, every bet returned; and when a
closed table's shoes' seeds are revealed (docs/server.md, docs/fairness.md).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from ..core import money
from .cardroom import CardRoom
from .errors import Conflict
from .ledger import (
    cash_account,
    float_account,
    is_bot,
    is_walk_in,
    now,
    player_account,
    table_account,
    transfer,
)
from .ports import Repo
from .seating import keeps_chips
from .values import Move, Table

log = logging.getLogger(__name__)


@dataclass
class Restored:
    """What a start did to the tables the last run left (:func:`void_unfinished`)."""

    voided: list[int] = field(default_factory=list)  # the hands voided, every bet returned
    #: the tables it could not restore, with why: each is served to no one (its ``fault``)
    faults: dict[int, str] = field(default_factory=dict)


def void_unfinished(room: CardRoom) -> Restored:
    """After a crash: every hand still ``playing`` is voided and every bet on it returned, and
    every stack left at a table goes back to its player's bankroll.

    The rule (docs/server.md): the database is the truth, and an interrupted hand is void. Its
    ledger transactions are undone by one reversing transaction per hand (the original entries
    stay, so the statement shows both), then the stacks are cashed back; no chip is created or
    lost, and every table is ready for a new round. (Several processes on one database void
    table by table instead, as they take each table over: :func:`void_table`.)

    Each table is restored in a transaction of its own. One that fails is logged, its failure
    is kept as the table's ``fault`` (the table is then served to no one, and ``syndicate admin
    check`` reports it with its stacks) and the start goes on: a server always starts on a
    database it wrote. A later start that restores the table clears its fault.
    """
    out = Restored()
    with room.store.transaction() as repo:
        tables = [t for ev in repo.events() for t in repo.tables(ev.id)]
    for table in tables:
        try:
            with room.store.transaction() as repo:
                out.voided += void_table(repo, table, shoes=False)
                if table.fault is not None:
                    repo.set_table_fault(table.id, None)
        except Exception as e:  # noqa: BLE001 - any failure: the table is set aside, the others start
            why = f"{type(e).__name__}: {e}"
            log.exception("table %s (%s) could not be restored at start: it is served to no one until a start "
                          "restores it (syndicate admin check lists its chips)", table.id, table.name)
            out.faults[table.id] = why
            try:
                with room.store.transaction() as repo:
                    repo.set_table_fault(table.id, why[:1000])
            except Exception:  # noqa: BLE001 - the log line above is then the only report
                log.exception("table %s: its fault could not be recorded either", table.id)
    with room.store.transaction() as repo:
        # A shoe the last run left unfinished is abandoned (its table starts a new one), but its
        # seed is still revealed only when its table closes: it would tell the unshown cards of
        # the hands dealt from it, voided or not, while their players are still at the table.
        closed = {t.id for ev in repo.events() for t in repo.tables(ev.id) if seeds_due(repo, t)}
        for shoe_table, commitment, seed in repo.unrevealed_shoes():
            if shoe_table in closed and shoe_table not in out.faults:
                repo.reveal_seed(commitment, seed)
    return out


def seeds_due(repo: Repo, table: Table) -> bool:
    """Has the documented moment of this closed table's reveal come (docs/fairness.md)? At its
    close by default; with the event's ``seed_reveal`` at ``event_end``, only once the event
    has ended (a player's cards stay unprovable-by-seed until every table of the night is done)."""
    if table.status != "closed":
        return False
    ev = repo.event(table.event_id)
    return ev is None or ev.seed_reveal != "event_end" or ev.ended_at is not None


def reveal_table_seeds(repo: Repo, table_id: int) -> None:
    """The table is closed: publish the seed of every shoe it dealt (docs/fairness.md), if the
    event's setting says the moment has come. The caller is the one process that may deal this
    table (its runner, after its hand in play) or knows no hand is in play there."""
    table = repo.table(table_id)
    if table is None or not seeds_due(repo, table):
        return
    for shoe_table, commitment, seed in repo.unrevealed_shoes():
        if shoe_table == table_id:
            repo.reveal_seed(commitment, seed)


def void_hand(repo: Repo, table: Table, hand_id: int, history: dict[str, Any], memo: str) -> None:
    """Void one hand, in the caller's transaction: one reversing transaction undoes every ledger
    move tagged with it (the original entries stay, so a statement shows both), and the hand is
    stored ``voided`` with ``history``. The rule of a restart (:func:`void_unfinished`) and of a
    misdeal at a real-cards table (docs/dealer.md) alike: every bet returned, no chip created or
    lost."""
    ev = table.event_id
    net = repo.hand_net(hand_id)
    house = table_account(repo, ev, table.id, table.name).id
    moves = []
    for acct_id, delta in sorted(net.items()):
        if acct_id == house:
            continue
        if delta < 0:
            moves.append(Move(house, acct_id, -delta))
        else:
            moves.append(Move(acct_id, house, delta))
    if moves:
        transfer(repo, ev, moves, "void", memo, hand_id=hand_id)
    repo.update_hand(hand_id, "voided", history, now())


def void_table(repo: Repo, table: Table, *, shoes: bool = True) -> list[int]:
    """:func:`void_unfinished` for one table, in the caller's transaction: its unfinished hand
    is voided (every bet returned), its stacks go back to their bankrolls, a chip sale still
    waiting for approval is cancelled (nothing of it moved) and (``shoes``), if the table is
    closed, its unrevealed shoes are revealed. Returns the voided hands."""
    voided: list[int] = []
    ev = table.event_id
    for hand in repo.hands(ev, table.id, status="playing", limit=10_000):
        void_hand(repo, table, hand.id, {**hand.history, "voided": True},
                  f"hand {hand.id} at table {table.id} voided after a restart: every bet returned")
        voided.append(hand.id)
    repo.cancel_chip_sales(table.id)  # sales still waiting for approval: their seats are gone, nothing moved
    repo.free_seats(table.id)  # every stack goes back below: no seat is held any more
    prefix = f"stack:{table.id}:"
    for a in repo.ledger_accounts(ev):
        if a.key.startswith(prefix) and a.balance > 0:
            player = repo.account(int(a.key[len(prefix):]))
            if player is None or player.event_id != ev:
                raise Conflict("stack", f"{a.key} holds {money.format(a.balance)} but names no account of the event")
            wallet = player_account(repo, ev, player.id, player.name)
            moves = [Move(a.id, wallet.id, a.balance)]
            if is_bot(player):  # the house's chips, not the bot's: back to the float
                moves.append(Move(wallet.id, float_account(repo, ev).id, a.balance))
            if is_walk_in(player) and not keeps_chips(repo, ev):  # cashed out at the table
                moves.append(Move(wallet.id, cash_account(repo, ev, table.id).id, a.balance))
                transfer(repo, ev, moves, "walk_in_cash_out", f"walk-in {player.name}'s stack at table {table.id} "
                         "cashed out at the table after a restart: the dealer seats them again")
                continue
            transfer(repo, ev, moves, "stand_up",
                     f"{player.name}'s stack at table {table.id} back to the bankroll after a restart")
    # A bot's bankroll holds nothing between sittings; whatever one holds now (left there by a
    # crash, or by an older version) is the house's and goes back to the float.
    bots = {a.id for a in repo.accounts(ev) if is_bot(a) and a.name.startswith(f"Bot {table.id}-")}
    for a in repo.ledger_accounts(ev):
        if a.key.startswith("player:") and int(a.key[7:]) in bots and a.balance > 0:
            transfer(repo, ev, [Move(a.id, float_account(repo, ev).id, a.balance)], "stand_up",
                     f"{a.name}'s chips back to the house float after a restart")
    if shoes and table.status == "closed":  # seeds come out when the table closes, not before
        reveal_table_seeds(repo, table.id)
    return voided

