"""Walk-in players: the cash each table's dealer takes for their chips, the count of that cash,
and linking a walk-in to a player's account afterwards.

A walk-in is an account of the event that cannot sign in (like a bot's), made by a table's
dealer from a name (:func:`syndicate.room.seating.seat_walk_in`). Their chips are sold for cash
at the table: the table's cash account (``cash:<table>``) pays them out and takes them back when
the walk-in cashes out there, so its balance is always minus the cash its dealer should hold.
The dealer (or a pit boss, or the admin) counts that cash and records the count; a count is
kept with what the cash account said at that moment, so a shortage stays visible after more
chips are sold. ``syndicate admin check`` reads the counts (:meth:`WalkIns.check`).

Linking is an alias, not a move: the ledger stays exactly as it was written (its entries name
the walk-in), and everything that reads a player's history (the search by player, the
leaderboard, the report, the cards a player may see in their own hands) reads the walk-in's as
the linked player's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from .. import money
from .errors import BadRequest, Conflict, Forbidden, NotFound
from .ledger import cash_account, cash_key, is_bot, is_walk_in, now, stacks_of
from .ports import Repo, Store
from .roles import DEALER, PLAYER, require
from .values import Account, CashCount, Table


@dataclass(frozen=True, slots=True)
class TableCash:
    """A table's cash as the ledger has it and as it was last counted (cents)."""

    table: int
    name: str
    dealer: str
    status: str
    expected: int  # the cash the dealer should hold now: minus the cash account's balance
    counted: int | None  # the last count, if any
    counted_expected: int | None  # what the cash account said when it was counted
    moved: bool  # the ledger has a cash account for this table (walk-ins bought chips here)

    @property
    def difference(self) -> int | None:
        """The last count less what was expected at that moment: below zero, cash is missing."""
        return None if self.counted is None or self.counted_expected is None else self.counted - self.counted_expected

    @property
    def stale(self) -> bool:
        """Cash changed hands since the last count (or there was none while cash is held)."""
        if self.counted is None:
            return self.expected != 0
        return self.counted_expected != self.expected

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "name": self.name, "dealer": self.dealer, "status": self.status,
                "expected": self.expected, "counted": self.counted, "counted_expected": self.counted_expected,
                "difference": self.difference, "count_again": self.stale}


def table_cash(repo: Repo, event_id: int) -> list[TableCash]:
    """Every table of the event whose cash took walk-ins' money or was counted."""
    names = {a.id: a.name for a in repo.accounts(event_id)}
    balances = {a.key: a.balance for a in repo.ledger_accounts(event_id)}
    last: dict[int, CashCount] = {}
    for c in repo.cash_counts(event_id):
        last[c.table_id] = c
    out = []
    for t in repo.tables(event_id):
        key = cash_key(t.id)
        if key not in balances and t.id not in last:
            continue
        counted = last.get(t.id)
        out.append(TableCash(t.id, t.name, names.get(t.dealer_id, f"account {t.dealer_id}"), t.status,
                             -balances.get(key, 0), counted.counted if counted else None,
                             counted.expected if counted else None,
                             key in balances))
    return out


def cash_findings(cash: list[TableCash]) -> tuple[list[str], list[str]]:
    """(problems, warnings) of the tables' cash. A count that differs from the cash account as
    it stood at that moment is a problem: cash is missing or over. A closed table whose cash was
    never counted, or has changed hands since its last count, is a problem too (the night's
    cash is not accounted for); at a table still open the same is a warning (count at the end)."""
    problems: list[str] = []
    warnings: list[str] = []
    for tc in cash:
        where = f"table {tc.table} ({tc.name}, dealer {tc.dealer})"
        d = tc.difference
        if d:
            problems.append(f"{where}: the cash counted, {money.format(tc.counted or 0)}, is "
                            f"{'short' if d < 0 else 'over'} by {money.format(abs(d))}: the table's cash account "
                            f"said {money.format(tc.counted_expected or 0)}")
        if tc.stale:
            why = (f"the cash was never counted: {money.format(tc.expected)} expected" if tc.counted is None
                   else f"walk-ins' chips were sold or cashed out since the last count: count again "
                        f"({money.format(tc.expected)} expected now)")
            (problems if tc.status == "closed" else warnings).append(f"{where}: {why}")
    return problems, warnings


