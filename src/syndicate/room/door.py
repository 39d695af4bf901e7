"""The door (docs/door.md): the guest list imported from a CSV file, guests checked in by name,
what each paid (cash, card, or a comp) kept apart from the chips issued for it at the event's
exchange rate, and each guest's sign-in voucher.

A guest is a player's account with no password: the voucher signs them in on their phone, once,
before it expires, unless it was revoked. The chips a payment buys move from the cashier to the
guest's bankroll in the ledger (kind ``door``), in the transaction that records the payment."""

from __future__ import annotations

import csv
import io
import secrets
from datetime import datetime, timedelta
from typing import Any, Final

from ..core import money
from .accounts import LookAlikes, canonical_name, check_name, check_not_bot_name, token_hash
from .errors import BadRequest, Conflict, NotFound, Unauthorized
from .ledger import cashier_account, check_amount, now, player_account, transfer
from .ports import Repo, Store
from .roles import PLAYER, require
from .values import NO_PASSWORD, PERSON, Account, DoorPayment, Event, Move

METHODS: Final = ("cash", "card", "comp")
#: How long a voucher signs its guest in: the evening, with a margin.
VOUCHER_LIFETIME: Final = timedelta(hours=12)
#: The most guests one CSV file may bring.
MAX_GUESTS: Final = 2000
#: A session made from a voucher lasts as a password's does (accounts.LIFETIME["session"]).
SESSION: Final = "session"


def chips_for(door: dict[str, int | None], paid: int) -> int:
    """The chips ``paid`` cents buy at the door's rate (whole cents, rounded down)."""
    rate_paid, rate_chips = door.get("paid"), door.get("chips")
    if not rate_paid or not rate_chips:
        raise Conflict("door_rate", "no exchange rate is set for the door: the host sets one (say $20 paid = "
                                    "$1,000 in chips) before payments buy chips")
    return paid * rate_chips // rate_paid


def parse_guest_list(text: Any) -> list[str]:
    """The names of a guest list in CSV: a header row with a ``name`` column (other columns are
    ignored), one guest a row. Refused whole, naming the lines, for a missing column, an empty or
    bad name, or a guest listed twice."""
    if not isinstance(text, str):
        raise BadRequest("guest_list", "the guest list is the text of a CSV file")
    text = text.lstrip("\ufeff")
    head = text.split("\n", 1)[0]
    sep = ";" if ";" in head and "," not in head else ","  # a spreadsheet in a European locale
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=sep))
    except csv.Error as e:
        raise BadRequest("guest_list", f"the guest list is not a CSV file a spreadsheet wrote: {e}") from None
    if not rows:
        raise BadRequest("guest_list", "the guest list is empty: a header row with a 'name' column, then a guest a row")
    header = [h.strip().lower() for h in rows[0]]
    if "name" not in header:
        raise BadRequest("guest_list", f"the guest list's first row names its columns and one is 'name' "
                                       f"(found: {', '.join(repr(h) for h in header) or 'nothing'})")
    col = header.index("name")
    names: list[str] = []
    first: dict[str, int] = {}
    problems: list[str] = []
    for line, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue  # a blank line
        cell = row[col].strip() if col < len(row) else ""
        try:
            name = check_name(cell, "name")
            check_not_bot_name(name)
        except (BadRequest, Conflict) as e:
            problems.append(f"line {line}: {e.message}")
            continue
        key = canonical_name(name)
        if key in first:
            problems.append(f"line {line}: {name!r} is already on the list at line {first[key]}")
            continue
        first[key] = line
        names.append(name)
    if problems:
        said = "the guest list was not imported, nothing changed: " + "; ".join(problems[:20]) + (
            "; and more" if len(problems) > 20 else "")
        if any("already on the list" in p for p in problems):
            raise Conflict("duplicate_guest", said)
        raise BadRequest("guest_list", said)
    if len(names) > MAX_GUESTS:
        raise BadRequest("guest_list", f"a guest list holds at most {MAX_GUESTS} guests, this one {len(names)}")
    return names


