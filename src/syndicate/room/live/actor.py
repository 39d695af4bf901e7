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
since, it is refused as stale.

This file is the mailbox and the order of an action: the queue, an action's way from its id to
its answer, a hand's start, its write and its end. The actor's other jobs are steps it runs
from its queue, one module each: who may act and the seats' lifecycle (:mod:`.seats`; their
ledger work is :mod:`syndicate.room.seating`'s), what each viewer sees and the broadcast
(:mod:`.views`), what its clocks set off (:mod:`.timeouts`; the clocks: :mod:`.clocks`), its database work off the event loop
(:mod:`.writer`); the real-cards corrections' decisions (:mod:`.corrections`) and the games
(``room/game.py``, ``room/games/``) need none of its state.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from ...core.errors import RuleError
from ..cardroom import CardRoom
from ..errors import BadRequest, Conflict, Fenced, RoomError
from ..game import Game, misdeal_allowed
from ..histories import with_entries
from ..ledger import now, table_account, transfer
from ..ports import Repo
from ..recovery import reveal_table_seeds, void_hand
from ..seating import Seat
from ..values import Account, Move, Table
from . import handover, seats, timeouts, views
from .clocks import Clock, Timers, table_timers
from .corrections import Told, misdeal_refusal, reopen_refusal
from .messages import UNAVAILABLE, check_whole_numbers, error, refusal, running
from .views import Common
from .writer import GroupWriter

log = logging.getLogger(__name__)