class WalkIns:
    """The cash counts, the cash check and the links (the tables' live work is the actor's)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def count_cash(self, actor: Account, table_id: int, counted: Any) -> CashCount:
        """Record the cash counted at a table (its dealer, a pit boss or the admin), with what
        the table's cash account says now. ``counted`` is the cash in the table's box less the
        float it opened with, so it is below zero when walk-ins cashed out more than they bought."""
        require(actor.role, "count_cash")
        if isinstance(counted, bool) or not isinstance(counted, int) or abs(counted) > money.MAX_CENTS:
            raise BadRequest("counted", f"counted is a whole number of cents, got {counted!r}")
        with self.store.transaction() as repo:
            table = _table(repo, actor.event_id, table_id)
            if actor.role == DEALER and table.dealer_id != actor.id:
                raise Forbidden("own_table", "a dealer counts the cash of their own tables only")
            cash = cash_account(repo, actor.event_id, table.id)
            balance = repo.lock_balances([cash.id])[cash.id].balance
            return repo.add_cash_count(table.id, counted, -balance, actor.id, now())

    def cash(self, actor: Account) -> list[TableCash]:
        """Every table's cash: expected, counted, and the difference (the host's view)."""
        require(actor.role, "count_cash")
        with self.store.transaction() as repo:
            return table_cash(repo, actor.event_id)

    def check(self, event_id: int) -> tuple[list[str], list[str]]:
        """The findings of ``syndicate admin check`` about the tables' cash (:func:`cash_findings`)."""
        with self.store.transaction() as repo:
            return cash_findings(table_cash(repo, event_id))

    def link(self, actor: Account, walk_in_id: int, player_id: Any, seated: Callable[[int], Collection[int]]
             ) -> Account:
        """The host links a walk-in to a player's account: from then on the walk-in's hands,
        winnings and chips count as that player's. Refused while the walk-in holds a seat or
        chips at a table (rule ``in_play``), for an account that is not a walk-in (rule
        ``walk_in``), to an account that is not a player's that signs in (rule ``player``), and
        for a walk-in already linked to someone else (rule ``linked``)."""
        require(actor.role, "link_walk_in")
        if isinstance(player_id, bool) or not isinstance(player_id, int):
            raise BadRequest("player", f"player is an account id, got {player_id!r}")
        with self.store.transaction() as repo:
            walk_in = _account(repo, actor.event_id, walk_in_id)
            player = _account(repo, actor.event_id, player_id)
            if not is_walk_in(walk_in):
                raise BadRequest("walk_in", f"{walk_in.name} is not a walk-in: only a walk-in is linked to an account")
            if player.role != PLAYER or is_walk_in(player) or is_bot(player):
                raise BadRequest("player", f"{player.name} is not a player who signs in: a walk-in is linked to a "
                                           "player's own account")
            if walk_in.linked_to == player.id:
                return walk_in
            if walk_in.linked_to is not None:
                raise Conflict("linked", f"{walk_in.name} is already linked to account {walk_in.linked_to}")
            in_hand = repo.hands(actor.event_id, status="playing", player=walk_in.id, limit=1)
            stacks = stacks_of(repo.ledger_accounts(actor.event_id), walk_in.id)
            if seated(walk_in.id) or in_hand or stacks:
                raise Conflict("in_play", f"{walk_in.name} is seated at a table: link them once they have cashed "
                                          "out there")
            linked = repo.link_account(walk_in.id, player.id)
            assert linked is not None
            return linked

    def walk_ins(self, actor: Account) -> list[Account]:
        """Every walk-in of the event, linked or not (the host's list)."""
        require(actor.role, "link_walk_in")
        with self.store.transaction() as repo:
            return [a for a in repo.accounts(actor.event_id) if is_walk_in(a)]


def aliases(accounts: Collection[Account]) -> dict[int, int]:
    """Walk-in account id -> the player account it is linked to."""
    return {a.id: a.linked_to for a in accounts if a.linked_to is not None}


def _table(repo: Repo, event_id: int, table_id: Any) -> Table:
    t = repo.table(table_id) if isinstance(table_id, int) and not isinstance(table_id, bool) else None
    if t is None or t.event_id != event_id:
        raise NotFound("table", f"no table {table_id!r} in this event")
    return t


def _account(repo: Repo, event_id: int, account_id: int) -> Account:
    a = repo.account(account_id)
    if a is None or a.event_id != event_id:
        raise NotFound("account", f"no account {account_id} in this event")
    return a
