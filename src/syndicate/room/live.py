"""Live Blackjack: one writer per table.

A :class:`BlackjackTable` is an asyncio task that owns a table's state: the seats, the shoe and
the round in play. Everything that changes the table (a client's action, a timer, a status
change from the REST side) goes through its queue, so actions are applied one at a time in
the order they arrive (boardgame.io's "master"). Each applied change:

1. is checked by the engine (``verify_x``) before anything moves: a refusal changes nothing;
2. is mirrored into the ledger in the same database transaction that stores the hand's log
   (every bet, double, split, insurance, payout and forfeit is a ledger entry, tagged with the
   hand), so the database is always the truth about chips;
3. bumps the table's ``version`` and sends every connected client its own view
   (:meth:`Round.view` / :meth:`Round.log_view`): the hole card is in no message until revealed.

Actions carry a client-generated ``id``: a retried id gets the first answer again and is not
applied twice. An action may carry the ``version`` it was decided on; if the table has moved on
since, it is refused as stale.

Chips at a table: a player sits down with chips from their bankroll (ledger account
``player:<id>``), which go to their stack at this table (``stack:<table>:<id>``). The engine's
seat stack and that ledger balance are equal at every moment. Bets go from the stack to the
table's account (``table:<id>``, the house's float) and pay-outs come back from it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .. import money
from ..blackjack import basic
from ..blackjack.engine import Round
from ..blackjack.rules import Rules
from ..blackjack.session import HISTORY_FORMAT, HISTORY_VERSION, round_json, shoe_json
from ..errors import RuleError
from ..shoe import Shoe
from .cardroom import CardRoom
from .errors import BadRequest, Conflict, Fenced, Forbidden, RoomError
from .ledger import (
    BOT_HASH,
    check_amount,
    float_account,
    is_bot,
    now,
    player_account,
    table_account,
    transfer,
)
from .ports import Repo
from .roles import ADMIN, PIT_BOSS, require
from .values import Account, Move, Table
from .writer import Writer, writer_for

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
#: Round actions a seated player takes (the engine's triads).
SEAT_ACTIONS = ("bet", "hit", "stand", "double", "split", "surrender", "insurance", "no_insurance",
                "even_money", "play_on")
TABLE_ACTIONS = ("sit", "leave_seat", "sit_in")
DEALER_ACTIONS = ("start_round", "deal", "auto_deal", "add_bots", "remove_bots")
BOT_STAKE = 100  # a bot sits down with this many maximum bets (Blackjack) or antes (poker)
MAX_AUTO_SECONDS = 600
ACTIONS = SEAT_ACTIONS + TABLE_ACTIONS + DEALER_ACTIONS
SEEN_IDS = 2048  # action ids remembered per table for retries
#: What a table that stopped on a server error tells its clients (rule ``table_unavailable``).
UNAVAILABLE = "this table stopped on a server error; it comes back on restart"
#: What a player who lets the turn timer run out does: the passive choice.
TIMEOUT_CHOICES = ("stand", "no_insurance", "play_on")


class Connection(Protocol):
    """A client as the table sees it. ``send`` must not block: the transport queues."""

    account: Account

    def send(self, message: dict[str, Any]) -> None: ...


@dataclass
class Timers:
    """Seconds; ``None`` switches a timer off."""

    turn: float | None = 30.0
    #: After this many timeouts in a row a player sits out (their seat is left out of rounds).
    sit_out_after: int = 3


@dataclass
class _Seat:
    account: Account
    ledger_id: int  # the stack's ledger account
    stack: int  # mirrors the ledger balance
    leaving: bool = False
    timeouts: int = 0
    sitting_out: bool = False
    bot: bool = False


def stack_key(table_id: int, account_id: int) -> str:
    return f"stack:{table_id}:{account_id}"


@dataclass
class _Command:
    kind: str  # "action", "join", "part", "timeout", "refresh", "stop"
    conn: Connection | None = None
    message: dict[str, Any] = field(default_factory=dict)
    done: asyncio.Future[Any] | None = None


class BlackjackTable:
    """The one writer of one Blackjack table. :class:`syndicate.room.live_poker.PokerTable`
    runs a draw table the same way, overriding the game's hooks (marked "game hook")."""

    game = "blackjack"
    seat_actions: tuple[str, ...] = SEAT_ACTIONS
    dealer_actions: tuple[str, ...] = DEALER_ACTIONS
    passive: tuple[str, ...] = TIMEOUT_CHOICES

    def __init__(
        self, room: CardRoom, table: Table, *, new_shoe: Callable[[Rules], Shoe] | None = None,
        timers: Timers | None = None, writer: Writer | None = None,
    ) -> None:
        self.room = room
        self._writer = writer
        self._shoe_to_finish: Shoe | None = None
        self.table = table
        self.rules: Any = self._rules(table)
        self.timers = timers or Timers()
        self._new_shoe = new_shoe or (
            lambda r: Shoe.new(r.decks, r.penetration, 1 if r.burn_card else 0))
        self.version = 0
        self.seats: dict[int, _Seat] = {}
        self.clients: dict[Connection, None] = {}  # insertion-ordered set
        self.shoe: Shoe | None = None
        self.round: Any = None  # the game's round: a Round, or a DrawHand at a poker table
        self.hand_id: int | None = None
        self.hand_number = 0
        self._start_stacks: dict[int, int] = {}
        self._seen: OrderedDict[tuple[int, str], dict[str, Any]] = OrderedDict()
        self._queue: asyncio.Queue[_Command] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._auto_timer: asyncio.TimerHandle | None = None
        self.auto_seconds: float | None = None  # the betting window when rounds run themselves
        self._table_account = 0
        self._memo: dict[str, Any] | None = None  # views shared by the messages of one broadcast
        self._kept_commitment: str | None = None  # the shoe whose seed is in the database
        self._turn_deadline: float | None = None  # the event loop's time when the turn clock runs out
        #: Several processes (issue 7): checks, in each write's transaction, that this process
        #: still holds the table's lease (raises Fenced); ``on_fenced`` is told when one failed.
        self.fence: Callable[[Repo], None] | None = None
        self.on_fenced: Callable[[BlackjackTable], None] | None = None
        self.fenced = False

    # -- the task ------------------------------------------------------------------------
    async def start(self) -> None:
        def load(repo: Repo) -> tuple[int, int]:
            acct = table_account(repo, self.table.event_id, self.table.id, self.table.name)
            return acct.id, repo.last_hand_number(self.table.id)

        self._table_account, self.hand_number = await self._db(load)
        self._task = asyncio.create_task(self._run(), name=f"table-{self.table.id}")

    async def stop(self) -> None:
        if self._task is not None:
            await self._queue.put(_Command("stop"))
            await self._task

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
                self._cancel_timer()
                if self._auto_timer is not None:
                    self._auto_timer.cancel()
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
            conn.send(_error(None, "id", "every action carries an id: a string of 1 to 64 characters",
                             self.version))
            return
        key = (conn.account.id, action_id)
        if key in self._seen:
            conn.send(self._seen[key])  # a retry: the same answer, applied once
            return
        changed = False
        try:
            version = msg.get("version")
            if version is not None and version != self.version:
                raise Conflict("stale_version", f"the table is at version {self.version}, the action was "
                                                f"decided at version {version}: look again and resend")
            changed = await self._apply(conn.account, msg)
            reply = {"type": "ack", "id": action_id, "version": self.version}
        except (RoomError, RuleError) as e:
            reply = _error(action_id, e.rule, e.message, self.version)
        self._seen[key] = reply
        while len(self._seen) > SEEN_IDS:
            self._seen.popitem(last=False)
        conn.send(reply)
        if changed:
            self._broadcast()
            self._wake_bots()

    async def _apply(self, account: Account, msg: dict[str, Any]) -> bool:
        action = msg.get("action")
        known = TABLE_ACTIONS + self.dealer_actions + self.seat_actions
        if action not in known:
            raise BadRequest("action", f"unknown action {action!r}; known: {', '.join(known)}")
        if action == "sit":
            return await self._sit(account, msg.get("seat"), msg.get("amount"))
        if action == "leave_seat":
            return await self._leave(self._seat_of(account))
        if action == "sit_in":
            s = self.seats[self._seat_of(account)]
            s.sitting_out, s.timeouts = False, 0
            self.version += 1
            return True
        if action in self.dealer_actions:
            self._require_dealer(account)
            if action == "start_round":
                return await self._start_round()
            if action == "auto_deal":
                return self._set_auto(msg.get("seconds"))
            if action == "add_bots":
                return await self._add_bots(msg.get("count"))
            if action == "remove_bots":
                return await self._remove_bots()
            return await self._dealer_action(account, action, msg)
        seat = self._seat_of(account)
        claimed = msg.get("seat", seat)
        if claimed != seat:
            raise Forbidden("own_seat", f"you play seat {seat} only, not {claimed!r}")
        return await self._seat_action(account, seat, action, msg)

    # -- game hooks (Blackjack) ------------------------------------------------------------
    def _rules(self, table: Table) -> Any:
        return Rules.from_dict(table.rules)

    def _seat_count(self) -> int:
        return int(self.rules.seats)

    def _round_stacks(self) -> dict[int, int]:
        """The chips behind each seat dealt into the round in play, as the engine has them."""
        return {n: s.stack for n, s in self.round.seats.items()} if self.round is not None else {}

    def _commitment(self) -> str:
        assert self.shoe is not None
        return self.shoe.commitment

    def _dealing_shoe(self) -> Shoe:
        """The shoe the hand in play is dealt from."""
        assert self.shoe is not None
        return self.shoe

    def _new_round(self, stacks: dict[int, int]) -> bool:
        """Create the round; returns whether chips moved already (antes)."""
        if self.shoe is None or self.shoe.needs_shuffle:
            self._shoe_to_finish = self.shoe
            self.shoe = self._new_shoe(self.rules)
        self.round = Round(self.rules, self.shoe, stacks)
        return False

    async def _dealer_action(self, account: Account, action: str, msg: dict[str, Any]) -> bool:
        rd = self._round_in_play()
        rd.deal()
        await self._after(f"deal, hand {self.hand_number}")
        return True

    async def _seat_action(self, account: Account, seat: int, action: str, msg: dict[str, Any]) -> bool:
        rd = self._round_in_play()
        if seat not in rd.seats:
            raise Conflict("not_dealt_in", "you sat down after this round started: wait for the next one")
        amount = msg.get("amount")
        if action in ("bet", "double", "insurance"):
            args: tuple[Any, ...] = (seat, amount) if action == "bet" or amount is not None else (seat,)
        else:
            args = (seat,)
        getattr(rd, action)(*args)  # the engine verifies first: a refusal raises and changes nothing
        if action != "bet":  # a decision made in time: the run of timeouts is broken
            self.seats[seat].timeouts = 0
        await self._after(f"{account.name} at seat {seat}: {action}")
        return True

    def _require_dealer(self, account: Account) -> None:
        if account.id != self.table.dealer_id and account.role not in (ADMIN, PIT_BOSS):
            raise Forbidden("table_dealer", "only this table's dealer (or a pit boss, or the admin) deals here")

    def _seat_of(self, account: Account) -> int:
        for n, s in self.seats.items():
            if s.account.id == account.id:
                return n
        require(account.role, "play")
        raise Conflict("not_seated", "take a seat first")

    def _round_in_play(self) -> Any:
        if self.round is None or self.round.is_terminal:
            raise Conflict("no_round", "no round in play: the dealer starts the next one")
        return self.round

    async def _sit(self, account: Account, seat: Any, amount: Any) -> bool:
        require(account.role, "play")
        if self.table.status != "open":
            raise Conflict("table_status", f"the table is {self.table.status}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= self._seat_count():
            raise BadRequest("seat", f"seats here are 1 to {self._seat_count()}")
        if any(s.account.id == account.id for s in self.seats.values()):
            raise Conflict("seated", "you already have a seat at this table")
        if seat in self.seats:
            raise Conflict("seat_taken", f"seat {seat} is taken")
        rd = self.round
        if rd is not None and not rd.is_terminal and seat in self._round_stacks():
            raise Conflict("seat_taken", f"seat {seat} was just left in this round: free from the next one")
        check_amount(amount)

        def sit(repo: Repo) -> int:
            ev = self.table.event_id
            wallet = player_account(repo, ev, account.id, account.name)
            stack = repo.ledger_account(ev, stack_key(self.table.id, account.id), "player",
                                        f"{account.name}'s stack at table {self.table.id}")
            transfer(repo, ev, [Move(wallet.id, stack.id, amount)], "sit_down",
                     f"{account.name} sits at table {self.table.id} seat {seat} with {money.format(amount)}",
                     by=account.id)
            return stack.id

        ledger_id = await self._db(sit)
        self.seats[seat] = _Seat(account, ledger_id, amount)
        self.version += 1
        return True

    async def _leave(self, seat: int) -> bool:
        s = self.seats[seat]
        rd = self.round
        if rd is not None and not rd.is_terminal and seat in rd.seats and not rd.seats[seat].left:
            betting = rd.phase == "betting"
            rd.leave(seat)  # before the deal the bet comes back; after it, "will forfeit his bet"
            s.leaving = True  # the stack goes back to the bankroll when the round is over
            await self._after(f"{s.account.name} leaves seat {seat}")
            if betting and seat in self.seats:  # nothing of theirs is at stake: no need to wait
                await self._cash_out_seat(seat)
                self.version += 1
            return True
        await self._cash_out_seat(seat)
        self.version += 1
        return True

    async def _cash_out_seat(self, seat: int) -> None:
        s = self.seats.pop(seat)
        if s.stack <= 0:
            return
        amount = s.stack

        def back(repo: Repo) -> None:
            wallet = player_account(repo, self.table.event_id, s.account.id, s.account.name)
            moves = [Move(s.ledger_id, wallet.id, amount)]
            if s.bot:  # a bot's chips go straight back to the float they came from
                moves.append(Move(wallet.id, float_account(repo, self.table.event_id).id, amount))
            transfer(repo, self.table.event_id, moves, "stand_up",
                     f"{s.account.name} leaves table {self.table.id} with {money.format(amount)}")

        await self._db(back)

    async def _start_round(self) -> bool:
        if self.round is not None and not self.round.is_terminal:
            raise Conflict("round_in_play", "the current round is not over")
        if self.table.status != "open":
            raise Conflict("table_status", f"the table is {self.table.status}: no new rounds")
        stacks = {n: s.stack for n, s in self.seats.items() if not s.sitting_out and not s.leaving}
        if not stacks:
            raise Conflict("no_players", "no one is seated")
        self._shoe_to_finish = None
        moved = self._new_round(stacks)
        if self._shoe_to_finish is not None:
            await self._finish_shoe(self._shoe_to_finish)
        self._start_stacks = dict(stacks)
        self.hand_id = None
        self.hand_number += 1
        self.version += 1
        if moved:
            await self._after(f"hand {self.hand_number} dealt")
        return True

    async def _finish_shoe(self, shoe: Shoe | None) -> None:
        """No more cards from this shoe. Its seed stays secret until the table closes
        (docs/fairness.md): a seed would tell every card, a hole card never turned over too,
        while the players are still at the table; the cards shown are checked by their openings."""
        if shoe is not None:
            shoe.reveal()

    def history(self) -> dict[str, Any]:
        """The hand in play as a one-round history in the engine's format (stored, never
        served until the hand is over: it holds the hole card)."""
        assert self.round is not None and self.shoe is not None
        return {
            "format": HISTORY_FORMAT, "version": HISTORY_VERSION, "game": "blackjack",
            "rules": self.rules.to_dict(), "table": self.table.id, "hand": self.hand_number,
            "shoes": [shoe_json(self.shoe)],
            "rounds": [round_json(self.hand_number, 0, self._start_stacks, self.round)],
        }

    async def _after(self, memo: str) -> None:
        """Mirror the engine's stacks into the ledger and store the hand, in one transaction."""
        rd = self.round
        assert rd is not None
        moves = []
        engine = self._round_stacks()
        for n, stack in engine.items():
            s = self.seats.get(n)
            if s is None:  # left before the deal and already cashed out: nothing at stake
                continue
            delta = stack - s.stack
            if delta < 0:
                moves.append(Move(s.ledger_id, self._table_account, -delta))
            elif delta > 0:
                moves.append(Move(self._table_account, s.ledger_id, delta))
        history = self.history()
        settled = rd.is_terminal
        commitment = self._commitment()
        shoe = self._dealing_shoe()
        # A new shoe's seed is kept (secret) with the first write of its first hand, before any
        # of its cards reaches a client: a shoe a crash cuts short can be revealed afterwards.
        escrow = shoe.escrow_hex() if commitment != self._kept_commitment else None
        players = [(n, self.seats[n].account.id) for n in sorted(self._start_stacks) if n in self.seats]

        def write(repo: Repo) -> int:
            hand_id = self.hand_id
            if escrow:
                repo.add_shoe(self.table.id, commitment, escrow, now())
            stored = hand_id is not None
            if hand_id is None:  # the hand's first write stores its history as it stands
                hand_id = repo.add_hand(self.table.id, self.hand_number, self.game, commitment, history, now(),
                                        players)
            if moves:
                transfer(repo, self.table.event_id, moves, self.game, memo, hand_id=hand_id)
            if stored or settled:
                repo.update_hand(hand_id, "settled" if settled else "playing", history, now() if settled else None)
            return hand_id

        self.hand_id = await self._db(write)
        self._kept_commitment = commitment
        for n, stack in engine.items():
            if n in self.seats:
                self.seats[n].stack = stack
        self.version += 1
        if settled:
            await self._round_over()
        else:
            self._arm_turn_timer()

    async def _round_over(self) -> None:
        self._cancel_timer()
        self._arm_auto()
        for n in [n for n, s in self.seats.items() if s.leaving]:
            await self._cash_out_seat(n)
        if self.table.status == "closed":  # a status change reaches the table as a "refresh"
            await self._close_out()

    async def _refresh(self) -> None:
        """The table's row changed (paused, closed, its dealer revoked): read it again. Every
        such change is made through the API, which then queues this command, so the table need
        not read its row before each round."""
        before = self.table
        await self._refresh_status()
        if self.table.status == "closed" and (self.round is None or self.round.is_terminal):
            await self._close_out()
            self._broadcast()
        elif self.table != before:  # paused, resumed, or handed over to another dealer
            self.version += 1
            self._broadcast()

    async def _refresh_status(self) -> None:
        table = await self._db(lambda repo: repo.table(self.table.id))
        if table is not None:
            self.table = table

    async def _close_out(self) -> None:
        """The table is closed: every stack goes back to its bankroll, the shoe is finished."""
        for n in list(self.seats):
            await self._cash_out_seat(n)
        await self._finish_shoe(self.shoe)
        # The documented moment of the reveal: every seed of this table is published, and the
        # whole of each shuffle can be checked.
        await self._db(lambda repo: reveal_table_seeds(repo, self.table.id))
        self.version += 1

    # -- bots ----------------------------------------------------------------------------
    async def _add_bots(self, count: Any) -> bool:
        """Fill free seats with bots. Their chips come from the event's house float (through a
        bot's bankroll, a ledger account of its own) and go back to the float when they leave.
        Only an account marked as a bot (:func:`is_bot`) is reused as a bot's seat: a person's
        account under a bot's name (made before such names were reserved) is refused."""
        free = [n for n in range(1, self._seat_count() + 1) if n not in self.seats
                and not (self.round is not None and not self.round.is_terminal and n in self._round_stacks())]
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= len(free):
            raise BadRequest("count", f"count is a number of bots from 1 to {len(free)} (the free seats)")
        stake = BOT_STAKE * self._bot_unit()
        table = self.table

        def seat_bots(repo: Repo) -> list[tuple[int, Account, int]]:
            out = []
            pool = float_account(repo, table.event_id)
            if pool.balance < stake * count:
                raise Conflict("house_float", f"{count} bots need {money.format(stake * count)} and the house "
                               f"float for bots has {money.format(pool.balance)}: the admin sets the float")
            for n in free[:count]:
                name = f"Bot {table.id}-{n}"
                bot = repo.account_by_name(table.event_id, name)
                if bot is not None and not is_bot(bot):
                    raise Conflict("bot_name", f"{bot.name!r} is a person's account, not a bot: it cannot take "
                                   "a bot's seat or the float's chips (rename or remove it first)")
                bot = bot or repo.add_account(table.event_id, name, "player", BOT_HASH, now())
                wallet = player_account(repo, table.event_id, bot.id, bot.name)
                stack = repo.ledger_account(table.event_id, stack_key(table.id, bot.id), "player",
                                            f"{bot.name}'s stack at table {table.id}")
                transfer(repo, table.event_id, [Move(pool.id, wallet.id, stake), Move(wallet.id, stack.id, stake)],
                         "bot_buy_in", f"{bot.name} sits at table {table.id} seat {n}")
                out.append((n, bot, stack.id))
            return out

        for n, bot, ledger_id in await self._db(seat_bots):
            self.seats[n] = _Seat(bot, ledger_id, stake, bot=True)
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

    def _wake_bots(self) -> None:
        if any(s.bot for s in self.seats.values()) and self._bot_pending() is not None:
            self._queue.put_nowait(_Command("bot"))

    async def _bot_step(self) -> None:
        seat = self._bot_pending()
        if seat is None:
            return
        try:
            memo = self._bot_move(seat)
        except RuleError:  # a bot's mistake must not stop the table: the passive choice instead
            legal = self.round.legal_actions(seat)
            memo = next(a for a in self.passive if a in legal)
            getattr(self.round, memo)(seat)
        await self._after(f"{self.seats[seat].account.name}: {memo}")
        self._broadcast()
        self._wake_bots()

    # -- game hooks for bots (Blackjack) -----------------------------------------------------
    def _bot_unit(self) -> int:
        return int(self.rules.max_bet)

    def _bot_pending(self) -> int | None:
        """A bot seat with a decision to make now, if any."""
        rd = self.round
        if rd is None or rd.is_terminal:
            return None
        if rd.phase == "betting":
            for n, seat in rd.seats.items():
                s = self.seats.get(n)
                if s is not None and s.bot and not s.leaving and not seat.left and seat.bet == 0 \
                        and seat.stack >= self.rules.min_bet:
                    return int(n)
            return None
        actor = rd.to_act
        return actor if actor in self.seats and self.seats[actor].bot else None

    def _bot_move(self, seat: int) -> str:
        rd = self.round
        if rd.phase == "betting":
            rd.bet(seat, self.rules.min_bet)
            return "bet"
        legal = rd.legal_actions(seat)
        if rd.phase == "insurance":
            choice = "even_money" if "even_money" in legal else "no_insurance"
        elif rd.phase == "early_surrender":
            choice = "play_on"
        else:
            choice = basic.decide(self.rules, rd.current_hand.cards, rd.up_card, legal)
            if choice not in legal:
                choice = "stand" if "stand" in legal else legal[0]
        getattr(rd, choice)(seat)
        return choice

    # -- timers --------------------------------------------------------------------------
    def _arm_turn_timer(self) -> None:
        self._cancel_timer()
        rd = self.round
        if self.timers.turn is None or rd is None or rd.to_act is None:
            return
        command = self._timeout_command(self._turn())
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.timers.turn, lambda: self._queue.put_nowait(command))
        self._turn_deadline = loop.time() + self.timers.turn

    def _turn(self) -> tuple[int, int]:
        """Which decision the table waits for: the hand and the length of its log. Unlike the
        version, it does not move when someone sits down or a status changes, so those do not
        cancel the clock of the player to act."""
        return (self.hand_number, len(self.round.log) if self.round is not None else -1)

    def _timeout_command(self, turn: tuple[int, int]) -> _Command:
        return _Command("timeout", message={"turn": turn})

    def _set_auto(self, seconds: Any) -> bool:
        """The dealer lets rounds run themselves: a new round opens whenever the last one is
        over, and is dealt ``seconds`` later if anyone bet. ``None`` stops it."""
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                    or not 0 < seconds <= MAX_AUTO_SECONDS):
            raise BadRequest("seconds", f"seconds is a betting window from 0 to {MAX_AUTO_SECONDS}, or null to stop")
        self.auto_seconds = seconds
        if self._auto_timer is not None:
            self._auto_timer.cancel()
            self._auto_timer = None
        if seconds is not None:
            self._arm_auto(0)
        self.version += 1
        return True

    def _arm_auto(self, delay: float | None = None) -> None:
        if self.auto_seconds is None:
            return
        if self._auto_timer is not None:
            self._auto_timer.cancel()
        self._auto_timer = asyncio.get_running_loop().call_later(
            self.auto_seconds if delay is None else delay, lambda: self._queue.put_nowait(_Command("auto")))

    async def _auto_step(self) -> None:
        self._auto_timer = None
        if self.auto_seconds is None:
            return
        rd = self.round
        try:
            if rd is None or rd.is_terminal:
                await self._start_round()
            elif rd.phase == "betting" and rd.can_deal():
                rd.deal()
                await self._after(f"deal, hand {self.hand_number}")
                if self.round is not None and not self.round.is_terminal:
                    self._broadcast()
                    self._wake_bots()
                    return  # the round plays on; the next one opens when it is over
            elif rd.phase != "betting":
                return
        except RoomError:
            pass  # nobody seated, or the table paused: look again after the next window
        self._broadcast()
        self._wake_bots()
        self._arm_auto()

    def _cancel_timer(self) -> None:
        self._turn_deadline = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _clock(self) -> dict[str, Any] | None:
        """The turn clock as a client shows it: whose turn, its length and the seconds left."""
        rd = self.round
        if self._turn_deadline is None or rd is None or rd.is_terminal or rd.to_act is None:
            return None
        left = max(0.0, self._turn_deadline - asyncio.get_running_loop().time())
        return {"seat": rd.to_act, "seconds": self.timers.turn, "left": round(left, 1)}

    async def _timeout(self, turn: tuple[int, int]) -> None:
        """The player to act let the clock run out: the passive choice is made for them (stand,
        no insurance, no surrender). After ``sit_out_after`` in a row they sit out."""
        rd = self.round
        if turn != self._turn() or rd is None or rd.is_terminal or rd.to_act is None:
            return
        seat = rd.to_act
        legal = rd.legal_actions(seat)
        choice = next(a for a in self.passive if a in legal)
        getattr(rd, choice)(seat)
        s = self.seats[seat]
        s.timeouts += 1
        if s.timeouts >= self.timers.sit_out_after:
            s.sitting_out = True
        await self._after(f"seat {seat} timed out: {choice}")
        self._broadcast()
        self._wake_bots()

    # -- views ---------------------------------------------------------------------------
    def _viewer(self, account: Account) -> tuple[int | str, int | None]:
        """Whose eyes: a seat dealt into the round, the dealer, or a spectator; and the seat."""
        seat = next((n for n, s in self.seats.items() if s.account.id == account.id), None)
        rd = self.round
        if account.id == self.table.dealer_id:
            return "dealer", seat
        if seat is not None and rd is not None and seat in self._round_stacks():
            return seat, seat
        return "spectator", seat

    def view(self, account: Account, *, welcome: bool = False) -> dict[str, Any]:
        """What ``account`` may see now. The table's full rules come with the welcome only."""
        viewer, seat = self._viewer(account)
        return self._view(viewer, account.id, seat, welcome)

    def _view(self, viewer: int | str, account_id: int | None, seat: int | None, welcome: bool) -> dict[str, Any]:
        rd = self.round
        table: dict[str, Any] = {
            "id": self.table.id, "name": self.table.name, "game": self.game, "status": self.table.status,
            "dealer_id": self.table.dealer_id, "min_bet": self.rules.min_bet, "max_bet": self.rules.max_bet,
            "seats": self._seat_count(), "auto_deal": self.auto_seconds}
        if welcome:
            table["rules"] = self.rules.to_dict()
        return {
            "table": table,
            "seats": [{"seat": n, "player": s.account.name, "account": s.account.id, "stack": s.stack,
                       "sitting_out": s.sitting_out} for n, s in sorted(self.seats.items())],
            "you": {"account": account_id, "seat": seat},
            "hand": self.hand_number if rd is not None else None,
            "clock": self._clock(),
            "round": self._round_view(viewer) if rd is not None else None,
            "log": self._log_view(viewer) if rd is not None else [],
        }

    # -- game hooks for views (Blackjack) ------------------------------------------------------
    def _round_view(self, viewer: int | str) -> dict[str, Any]:
        """``Round.view(viewer)``. During a broadcast it is built once and each seat's copy
        differs only in ``viewer`` and ``legal_actions``: at Blackjack every player's cards are
        face up and the hole card is hidden from everyone alike, so there is nothing else a
        seat sees that another does not."""
        rd = self.round
        memo = self._memo
        if memo is None:
            return rd.view(viewer)  # type: ignore[no-any-return]
        base = memo.get("round")
        if base is None:
            base = memo["round"] = rd.view("spectator")
        if viewer == "spectator":
            return base
        legal = rd.legal_actions(viewer) if isinstance(viewer, int) and viewer in rd.seats else []
        return {**base, "viewer": viewer, "legal_actions": legal}

    def _log_view(self, viewer: int | str) -> list[dict[str, Any]]:
        """``Round.log_view(viewer)``: the same list for every viewer at Blackjack (see above),
        so during a broadcast one list serves every message and is encoded once."""
        memo = self._memo
        if memo is None:
            return self.round.log_view(viewer)  # type: ignore[no-any-return]
        log = memo.get("log")
        if log is None:
            log = memo["log"] = self.round.log_view("spectator")
        return log  # type: ignore[no-any-return]

    def _send_state(self, conn: Connection, kind: str = "state") -> None:
        conn.send({"type": kind, "protocol": PROTOCOL_VERSION, "version": self.version,
                   **self.view(conn.account, welcome=kind == "welcome")})

    def _broadcast(self) -> None:
        """Every client its own view. Viewers who see the same thing (every spectator; the
        dealer) share one message object, so the transport can encode it once."""
        shared: dict[int | str, dict[str, Any]] = {}
        self._memo = {}
        try:
            for conn in list(self.clients):
                viewer, seat = self._viewer(conn.account)
                if viewer == "spectator" and seat is None:
                    msg = shared.get("spectator")
                    if msg is None:
                        # "you" is the same for every watcher (they learnt who they are in the welcome)
                        msg = shared["spectator"] = self._state_message("spectator", None, None)
                    conn.send(msg)
                else:
                    conn.send(self._state_message(viewer, conn.account.id, seat))
        finally:
            self._memo = None

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
            return await self._writer.run(work)

        def run() -> Any:
            with self.room.store.transaction() as repo:
                return work(repo)

        return await asyncio.to_thread(run)


