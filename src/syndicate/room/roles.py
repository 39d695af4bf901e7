"""Who may do what: the one table of role → allowed actions.

Every service asks :func:`require` before acting and the web layer never decides on its own,
so the authorization matrix test reads this table and checks every cell against the API.
Some actions add a condition beyond the role (a pit boss manages only the dealers of their own
group; a dealer, or a pit boss who deals, must also be on the roster to open a table; a dealer
pauses only their own tables); those are checked where the facts are, next to the call to
:func:`require`.
"""

from __future__ import annotations

from typing import Final

from .errors import Forbidden

ADMIN, PIT_BOSS, DEALER, PLAYER, SPECTATOR = "admin", "pit_boss", "dealer", "player", "spectator"
ROLES: Final = (ADMIN, PIT_BOSS, DEALER, PLAYER, SPECTATOR)

PERMISSIONS: Final[dict[str, frozenset[str]]] = {
    "create_event": frozenset({ADMIN}),
    "end_event": frozenset({ADMIN}),
    "event_settings": frozenset({ADMIN}),
    "create_account": frozenset({ADMIN}),
    "change_role": frozenset({ADMIN}),
    "set_limits": frozenset({ADMIN}),
    "set_float": frozenset({ADMIN}),
    "list_accounts": frozenset({ADMIN, PIT_BOSS}),
    "authorize_dealer": frozenset({ADMIN, PIT_BOSS}),
    "revoke_dealer": frozenset({ADMIN, PIT_BOSS}),
    "buy_in": frozenset({ADMIN, PIT_BOSS}),
    "cash_out": frozenset({ADMIN, PIT_BOSS}),
    "view_any_ledger": frozenset({ADMIN, PIT_BOSS}),
    "view_own_ledger": frozenset({PLAYER}),
    "search_any_hands": frozenset({ADMIN, PIT_BOSS}),
    "search_own_hands": frozenset({ADMIN, PIT_BOSS, PLAYER}),
    # A pit boss deals too when on the roster (the notice lists Jean-Marc and Miles among the
    # authorized dealers): tables.open checks the roster for either role.
    "open_table": frozenset({DEALER, PIT_BOSS}),
    # Walk-ins: a table's cash is counted by someone other than its dealer (two people: a pit
    # boss or the admin; a pit boss who deals the table does not count it), who may all see it
    # (a dealer their own tables'); a chip sale above the event's limit waits for a pit boss's
    # or the admin's approval; the host links a walk-in to a player's account afterwards.
    # The door (docs/door.md): the guest list, check-in, payments and vouchers, run by the host
    # or a pit boss on the door's tablet.
    "run_door": frozenset({ADMIN, PIT_BOSS}),
    # The prize draws (docs/prize-draw.md): the host creates, closes and draws them.
    "run_draws": frozenset({ADMIN}),
    # The room's big screen (docs/screen.md): the host's announcements, countdown and featured table.
    "run_screen": frozenset({ADMIN}),
    "count_cash": frozenset({ADMIN, PIT_BOSS}),
    "view_cash": frozenset({ADMIN, PIT_BOSS, DEALER}),
    "approve_sale": frozenset({ADMIN, PIT_BOSS}),
    "link_walk_in": frozenset({ADMIN, PIT_BOSS}),
    "manage_table": frozenset({ADMIN, PIT_BOSS, DEALER}),
    # The dealers' shifts (docs/dealer.md): a dealer (or a pit boss who deals) clocks in and
    # out and takes breaks; the admin and the pit bosses see who is on the floor.
    "clock_in": frozenset({DEALER, PIT_BOSS}),
    "view_floor": frozenset({ADMIN, PIT_BOSS}),
    "play": frozenset({PLAYER}),
    "watch": frozenset(ROLES),
}

_WHY: Final[dict[str, str]] = {
    "create_event": "only an admin creates events",
    "end_event": "only the event's admin ends the event",
    "event_settings": "only the event's admin changes the event's settings",
    "create_account": "only the event's admin creates accounts",
    "change_role": "only the event's admin changes an account's role",
    "set_limits": "only the event's admin sets the bounds of table limits",
    "set_float": "only the event's admin sets the house float the bots play with",
    "list_accounts": "only the admin and the pit bosses see the list of accounts",
    "authorize_dealer": "only the admin or a pit boss authorizes dealers",
    "revoke_dealer": "only the admin or a pit boss revokes dealers",
    "buy_in": "the cashier is the admin or a pit boss",
    "cash_out": "the cashier is the admin or a pit boss",
    "view_any_ledger": "only the admin and the pit bosses see other accounts' ledgers",
    "view_own_ledger": "only players have a bankroll",
    "search_any_hands": "only the admin and the pit bosses search the hands of any player",
    "search_own_hands": "only players (and the admin and pit bosses) search hands by player",
    "open_table": "Blackjack requires a dealer: only a dealer (or a pit boss who deals) opens a table",
    "run_door": "the door (the guest list, check-in, payments, vouchers) is run by a pit boss or the admin",
    "run_draws": "only the event's admin creates, closes and draws the prize draws",
    "run_screen": "only the event's admin sets what the room's big screen shows",
    "count_cash": "a table's cash is counted by a pit boss or the admin, never by its own dealer",
    "view_cash": "only a table's dealer, a pit boss or the admin sees a table's cash",
    "approve_sale": "only a pit boss or the admin approves a chip sale above the event's limit",
    "link_walk_in": "only the admin or a pit boss links a walk-in to a player's account",
    "manage_table": "only the table's dealer, a pit boss or the admin pauses or closes a table",
    "clock_in": "only a dealer (or a pit boss who deals) clocks in and out and goes on a break",
    "view_floor": "only the admin and the pit bosses see who is on the floor",
    "play": "only players take a seat",
    "watch": "anyone may watch",
}


def allowed(role: str, action: str) -> bool:
    return role in PERMISSIONS[action]


def require(role: str, action: str) -> None:
    """Raise :class:`Forbidden` (the rule is the action) unless ``role`` may do ``action``."""
    if role not in PERMISSIONS[action]:
        raise Forbidden(action, f"{_WHY[action]} (you are {role.replace('_', ' ')})")
