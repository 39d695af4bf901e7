"""The ledger: every chip movement is a transfer between two ledger accounts.

Buy-ins move chips from the event's cashier to a player, bets from a player to a table, pay-outs
back. Transfers are double entries by construction (an entry has a source and a destination),
so the sum of every balance in an event is zero at all times; the cashier's balance is minus
the chips in play. A player's balance can never go below zero: the room refuses with a clear
message, and the database's CHECK constraint backs that up.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..core import money
from .errors import BadRequest, Conflict, NotFound
from .games import game_ids
from .ports import Repo, Store
from .values import BOT, WALK_IN, Account, LedgerAccount, Line, Move

CASHIER = "cashier"
#: The house's chips for bots: the admin moves them from the cashier, bots sit down with them
#: and give them back. Its kind is "player" so that, like a bankroll, it can never go below
#: zero (in the room and in the database's CHECK): bots cannot play with more than it holds.
HOUSE_FLOAT = "house_float"
#: The most an admin may put in an event's float ($100,000).
MAX_FLOAT = 10_000_000
#: The ledger kind of the bets a misdeal returned. The kinds of play at a table (stack ↔ table)
#: are it and each game's id (``room/games``); everything else moves chips, not winnings.
VOID = "void"


def is_play(kind: str) -> bool:
    """A ledger line of play at a table: a game's own (its id) or a voided hand's."""
    return kind == VOID or kind in game_ids()


def now() -> datetime:
    return datetime.now(UTC)


def player_key(account_id: int) -> str:
    return f"player:{account_id}"


def table_key(table_id: int) -> str:
    return f"table:{table_id}"


def cash_key(table_id: int) -> str:
    """The cash a table's dealer took for walk-ins' chips: minus the cash the dealer holds."""
    return f"cash:{table_id}"


def check_amount(amount: Any, field: str = "amount") -> int:
    """An amount a person typed (a buy-in, a sit-down, chips sold, a cash-out): a positive
    whole number of cents within :data:`money.MAX_CENTS`, the typo guard, else BadRequest.
    The ledger's own moves (a stack cashed out, a pay-out, a void) are not typed: they move
    whatever exists (:func:`transfer`)."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise BadRequest(field, f"{field} is a whole number of cents, got {amount!r}")
    if amount <= 0:
        raise BadRequest(field, f"{field} must be positive, got {amount}")
    if amount > money.MAX_CENTS:
        raise BadRequest(field, f"{field} is too large: the most is {money.format(money.MAX_CENTS)}")
    return amount


def transfer(
    repo: Repo, event_id: int, moves: Sequence[Move], kind: str, memo: str, *,
    by: int | None = None, hand_id: int | None = None,
) -> None:
    """Post one transaction inside the caller's transaction. Balances are locked first (in id
    order, so two writers cannot deadlock) and a player who would go below zero is refused
    (:class:`Conflict` ``insufficient_funds``), before the caller's transaction commits.

    A move may be of any amount that can exist (up to :data:`money.MAX_HELD`, what the
    database's balance holds): the typo guard on typed amounts is the caller's
    (:func:`check_amount`), so a stack won past it still leaves the table."""
    moves = [m for m in moves if m.amount]
    if not moves:
        return  # nothing moves: no transaction
    for m in moves:
        if isinstance(m.amount, bool) or not isinstance(m.amount, int) or not 0 < m.amount <= money.MAX_HELD:
            raise BadRequest("amount", f"a ledger move is a positive whole number of cents, got {m.amount!r}")
        if m.source == m.dest:
            raise BadRequest("accounts", "a transfer needs two different accounts")
    ids = sorted({m.source for m in moves} | {m.dest for m in moves})
    change = dict.fromkeys(ids, 0)
    for m in moves:
        change[m.source] -= m.amount
        change[m.dest] += m.amount

    def check(accounts: dict[int, LedgerAccount]) -> None:
        for i, delta in change.items():
            a = accounts[i]
            if a.kind == "player" and a.balance + delta < 0:
                raise Conflict(
                    "insufficient_funds",
                    f"{a.name} has {money.format(a.balance)}, {money.format(-delta)} is needed",
                )

    repo.check_balances(ids, check)
    repo.post(event_id, kind, memo, moves, by, hand_id, now())