def _error(action_id: str | None, rule: str, message: str, version: int) -> dict[str, Any]:
    return {"type": "error", "id": action_id, "rule": rule, "message": message, "version": version}


def refusal(message: dict[str, Any], rule: str, text: str, version: int | None = None) -> dict[str, Any]:
    """The error answering a client's ``message`` that was not applied: with the message's id
    when it had a string one (so the client knows which action it answers)."""
    action_id = message.get("id")
    out: dict[str, Any] = {"type": "error", "id": action_id if isinstance(action_id, str) else None,
                           "rule": rule, "message": text}
    if version is not None:
        out["version"] = version
    return out


def running(route: Any) -> Any:
    """``route`` (a table's runner), unless it stopped on a server error (Conflict)."""
    if route.stopped:
        raise Conflict("table_unavailable", UNAVAILABLE)
    return route


def void_unfinished(room: CardRoom) -> list[int]:
    """After a crash: every hand still ``playing`` is voided and every bet on it returned, and
    every stack left at a table goes back to its player's bankroll. Returns the voided hands.

    The rule (docs/server.md): the database is the truth, and an interrupted hand is void. Its
    ledger transactions are undone by one reversing transaction per hand (the original entries
    stay, so the statement shows both), then the stacks are cashed back; no chip is created or
    lost, and every table is ready for a new round. (Several processes on one database void
    table by table instead, as they take each table over: :func:`void_table`.)
    """
    voided: list[int] = []
    with room.store.transaction() as repo:
        for ev in repo.events():
            for table in repo.tables(ev.id):
                voided += void_table(repo, table, shoes=False)
        # A shoe the last run left unfinished is abandoned (its table starts a new one), but its
        # seed is still revealed only when its table closes: it would tell the unshown cards of
        # the hands dealt from it, voided or not, while their players are still at the table.
        closed = {t.id for ev in repo.events() for t in repo.tables(ev.id) if seeds_due(repo, t)}
        for shoe_table, commitment, seed in repo.unrevealed_shoes():
            if shoe_table in closed:
                repo.reveal_seed(commitment, seed)
    return voided


