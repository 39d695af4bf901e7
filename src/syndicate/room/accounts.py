"""Events, accounts, passwords and sign-ins.

Passwords are hashed with argon2 (argon2-cffi's defaults; tests pass a cheaper hasher). A
sign-in is a random secret handed to the client once; only its SHA-256 is stored. Browsers keep
it in a cookie (``kind="session"``, 12 hours), programs send it as a bearer token
(``kind="token"``, 30 days).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .errors import BadRequest, Conflict, NotFound, Unauthorized
from .ledger import now
from .ports import Store
from .roles import ADMIN, ROLES, require
from .values import Account, Event

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.'-]{0,39}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 200
LIFETIME = {"session": timedelta(hours=12), "token": timedelta(days=30)}
DEFAULT_EVENT = "Casino night"


def check_name(name: object, field: str = "name") -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise BadRequest(field, f"{field}: 1 to 40 letters, digits, spaces or _ . ' - (starting with a letter or digit)")
    return name


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

    # -- events ----------------------------------------------------------------------------
    def create_event(self, name: str) -> Event:
        check_name(name, "event")
        with self.store.transaction() as repo:
            if repo.event_by_name(name) is not None:
                raise _taken(name)
            return repo.add_event(name, now())

    def open_event(self, actor: Account, name: str, admin_name: str, admin_password: str) -> tuple[Event, Account]:
        """A new event and its first admin, in one transaction (``POST /api/events``): an admin
        of any event may open the next one. Nothing is created if either is refused."""
        require(actor.role, "create_event")
        check_name(name, "name")
        check_name(admin_name, "admin.name")
        _check_password(admin_password, "admin.password")
        hashed = self.hasher.hash(admin_password)
        with self.store.transaction() as repo:
            if repo.event_by_name(name) is not None:
                raise _taken(name)
            ev = repo.add_event(name, now())
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
        check_name(name)
        if role not in ROLES:
            raise BadRequest("role", f"role must be one of {', '.join(ROLES)}, got {role!r}")
        _check_password(password)
        hashed = self.hasher.hash(password)
        with self.store.transaction() as repo:
            if repo.event(event_id) is None:
                raise NotFound("event", f"no event {event_id}")
            if repo.account_by_name(event_id, name) is not None:
                raise Conflict("name", f"there is already an account called {name!r} in this event")
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
    def sign_in(self, event_id: int, name: str, password: str, kind: str = "token") -> tuple[str, Account]:
        """Check the password and return a new secret. The refusal is the same for an unknown
        name and a wrong password, so it does not tell which names exist."""
        if kind not in LIFETIME:
            raise BadRequest("kind", "kind is 'session' or 'token'")
        with self.store.transaction() as repo:
            account = repo.account_by_name(event_id, name) if isinstance(name, str) else None
        refused = Unauthorized("credentials", "wrong name or password")
        if account is None or not isinstance(password, str):
            raise refused
        try:
            self.hasher.verify(account.password_hash, password)
        except (VerificationError, InvalidHashError):
            raise refused from None
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

    def sign_out_everywhere(self, account_id: int) -> int:
        """Drop every token and session cookie of an account; how many there were."""
        with self.store.transaction() as repo:
            return repo.drop_tokens(account_id)

    def sign_out(self, token: str) -> None:
        with self.store.transaction() as repo:
            repo.drop_token(token_hash(token))
