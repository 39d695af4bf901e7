"""The dealers' shifts: clocking in and out, breaks, handing a table over between hands, and the
rotation the room proposes (docs/dealer.md, "Shifts, breaks and handovers").

The event notice: "Authorized dealers will make it known when tables are open. A list of
authorized dealers will be kept here and updated throughout the event." A dealer on the roster
clocks in (on their phone or on the tablet) and is then *on the floor*: waiting for a table,
dealing one, or on a break. Every step is a :class:`~syndicate.room.values.ShiftEvent`, kept in
order; where each dealer is and for how long, the hours each dealt and the rotation are read
from those events (:func:`standings`, :func:`plan`), which are pure functions of the events and
a time, so a test gives the time.

The rules:

- only a dealer (or a pit boss who deals) on the roster clocks in, once (rule ``clocked_in``);
  opening a table clocks its dealer in;
- a dealer at a table goes on a break by handing the table to another dealer, **between
  hands** (rule ``between_hands`` while the cards of a hand are out; the bets placed before the
  deal stay and go with the table): the handover is the table's ``hand_over`` action
  (:func:`hand_over`, run by the table's actor);
- only an authorized dealer, clocked in, not on a break and not the table's dealer already,
  takes a table (rules ``authorized_dealer``, ``clocked_out``, ``on_break``, ``hand_over_self``);
- a dealer holding a table clocks out only once it is handed over or closed (``holds_table``);
- a dealer who is not the table's dealer is refused at its console; on a break or clocked out,
  the refusal says so (``on_break``, ``clocked_out``).

**The rotation** (:func:`plan`): the dealer who has dealt longest without a break goes on a break
first, when their shift (the event's ``shift_minutes``) is up; the dealer available longest
takes their table: a dealer waiting on the floor since the earliest time, or one whose break
(``break_minutes``) ended earliest; ties by name. A dealer sent on a break is available again
once it is over, for the tables due after. Each table is in the plan once.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from .errors import BadRequest, Conflict, Forbidden, NotFound, refuse_if_ended
from .ledger import now
from .ports import Repo, Store
from .roles import DEALER, allowed, require
from .values import Account, ShiftEvent, Table

#: The room's rotation when the host has set none: minutes dealt before a break, a break's minutes.
DEFAULT_SHIFT, DEFAULT_BREAK = 60, 15
MAX_MINUTES = 12 * 60
#: A dealer's state: dealing a table, on the floor waiting for one, on a break, or clocked out.
DEALING, WAITING, ON_BREAK, OUT = "dealing", "waiting", "on_break", "clocked_out"


@dataclass
class Standing:
    """Where one dealer is now, read from their shift events."""

    account_id: int
    state: str = OUT
    since: datetime | None = None  # in this state since
    tables: dict[int, datetime] = field(default_factory=dict)  # the tables they deal, since when
    dealing_from: datetime | None = None  # dealing without a break since (the rotation's clock)
    dealt: timedelta = timedelta()  # at tables tonight, until the time asked about
    hands: int = 0


def standings(events: Iterable[ShiftEvent], until: datetime) -> dict[int, Standing]:
    """Each dealer's standing at ``until``, from the shift events in order."""
    out: dict[int, Standing] = {}
    for e in events:
        s = out.setdefault(e.account_id, Standing(e.account_id))
        if e.kind == "take" and e.table_id is not None:
            if not s.tables:
                s.dealing_from = s.dealing_from or e.at
            s.tables[e.table_id] = e.at
            s.state, s.since = DEALING, e.at
        elif e.kind == "leave" and e.table_id in s.tables:
            del s.tables[e.table_id]
            if not s.tables:
                s.dealt += e.at - (s.dealing_from or e.at)
                s.state, s.since = WAITING, e.at
        elif e.kind in ("clock_in", "back"):
            s.state, s.since, s.dealing_from = WAITING, e.at, None
        elif e.kind in ("break", "clock_out"):
            if s.tables:  # not by the service's rules; kept whole if it happens
                s.dealt += e.at - (s.dealing_from or e.at)
                s.tables.clear()
            s.state, s.since, s.dealing_from = (ON_BREAK if e.kind == "break" else OUT), e.at, None
    for s in out.values():
        if s.tables and s.dealing_from is not None:
            s.dealt += max(until - s.dealing_from, timedelta())
    return out