def seeds_due(repo: Repo, table: Table) -> bool:
    """Has the documented moment of this closed table's reveal come (docs/fairness.md)? At its
    close by default; with the event's ``seed_reveal`` at ``event_end``, only once the event
    has ended (a player's cards stay unprovable-by-seed until every table of the night is done)."""
    if table.status != "closed":
        return False
    ev = repo.event(table.event_id)
    return ev is None or ev.seed_reveal != "event_end" or ev.ended_at is not None


def reveal_table_seeds(repo: Repo, table_id: int) -> None:
    """The table is closed: publish the seed of every shoe it dealt (docs/fairness.md), if the
    event's setting says the moment has come. The caller is the one process that may deal this
    table (its runner, after its hand in play) or knows no hand is in play there."""
    table = repo.table(table_id)
    if table is None or not seeds_due(repo, table):
        return
    for shoe_table, commitment, seed in repo.unrevealed_shoes():
        if shoe_table == table_id:
            repo.reveal_seed(commitment, seed)


def void_table(repo: Repo, table: Table, *, shoes: bool = True) -> list[int]:
    """:func:`void_unfinished` for one table, in the caller's transaction: its unfinished hand
    is voided (every bet returned), its stacks go back to their bankrolls and (``shoes``), if the
    table is closed, its unrevealed shoes are revealed. Returns the voided hands."""
    voided: list[int] = []
    ev = table.event_id
    for hand in repo.hands(ev, table.id, status="playing", limit=10_000):
        net = repo.hand_net(hand.id)
        house = table_account(repo, ev, table.id, table.name).id
        moves = []
        for acct_id, delta in sorted(net.items()):
            if acct_id == house:
                continue
            if delta < 0:
                moves.append(Move(house, acct_id, -delta))
            else:
                moves.append(Move(acct_id, house, delta))
        if moves:
            transfer(repo, ev, moves, "void", f"hand {hand.number} at table {table.id} voided after a "
                     "restart: every bet returned", hand_id=hand.id)
        doc = dict(hand.history)
        doc["voided"] = True
        repo.update_hand(hand.id, "voided", doc, now())
        voided.append(hand.id)
    prefix = f"stack:{table.id}:"
    for a in repo.ledger_accounts(ev):
        if a.key.startswith(prefix) and a.balance > 0:
            player = repo.account(int(a.key[len(prefix):]))
            assert player is not None
            wallet = player_account(repo, ev, player.id, player.name)
            moves = [Move(a.id, wallet.id, a.balance)]
            if is_bot(player):  # the house's chips, not the bot's: back to the float
                moves.append(Move(wallet.id, float_account(repo, ev).id, a.balance))
            transfer(repo, ev, moves, "stand_up",
                     f"{player.name}'s stack at table {table.id} back to the bankroll after a restart")
    # A bot's bankroll holds nothing between sittings; whatever one holds now (left there by a
    # crash, or by an older version) is the house's and goes back to the float.
    bots = {a.id for a in repo.accounts(ev) if is_bot(a) and a.name.startswith(f"Bot {table.id}-")}
    for a in repo.ledger_accounts(ev):
        if a.key.startswith("player:") and int(a.key[7:]) in bots and a.balance > 0:
            transfer(repo, ev, [Move(a.id, float_account(repo, ev).id, a.balance)], "stand_up",
                     f"{a.name}'s chips back to the house float after a restart")
    if shoes and table.status == "closed":  # seeds come out when the table closes, not before
        reveal_table_seeds(repo, table.id)
    return voided


