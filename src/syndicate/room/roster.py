"""The roster of authorized dealers, grouped under pit bosses.

The event notice: "Blackjack requires a dealer. Authorized dealers will make it known when
tables are open. A list of authorized dealers will be kept here and updated throughout the
event. Unauthorized games are prohibited." The roster is public; the admin changes any group,
a pit boss only their own. Every change is kept (who, when).

The notice's list, under "Authorized Dealers:", is "• Jean-Marc: Bokuden, Ryuusei, Kyohei" and
"• Miles: Taede, Tame, Noriko": the pit bosses are items of the list of authorized dealers, so
each is on the roster too, first in their own group. A pit boss on the roster can open a table
(roles.py); one who is not cannot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .accounts import check_name
from .errors import Conflict, Forbidden, NotFound
from .ledger import now
from .ports import Repo, Store
from .roles import PIT_BOSS, allowed, require
from .shifts import OUT, closed, standing_of
from .values import Account, RosterChange, RosterEntry

#: The event notice's list: "Jean-Marc: Bokuden, Ryuusei, Kyohei" and "Miles: Taede, Tame, Noriko".
NOTICE: Final = {"Jean-Marc": ("Bokuden", "Ryuusei", "Kyohei"), "Miles": ("Taede", "Tame", "Noriko")}


@dataclass(frozen=True)
class Revocation:
    """What revoking a dealer did: their roster entry, and the tables it closed (their live
    runners, where there are any, finish the round in play first: the caller tells the live
    room of each, as for any table closed through the API)."""

    entry: RosterEntry
    closed: tuple[int, ...] = ()


class Roster:
    def __init__(self, store: Store) -> None:
        self.store = store

    def seed_notice(self, event_id: int) -> None:
        """Put the notice's pit bosses and dealers on the roster (those not already there): each
        pit boss in their own group, as a dealer, then the dealers named after them."""
        with self.store.transaction() as repo:
            for boss, dealers in NOTICE.items():
                for dealer in (boss, *dealers):
                    if repo.roster_entry(event_id, dealer) is None:
                        entry = repo.put_roster(event_id, dealer, boss, True)
                        repo.add_roster_change(entry.id, "authorize", None, now())

    def entries(self, event_id: int) -> list[RosterEntry]:
        with self.store.transaction() as repo:
            return repo.roster(event_id)

    def public(self, event_id: int) -> dict[str, Any]:
        """The roster as the notice shows it: pit boss → authorized dealers (and who was revoked)."""
        groups: dict[str, dict[str, list[str]]] = {}
        for e in self.entries(event_id):
            g = groups.setdefault(e.pit_boss, {"dealers": [], "revoked": []})
            g["dealers" if e.active else "revoked"].append(e.dealer)
        return {"pit_bosses": [{"pit_boss": b, **g} for b, g in groups.items()]}

    def changes(self, event_id: int) -> list[RosterChange]:
        with self.store.transaction() as repo:
            return repo.roster_changes(event_id)

    def is_authorized(self, repo: Repo, event_id: int, dealer: str) -> bool:
        entry = repo.roster_entry(event_id, dealer)
        return entry is not None and entry.active

    def authorize(self, actor: Account, dealer: str, pit_boss: str | None = None) -> RosterEntry:
        """Add ``dealer`` under ``pit_boss`` (a pit boss: always their own group)."""
        require(actor.role, "authorize_dealer")
        check_name(dealer, "dealer")
        if actor.role == PIT_BOSS:
            if pit_boss not in (None, actor.name):
                raise Forbidden("own_group", f"a pit boss authorizes dealers in their own group only ({actor.name})")
            pit_boss = actor.name
        with self.store.transaction() as repo:
            existing = repo.roster_entry(actor.event_id, dealer)
            if pit_boss is None:
                if existing is None:
                    raise NotFound("pit_boss", f"{dealer} is new to the roster: name their pit boss")
                pit_boss = existing.pit_boss
            check_name(pit_boss, "pit_boss")
            if actor.role == PIT_BOSS and existing is not None and existing.pit_boss != actor.name:
                raise Forbidden("own_group", f"{dealer} is in {existing.pit_boss}'s group, not {actor.name}'s")
            entry = repo.put_roster(actor.event_id, dealer, pit_boss, True)
            repo.add_roster_change(entry.id, "authorize", actor.id, now())
            return entry

    def revoke(self, actor: Account, dealer: str, hand_over_to: str | None = None) -> Revocation:
        """Take ``dealer`` off the roster. Their tables close (a live one after the round in
        play), or, with ``hand_over_to`` (another authorized dealer), carry on under that dealer:
        no seat is disturbed and no bet is touched either way."""
        require(actor.role, "revoke_dealer")
        with self.store.transaction() as repo:
            existing = repo.roster_entry(actor.event_id, dealer) if isinstance(dealer, str) else None
            if existing is None:
                raise NotFound("dealer", f"{dealer!r} is not on the roster")
            if actor.role == PIT_BOSS and existing.pit_boss != actor.name:
                raise Forbidden("own_group", f"{dealer} is in {existing.pit_boss}'s group, not {actor.name}'s")
            successor = None
            if hand_over_to is not None:
                heir = repo.roster_entry(actor.event_id, hand_over_to) if hand_over_to != dealer else None
                successor = repo.account_by_name(actor.event_id, hand_over_to) if heir and heir.active else None
                # Whoever may open a table may take one over: a dealer, or a pit boss who deals.
                if successor is None or not allowed(successor.role, "open_table"):
                    raise Conflict("hand_over", f"tables are handed over to another authorized dealer; "
                                                f"{hand_over_to!r} is not one")
            entry = repo.put_roster(actor.event_id, dealer, existing.pit_boss, False)
            repo.add_roster_change(entry.id, "revoke", actor.id, now())
            account = repo.account_by_name(actor.event_id, dealer)
            shut: list[int] = []
            if account is not None:
                for t in repo.tables(actor.event_id):
                    if t.dealer_id != account.id or t.status == "closed":
                        continue
                    closed(repo, t, actor.id, now())  # the revoked dealer leaves it
                    if successor is not None:
                        repo.set_table_dealer(t.id, successor.id)
                        repo.add_shift_event(actor.event_id, successor.id, "take", t.id, actor.id, now())
                    else:
                        repo.set_table_status(t.id, "closed")
                        shut.append(t.id)
                if standing_of(repo, actor.event_id, account.id).state != OUT:
                    repo.add_shift_event(actor.event_id, account.id, "clock_out", None, actor.id, now())
        return Revocation(entry, tuple(shut))