TABLE_ACTIONS = ("sit", "leave_seat", "sit_in", "let_dealer_act")
#: A dealer's shift at the table: handing it to another dealer between hands (docs/dealer.md).
SHIFT_ACTIONS = ("hand_over",)
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
        self.voided_id: int | None = None  # the hand a misdeal voided, until the next starts
        self.hand_number = 0
        self.start_stacks: dict[int, int] = {}
        #: Who sat where when the hand in play (or the last) was dealt.
        self.dealt: dict[int, Account] = {}
        #: Real cards: the settlements the dealer has been told of in this hand, by key.
        self.told: Told = {}
        #: Who entered each action of the hand in play (stored beside the engine's log).
        self.entered: list[dict[str, Any]] = []
        self._seen: OrderedDict[tuple[int, str], dict[str, Any]] = OrderedDict()
        self._queue: asyncio.Queue[_Command] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._table_account = 0
        self.memo: dict[str, Any] | None = None  # views shared by the messages of one broadcast
        self.shared: Common | None = None  # the table, seats and clock, built once per broadcast
        self._kept_commitment: str | None = None  # the shoe whose seed is in the database
        #: Several processes (:mod:`syndicate.room.live.cluster`): checks, in each write's transaction,
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

        self._table_account, self.hand_number = await self.db(load)
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

    def post(self, kind: str, message: dict[str, Any] | None = None) -> None:
        """Queue one of the table's own commands: a clock that ran out (``timeout``, ``auto``) or
        a bot's turn (``bot``)."""
        self._queue.put_nowait(_Command(kind, message=message or {}))

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
                    views.send_state(self, cmd.conn, "welcome")  # type: ignore[arg-type]
                elif cmd.kind == "part":
                    self.clients.pop(cmd.conn, None)  # type: ignore[arg-type]
                elif cmd.kind == "timeout":
                    await timeouts.timeout(self, cmd.message["turn"])
                elif cmd.kind == "auto":
                    await timeouts.auto_step(self)
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
        if not views.broadcast(self, answer=(conn, action_id)):
            conn.send(reply)  # not among the table's clients: no state comes to it
        self.wake_bots()

    async def _apply(self, account: Account, msg: dict[str, Any]) -> bool:
        action = msg.get("action")
        game = self.game
        dealer_actions = DEALER_ACTIONS[:1] + game.dealer_actions + DEALER_ACTIONS[1:]
        known = TABLE_ACTIONS + dealer_actions + WALK_IN_ACTIONS + SHIFT_ACTIONS + game.seat_actions
        if action not in known:
            raise BadRequest("action", f"unknown action {action!r}; known: {', '.join(known)}")
        if action not in TABLE_ACTIONS[:1]:
            await handover.off_shift(self, account)
        if action == "hand_over":
            return await handover.hand_over(self, account, msg)
        if action == "sit":
            return await seats.sit(self, account, msg.get("seat"), msg.get("amount"))
        if action == "leave_seat":
            return await seats.leave(self, seats.seat_of(self, account))
        if action == "sit_in":
            s = self.seats[seats.acting_seat(self, account, msg)]
            s.sitting_out, s.timeouts = False, 0
            self.version += 1
            return True
        if action == "let_dealer_act":
            return seats.let_dealer_act(self, account, msg.get("allow"))
        if action in WALK_IN_ACTIONS:
            seats.require_table_dealer(self, account)
            if action == "seat_walk_in":
                return await seats.place_walk_in(self, account, msg.get("seat"), msg.get("name"), msg.get("amount"))
            seat = seats.walk_in_seat(self, msg.get("seat"))
            if action == "sell_chips":
                return await seats.sell_to_walk_in(self, account, seat, msg.get("amount"))
            return await seats.leave(self, seat)  # cash_out_walk_in: after the round in play if in it
        if action in dealer_actions:
            seats.require_dealer(self, account)
            if action == "start_round":
                return await self.start_round()
            if action == "auto_deal":
                return timeouts.set_auto(self, msg.get("seconds"))
            if action == "add_bots":
                return await seats.add_bots(self, msg.get("count"), msg.get("amount"))
            if action == "remove_bots":
                return await seats.remove_bots(self)
            if action == "turn_clock":
                return await timeouts.set_turn_clock(self, msg.get("seconds"))
            if action == "misdeal":
                return await self._misdeal(account)
            before = game.turn()
            reopening = action == "take_back" and game.has_hand and not game.in_play
            if reopening and game.can_take_back():  # the card that settled the hand: until the next hand
                why = reopen_refusal(game, self.seats, self.dealt)
                if why is not None:
                    raise Conflict("take_back", why)
            if game.dealer_action(action, msg):
                if game.cards == "real":
                    self._note_entry(account, before)
                if reopening:
                    await self.after(f"{account.name} took back the card that settled it: its settlement reversed",
                                      by=account.id)
                else:
                    await self.after(action)
            else:
                self.version += 1
            return True
        seat = seats.acting_seat(self, account, msg)
        at = game.turn()  # the index in the log of the action's first record
        if not game.seat_action(seat, action, msg):  # the engine verifies first: a refusal changes nothing
            self.version += 1  # the table changed, not the hand (an ante accepted)
            return True
        if action != "bet":  # a decision made in time: the run of timeouts is broken
            self.seats[seat].timeouts = 0
        self.entered.append({"at": at, "by": account.id, "name": account.name, "for_seat": seat})
        if self.seats[seat].account.id == account.id:
            await self.after(f"{account.name} at seat {seat}: {action}", by=account.id)
        else:
            await self.after(f"Dealer {account.name} for seat {seat} ({self.seats[seat].account.name}): {action}",
                              by=account.id)
        return True

    # -- seats -----------------------------------------------------------------------------
    # -- hands -------------------------------------------------------------------------------
    async def start_round(self) -> bool:
        word = self.game.hand_word
        if self.game.in_play:
            raise Conflict("round_in_play", f"the current {word} is not over")
        if self.table.status != "open":
            raise Conflict("table_status", f"the table is {self.table.status}: no new {word}s")
        memo = self.game.start_hand(self.hand_number + 1)
        self.start_stacks = self.game.start_stacks()
        self.dealt = {n: self.seats[n].account for n in self.start_stacks if n in self.seats}
        self.told = {}
        self.entered = []
        self.hand_id = self.voided_id = None
        self.hand_number += 1
        self.version += 1
        if memo is not None:
            await self.after(memo)
        return True

    async def after(self, memo: str, by: int | None = None) -> None:
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
        history = with_entries(game.history(self.table.id, self.hand_number, self.start_stacks), self.entered)
        settled = not game.in_play
        shoe = game.shoe
        commitment = game.shoe_key
        # A new shoe's seed is kept (secret) with the first write of its first hand, before any
        # of its cards reaches a client: a shoe a crash cuts short can be revealed afterwards.
        # Real cards have no seed (shoe None): nothing to keep.
        escrow = shoe.escrow_hex() if shoe is not None and commitment != self._kept_commitment else None
        players = [(n, self.seats[n].account.id) for n in sorted(self.start_stacks) if n in self.seats]

        def write(repo: Repo) -> int:
            hand_id = self.hand_id
            if escrow:
                repo.add_shoe(self.table.id, commitment, escrow, now())
            stored = hand_id is not None
            if hand_id is None:  # the hand's first write stores its history as it stands
                hand_id = repo.add_hand(self.table.id, self.hand_number, game.name, commitment, history, now(),
                                        players, self.table.dealer_id)
            if moves:  # the memo names the hand by its evening-wide number, as every page does
                transfer(repo, self.table.event_id, moves, game.name, f"{memo}, hand {hand_id}", by=by,
                         hand_id=hand_id)
            if stored or settled:
                repo.update_hand(hand_id, "settled" if settled else "playing", history, now() if settled else None)
            return hand_id

        try:
            self.hand_id = await self.db(write)
        except RoomError as e:
            # The engine has moved on and the ledger refused to follow: they no longer agree, so
            # the table stops (the database is the truth: the next start voids the hand).
            raise RuntimeError(f"table {self.table.id}: the ledger refused the hand's write: {e}") from e
        self._kept_commitment = commitment
        for n, stack in engine.items():
            if n in self.seats:
                self.seats[n].stack = stack
        self.version += 1
        views.tell_payouts(self)
        if settled:
            await self._round_over()
        else:
            timeouts.arm_turn_timer(self)

    def _note_entry(self, account: Account, before: int) -> None:
        """Real cards: note who entered a card (or dealt, or took a card back), beside the log
        like every entered action (``entered_by``; a card is no seat's decision: ``for_seat``
        null). The record an action appended is at ``before``; a take-back shortens the log and
        appends its note last, and what it took back is no longer there to be attributed."""
        after = self.game.turn()
        at = before if after > before else after - 1
        self.entered = [e for e in self.entered if e["at"] < at]
        self.entered.append({"at": at, "by": account.id, "name": account.name, "for_seat": None})

    async def _misdeal(self, account: Account) -> bool:
        """The dealer declares a misdeal: the hand in play is void and every bet on it returned,
        by the restart's rule (one reversing transaction of all its ledger moves); the stored
        hand says who declared it. The table is then ready for a new hand (docs/dealer.md)."""
        game = self.game
        history = with_entries(game.history(self.table.id, self.hand_number, self.start_stacks),
                               self.entered) if game.in_play else {}
        at = game.turn()
        if game.cards == "real" and game.in_play:
            misdeal_allowed(game, misdeal_refusal(game, self.seats))
        # refused (card_source at a shuffled table, no_round with none in play, misdeal once something
        # in the hand is settled): nothing changed
        game.void_hand()
        history.update(voided=True, misdeal={"by": account.id, "name": account.name, "at": at})
        hand_id = self.voided_id = self.hand_id
        if hand_id is not None:  # stored: its bets are in the ledger
            memo = f"hand {hand_id} at table {self.table.id}: misdeal declared by {account.name}, every bet returned"
            await self.db(partial(void_hand, table=self.table, hand_id=hand_id, history=history, memo=memo))
        for n, stack in self.start_stacks.items():
            if n in self.seats:
                self.seats[n].stack = stack
        self.entered = []
        self.version += 1
        await self._round_over()
        return True

    async def _round_over(self) -> None:
        self.game.hand_over()
        self.clock.stop_turn()
        timeouts.arm_auto(self)
        await seats.cash_out_each(self, [n for n, s in self.seats.items() if s.leaving], "leaving")
        await seats.carry_out_sales(self)  # approved while the cards were out
        if self.table.status == "closed":  # a status change reaches the table as a "refresh"
            await self._close_out()

    async def _refresh(self) -> None:
        """The table's row changed (paused, closed, its dealer revoked): read it again. Every
        such change is made through the API, which then queues this command, so the table need
        not read its row before each round."""
        before = self.table
        table = await self.db(lambda repo: repo.table(self.table.id))
        if table is not None:
            self.table = table
        sold = await seats.carry_out_sales(self)  # a sale approved or refused through the API
        if self.table.status == "closed" and not self.game.in_play:
            await self._close_out()
            views.broadcast(self)
        elif self.table != before or sold:  # paused, resumed, handed over; a sale decided
            self.version += 1
            views.broadcast(self)

    async def _close_out(self) -> None:
        """The table is closed: every stack goes back to its bankroll, the shoe is finished. A
        stack the ledger refuses to move stays in its seat and its ledger account, where
        ``syndicate admin check`` reports it and the next start returns it."""
        await seats.cash_out_each(self, list(self.seats), "the table closed")
        self.game.close()
        # The documented moment of the reveal: every seed of this table is published, and the
        # whole of each shuffle can be checked.
        await self.db(lambda repo: reveal_table_seeds(repo, self.table.id))
        self.version += 1

    # -- bots ----------------------------------------------------------------------------
    def _bots(self) -> frozenset[int]:
        return frozenset(n for n, s in self.seats.items() if s.bot and not s.leaving)

    def wake_bots(self) -> None:
        bots = self._bots()
        if bots and self.game.bot_pending(bots) is not None:
            self.post("bot")

    async def _bot_step(self) -> None:
        seat = self.game.bot_pending(self._bots())
        if seat is None:
            return
        try:
            memo = self.game.bot_move(seat)
        except RuleError:  # a bot's mistake must not stop the table: the passive choice instead
            memo = self.game.timeout_move(seat)
        await self.after(f"{self.seats[seat].account.name}: {memo}")
        views.broadcast(self)
        self.wake_bots()

    # -- clocks --------------------------------------------------------------------------
    # -- views ---------------------------------------------------------------------------
    # -- the database, off the event loop ------------------------------------------------
    async def db(self, work: Callable[[Repo], Any]) -> Any:
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