class Door:
    def __init__(self, store: Store) -> None:
        self.store = store

    # -- the host's settings ------------------------------------------------------------------
    def set_rate(self, actor: Account, paid: Any, chips: Any, stack: Any = None) -> Event:
        """The door's exchange rate (``paid`` cents buy ``chips`` cents in chips) and the equal
        starting stack every guest gets when checked in (``None``: none)."""
        require(actor.role, "event_settings")
        check_amount(paid, "paid")
        check_amount(chips, "chips")
        if stack is not None:
            check_amount(stack, "stack")
        with self.store.transaction() as repo:
            repo.set_door(actor.event_id, {"paid": paid, "chips": chips, "stack": stack})
            event = repo.event(actor.event_id)
        assert event is not None
        return event

    # -- the guest list -----------------------------------------------------------------------
    def import_guests(self, actor: Account, text: Any) -> list[Account]:
        """Every guest of the CSV file, or none: a name already an account's (or reading like
        one) refuses the whole file, as a name listed twice does."""
        require(actor.role, "run_door")
        names = parse_guest_list(text)
        at = now()
        with self.store.transaction() as repo:
            taken = []
            for name in names:
                if (holder := repo.account_by_name(actor.event_id, name)) is not None:
                    taken.append(f"{name!r} (already account {holder.id}, {holder.name!r})")
            if taken:
                raise Conflict("duplicate_guest", "the guest list was not imported, nothing changed: "
                                                  f"already in this event: {', '.join(taken[:20])}")
            alike, made = LookAlikes(repo, actor.event_id), []
            for name in names:
                alike.check(name)
                alike.add(name, "a guest on this list")
                made.append(repo.add_account(actor.event_id, name, PLAYER, NO_PASSWORD, at))
            return made

    def guests(self, actor: Account, query: str = "") -> list[dict[str, Any]]:
        """The guests whose name holds ``query`` (any case), with what they paid and were given:
        what the door's tablet searches."""
        require(actor.role, "run_door")
        key = canonical_name(query) if isinstance(query, str) else ""
        with self.store.transaction() as repo:
            payments = repo.door_payments(actor.event_id)
            people = [a for a in repo.accounts(actor.event_id)
                      if a.role == PLAYER and a.kind == PERSON and key in canonical_name(a.name)]
            vouchers = repo.vouchers(actor.event_id)
        at = now()
        live = {v.account_id for v in vouchers if v.used_at is None and v.revoked_at is None and v.expires_at > at}
        paid: dict[int, list[DoorPayment]] = {}
        for p in payments:
            paid.setdefault(p.account_id, []).append(p)
        out = []
        for a in sorted(people, key=lambda a: canonical_name(a.name)):
            mine = paid.get(a.id, [])
            out.append({"id": a.id, "name": a.name, "checked_in": mine[0].at.isoformat() if mine else None,
                        "paid": sum(p.paid for p in mine), "chips": sum(p.chips for p in mine),
                        "receipts": [p.id for p in mine], "voucher": a.id in live})
        return out

    # -- payments ---------------------------------------------------------------------------
    def check_in(self, actor: Account, guest_id: Any, method: Any, paid: Any = 0) -> DoorPayment:
        """The guest arrives: what they paid, and their chips (the starting stack if one is set,
        else their payment at the rate). Refused for a guest already checked in."""
        return self._pay(actor, guest_id, method, paid, first=True)

    def pay(self, actor: Account, guest_id: Any, method: Any, paid: Any) -> DoorPayment:
        """A checked-in guest gives more (a second donation): chips at the rate."""
        return self._pay(actor, guest_id, method, paid, first=False)

    def _pay(self, actor: Account, guest_id: Any, method: Any, paid: Any, *, first: bool) -> DoorPayment:
        require(actor.role, "run_door")
        if method not in METHODS:
            raise BadRequest("method", f"a payment at the door is {', '.join(METHODS)}, not {method!r}")
        if method == "comp":
            if first is False:
                raise BadRequest("method", "a comp lets a guest in for nothing: a further payment is cash or card")
            if paid not in (0, None) or isinstance(paid, bool):
                raise BadRequest("paid", f"a comp pays nothing: paid is 0, not {paid!r}")
            paid = 0
        else:
            check_amount(paid, "paid")
        with self.store.transaction() as repo:
            event = repo.event(actor.event_id)
            assert event is not None
            if event.ended_at is not None:
                raise Conflict("event_ended", "the event has ended: the door is closed")
            guest = self._guest(repo, actor, guest_id)
            before = [p for p in repo.door_payments(actor.event_id) if p.account_id == guest.id]
            if first and before:
                raise Conflict("already_checked_in", f"{guest.name} checked in at {before[0].at:%H:%M} UTC (receipt "
                                                     f"{before[0].id}): a further donation is a payment, not a "
                                                     "check-in; nothing changed")
            if not first and not before:
                raise Conflict("not_checked_in", f"{guest.name} is not checked in yet: check them in first")
            stack = event.door.get("stack")
            if first and stack:
                chips = stack
            elif method == "comp":
                raise Conflict("door_stack", "a comp gets the starting stack, and none is set: the host sets one "
                                             "(or the guest pays)")
            else:
                chips = chips_for(event.door, paid)
            payment = repo.add_door_payment(actor.event_id, guest.id, method, paid, chips, actor.id, now())
            if chips:
                wallet = player_account(repo, actor.event_id, guest.id, guest.name)
                transfer(repo, actor.event_id, [Move(cashier_account(repo, actor.event_id).id, wallet.id, chips)],
                         "door", f"door receipt {payment.id}: {method} {money.format(paid)}, chips "
                                 f"{money.format(chips)}, by {actor.name}", by=actor.id)
            return payment

    def payments(self, actor: Account) -> list[DoorPayment]:
        require(actor.role, "run_door")
        with self.store.transaction() as repo:
            return repo.door_payments(actor.event_id)

    # -- vouchers -----------------------------------------------------------------------------
    def issue_voucher(self, actor: Account, guest_id: Any) -> tuple[str, datetime]:
        """A new voucher for the guest (the secret, shown once, and when it expires); their
        earlier vouchers are revoked, so only the newest card or screen signs them in."""
        require(actor.role, "run_door")
        secret = secrets.token_urlsafe(32)
        at = now()
        with self.store.transaction() as repo:
            guest = self._guest(repo, actor, guest_id)
            repo.revoke_vouchers(guest.id, at)
            repo.add_voucher(token_hash(secret), guest.id, at, at + VOUCHER_LIFETIME)
        return secret, at + VOUCHER_LIFETIME

    def revoke_vouchers(self, actor: Account, guest_id: Any) -> int:
        require(actor.role, "run_door")
        with self.store.transaction() as repo:
            guest = self._guest(repo, actor, guest_id)
            return repo.revoke_vouchers(guest.id, now())

    def redeem(self, secret: Any, lifetime: timedelta) -> tuple[str, Account]:
        """Sign a guest in with their voucher: a new session's secret. A voucher signs in once;
        one used, revoked, expired or unknown is refused saying which, and signs in no one."""
        if not isinstance(secret, str) or not 20 <= len(secret) <= 200:
            raise Unauthorized("voucher", "this is not a sign-in voucher: scan the code on the guest's card again")
        at = now()
        with self.store.transaction() as repo:
            v = repo.voucher(token_hash(secret), lock=True)
            if v is None:
                raise Unauthorized("voucher", "this voucher is not one of tonight's: ask at the door for a new one")
            if v.used_at is not None:
                raise Unauthorized("voucher_used", f"this voucher already signed its guest in, at {v.used_at:%H:%M} UTC: "
                                                   "a voucher signs in once; ask at the door for a new one")
            if v.revoked_at is not None:
                raise Unauthorized("voucher_revoked", "this voucher was revoked at the door: ask there for a new one")
            if v.expires_at <= at:
                raise Unauthorized("voucher_expired", "this voucher has expired: ask at the door for a new one")
            guest = repo.account(v.account_id)
            assert guest is not None
            repo.use_voucher(v.token_hash, at)
            session = secrets.token_urlsafe(32)
            repo.add_token(token_hash(session), guest.id, SESSION, at, at + lifetime)
        return session, guest

    @staticmethod
    def _guest(repo: Repo, actor: Account, guest_id: Any) -> Account:
        if isinstance(guest_id, bool) or not isinstance(guest_id, int):
            raise BadRequest("guest", f"guest is an account id, got {guest_id!r}")
        guest = repo.account(guest_id)
        if guest is None or guest.event_id != actor.event_id:
            raise NotFound("guest", f"no guest {guest_id} in this event")
        if guest.role != PLAYER or guest.kind != PERSON:
            raise BadRequest("guest", f"{guest.name} is not a guest (a {guest.role}"
                                      f"{'' if guest.kind == PERSON else ', ' + guest.kind.replace('_', '-')})")
        return guest
