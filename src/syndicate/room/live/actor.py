"""The table actor: the one writer of one live table, whatever its game.

A :class:`TableActor` is an asyncio task that owns a table's state: the seats and their stacks,
the clocks and the game in play (a :class:`~syndicate.room.game.Game` adapter, which knows the
rules). Everything that changes the table (a client's action, a clock, a status change from
the REST side) goes through its queue, so actions are applied one at a time in the order they
arrive (boardgame.io's "master"). Each applied change:

1. is checked by the engine (``verify_x``) before anything moves: a refusal changes nothing;
2. is mirrored into the ledger in the same database transaction that stores the hand's log
   (every bet, double, split, insurance, ante, payout and forfeit is a ledger entry, tagged
   with the hand), so the database is always the truth about chips;
3. bumps the table's ``version`` and sends every connected client its own view: a hidden card
   is in no message until it is shown.

Actions carry a client-generated ``id``: a retried id gets the first answer again and is not
applied twice. An action may carry the ``version`` it was decided on; if the table has moved on
since, it is refused as stale. Seats and the ledger accounts behind them:
:mod:`syndicate.room.seating`.

This file is longer than the room's others (about 600 lines) on purpose. Everything in it reads
and writes the one state of the table's one writer, in the order the queue gives. What needs
none of that state is elsewhere: the clocks (``clock.py``), the seats' ledger work
(``seating.py``), the real-cards corrections' decisions (``corrections.py``) and the games
(``game.py``, ``games/``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Collection, Container
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol

from ...core import money
from ...core.errors import RuleError
from ..accounts import canonical_name
from ..cardroom import CardRoom
from ..errors import BadRequest, Conflict, Fenced, Forbidden, RoomError
from ..game import Game, misdeal_allowed
from ..histories import with_entries
from ..ledger import check_amount, now, table_account, transfer
from ..ports import Repo
from ..recovery import reveal_table_seeds, void_hand
from ..roles import ADMIN, PIT_BOSS, require
from ..seating import (
    BOT_STAKE,
    STACK_LIMIT,
    Seat,
    carry_out,
    seat_bots,
    seat_walk_in,
    sell_or_ask,
    sit_down,
    stand_up,
)
from ..values import CLOCK_KEY, Account, Move, Table
from .clocks import Clock, Timers, check_turn_clock, check_window, table_timers
from .corrections import Told, corrections, misdeal_refusal, payout_messages, reopen_refusal
from .messages import PROTOCOL_VERSION, UNAVAILABLE, check_whole_numbers, error, refusal, running, sharing
from .writer import GroupWriter

log = logging.getLogger(__name__)

TABLE_ACTIONS = ("sit", "leave_seat", "sit_in", "let_dealer_act")
#: The dealer's actions at any table; a game adds its own (:attr:`Game.dealer_actions`).
DEALER_ACTIONS = ("start_round", "auto_deal", "add_bots", "remove_bots", "turn_clock")
#: What only the table's own dealer does: walk-ins' seats and the cash taken for their chips.
WALK_IN_ACTIONS = ("seat_walk_in", "sell_chips", "cash_out_walk_in")
SEEN_IDS = 2048  # action ids remembered per table for retries


class Connection(Protocol):
    """A client as the table sees it. ``send`` must not block: the transport queues."""

    account: Account

    def send(self, message: dict[str, Any]) -> None: ...


@dataclass
class _Command:
    kind: str  # "action", "join", "part", "timeout", "auto", "bot", "refresh", "stop"
    conn: Connection | None = None
    message: dict[str, Any] = field(default_factory=dict)
    done: asyncio.Future[Any] | None = None


class TableActor:
    """The one writer of one live table (see the module's docstring)."""

    def __init__(self, room: CardRoom, table: Table, game: Callable[[Callable[[], dict[int, int]]], Game], *,
                 timers: Timers | None = None, writer: GroupWriter | None = None) -> None:
        """``game`` makes the table's game adapter, given the seated players it deals to."""
        self.room = room
        self.table = table
        self._writer = writer
        self.seats: dict[int, Seat] = {}
        self.game = game(self._players)
        self.clock = Clock(table_timers(table, timers or Timers()))  # the table's own copy
        self.version = 0
        self.clients: dict[Connection, None] = {}  # insertion-ordered set
        self.hand_id: int | None = None  # the hand's evening-wide number: its row's id, once stored
        self._voided_id: int | None = None  # the hand a misdeal voided, until the next starts
        self.hand_number = 0
        self._start_stacks: dict[int, int] = {}
        #: Who sat where when the hand in play (or the last) was dealt.
        self._dealt: dict[int, Account] = {}
        #: Real cards: the settlements the dealer has been told of in this hand, by key.
        self._told: Told = {}
        #: Who entered each action of the hand in play (stored beside the engine's log).
        self._entered: list[dict[str, Any]] = []
        self._seen: OrderedDict[tuple[int, str], dict[str, Any]] = OrderedDict()
        self._queue: asyncio.Queue[_Command] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._table_account = 0
        self._memo: dict[str, Any] | None = None  # views shared by the messages of one broadcast
        self._shared: tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any] | None] | None = None
        self._kept_commitment: str | None = None  # the shoe whose seed is in the database
        #: Several processes (:mod:`syndicate.room.cluster`): checks, in each write's transaction,
        #: that this process still holds the table's lease (raises Fenced); ``on_fenced`` is told
        #: when one failed.
        self.fence: Callable[[Repo], None] | None = None
        self.on_fenced: Callable[[TableActor], None] | None = None
        self.fenced = False
        #: The live tables where an account sits (the live room's): a walk-in sits at one table.
        self.seated: Callable[[int], Collection[int]] = lambda _: ()

    def _players(self) -> dict[int, int]:
        """Who a new hand is dealt to: every seat not sitting out or leaving, with its chips."""
        return {n: s.stack for n, s in self.seats.items() if not s.sitting_out and not s.leaving}

    # -- the task ------------------------------------------------------------------------
    async def start(self) -> None:
        def load(repo: Repo) -> tuple[int, int]:
            acct = table_account(repo, self.table.event_id, self.table.id, self.table.name)
            return acct.id, repo.last_hand_number(self.table.id)

        self._table_account, self.hand_number = await self._db(load)
        self._task = asyncio.create_task(self._run(), name=f"table-{self.table.id}")

    async def stop(self) -> None:
        try:
            if self._task is not None:
                await self._queue.put(_Command("stop"))
                await self._task
        finally:
            self.clock.stop()

    def submit(self, conn: Connection, message: dict[str, Any]) -> None:
        self._queue.put_nowait(_Command("action", conn, message))

    @property
    def stopped(self) -> bool:
        """The task ended: stopped, or it met a server error (the hand in play is voided on the
        next start, like after a crash)."""
        return self._task is not None and self._task.done()

    async def join(self, conn: Connection) -> None:
        running(self)
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Command("join", conn, done=done))
        await done

    def join_nowait(self, conn: Connection) -> None:
        """:meth:`join` without waiting for the welcome to be sent."""
        self._queue.put_nowait(_Command("join", conn))

    def part(self, conn: Connection) -> None:
        self._queue.put_nowait(_Command("part", conn))

    def refresh(self) -> None:
        """The table's status may have changed elsewhere (paused, closed, dealer revoked)."""
        self._queue.put_nowait(_Command("refresh"))

    async def call(self, account: Account, message: dict[str, Any]) -> dict[str, Any]:
        """Apply one action and wait for the answer (for in-process callers: bots, tests)."""
        box: list[dict[str, Any]] = []
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()

        class _Once:
            def __init__(self) -> None:
                self.account = account

            def send(self, m: dict[str, Any]) -> None:
                if m.get("type") in ("ack", "error") and not done.done():
                    box.append(m)
                    done.set_result(None)

        self._queue.put_nowait(_Command("action", _Once(), message))
        await done
        return box[0]

    async def _run(self) -> None:
        while True:
            cmd = await self._queue.get()
            try:
                if cmd.kind == "stop":
                    return
                if cmd.kind == "action":
                    await self._action(cmd.conn, cmd.message)  # type: ignore[arg-type]
                elif cmd.kind == "join":
                    self.clients[cmd.conn] = None  # type: ignore[index]
                    self._send_state(cmd.conn, "welcome")  # type: ignore[arg-type]
                elif cmd.kind == "part":
                    self.clients.pop(cmd.conn, None)  # type: ignore[arg-type]
                elif cmd.kind == "timeout":
                    await self._timeout(cmd.message["turn"])
                elif cmd.kind == "auto":
                    await self._auto_step()
                elif cmd.kind == "bot":
                    await self._bot_step()
                elif cmd.kind == "refresh":
                    await self._refresh()
            except Fenced:  # another process took the table over: this copy of it is stale
                log.warning("table %s: taken over by another process; stopping here", self.table.id)
                self.fenced = True
                if cmd.kind == "action" and cmd.conn is not None:
                    cmd.conn.send(refusal(cmd.message, "table_moved", "another server took this table over: "
                                          "nothing was applied; its state comes next, then resend", self.version))
                self.clock.stop()
                if self.on_fenced is not None:
                    self.on_fenced(self)
                return
            except Exception:  # a bug or the database gone: stop this table, keep the server
                log.exception("table %s stopped", self.table.id)
                for c in list(self.clients):
                    c.send({"type": "error", "id": None, "rule": "table_unavailable", "message": UNAVAILABLE})
                raise
            finally:
                if cmd.done is not None and not cmd.done.done():
                    cmd.done.set_result(None)

    # -- actions -------------------------------------------------------------------------
    async def _action(self, conn: Connection, msg: dict[str, Any]) -> None:
        action_id = msg.get("id")
        if not isinstance(action_id, str) or not 1 <= len(action_id) <= 64:
            conn.send(error(None, "id", "every action carries an id: a string of 1 to 64 characters", self.version))
            return
        key = (conn.account.id, action_id)
        if key in self._seen:
            conn.send(self._seen[key])  # a retry: the same answer, applied once
            return
        changed = False
        try:
            check_whole_numbers(msg)
            version = msg.get("version")
            if version is not None and version != self.version:
                raise Conflict("stale_version", f"the table is at version {self.version}, the action was "
                                                f"decided at version {version}: look again and resend")
            changed = await self._apply(conn.account, msg)
            reply = {"type": "ack", "id": action_id, "version": self.version}
        except (RoomError, RuleError) as e:
            reply = error(action_id, e.rule, e.message, self.version)
        self._seen[key] = reply
        while len(self._seen) > SEEN_IDS:
            self._seen.popitem(last=False)
        if not changed:
            conn.send(reply)
            return
        # the state this client is sent next carries the answer
        if not self._broadcast(answer=(conn, action_id)):
            conn.send(reply)  # not among the table's clients: no state comes to it
        self._wake_bots()

    async def _apply(self, account: Account, msg: dict[str, Any]) -> bool:
        action = msg.get("action")
        game = self.game
        dealer_actions = DEALER_ACTIONS[:1] + game.dealer_actions + DEALER_ACTIONS[1:]
        known = TABLE_ACTIONS + dealer_actions + WALK_IN_ACTIONS + game.seat_actions
        if action not in known:
            raise BadRequest("action", f"unknown action {action!r}; known: {', '.join(known)}")
        if action == "sit":
            return await self._sit(account, msg.get("seat"), msg.get("amount"))
        if action == "leave_seat":
            return await self._leave(self._seat_of(account))
        if action == "sit_in":
            s = self.seats[self._acting_seat(account, msg)]
            s.sitting_out, s.timeouts = False, 0
            self.version += 1
            return True
        if action == "let_dealer_act":
            return self._let_dealer_act(account, msg.get("allow"))
        if action in WALK_IN_ACTIONS:
            self._require_table_dealer(account)
            if action == "seat_walk_in":
                return await self._seat_walk_in(account, msg.get("seat"), msg.get("name"), msg.get("amount"))
            seat = self._walk_in_seat(msg.get("seat"))
            if action == "sell_chips":
                return await self._sell_chips(account, seat, msg.get("amount"))
            return await self._leave(seat)  # cash_out_walk_in: after the round in play if in it
        if action in dealer_actions:
            self._require_dealer(account)
            if action == "start_round":
                return await self._start_round()
            if action == "auto_deal":
                return self._set_auto(msg.get("seconds"))
            if action == "add_bots":
                return await self._add_bots(msg.get("count"), msg.get("amount"))
            if action == "remove_bots":
                return await self._remove_bots()
            if action == "turn_clock":
                return await self._set_turn_clock(msg.get("seconds"))
            if action == "misdeal":
                return await self._misdeal(account)
            before = game.turn()
            reopening = action == "take_back" and game.has_hand and not game.in_play
            if reopening and game.can_take_back():  # the card that settled the hand: until the next hand
                why = reopen_refusal(game, self.seats, self._dealt)
                if why is not None:
                    raise Conflict("take_back", why)
            if game.dealer_action(action, msg):
                if game.cards == "real":
                    self._note_entry(account, before)
                if reopening:
                    await self._after(f"{account.name} took back the card that settled it: its settlement reversed",
                                      by=account.id)
                else:
                    await self._after(action)
            else:
                self.version += 1
            return True
        seat = self._acting_seat(account, msg)
        at = game.turn()  # the index in the log of the action's first record
        if not game.seat_action(seat, action, msg):  # the engine verifies first: a refusal changes nothing
            self.version += 1  # the table changed, not the hand (an ante accepted)
            return True
        if action != "bet":  # a decision made in time: the run of timeouts is broken
            self.seats[seat].timeouts = 0
        self._entered.append({"at": at, "by": account.id, "name": account.name, "for_seat": seat})
        if self.seats[seat].account.id == account.id:
            await self._after(f"{account.name} at seat {seat}: {action}", by=account.id)
        else:
            await self._after(f"Dealer {account.name} for seat {seat} ({self.seats[seat].account.name}): {action}",
                              by=account.id)
        return True

    def _acting_seat(self, account: Account, msg: dict[str, Any]) -> int:
        """The seat an action is for. A player acts for their own seat (rule ``own_seat``). The
        table's dealer names the seat (``"seat": n``) and may act for a walk-in's, or for a
        player who let them (``let_dealer_act``); for no one else (rule ``dealer_acts``)."""
        claimed = msg.get("seat")
        if account.id == self.table.dealer_id and not any(s.account.id == account.id for s in self.seats.values()):
            if isinstance(claimed, bool) or not isinstance(claimed, int) or claimed not in self.seats:
                raise BadRequest("seat", "the dealer acts for a seated player: \"seat\" names an occupied seat, "
                                         f"got {claimed!r}")
            s = self.seats[claimed]
            if not (s.walk_in or s.dealer_acts):
                raise Forbidden("dealer_acts", f"seat {claimed} is {s.account.name}'s, who acts from their own "
                                "phone: the dealer acts for a walk-in, or for a player who let them "
                                "(let_dealer_act)")
            return claimed
        if "seat" in msg and not any(s.account.id == account.id for s in self.seats.values()):
            raise Forbidden("table_dealer", "only this table's dealer enters an action for a seat (a walk-in's, or a "
                                            "player's who lets them): a pit boss, the admin or a watcher does not")
        seat = self._seat_of(account)
        if "seat" in msg and claimed != seat:  # a seat of null is not yours either
            raise Forbidden("own_seat", f"you play seat {seat} only, not {claimed!r}")
        return seat

    def _let_dealer_act(self, account: Account, allow: Any) -> bool:
        """A seated player lets the table's dealer enter their actions (or stops them). They
        may still act from their own phone: every action records who entered it."""
        seat = self._seat_of(account)
        if not isinstance(allow, bool):
            raise BadRequest("allow", f"allow is true or false, got {allow!r}")
        self.seats[seat].dealer_acts = allow
        self.version += 1
        return True

    def _require_table_dealer(self, account: Account) -> None:
        """The cash taken for walk-ins' chips is the table's dealer's to answer for: only they
        handle it (not a pit boss or the admin passing by)."""
        if account.id != self.table.dealer_id:
            raise Forbidden("table_dealer", "only this table's dealer seats walk-ins and sells or cashes out their "
                                            "chips: the table's cash is theirs to answer for")

    def _walk_in_seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.seats:
            raise BadRequest("seat", f"seat names an occupied seat, got {seat!r}")
        s = self.seats[seat]
        if not s.walk_in:
            raise Conflict("walk_in", f"seat {seat} is {s.account.name}'s, a player with an account: their chips "
                                      "come from their bankroll at the cashier's window, not from the table's cash")
        return seat

    def _require_dealer(self, account: Account) -> None:
        if account.id != self.table.dealer_id and account.role not in (ADMIN, PIT_BOSS):
            raise Forbidden("table_dealer", "only this table's dealer (or a pit boss, or the admin) deals here")

    def _seat_of(self, account: Account) -> int:
        for n, s in self.seats.items():
            if s.account.id == account.id:
                return n
        require(account.role, "play")
        raise Conflict("not_seated", "take a seat first")

    def _held_in_hand(self, seat: int) -> bool:
        """A seat just left whose chips are still in the hand in play: free from the next one."""
        return self.game.in_play and seat in self.game.hand_stacks()

    # -- seats -----------------------------------------------------------------------------
    async def _seat_walk_in(self, dealer: Account, seat: Any, name: Any, amount: Any) -> bool:
        """The dealer seats a walk-in by name with chips sold for cash (:func:`seat_walk_in`)."""
        if self.table.status != "open":
            raise Conflict("table_status", f"the table is {self.table.status}")
        seats = self.game.seat_count
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= seats:
            raise BadRequest("seat", f"seats here are 1 to {seats}")
        if not isinstance(name, str) or not name.strip():
            raise BadRequest("name", "a walk-in is seated by name")
        if seat in self.seats:
            raise Conflict("seat_taken", f"seat {seat} is taken")
        if self._held_in_hand(seat):
            raise Conflict("seat_taken", f"seat {seat} was just left in this round: free from the next one")
        here = next((n for n, s in self.seats.items()
                     if s.walk_in and canonical_name(s.account.name) == canonical_name(name)), None)
        if here is not None:
            raise Conflict("seated", f"{name.strip()!r} already sits at seat {here} of this table")
        check_amount(amount)
        walk_in, ledger_id, sale = await self._db(partial(seat_walk_in, table=self.table, dealer=dealer, name=name,
                                                          seat=seat, amount=amount, seated=self.seated))
        # Above the event's limit the sale waits for approval: they sit with nothing until then.
        self.seats[seat] = Seat(walk_in, ledger_id, 0 if sale else amount, walk_in=True, sale=sale,
                                seller=dealer if sale else None)
        self.version += 1
        return True

    async def _sell_chips(self, dealer: Account, seat: int, amount: Any) -> bool:
        """More chips for a walk-in, for cash: between rounds, or in the round in play while bets
        are open and no card is out (then the engine's stack for the seat grows with the
        ledger's, after the write; rule ``cards_out`` once a card is out)."""
        check_amount(amount)
        in_hand = self._held_in_hand(seat)
        if in_hand:
            self.game.verify_add_chips(seat, amount)
        s = self.seats[seat]
        if s.sale is not None:
            raise Conflict("sale_pending", f"seat {seat} has a sale of {money.format(s.sale.amount)} waiting for a pit "
                                           "boss's or the admin's approval: one at a time")
        if s.stack + amount > STACK_LIMIT:
            raise Conflict("stack_limit", f"seat {seat} has {money.format(s.stack)}: a stack is sold chips up to "
                                          f"{money.format(STACK_LIMIT)}, so {money.format(amount)} more is too much")
        _, sale = await self._db(partial(sell_or_ask, table=self.table, dealer=dealer, walk_in=s.account, seat=seat,
                                         amount=amount))
        if sale is not None:  # above the event's limit: it waits for approval, no chip moved
            s.sale, s.seller = sale, dealer
            self.version += 1
            return True
        s.stack += amount
        if in_hand:  # the same moment for the engine, its starting stacks and the ledger
            self.game.add_chips(seat, amount)
            self._start_stacks[seat] = self._start_stacks.get(seat, 0) + amount
        self.version += 1
        return True

    async def _sit(self, account: Account, seat: Any, amount: Any) -> bool:
        require(account.role, "play")
        if self.table.status != "open":
            raise Conflict("table_status", f"the table is {self.table.status}")
        seats = self.game.seat_count
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= seats:
            raise BadRequest("seat", f"seats here are 1 to {seats}")
        if any(s.account.id == account.id for s in self.seats.values()):
            raise Conflict("seated", "you already have a seat at this table")
        if seat in self.seats:
            raise Conflict("seat_taken", f"seat {seat} is taken")
        if self._held_in_hand(seat):
            raise Conflict("seat_taken", f"seat {seat} was just left in this round: free from the next one")
        check_amount(amount)
        ledger_id = await self._db(partial(sit_down, table=self.table, account=account, seat=seat, amount=amount))
        self.seats[seat] = Seat(account, ledger_id, amount)
        self.version += 1
        return True

    async def _leave(self, seat: int) -> bool:
        """Before the deal a player's bet comes back and they go at once; with chips in the hand
        they go once it is over (Blackjack: "a player who leaves at this stage will forfeit his
        bet"; draw: they fold when their turn comes)."""
        s = self.seats[seat]
        if self.game.in_play:
            how = self.game.leave(seat)
            if how.changed or how.at_stake:
                s.leaving = True  # the stack goes back to the bankroll when the hand is over
                if how.changed:
                    await self._after(f"{s.account.name} leaves seat {seat}")
                else:
                    self.version += 1
                if not how.at_stake and seat in self.seats:  # nothing of theirs is at stake
                    await self._cash_out_seat(seat)
                    self.version += 1
                elif self.game.to_act == seat:
                    await self._leaver_moves(seat)
                return True
        await self._cash_out_seat(seat)
        self.version += 1
        return True

    async def _leaver_moves(self, seat: int) -> None:
        move = self.game.leaver_move(seat)
        await self._after(f"seat {seat} left the table: {move}")

    async def _cash_out_seat(self, seat: int) -> None:
        """The seat's stack back where it came from (:func:`stand_up`), then the seat is free.
        The seat and its chips stay until the write has committed: a write the ledger refuses
        leaves the seat as it was (the refusal goes to whoever asked); any other failure stops
        the table with the seat still in the database's stack, where a restart returns it."""
        s = self.seats[seat]
        await self._db(partial(stand_up, table=self.table, seat=s, number=seat))
        del self.seats[seat]

    async def _cash_out_each(self, seats: list[int], why: str) -> None:
        """:meth:`_cash_out_seat` for each of ``seats``; one the ledger refuses stays seated
        (logged) and the others go: one seat's trouble does not stop the table."""
        for n in seats:
            try:
                await self._cash_out_seat(n)
            except RoomError as e:
                log.error("table %s: seat %s could not be cashed out (%s): %s; it stays seated with its chips",
                          self.table.id, n, why, e)

    # -- hands -------------------------------------------------------------------------------
    async def _start_round(self) -> bool:
        word = self.game.hand_word
        if self.game.in_play:
            raise Conflict("round_in_play", f"the current {word} is not over")
        if self.table.status != "open":
            raise Conflict("table_status", f"the table is {self.table.status}: no new {word}s")
        memo = self.game.start_hand(self.hand_number + 1)
        self._start_stacks = self.game.start_stacks()
        self._dealt = {n: self.seats[n].account for n in self._start_stacks if n in self.seats}
        self._told = {}
        self._entered = []
        self.hand_id = self._voided_id = None
        self.hand_number += 1
        self.version += 1
        if memo is not None:
            await self._after(memo)
        return True

    async def _after(self, memo: str, by: int | None = None) -> None:
        """Mirror the engine's stacks into the ledger and store the hand, in one transaction.
        ``by``: the account that entered the action (the ledger's transaction names it)."""
        game = self.game
        moves = []
        engine = game.hand_stacks()
        for n, stack in engine.items():
            s = self.seats.get(n)
            if s is None:  # left before the deal and already cashed out: nothing at stake
                continue
            delta = stack - s.stack
            if delta < 0:
                moves.append(Move(s.ledger_id, self._table_account, -delta))
            elif delta > 0:
                moves.append(Move(self._table_account, s.ledger_id, delta))
        history = with_entries(game.history(self.table.id, self.hand_number, self._start_stacks), self._entered)
        settled = not game.in_play
        shoe = game.shoe
        commitment = game.shoe_key
        # A new shoe's seed is kept (secret) with the first write of its first hand, before any
        # of its cards reaches a client: a shoe a crash cuts short can be revealed afterwards.
        # Real cards have no seed (shoe None): nothing to keep.
        escrow = shoe.escrow_hex() if shoe is not None and commitment != self._kept_commitment else None
        players = [(n, self.seats[n].account.id) for n in sorted(self._start_stacks) if n in self.seats]

        def write(repo: Repo) -> int:
            hand_id = self.hand_id
            if escrow:
                repo.add_shoe(self.table.id, commitment, escrow, now())
            stored = hand_id is not None
            if hand_id is None:  # the hand's first write stores its history as it stands
                hand_id = repo.add_hand(self.table.id, self.hand_number, game.name, commitment, history, now(),
                                        players)
            if moves:  # the memo names the hand by its evening-wide number, as every page does
                transfer(repo, self.table.event_id, moves, game.name, f"{memo}, hand {hand_id}", by=by,
                         hand_id=hand_id)
            if stored or settled:
                repo.update_hand(hand_id, "settled" if settled else "playing", history, now() if settled else None)
            return hand_id

        try:
            self.hand_id = await self._db(write)
        except RoomError as e:
            # The engine has moved on and the ledger refused to follow: they no longer agree, so
            # the table stops (the database is the truth: the next start voids the hand).
            raise RuntimeError(f"table {self.table.id}: the ledger refused the hand's write: {e}") from e
        self._kept_commitment = commitment
        for n, stack in engine.items():
            if n in self.seats:
                self.seats[n].stack = stack
        self.version += 1
        self._tell_payouts()
        if settled:
            await self._round_over()
        else:
            self._arm_turn_timer()

    def _tell_payouts(self) -> None:
        """Real cards: the dealer moves the chips, so their screens are told what to pay and take
        as each bet is settled, once (:func:`corrections.payout_messages`)."""
        if self.game.cards != "real":
            return
        assert self.hand_id is not None  # stored before anyone is told of it
        self._told, messages = payout_messages(self.game, self._told, self.hand_id)
        if not messages:
            return
        for conn in list(self.clients):
            if self._viewer(conn.account)[0] == "dealer":
                for m in messages:
                    conn.send(m)

    def _note_entry(self, account: Account, before: int) -> None:
        """Real cards: note who entered a card (or dealt, or took a card back), beside the log
        like every entered action (``entered_by``; a card is no seat's decision: ``for_seat``
        null). The record an action appended is at ``before``; a take-back shortens the log and
        appends its note last, and what it took back is no longer there to be attributed."""
        after = self.game.turn()
        at = before if after > before else after - 1
        self._entered = [e for e in self._entered if e["at"] < at]
        self._entered.append({"at": at, "by": account.id, "name": account.name, "for_seat": None})

    async def _misdeal(self, account: Account) -> bool:
        """The dealer declares a misdeal: the hand in play is void and every bet on it returned,
        by the restart's rule (one reversing transaction of all its ledger moves); the stored
        hand says who declared it. The table is then ready for a new hand (docs/dealer.md)."""
        game = self.game
        history = with_entries(game.history(self.table.id, self.hand_number, self._start_stacks),
                               self._entered) if game.in_play else {}
        at = game.turn()
        if game.cards == "real" and game.in_play:
            misdeal_allowed(game, misdeal_refusal(game, self.seats))
        # refused (card_source at a shuffled table, no_round with none in play, misdeal once something
        # in the hand is settled): nothing changed
        game.void_hand()
        history.update(voided=True, misdeal={"by": account.id, "name": account.name, "at": at})
        hand_id = self._voided_id = self.hand_id
        if hand_id is not None:  # stored: its bets are in the ledger
            memo = f"hand {hand_id} at table {self.table.id}: misdeal declared by {account.name}, every bet returned"
            await self._db(partial(void_hand, table=self.table, hand_id=hand_id, history=history, memo=memo))
        for n, stack in self._start_stacks.items():
            if n in self.seats:
                self.seats[n].stack = stack
        self._entered = []
        self.version += 1
        await self._round_over()
        return True

    async def _round_over(self) -> None:
        self.game.hand_over()
        self.clock.stop_turn()
        self._arm_auto()
        await self._cash_out_each([n for n, s in self.seats.items() if s.leaving], "leaving")
        await self._carry_out_sales()  # approved while the cards were out
        if self.table.status == "closed":  # a status change reaches the table as a "refresh"
            await self._close_out()

    async def _refresh(self) -> None:
        """The table's row changed (paused, closed, its dealer revoked): read it again. Every
        such change is made through the API, which then queues this command, so the table need
        not read its row before each round."""
        before = self.table
        table = await self._db(lambda repo: repo.table(self.table.id))
        if table is not None:
            self.table = table
        sold = await self._carry_out_sales()  # a sale approved or refused through the API
        if self.table.status == "closed" and not self.game.in_play:
            await self._close_out()
            self._broadcast()
        elif self.table != before or sold:  # paused, resumed, handed over; a sale decided
            self.version += 1
            self._broadcast()

    async def _carry_out_sales(self) -> bool:
        """The chip sales waiting at this table's seats, as a pit boss or the admin decided them:
        an approved one moves its chips now if the seat may have them (between rounds, or while
        bets are open and no card is out: else once the round is over), a refused or cancelled
        one is dropped. Whether a seat changed."""
        changed = False
        for n, s in list(self.seats.items()):
            if s.sale is None:
                continue
            may = True
            if self._held_in_hand(n):
                try:
                    self.game.verify_add_chips(n, s.sale.amount)
                except (RoomError, RuleError):
                    may = False  # the cards are out: once the round is over
            sale = await self._db(partial(carry_out, table=self.table, seat=s, number=n, may=may))
            if sale is not None and sale.status == "done":
                s.stack += sale.amount
                if self._held_in_hand(n):
                    self.game.add_chips(n, sale.amount)
                    self._start_stacks[n] = self._start_stacks.get(n, 0) + sale.amount
            if sale is None or sale.status in ("done", "refused", "cancelled"):
                s.sale = s.seller = None
                changed = True
            elif sale.status != s.sale.status:  # approved: its chips come when the round is over
                s.sale = sale
                changed = True
        return changed

    async def _close_out(self) -> None:
        """The table is closed: every stack goes back to its bankroll, the shoe is finished. A
        stack the ledger refuses to move stays in its seat and its ledger account, where
        ``syndicate admin check`` reports it and the next start returns it."""
        await self._cash_out_each(list(self.seats), "the table closed")
        self.game.close()
        # The documented moment of the reveal: every seed of this table is published, and the
        # whole of each shuffle can be checked.
        await self._db(lambda repo: reveal_table_seeds(repo, self.table.id))
        self.version += 1

    # -- bots ----------------------------------------------------------------------------
    async def _add_bots(self, count: Any, amount: Any = None) -> bool:
        """Fill free seats with bots, each sitting down with ``amount`` (the dealer's choice
        within the table's stakes: one minimum bet to ``BOT_STAKE`` maximum bets, the default).
        Their chips come from the event's house float (through a bot's bankroll, a ledger
        account of its own) and go back to the float when they leave."""
        free = [n for n in range(1, self.game.seat_count + 1) if n not in self.seats and not self._held_in_hand(n)]
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= len(free):
            raise BadRequest("count", f"count is a number of bots from 1 to {len(free)} (the free seats)")
        most = BOT_STAKE * self.game.bot_unit
        least = int(self.game.rules.min_bet)
        if amount is not None:
            check_amount(amount)
            if not least <= amount <= most:
                raise BadRequest("amount", f"a bot sits down here with {money.format(least)} (one minimum bet) to "
                                           f"{money.format(most)} ({BOT_STAKE} maximum bets), not {money.format(amount)}")
        stake = most if amount is None else amount
        for n, bot, ledger_id in await self._db(partial(seat_bots, table=self.table, seats=free[:count],
                                                        stake=stake)):
            self.seats[n] = Seat(bot, ledger_id, stake, bot=True)
        self.version += 1
        return True

    async def _remove_bots(self) -> bool:
        """Bots leave (after the round in play, like anyone) and their chips go back to the house
        float they came from."""
        bots = [n for n, s in self.seats.items() if s.bot]
        if not bots:
            raise Conflict("no_bots", "there are no bots at this table")
        for n in bots:
            await self._leave(n)
        self.version += 1
        return True

    def _bots(self) -> frozenset[int]:
        return frozenset(n for n, s in self.seats.items() if s.bot and not s.leaving)

    def _wake_bots(self) -> None:
        bots = self._bots()
        if bots and self.game.bot_pending(bots) is not None:
            self._queue.put_nowait(_Command("bot"))

    async def _bot_step(self) -> None:
        seat = self.game.bot_pending(self._bots())
        if seat is None:
            return
        try:
            memo = self.game.bot_move(seat)
        except RuleError:  # a bot's mistake must not stop the table: the passive choice instead
            memo = self.game.timeout_move(seat)
        await self._after(f"{self.seats[seat].account.name}: {memo}")
        self._broadcast()
        self._wake_bots()

    # -- clocks --------------------------------------------------------------------------
    def _turn(self) -> tuple[int, int]:
        """Which decision the table waits for: the hand and the length of its log. Unlike the
        version, it does not move when someone sits down or a status changes, so those do not
        cancel the clock of the player to act."""
        return (self.hand_number, self.game.turn())

    def _arm_turn_timer(self) -> None:
        # No player's clock runs while the hand waits for the dealer's card.
        seat = self.game.to_act if self.game.in_play and self.game.card_needed is None else None
        if seat is None:
            self.clock.stop_turn()
            return
        command = _Command("timeout", message={"turn": self._turn()})
        s = self.seats.get(seat)
        if s is not None and s.leaving:  # they left: their move is made at once
            self.clock.stop_turn()
            self._queue.put_nowait(command)
            return
        self.clock.start_turn(lambda: self._queue.put_nowait(command))

    async def _timeout(self, turn: tuple[int, int]) -> None:
        """The player to act let the clock run out: the passive choice is made for them (stand,
        no insurance, no surrender; check, stand pat, fold), the history marks it as the clock's
        (an ``entered_by`` entry with ``"clock"``: its length) and the player and the dealer are
        told in words. After ``sit_out_after`` in a row they sit out. A player who left has their
        move made the same way, at once."""
        seat = self.game.to_act if self.game.in_play else None
        if turn != self._turn() or seat is None:
            return
        s = self.seats[seat]
        if s.leaving:
            await self._leaver_moves(seat)
        else:
            at = self.game.turn()
            choice = self.game.timeout_move(seat)
            s.timeouts += 1
            if s.timeouts >= self.clock.timers.sit_out_after:
                s.sitting_out = True
            self._entered.append({"at": at, "by": None, "name": None, "for_seat": seat,
                                  "clock": self.clock.timers.turn})
            await self._after(f"seat {seat} timed out: {choice}")
            self._tell_timeout(seat, s, choice)
        self._broadcast()
        self._wake_bots()

    def _tell_timeout(self, seat: int, s: Seat, move: str) -> None:
        """The player whose clock ran out, and the dealer (who may act for them), are told in
        words that the clock made the move, not them."""
        did = self.game.passive.get(move, move)
        out = f" ({s.timeouts} in a row: sitting out until sitting in again)" if s.sitting_out else ""
        for conn in list(self.clients):
            if conn.account.id == s.account.id:
                text = f"Time ran out: you {did}{out}"
            elif self._viewer(conn.account)[0] == "dealer":
                text = f"Time ran out for seat {seat} ({s.account.name}): the clock {did} for them{out}"
            else:
                continue
            conn.send({"type": "timed_out", "hand": self.hand_id, "seat": seat, "move": move, "text": text})

    async def _set_turn_clock(self, seconds: Any) -> bool:
        """The dealer sets the table's turn clock (seconds, or None for none), kept with the table;
        the player to act, if any, gets the new clock at once."""
        seconds = check_turn_clock(seconds)
        rules = {**self.table.rules, CLOCK_KEY: seconds}
        await self._db(lambda repo: repo.set_table_rules(self.table.id, rules))
        self.table = replace(self.table, rules=rules)
        self.clock.timers.turn = seconds
        if self.game.in_play:
            self._arm_turn_timer()
        self.version += 1
        return True

    def _set_auto(self, seconds: Any) -> bool:
        """The dealer lets rounds run themselves: a new round opens whenever the last one is
        over, and is dealt ``seconds`` later if anyone bet. ``None`` stops it."""
        self.clock.set_auto(check_window(seconds), self._auto_fire)
        self.version += 1
        return True

    def _auto_fire(self) -> None:
        self._queue.put_nowait(_Command("auto"))

    def _arm_auto(self) -> None:
        self.clock.arm_auto(self._auto_fire)

    async def _auto_step(self) -> None:
        self.clock.auto_fired()
        if self.clock.auto_seconds is None:
            return
        game = self.game
        try:
            if not game.in_play:
                await self._start_round()
            elif game.betting_window():
                if game.close_window():
                    await self._after("deal")
                    if game.in_play:
                        self._broadcast()
                        self._wake_bots()
                        return  # the round plays on; the next one opens when it is over
            else:
                return
        except RoomError:
            pass  # nobody seated, or the table paused: look again after the next window
        self._broadcast()
        self._wake_bots()
        self._arm_auto()

    # -- views ---------------------------------------------------------------------------
    def _viewer(self, account: Account, seated: dict[int, int] | None = None,
                dealt: Container[int] | None = None) -> tuple[int | str, int | None]:
        """Whose eyes: a seat dealt into the round, the dealer, or a spectator; and the seat.
        A broadcast passes who sits where (account id → seat) and the seats dealt in, which it
        reads once for all its viewers."""
        if seated is None:
            seat = next((n for n, s in self.seats.items() if s.account.id == account.id), None)
        else:
            seat = seated.get(account.id)
        if account.id == self.table.dealer_id:
            return "dealer", seat
        if seat is not None and self.game.has_hand and seat in (self.game.hand_stacks() if dealt is None else dealt):
            return seat, seat
        return "spectator", seat

    def view(self, account: Account, *, welcome: bool = False) -> dict[str, Any]:
        """What ``account`` may see now. The table's full rules come with the welcome only."""
        viewer, seat = self._viewer(account)
        return self._view(viewer, account.id, seat, welcome)

    def _view(self, viewer: int | str, account_id: int | None, seat: int | None, welcome: bool) -> dict[str, Any]:
        game = self.game
        shown = game.has_hand
        table, seats, clock = self._common(welcome)
        if viewer == "dealer":
            # The dealer's console offers only what a seat they act for may do now: the list that
            # seat's own view carries, no more (it names no card). A copy: the others share seats.
            seats = [{**e, "legal_actions": game.legal_actions(e["seat"])} if e["walk_in"] or e["dealer_acts"]
                     else e for e in seats]
        round_ = game.round_view(viewer, self._memo) if shown else None
        if round_ is not None and viewer == "dealer" and game.cards == "real":
            round_ = {**round_, "corrections": corrections(game, self.seats, self._dealt)}
        return {
            "table": table,
            "seats": seats,
            "you": {"account": account_id, "seat": seat},
            "hand": self.hand_number if shown else None,
            "hand_id": self.hand_id if shown else None,
            "clock": clock,
            "round": round_,
            "log": game.log_view(viewer, self._memo) if shown else [],
        }

    def _common(self, welcome: bool) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any] | None]:
        """The table, its seats and the clock: what every viewer sees alike. During a broadcast
        they are built once and the same objects go in every message (nothing changes a
        message after it is made: it is only encoded)."""
        if self._memo is None or welcome:
            return self._build_common(welcome)
        if self._shared is None:
            self._shared = self._build_common(False)
        return self._shared

    def _build_common(self, welcome: bool) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any] | None]:
        game = self.game
        rules = game.rules
        table: dict[str, Any] = {
            "id": self.table.id, "name": self.table.name, "game": game.name, "status": self.table.status,
            "dealer_id": self.table.dealer_id, "min_bet": rules.min_bet, "max_bet": rules.max_bet,
            "seats": game.seat_count, "auto_deal": self.clock.auto_seconds, "turn_clock": self.clock.timers.turn}
        if welcome:
            table["rules"] = rules.to_dict()
        table.update(game.table_view())
        if table.get("voided") is not None:  # the voided hand by its evening-wide number, if it was stored
            table["voided_hand_id"] = self._voided_id
        seats = [{"seat": n, "player": s.account.name, "account": s.account.id, "stack": s.stack,
                  "sitting_out": s.sitting_out, "walk_in": s.walk_in, "dealer_acts": s.dealer_acts, "bot": s.bot,
                  "sale": {"id": s.sale.id, "amount": s.sale.amount, "status": s.sale.status}
                  if s.sale is not None else None}
                 for n, s in sorted(self.seats.items())]
        clock = self.clock.view(game.to_act) if game.in_play else None
        return table, seats, clock

    def _send_state(self, conn: Connection, kind: str = "state") -> None:
        conn.send({"type": kind, "protocol": PROTOCOL_VERSION, "version": self.version,
                   **self.view(conn.account, welcome=kind == "welcome")})

    def _broadcast(self, answer: tuple[Connection, str] | None = None) -> bool:
        """Every client its own view. Viewers who see the same thing (every spectator; the
        dealer) share one message object, so the transport can encode it once. ``answer``: a
        client and the id of its action that made this change, which its state carries as
        ``ack``; whether that client was among the table's (and was sent it)."""
        spectators: dict[str, Any] | None = None
        self._memo, self._shared = {}, None
        seated = {s.account.id: n for n, s in self.seats.items()}
        dealt = self.game.hand_stacks() if self.game.has_hand else {}
        answered = False
        try:
            with sharing():  # its messages die with it (see messages.sharing)
                for conn in list(self.clients):
                    viewer, seat = self._viewer(conn.account, seated, dealt)
                    if viewer == "spectator" and seat is None:
                        if spectators is None:
                            # "you" is the same for every watcher (they learnt who they are in the welcome)
                            spectators = self._state_message("spectator", None, None)
                        msg = spectators
                    else:
                        msg = self._state_message(viewer, conn.account.id, seat)
                    if answer is not None and conn is answer[0]:
                        if msg is spectators:
                            msg = {**msg}  # a copy: the spectators' message is shared
                        msg["ack"] = answer[1]
                        answered = True
                    conn.send(msg)
        finally:
            self._memo = self._shared = None
        return answered

    def _state_message(self, viewer: int | str, account_id: int | None, seat: int | None) -> dict[str, Any]:
        return {"type": "state", "protocol": PROTOCOL_VERSION, "version": self.version,
                **self._view(viewer, account_id, seat, False)}

    # -- the database, off the event loop ------------------------------------------------
    async def _db(self, work: Callable[[Repo], Any]) -> Any:
        fence = self.fence
        if fence is not None:
            unfenced = work

            def work(repo: Repo) -> Any:
                fence(repo)
                return unfenced(repo)

        if self._writer is not None:
            return await self._writer.run(work, source=self.table.id)

        def run() -> Any:
            with self.room.store.transaction() as repo:
                return work(repo)

        return await asyncio.to_thread(run)