@dataclass(frozen=True, slots=True)
class Rotation:
    table: int
    dealer_out: int
    dealer_in: int
    at: datetime


def plan(stand: Mapping[int, Standing], shift: timedelta, rest: timedelta, at: datetime,
         names: Mapping[int, str]) -> list[Rotation]:
    """Who goes where next, by the rule in the module's docstring."""
    due = sorted((s for s in stand.values() if s.state == DEALING and s.dealing_from is not None),
                 key=lambda s: (s.dealing_from, names.get(s.account_id, "")))
    pool = sorted(((s.since or at) + (rest if s.state == ON_BREAK else timedelta()), names.get(s.account_id, ""),
                   s.account_id) for s in stand.values() if s.state in (WAITING, ON_BREAK))
    out = []
    for s in due:
        assert s.dealing_from is not None
        when = None
        for table in sorted(s.tables):
            if not pool:
                break
            free, _name, dealer_in = pool.pop(0)
            when = max(s.dealing_from + shift, free, at)
            out.append(Rotation(table, s.account_id, dealer_in, when))
        if when is not None:
            bisect.insort(pool, (when + rest, names.get(s.account_id, ""), s.account_id))
    return sorted(out, key=lambda r: (r.at, r.table))


def lengths(repo: Repo, event_id: int) -> tuple[timedelta, timedelta]:
    ev = repo.event(event_id)
    shift = ev.shift_minutes if ev is not None and ev.shift_minutes is not None else DEFAULT_SHIFT
    rest = ev.break_minutes if ev is not None and ev.break_minutes is not None else DEFAULT_BREAK
    return timedelta(minutes=shift), timedelta(minutes=rest)


def standing_of(repo: Repo, event_id: int, account_id: int, at: datetime | None = None) -> Standing:
    return standings(repo.shift_events(event_id), at or now()).get(account_id, Standing(account_id))


def _clock(t: datetime | None) -> str:
    return f"{t:%H:%M}" if t is not None else "?"


def off_floor(s: Standing, name: str) -> tuple[str, str] | None:
    """Why a dealer may not take a table or act at one now (rule, words); None when they may."""
    if s.state == ON_BREAK:
        return "on_break", f"{name} is on a break since {_clock(s.since)}"
    if s.state == OUT:
        return "clocked_out", f"{name} is not clocked in"
    return None


def _authorized(repo: Repo, event_id: int, name: str) -> None:
    entry = repo.roster_entry(event_id, name)
    if entry is None or not entry.active:
        raise Forbidden("authorized_dealer", f"{name} is not on the roster of authorized dealers: only an authorized "
                                             "dealer deals (\"Unauthorized games are prohibited\")")


def opened(repo: Repo, table: Table, dealer: Account, at: datetime) -> None:
    """A dealer opened ``table``: they take it, clocked in by it if they were not (refused,
    ``on_break``, while on a break: they come back first)."""
    s = standing_of(repo, table.event_id, dealer.id, at)
    if s.state == ON_BREAK:
        raise Conflict("on_break", f"{dealer.name} is on a break since {_clock(s.since)}: come back from it "
                                   "before opening a table")
    if s.state == OUT:
        repo.add_shift_event(table.event_id, dealer.id, "clock_in", None, dealer.id, at)
    repo.add_shift_event(table.event_id, dealer.id, "take", table.id, dealer.id, at)


def closed(repo: Repo, table: Table, by: int | None, at: datetime) -> None:
    """``table`` closed: its dealer leaves it (if their shift says they deal it)."""
    s = standing_of(repo, table.event_id, table.dealer_id, at)
    if table.id in s.tables:
        repo.add_shift_event(table.event_id, table.dealer_id, "leave", table.id, by, at)


