"""Events, accounts, passwords and sign-ins.

Passwords are hashed with argon2 (argon2-cffi's defaults; tests pass a cheaper hasher). A
sign-in is a random secret handed to the client once; only its SHA-256 is stored. Browsers keep
it in a cookie (``kind="session"``, 12 hours), programs send it as a bearer token
(``kind="token"``, 30 days).

Account names are public (lobby, leaderboard, roster), so two names that a person reads as the
same must be the same account: an account is found by its :func:`canonical_name` (Unicode NFKC,
case-folded, no space at either end), unique in its event, while the name it shows stays as first
entered.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Collection
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .errors import BadRequest, Conflict, NotFound, Unauthorized
from .events import check_seed_reveal
from .ledger import is_bot, is_walk_in, now, stacks_of
from .lookalikes import look_alike_key
from .ports import Repo, Store
from .roles import ADMIN, PLAYER, ROLES, allowed, require
from .values import NO_PASSWORD, PERSON, Account, Event

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.'-]{0,39}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 200
LIFETIME = {"session": timedelta(hours=12), "token": timedelta(days=30)}
DEFAULT_EVENT = "Casino night"


def check_name(name: object, field: str = "name") -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise BadRequest(field, f"{field}: 1 to 40 letters, digits, spaces or _ . ' - (starting with a letter or digit)")
    return name


def canonical_name(name: str) -> str:
    """The key an account is found by: ``"Admin"``, ``"admin "`` and ``"ａｄｍｉｎ"`` are one name.
    NFKC again after case-folding, because folding can leave a string that is not normalised."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


def account_name(name: object, field: str = "name") -> str:
    """A new account's name as it will be shown: NFKC and without space at either end (the
    canonical form keeps those out anyway), then held to :data:`NAME`."""
    if isinstance(name, str):
        name = unicodedata.normalize("NFKC", name).strip()
    return check_name(name, field)


def name_taken(name: str, holder: str | None = None) -> Conflict:
    """The refusal of a second account under one canonical name (rule ``name``, 409)."""
    by = f" by {holder!r}" if holder is not None else ""
    return Conflict("name", "account names are unique in an event, whatever their case, Unicode form or "
                            f"spaces at either end: {name!r} is taken{by}")


def walk_in_holds(name: str, walk_in: Account) -> Conflict:
    """The refusal of an account under a walk-in's name (rule ``walk_in_name``, 409): the
    walk-in keeps it, and their history can be the new account's by linking (docs/walk-ins.md)."""
    return Conflict("walk_in_name", f"{name!r} is a walk-in's name tonight (walk-in {walk_in.name}, account "
                                    f"{walk_in.id}): give the account another name, a surname's initial say; if they "
                                    "are the same person, then link the walk-in to it (Walk-ins on the admin page, "
                                    f"or POST /api/walk-ins/{walk_in.id}/link) and the walk-in's hands and chips "
                                    "count as the account's")


class LookAlikes:
    """The names of an event that a new name must not read like: its accounts' (bots' aside)
    and its roster's, by :func:`~.lookalikes.look_alike_key`. ``check`` refuses (rule
    ``look_alike``, 409) a name that reads like one of them (``aIice`` for ``alice``) without
    being that same name; ``add`` counts a name given since (a guest list's earlier lines)."""

    def __init__(self, repo: Repo, event_id: int) -> None:
        self.by_key: dict[str, list[tuple[str, str]]] = {}
        for a in repo.accounts(event_id):
            if not is_bot(a):
                self.add(a.name, "a walk-in" if is_walk_in(a) else "an account")
        for e in repo.roster(event_id):
            self.add(e.dealer, "on the roster of authorized dealers")

    def add(self, name: str, what: str) -> None:
        self.by_key.setdefault(look_alike_key(name), []).append((name, what))

    def check(self, name: str) -> None:
        own = canonical_name(name)
        for other, what in self.by_key.get(look_alike_key(name), []):
            if canonical_name(other) != own:
                raise Conflict("look_alike", f"{name!r} reads like {other!r} ({what} of this event: I and l, 0 and O, "
                                             "rn and m look alike), so one could pass for the other: choose a name "
                                             "that reads differently")


def check_look_alike(repo: Repo, event_id: int, name: str) -> None:
    """Refuse (rule ``look_alike``, 409) a new name that reads like another account's or a name
    on the roster without being that same name (:class:`LookAlikes`)."""
    LookAlikes(repo, event_id).check(name)


BOT_NAME = re.compile(r"^bot \d+-\d+$")


