"""Walk-in players: the cash each table's dealer takes for their chips, the count of that cash,
and linking a walk-in to a player's account afterwards.

A walk-in is an account of the event that cannot sign in (like a bot's), made by a table's
dealer from a name (:func:`syndicate.room.seating.seat_walk_in`). Their chips are sold for cash
at the table: the table's cash account (``cash:<table>``) pays them out and takes them back when
the walk-in cashes out there, so its balance is always minus the cash its dealer should hold.
Someone other than the table's dealer (a pit boss or the admin) counts that cash and records
the count: two people, so a dealer cannot sell chips nobody paid for and count them as paid. A
count is kept with what the cash account said at that moment, so a shortage stays visible after
more chips are sold. ``syndicate admin check`` reads the counts (:meth:`WalkIns.check`) and
flags a table whose sales no one but its dealer counted. A chip sale above the event's limit
waits for a pit boss's or the admin's approval (:meth:`WalkIns.decide`) before any chip moves.

Linking is an alias, not a move: the ledger stays exactly as it was written (its entries name
the walk-in), and everything that reads a player's history (the search by player, the
leaderboard, the report, the cards a player may see in their own hands) reads the walk-in's as
the linked player's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from ..core import money
from .errors import BadRequest, Conflict, Forbidden, NotFound
from .ledger import cash_account, cash_key, is_bot, is_walk_in, now, stacks_of
from .ports import Repo, Store
from .roles import PLAYER, require
from .values import Account, CashCount, ChipSale, Table

SALE_STATUSES = ("pending", "approved", "refused", "done", "cancelled")


@dataclass(frozen=True, slots=True)
class TableCash:
    """A table's cash as the ledger has it and as it was last counted (cents)."""

    table: int
    name: str
    dealer: str
    status: str
    expected: int  # the cash the dealer should hold now: minus the cash account's balance
    counted: int | None  # the last count by someone other than the table's dealer, if any
    counted_expected: int | None  # what the cash account said when it was counted
    moved: bool  # the ledger has a cash account for this table (walk-ins bought chips here)
    sold: int = 0  # every chip sold to walk-ins here (cents)

    @property
    def difference(self) -> int | None:
        """The last count less what was expected at that moment: below zero, cash is missing."""
        return None if self.counted is None or self.counted_expected is None else self.counted - self.counted_expected

    @property
    def stale(self) -> bool:
        """Cash changed hands since the last count, or chips were sold here and no one but the
        dealer counted the cash (whatever it should hold: a box at its float is counted too)."""
        if self.counted is None:
            return self.sold > 0 or self.expected != 0
        return self.counted_expected != self.expected

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "name": self.name, "dealer": self.dealer, "status": self.status,
                "expected": self.expected, "counted": self.counted, "counted_expected": self.counted_expected,
                "difference": self.difference, "count_again": self.stale, "sold": self.sold}


def table_cash(repo: Repo, event_id: int) -> list[TableCash]:
    """Every table of the event whose cash took walk-ins' money or was counted. A table's count
    is the last one made by someone other than its dealer: a count by the dealer (which an
    older version took) is the dealer's own word, and no count."""
    names = {a.id: a.name for a in repo.accounts(event_id)}
    cash = {a.key: a for a in repo.ledger_accounts(event_id) if a.key.startswith("cash:")}
    tables = repo.tables(event_id)
    dealers = {t.id: t.dealer_id for t in tables}
    counts: dict[int, CashCount] = {}
    for c in repo.cash_counts(event_id):
        if c.by != dealers.get(c.table_id):
            counts[c.table_id] = c
    out = []
    for t in tables:
        account = cash.get(cash_key(t.id))
        if account is None and t.id not in counts:
            continue
        counted = counts.get(t.id)
        sold = -sum(ln.amount for ln in repo.lines(account.id) if ln.kind == "walk_in_buy_in") if account else 0
        out.append(TableCash(t.id, t.name, names.get(t.dealer_id, f"account {t.dealer_id}"), t.status,
                             -(account.balance if account else 0), counted.counted if counted else None,
                             counted.expected if counted else None, account is not None, sold))
    return out