def hand_over(repo: Repo, *, table: Table, by: Account, to: Any, rest: bool, hand_id: int | None) -> Account:
    """Hand ``table`` to the dealer named ``to`` (the caller, the table's actor, has checked that
    no hand's cards are out): its dealer leaves it, on a break if ``rest``; the new one takes it;
    a hand stored in its betting window (``hand_id``) is theirs to deal. The incoming account."""
    require(by.role, "manage_table")
    if by.role == DEALER and by.id != table.dealer_id:
        raise Forbidden("own_table", "a dealer hands over only the table they deal")
    if not isinstance(to, str) or not to.strip():
        raise BadRequest("to", f"name the dealer who takes the table (\"to\"), got {to!r}")
    incoming = repo.account_by_name(table.event_id, to)
    if incoming is None or not allowed(incoming.role, "open_table"):
        raise NotFound("authorized_dealer", f"{to!r} is not a dealer's account: a table goes to an authorized "
                                            "dealer who is clocked in")
    if incoming.id == table.dealer_id:
        raise BadRequest("hand_over_self", f"{incoming.name} already deals {table.name}: hand it to another dealer")
    _authorized(repo, table.event_id, incoming.name)
    at = now()
    why = off_floor(standing_of(repo, table.event_id, incoming.id, at), incoming.name)
    if why is not None:
        raise Conflict(why[0], f"{why[1]}: only a dealer clocked in and on the floor takes a table")
    old = repo.account(table.dealer_id)
    repo.set_table_dealer(table.id, incoming.id)
    closed(repo, table, by.id, at)
    if rest and old is not None and standing_of(repo, table.event_id, old.id, at).state == WAITING:
        repo.add_shift_event(table.event_id, old.id, "break", None, by.id, at)
    repo.add_shift_event(table.event_id, incoming.id, "take", table.id, by.id, at)
    if hand_id is not None:
        repo.set_hand_dealer(hand_id, incoming.id)
    return incoming


def refusal_at_table(repo: Repo, account: Account, table: Table) -> tuple[str, str] | None:
    """Why ``account``, an authorized dealer who is not ``table``'s, is refused there, when their
    shift says (on a break, or clocked out tonight): the rule and the words, naming who deals
    now. None for anyone else (the refusal is then the action's own: ``table_dealer``)."""
    s = standing_of(repo, table.event_id, account.id)
    entry = repo.roster_entry(table.event_id, account.name)
    why = off_floor(s, "you")
    if why is None or s.since is None or entry is None or not entry.active:
        return None
    dealer = repo.account(table.dealer_id)
    rule, words = why
    words = words.replace("you is", "you are")
    return rule, (f"{words}: {dealer.name if dealer else 'another dealer'} deals {table.name} now; only the "
                  "table's dealer, clocked in and on the floor, deals here")


