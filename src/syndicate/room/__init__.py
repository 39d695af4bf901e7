"""The card room: events, accounts and roles, the dealer roster, tables, the cashier and the
ledger. It orchestrates the pure engines and talks to storage only through the small
interfaces in :mod:`syndicate.room.ports`, which :mod:`syndicate.store` implements."""