def check_not_bot_name(name: str) -> None:
    """Bots sit under ``Bot <table>-<seat>``: a person's account with such a name would be taken
    for a bot's seat, so those names are reserved (rule ``bot_name``, 409)."""
    if BOT_NAME.match(canonical_name(name)):
        raise Conflict("bot_name", f"names of the form 'Bot <table>-<seat>' are reserved for the house's bots: "
                                   f"{name!r} cannot be an account's name")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _check_password(password: object, field: str = "password") -> None:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise BadRequest(field, f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")


def _taken(name: str) -> Conflict:
    return Conflict("event_name", f"event names are unique: there is already an event called {name!r}")


class Accounts:
    def __init__(self, store: Store, hasher: PasswordHasher | None = None) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        # What an unknown name's password is checked against, so that a wrong password costs the
        # same argon2 work whether the name exists or not (names cannot be found by timing). Made
        # once by this hasher, so with its parameters; no password matches a random secret.
        started = time.perf_counter()
        self._dummy_hash = self.hasher.hash(secrets.token_urlsafe(32))
        #: about how long one password check takes here (a moving average of the checks made):
        #: how long the refusal of a name that was not checked must take, to look like one
        self.verify_seconds = time.perf_counter() - started

    # -- events ----------------------------------------------------------------------------
    def create_event(self, name: str) -> Event:
        check_name(name, "event")
        with self.store.transaction() as repo:
            if repo.event_by_name(name) is not None:
                raise _taken(name)
            return repo.add_event(name, now())

    def open_event(self, actor: Account, name: str, admin_name: str, admin_password: str,
                   seed_reveal: str = "table_close") -> tuple[Event, Account]:
        """A new event and its first admin, in one transaction (``POST /api/events``): an admin
        of any event may open the next one. Nothing is created if either is refused."""
        require(actor.role, "create_event")
        check_name(name, "name")
        admin_name = account_name(admin_name, "admin.name")
        check_not_bot_name(admin_name)
        _check_password(admin_password, "admin.password")
        check_seed_reveal(seed_reveal)
        hashed = self.hasher.hash(admin_password)
        with self.store.transaction() as repo:
            if repo.event_by_name(name) is not None:
                raise _taken(name)
            ev = repo.add_event(name, now(), seed_reveal)
            return ev, repo.add_account(ev.id, admin_name, ADMIN, hashed, now())

    def event(self, event_id: int) -> Event:
        with self.store.transaction() as repo:
            ev = repo.event(event_id)
        if ev is None:
            raise NotFound("event", f"no event {event_id}")
        return ev

    def events(self) -> list[Event]:
        with self.store.transaction() as repo:
            return repo.events()

    def current_event(self, name: str | None = None) -> Event:
        """The event a deployment names as current (``syndicate serve --event``), not the
        newest: an admin who creates another event does not take over the pages. Without a
        name, :data:`DEFAULT_EVENT`, or the oldest event if the room first started under
        another name."""
        evs = self.events()
        wanted = name or DEFAULT_EVENT
        for e in evs:
            if e.name == wanted:
                return e
        if name is None and evs:
            return evs[0]
        raise NotFound("current_event", f"the deployment's current event {wanted!r} does not exist")

    def bootstrap(self, event_name: str = DEFAULT_EVENT) -> tuple[Event, str | None]:
        """On first start: the default event and its first admin, ``admin`` with a random
        password returned (to print once). Later starts return ``None`` for the password."""
        with self.store.transaction() as repo:
            ev = repo.event_by_name(event_name) or repo.add_event(event_name, now())
            if any(a.role == ADMIN for a in repo.accounts(ev.id)):
                return ev, None
            password = secrets.token_urlsafe(12)
            repo.add_account(ev.id, "admin", ADMIN, self.hasher.hash(password), now())
            return ev, password

    # -- accounts --------------------------------------------------------------------------
    def add(self, event_id: int, name: str, role: str, password: str) -> Account:
        """Create an account without asking who is asking: for ``syndicate admin create`` and
        for :meth:`create`, which checks the role first."""
        name = account_name(name)
        check_not_bot_name(name)
        if role not in ROLES:
            raise BadRequest("role", f"role must be one of {', '.join(ROLES)}, got {role!r}")
        _check_password(password)
        hashed = self.hasher.hash(password)
        with self.store.transaction() as repo:
            if repo.event(event_id) is None:
                raise NotFound("event", f"no event {event_id}")
            if (holder := repo.account_by_name(event_id, name)) is not None:
                raise walk_in_holds(name, holder) if is_walk_in(holder) else name_taken(name, holder.name)
            check_look_alike(repo, event_id, name)
            return repo.add_account(event_id, name, role, hashed, now())

    def create(self, actor: Account, name: str, role: str, password: str) -> Account:
        require(actor.role, "create_account")
        return self.add(actor.event_id, name, role, password)

    def change_role(self, actor: Account, account_id: int, role: str) -> Account:
        """Give an account of the actor's event another role (admin only). Every token and
        session cookie of that account is dropped in the same transaction: it signs in again and
        gets the new role's rights from then on. An admin cannot change their own role (rule
        ``own_role``), so an event never loses its last admin by mistake."""
        require(actor.role, "change_role")
        if role not in ROLES:
            raise BadRequest("role", f"role must be one of {', '.join(ROLES)}, got {role!r}")
        if account_id == actor.id:
            raise Conflict("own_role", "you cannot change your own role: ask another admin")
        with self.store.transaction() as repo:
            target = repo.account(account_id)
            if target is None or target.event_id != actor.event_id:
                raise NotFound("account", f"no account {account_id} in this event")
            if target.role == role:
                return target
            changed = repo.set_role(account_id, role)
            assert changed is not None
            repo.drop_tokens(account_id)
            return changed

    def check_not_in_play(self, target: Account, seated: Callable[[int], Collection[int]]) -> None:
        """Refuse (409, rule ``in_play``) to change the role of an account that holds a seat or
        deals a table: a seat or a table is held by the account, not its role, so a seated
        player or the dealer of a table still open would keep them under another role.
        ``seated`` gives the tables the account sits at now (the live room's). A seat is read
        from those, the hands in play and the stacks, not the bankroll: a player who has bet
        their whole stack has a stack of zero and is seated all the same."""
        if target.role == PLAYER:
            with self.store.transaction() as repo:
                in_hand = repo.hands(target.event_id, status="playing", player=target.id, limit=1)
                stacks = stacks_of(repo.ledger_accounts(target.event_id), target.id)
            if seated(target.id) or in_hand or stacks:
                raise Conflict("in_play", f"{target.name} is seated at a table: their role changes once they "
                                          "have left")
        # Any role that deals (a dealer, or a pit boss on the roster): the table is the account's.
        if allowed(target.role, "open_table"):
            with self.store.transaction() as repo:
                dealing = any(t.dealer_id == target.id and t.status != "closed" for t in repo.tables(target.event_id))
            if dealing:
                raise Conflict("in_play", f"{target.name} deals at a table still open: close it or hand it over "
                                          "(POST /api/roster/revoke with hand_over_to) first")

    def all(self, event_id: int) -> list[Account]:
        """Every account of an event, for the room's own use (no permission check)."""
        with self.store.transaction() as repo:
            return repo.accounts(event_id)

    def list(self, actor: Account) -> list[Account]:
        require(actor.role, "list_accounts")
        with self.store.transaction() as repo:
            return repo.accounts(actor.event_id)

    def get(self, event_id: int, account_id: int) -> Account:
        with self.store.transaction() as repo:
            a = repo.account(account_id)
        if a is None or a.event_id != event_id:
            raise NotFound("account", f"no account {account_id} in this event")
        return a

    # -- signing in ------------------------------------------------------------------------
    def sign_in(self, event_id: int, name: str, password: str, kind: str = "token", *,
                unknown: bool = True) -> tuple[str, Account]:
        """Check the password and return a new secret. The name is matched in its canonical
        form (``"ADMIN "`` finds ``admin``). An unknown name and a wrong password get the same
        refusal after the same work (one argon2 verification), so neither the answer nor its
        time tells which names exist. With ``unknown`` false (an address over its sign-in limit,
        docs/security.md) a name that cannot sign in is refused without that work: the caller
        makes the refusal take :attr:`verify_seconds` all the same."""
        if kind not in LIFETIME:
            raise BadRequest("kind", "kind is 'session' or 'token'")
        with self.store.transaction() as repo:
            account = repo.account_by_name(event_id, name) if isinstance(name, str) else None
        if account is not None and (account.kind != PERSON or account.password_hash == NO_PASSWORD):
            account = None  # a bot, a walk-in or a guest, whom no password signs in: checked like an unknown name
        refused = Unauthorized("credentials", "wrong name or password")
        if account is None and not unknown:
            raise refused
        started = time.perf_counter()
        try:
            self.hasher.verify(self._dummy_hash if account is None else account.password_hash,
                               password if isinstance(password, str) else "")
        except (VerificationError, InvalidHashError):
            raise refused from None
        finally:
            self.verify_seconds += (time.perf_counter() - started - self.verify_seconds) / 8
        if account is None:  # unreachable unless a password matched a random secret
            raise refused
        token = secrets.token_urlsafe(32)
        at = now()
        with self.store.transaction() as repo:
            repo.add_token(token_hash(token), account.id, kind, at, at + LIFETIME[kind])
        return token, account

    def authenticate(self, token: str | None) -> Account:
        if not token or len(token) > 200:
            raise Unauthorized("signed_in", "sign in first")
        with self.store.transaction() as repo:
            account = repo.token_account(token_hash(token), now())
        if account is None:
            raise Unauthorized("signed_in", "this sign-in has expired or was signed out: sign in again")
        return account

    def sign_out(self, token: str) -> None:
        with self.store.transaction() as repo:
            repo.drop_token(token_hash(token))