def cashier_account(repo: Repo, event_id: int) -> LedgerAccount:
    return repo.ledger_account(event_id, CASHIER, "cashier", "the cashier")


def float_account(repo: Repo, event_id: int) -> LedgerAccount:
    return repo.ledger_account(event_id, HOUSE_FLOAT, "player", "the house float for bots")


def is_bot(account: Account) -> bool:
    return account.kind == BOT


def is_walk_in(account: Account) -> bool:
    return account.kind == WALK_IN


def player_account(repo: Repo, event_id: int, account_id: int, name: str) -> LedgerAccount:
    return repo.ledger_account(event_id, player_key(account_id), "player", name)


def table_account(repo: Repo, event_id: int, table_id: int, name: str) -> LedgerAccount:
    return repo.ledger_account(event_id, table_key(table_id), "table", f"table {table_id} ({name})")


def cash_account(repo: Repo, event_id: int, table_id: int) -> LedgerAccount:
    """The table's cash box (:func:`cash_key`). Its kind is the cashier's: it sells and buys
    back chips as the cashier's window does, so its balance may go below zero."""
    return repo.ledger_account(event_id, cash_key(table_id), "cashier", f"cash taken at table {table_id}")


def stacks_of(accounts: Iterable[LedgerAccount], account_id: int) -> list[tuple[int, LedgerAccount]]:
    """The player's chips on the felt: each of their stacks (``stack:<table>:<account>``) that
    holds chips, with its table's id. A bankroll alone misses them for as long as they sit."""
    out = []
    for a in accounts:
        parts = a.key.split(":")
        if parts[0] == "stack" and parts[2] == str(account_id) and a.balance:
            out.append((int(parts[1]), a))
    return out


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place on the leaderboard: what they won at the tables and the chips they hold."""

    player: str
    balance: int  # chips: bankroll plus stacks at tables
    won: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "balance": self.balance, "won": self.won}


@dataclass(frozen=True, slots=True)
class ExplainedLine:
    """A ledger line with the balance after it: the statement a player can check by hand."""

    line: Line
    balance: int

    def to_json(self) -> dict[str, Any]:
        ln = self.line
        return {
            "transaction": ln.transaction_id, "entry": ln.entry_id, "at": ln.at.isoformat(),
            "kind": ln.kind, "memo": ln.memo, "amount": ln.amount, "other": ln.other,
            "hand": ln.hand_id, "balance": self.balance,
        }


class Ledger:
    """Reading the ledger: balances, statements and the zero-sum check."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def balance(self, event_id: int, key: str) -> int:
        with self.store.transaction() as repo:
            return self._account(repo, event_id, key).balance

    def explain(self, event_id: int, key: str) -> list[ExplainedLine]:
        """Every line of an account in order, with the running balance; the last balance is
        the account's balance."""
        with self.store.transaction() as repo:
            account = self._account(repo, event_id, key)
            running = 0
            out = []
            for ln in repo.lines(account.id):
                running += ln.amount
                out.append(ExplainedLine(ln, running))
            return out

    def accounts(self, event_id: int) -> list[LedgerAccount]:
        with self.store.transaction() as repo:
            return repo.ledger_accounts(event_id)

    def stacks(self, event_id: int, account_id: int) -> list[tuple[int, LedgerAccount]]:
        """The player's stacks at tables that hold chips, with their tables' ids (:func:`stacks_of`)."""
        return stacks_of(self.accounts(event_id), account_id)

    def leaderboard(self, event_id: int) -> list[Standing]:
        """Players by what they won at the tables (the game's ledger lines on their stacks:
        bets, pay-outs and voids; buy-ins, cash-outs and sitting down are not winnings), with
        their chips (bankroll plus stacks at tables). Bots play the house's chips: they are not
        in the contest. A walk-in linked to a player's account counts as that player."""
        with self.store.transaction() as repo:
            accounts = repo.accounts(event_id)
            bots = {str(a.id) for a in accounts if is_bot(a)}
            alias = {str(a.id): str(a.linked_to) for a in accounts if a.linked_to is not None}
            names = {str(a.id): a.name for a in accounts}
            chips: dict[str, int] = {}
            won: dict[str, int] = {}
            for a in repo.ledger_accounts(event_id):
                parts = a.key.split(":")
                if parts[-1] in bots:
                    continue
                if parts[0] == "player":
                    owner = alias.get(parts[1], parts[1])
                elif parts[0] == "stack":
                    owner = alias.get(parts[2], parts[2])
                    won[owner] = won.get(owner, 0) + sum(ln.amount for ln in repo.lines(a.id) if is_play(ln.kind))
                else:
                    continue
                chips[owner] = chips.get(owner, 0) + a.balance
        out = [Standing(names.get(o, f"account {o}"), chips[o], won.get(o, 0)) for o in chips]
        return sorted(out, key=lambda r: (-r.won, r.player))

    def total(self, event_id: int) -> int:
        """The sum of every balance in the event: zero, always."""
        return sum(a.balance for a in self.accounts(event_id))

    def audit(self, event_id: int) -> list[str]:
        """Problems found (none expected): a stored balance that differs from the sum of its
        entries, or balances that do not sum to zero."""
        problems = []
        with self.store.transaction() as repo:
            accounts = repo.ledger_accounts(event_id)
            for a in accounts:
                from_entries = repo.entries_balance(a.id)
                if from_entries != a.balance:
                    problems.append(f"{a.key}: balance {a.balance} but its entries sum to {from_entries}")
        total = sum(a.balance for a in accounts)
        if total:
            problems.append(f"the balances sum to {total}, not 0")
        return problems

    def stranded(self, event_id: int) -> tuple[list[str], list[str]]:
        """(problems, warnings): chips the ledger holds where no seat can be behind them
        (:func:`stranded_findings`)."""
        with self.store.transaction() as repo:
            return stranded_findings(repo, event_id)

    @staticmethod
    def _account(repo: Repo, event_id: int, key: str) -> LedgerAccount:
        for a in repo.ledger_accounts(event_id):
            if a.key == key:
                return a
        if key.startswith("player:"):
            return LedgerAccount(0, event_id, key, "player", key, 0)  # no chips yet
        raise NotFound("ledger_account", f"no ledger account {key!r} in this event")