class LiveRoom:
    """Every live table of the server, started on first use. A client's socket reaches its
    table through :meth:`join`, :meth:`submit` and :meth:`part` (by table id), so that with
    several processes (:class:`syndicate.web.cluster.ClusterRoom`) the table behind an id can
    move from one process to another under a connected client."""

    def __init__(self, room: CardRoom, *, timers: Timers | None = None,
                 new_shoe: Callable[[Rules], Shoe] | None = None) -> None:
        self.room = room
        self.timers = timers
        self.new_shoe = new_shoe
        self.tables: dict[int, BlackjackTable] = {}  # PokerTable is one too
        self._lock = asyncio.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        # The tables' database work, off the event loop: on SQLite one thread that commits
        # every table's waiting work together (group commit), on PostgreSQL a pool.
        self.writer = writer_for(room.store)

    def _runner(self, table: Table) -> BlackjackTable:
        from .live_poker import PokerTable

        kind = PokerTable if table.game == "poker" else BlackjackTable
        return kind(self.room, table, new_shoe=self.new_shoe, timers=self.timers, writer=self.writer)

    async def table(self, table: Table) -> Any:
        """The table's runner (started if need be); raises Conflict if it stopped on an error."""
        self._loop = asyncio.get_running_loop()
        async with self._lock:
            runner = self.tables.get(table.id)
            if runner is None:
                runner = self._runner(table)
                await runner.start()
                self.tables[table.id] = runner
        return running(runner)

    async def join(self, table_id: int, conn: Connection) -> None:
        await self.tables[table_id].join(conn)

    def submit(self, table_id: int, conn: Connection, message: dict[str, Any]) -> None:
        self.tables[table_id].submit(conn, message)

    def part(self, table_id: int, conn: Connection) -> None:
        self.tables[table_id].part(conn)

    def seated(self, account_id: int) -> list[int]:
        """The tables of this process where the account holds a seat now (chips in a hand in
        play count, whatever its stack's ledger balance says)."""
        return [tid for tid, runner in list(self.tables.items())
                if any(s.account.id == account_id for s in list(runner.seats.values()))]

    def refresh(self, table_id: int | None = None) -> None:
        """A table's row changed through the API (from any thread): its runner reads it again."""
        loop = self._loop
        if loop is not None and _off_loop(loop):
            loop.call_soon_threadsafe(self.refresh, table_id)
            return
        for tid, runner in self.tables.items():
            if table_id is None or tid == table_id:
                runner.refresh()

    def closed(self, table_id: int) -> None:
        """A table was closed through the API. Its runner reveals its seeds once its hand in
        play is over; a table with no runner here has no hand in play (one cut short by a
        crash was voided at start), so its seeds are revealed at once."""
        if table_id not in self.tables:
            with self.room.store.transaction() as repo:
                reveal_table_seeds(repo, table_id)

    def event_ended(self, table_ids: list[int]) -> None:
        """The event ended (its tables were closed, ``table_ids`` are all of them): the seeds an
        ``event_end`` setting held back come out. A table with a runner here reveals them itself
        after its hand in play (the refresh re-runs its close-out); the rest at once."""
        for tid in table_ids:
            self.closed(tid)
        self.refresh()

    async def stop(self) -> None:
        for runner in self.tables.values():
            await runner.stop()
        self.writer.shutdown()


def _off_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is not loop
    except RuntimeError:
        return True