def cash_findings(cash: list[TableCash]) -> tuple[list[str], list[str]]:
    """(problems, warnings) of the tables' cash. A count that differs from the cash account as
    it stood at that moment is a problem: cash is missing or over. A closed table whose walk-in
    sales were never counted by someone other than its dealer, or whose cash has changed hands
    since its last count, is a problem too (the night's cash is not accounted for); at a table
    still open the same is a warning (count at the end)."""
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
            why = (f"walk-ins bought {money.format(tc.sold)} of chips here and the cash was never counted by anyone "
                   f"but its dealer: a pit boss or the admin counts it ({money.format(tc.expected)} expected)"
                   if tc.counted is None
                   else f"walk-ins' chips were sold or cashed out since the last count: count again "
                        f"({money.format(tc.expected)} expected now)")
            (problems if tc.status == "closed" else warnings).append(f"{where}: {why}")
    return problems, warnings


class WalkIns:
    """The cash counts, the cash check and the links (the tables' live work is the actor's)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def count_cash(self, actor: Account, table_id: int, counted: Any) -> CashCount:
        """Record the cash counted at a table by someone other than its dealer (a pit boss or
        the admin: rule ``count_cash`` for a dealer, ``own_count`` for a pit boss who deals the
        table), with what the table's cash account says now. ``counted`` is the cash in the
        table's box less the float it opened with, so it is below zero when walk-ins cashed out
        more than they bought."""
        require(actor.role, "count_cash")
        if isinstance(counted, bool) or not isinstance(counted, int) or abs(counted) > money.MAX_HELD:
            raise BadRequest("counted", f"counted is a whole number of cents, got {counted!r}")
        with self.store.transaction() as repo:
            table = _table(repo, actor.event_id, table_id)
            if table.dealer_id == actor.id:
                raise Forbidden("own_count", "a table's cash is counted by someone other than its dealer (a pit boss "
                                             "or the admin): two people, so the count checks the dealer's sales")
            cash = cash_account(repo, actor.event_id, table.id)
            balance = repo.lock_balances([cash.id])[cash.id].balance
            return repo.add_cash_count(table.id, counted, -balance, actor.id, now())

    def cash(self, actor: Account) -> list[TableCash]:
        """Every table's cash: expected, counted, and the difference (the host's view)."""
        require(actor.role, "view_cash")
        with self.store.transaction() as repo:
            return table_cash(repo, actor.event_id)

    def check(self, event_id: int) -> tuple[list[str], list[str]]:
        """The findings of ``syndicate admin check`` about the tables' cash (:func:`cash_findings`)."""
        with self.store.transaction() as repo:
            return cash_findings(table_cash(repo, event_id))

    # -- chip sales above the event's limit ----------------------------------------------------
    def sales(self, actor: Account, status: str | None = "pending") -> list[dict[str, Any]]:
        """The event's chip sales above its limit (those waiting for approval by default), each
        with its table's and people's names: what the approver sees."""
        require(actor.role, "approve_sale")
        if status is not None and status not in SALE_STATUSES:
            raise BadRequest("status", f"status is one of {', '.join(SALE_STATUSES)}, got {status!r}")
        with self.store.transaction() as repo:
            names = {a.id: a.name for a in repo.accounts(actor.event_id)}
            tables = {t.id: t for t in repo.tables(actor.event_id)}
            return [{**sale.to_json(), "table_name": tables[sale.table_id].name,
                     "dealer": names.get(tables[sale.table_id].dealer_id), "walk_in_name": names.get(sale.walk_in_id),
                     "requested_by_name": names.get(sale.requested_by),
                     "decided_by_name": names.get(sale.decided_by) if sale.decided_by else None}
                    for sale in repo.chip_sales(actor.event_id, status)]

    def decide(self, actor: Account, sale_id: int, approve: bool) -> ChipSale:
        """A pit boss or the admin approves (the table then carries the sale out: the chips move
        from its cash as for any sale) or refuses (nothing moves) a chip sale waiting for it. Not
        the dealer who asked, nor the table's dealer (rule ``own_sale``); a sale decided, done or
        cancelled already is refused (rule ``sale_decided``) and changes nothing."""
        require(actor.role, "approve_sale")
        with self.store.transaction() as repo:
            sale = repo.chip_sale(sale_id)
            table = repo.table(sale.table_id) if sale is not None else None
            if sale is None or table is None or table.event_id != actor.event_id:
                raise NotFound("chip_sale", f"no chip sale {sale_id} in this event")
            if actor.id in (sale.requested_by, table.dealer_id):
                raise Forbidden("own_sale", "a chip sale above the limit is approved by someone other than the "
                                            "table's dealer who asked for it")
            status = "approved" if approve else "refused"
            if not repo.move_chip_sale(sale.id, ("pending",), status, actor.id, now()):
                raise Conflict("sale_decided", f"this chip sale is {sale.status} already: nothing changed")
            decided = repo.chip_sale(sale.id)
        assert decided is not None
        return decided

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