class Shifts:
    def __init__(self, store: Store) -> None:
        self.store = store

    def _step(self, actor: Account, kind: str) -> dict[str, Any]:
        require(actor.role, "clock_in")
        with self.store.transaction() as repo:
            ev = repo.event(actor.event_id, lock=True)
            at = now()
            s = standing_of(repo, actor.event_id, actor.id, at)
            name = actor.name
            if kind == "clock_in":
                refuse_if_ended(ev, "no more shifts")
                _authorized(repo, actor.event_id, name)
                if s.state != OUT:
                    raise Conflict("clocked_in", f"{name} is already clocked in (since {_clock(s.since)}, "
                                                 f"{s.state.replace('_', ' ')}): a dealer clocks in once a shift")
            elif s.state == OUT:
                raise Conflict("clocked_out", f"{name} is not clocked in: clock in first")
            elif kind == "back" and s.state != ON_BREAK:
                raise Conflict("not_on_break", f"{name} is not on a break")
            elif kind == "break" and s.state == ON_BREAK:
                raise Conflict("on_break", f"{name} is already on a break since {_clock(s.since)}")
            if kind in ("break", "clock_out") and s.tables:
                held = ", ".join(t.name for t in repo.tables(actor.event_id) if t.id in s.tables)
                raise Conflict("holds_table", f"{name} deals {held}: hand it to another dealer between hands "
                                              "(the table's Hand over) or close it first")
            repo.add_shift_event(actor.event_id, actor.id, kind, None, actor.id, at)
        return self.mine(actor)

    def clock_in(self, actor: Account) -> dict[str, Any]:
        return self._step(actor, "clock_in")

    def clock_out(self, actor: Account) -> dict[str, Any]:
        return self._step(actor, "clock_out")

    def take_break(self, actor: Account) -> dict[str, Any]:
        return self._step(actor, "break")

    def come_back(self, actor: Account) -> dict[str, Any]:
        return self._step(actor, "back")

    def _read(self, event_id: int, at: datetime) -> tuple[dict[int, Standing], dict[int, str], dict[int, Table],
                                                          tuple[timedelta, timedelta], list[Account]]:
        with self.store.transaction() as repo:
            stand = standings(repo.shift_events(event_id), at)
            accounts = repo.accounts(event_id)
            tables = {t.id: t for t in repo.tables(event_id)}
            roster = {e.dealer for e in repo.roster(event_id) if e.active}
            return stand, {a.id: a.name for a in accounts}, tables, lengths(repo, event_id), \
                [a for a in accounts if allowed(a.role, "open_table") and a.name in roster]

    def mine(self, actor: Account) -> dict[str, Any]:
        """The signed-in dealer's shift, and who is on the floor to take a table from them."""
        require(actor.role, "clock_in")
        at = now()
        stand, names, tables, _, _ = self._read(actor.event_id, at)
        me = stand.get(actor.id, Standing(actor.id))
        return {**_line(me, names, tables, at), "free": sorted(
            names[s.account_id] for s in stand.values() if s.state == WAITING and s.account_id != actor.id)}

    def floor(self, actor: Account, at: datetime | None = None) -> dict[str, Any]:
        """Every authorized dealer with an account: where they are and for how long; the plan."""
        require(actor.role, "view_floor")
        at = at or now()
        stand, names, tables, (shift, rest), dealers = self._read(actor.event_id, at)
        rows = [_line(stand.get(a.id, Standing(a.id)), names, tables, at) for a in dealers]
        order = {DEALING: 0, WAITING: 1, ON_BREAK: 2, OUT: 3}
        return {"dealers": sorted(rows, key=lambda r: (order[r["state"]], r["dealer"])),
                "shift_minutes": shift // timedelta(minutes=1), "break_minutes": rest // timedelta(minutes=1),
                **_plan_json(stand, names, tables, shift, rest, at)}

    def public_plan(self, event_id: int, at: datetime | None = None) -> dict[str, Any]:
        """The rotation for the room's big screen: the dealers' and tables' names and times only."""
        at = at or now()
        stand, names, tables, (shift, rest), _ = self._read(event_id, at)
        return _plan_json(stand, names, tables, shift, rest, at)


def _line(s: Standing, names: Mapping[int, str], tables: Mapping[int, Table], at: datetime) -> dict[str, Any]:
    held = [{"id": t, "name": tables[t].name if t in tables else f"table {t}", "since": since.isoformat(),
             "seconds": int((at - since).total_seconds())} for t, since in sorted(s.tables.items())]
    return {"dealer": names.get(s.account_id, f"account {s.account_id}"), "account": s.account_id,
            "state": s.state, "since": s.since.isoformat() if s.since else None,
            "seconds": int((at - s.since).total_seconds()) if s.since else None, "tables": held,
            "dealt_seconds": int(s.dealt.total_seconds())}


def _plan_json(stand: Mapping[int, Standing], names: Mapping[int, str], tables: Mapping[int, Table],
               shift: timedelta, rest: timedelta, at: datetime) -> dict[str, Any]:
    return {"at": at.isoformat(), "next": [
        {"table": tables[r.table].name if r.table in tables else f"table {r.table}",
         "dealer_out": names.get(r.dealer_out, ""), "dealer_in": names.get(r.dealer_in, ""), "at": r.at.isoformat()}
        for r in plan(stand, shift, rest, at, names)]}
