"""The card room's services over one store, built once and shared by the web app and the CLI."""

from __future__ import annotations

from argon2 import PasswordHasher

from .accounts import Accounts
from .cashier import Cashier
from .door import Door
from .draws import Draws
from .events import Events
from .ledger import Ledger
from .ports import Store
from .roster import Roster
from .screen import Screen
from .shifts import Shifts
from .tables import Tables
from .walkins import WalkIns


class CardRoom:
    def __init__(self, store: Store, hasher: PasswordHasher | None = None) -> None:
        self.store = store
        self.accounts = Accounts(store, hasher)
        self.roster = Roster(store)
        self.cashier = Cashier(store)
        self.tables = Tables(store)
        self.ledger = Ledger(store)
        self.events = Events(store)
        self.walk_ins = WalkIns(store)
        self.door = Door(store)
        self.draws = Draws(store)
        self.screen = Screen(store)
        self.shifts = Shifts(store)