def stranded_findings(repo: Repo, event_id: int) -> tuple[list[str], list[str]]:
    """(problems, warnings) of ``syndicate admin check`` about chips that no seat holds.

    A stack holding chips has a seat behind it: the seat is written with the ledger move that
    takes it and freed with the one that cashes it out (a crashed server's seats stay until the
    next start returns their stacks). A stack holding chips with no seat behind it is stranded,
    and so is one at a closed table (a closed table's seats are cashed out) or at a table the
    server could not restore at its start (its ``fault``, itself a problem): problems, which the
    next start returns to their bankrolls. At a closed table still finishing its last hand a
    seated stack is a warning: its seat is cashed out when the hand is over."""
    problems: list[str] = []
    warnings: list[str] = []
    tables = {t.id: t for t in repo.tables(event_id)}
    playing = {h.table_id for h in repo.hands(event_id, status="playing", limit=100_000)}
    held = {(t, a) for t, _, a in repo.seats_held(event_id)}
    for table in tables.values():
        if table.fault is not None:
            problems.append(f"table {table.id} ({table.name}) could not be restored when the server started "
                            f"({table.fault}): nothing is dealt there until a start restores it")
    for a in repo.ledger_accounts(event_id):
        parts = a.key.split(":")
        if parts[0] != "stack" or a.balance <= 0 or len(parts) != 3 or not (parts[1] + parts[2]).isdigit():
            continue
        tid, owner = int(parts[1]), int(parts[2])
        t = tables.get(tid)
        seated = (tid, owner) in held
        where = f"{a.key} ({a.name}) holds {money.format(a.balance)} at table {tid}" + (f" ({t.name})" if t else "")
        if t is not None and t.fault is not None:
            why = "the table was not restored"
        elif not seated:
            why = "no seat behind it"
        elif t is not None and t.status == "closed":
            if tid in playing:
                warnings.append(f"{where}: the table is closed and finishing its last hand; its seats are cashed out "
                                "when it is over")
                continue
            why = "the table is closed"
        else:
            continue
        problems.append(f"{where} with {why}: stranded chips, which the next start of the server returns to "
                        "their bankroll")
    return problems, warnings
