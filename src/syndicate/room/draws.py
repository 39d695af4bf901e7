"""The prize draws of a charity night (docs/prize-draw.md): the host lists a draw's prizes and
how chips turn into its tickets; the room commits to the draw's seed at once; closing the draw
converts every guest's bankroll into numbered tickets (the chips go back to the cashier in the
ledger, kind ``prizes``: they are out of play and cannot be converted again); the draw itself
takes a witness from the room, names the winners and shows the seed, and its proof is public.
Several draws through the night are waves: each converts the chips in the bankrolls when it
closes. Chips at a table stay in play until their player leaves it."""

from __future__ import annotations

from typing import Any, Final

from ..core import money
from ..prizes import draw as raffle
from ..prizes.tickets import TicketRate, TicketRuleError
from .errors import BadRequest, Conflict, NotFound
from .ledger import cashier_account, now, player_key, transfer
from .ports import Repo, Store
from .roles import PLAYER, require
from .values import PERSON, WALK_IN, Account, Move, PrizeDraw

#: The ledger kind of the chips a draw converts (back to the cashier: out of play).
PRIZES: Final = "prizes"
#: The most prizes one draw holds.
MAX_PRIZES: Final = 100


def _prizes(prizes: Any) -> list[dict[str, Any]]:
    if not isinstance(prizes, list) or not prizes:
        raise BadRequest("draw_needs_prizes", "a draw needs at least one prize: its name and its value")
    if len(prizes) > MAX_PRIZES:
        raise BadRequest("prizes", f"a draw holds at most {MAX_PRIZES} prizes")
    out = []
    for i, p in enumerate(prizes, 1):
        name = p.get("name") if isinstance(p, dict) else None
        value = p.get("value", 0) if isinstance(p, dict) else None
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise BadRequest("prizes", f"prize {i} needs a name of 1 to 100 characters")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= money.MAX_CENTS:
            raise BadRequest("prizes", f"prize {i}'s value is a whole number of cents from 0")
        out.append({"name": name.strip(), "value": value})
    return out


def proof(d: PrizeDraw) -> dict[str, Any]:
    """The draw as anyone may see it: the seed only once drawn, the tickets once closed."""
    extra = {"id": d.id, "status": d.status, "values": [p["value"] for p in d.prizes]}
    if d.kind == "top":
        wins = [raffle.Win(p, t, h) for p, t, h in d.winners or []]
        return {**raffle.top_proof(name=d.name, committed=d.commitment, standings=d.tickets or [],
                                   prizes=[p["name"] for p in d.prizes], witness=d.witness or "",
                                   seed=bytes.fromhex(d.seed) if d.status == "drawn" else None, wins=wins),
                **extra, "rule": "prizes to the most chips", "one_prize_per_guest": True}
    tickets = [raffle.Ticket(n, h) for n, h in d.tickets or []]
    wins = [raffle.Win(p, t, h) for p, t, h in d.winners or []]
    doc = raffle.proof(name=d.name, committed=d.commitment, tickets=tickets, prizes=[p["name"] for p in d.prizes],
                       witness=d.witness or "", one_prize_per_guest=d.one_prize_per_guest,
                       seed=bytes.fromhex(d.seed) if d.status == "drawn" else None, wins=wins)
    return {**doc, **extra, "draw_kind": "raffle", "rule": TicketRate(**d.rate).describe()}


def on_screen(d: PrizeDraw, names: dict[int, str]) -> dict[str, Any]:
    """The draw as the room's big screen shows it (public, docs/screen.md): its name, status,
    prizes and, once drawn, each winner by name (and ticket, at a raffle), in the order drawn;
    no seed, no ticket list, no account's id."""
    prizes = [{"name": p["name"], "value": p["value"]} for p in d.prizes]
    winners = [{"prize": p, "name": names.get(h, "a guest"), "ticket": t if d.kind == "raffle" else None}
               for p, t, h in d.winners or []]
    guests = len({h for _, h in d.tickets or []}) if d.kind == "raffle" else len(d.tickets or [])
    return {"id": d.id, "name": d.name, "kind": d.kind, "status": d.status, "prizes": prizes,
            "tickets": len(d.tickets or []) if d.kind == "raffle" else None, "guests": guests, "winners": winners}


def prizes_listed(repo: Repo, event_id: int) -> int:
    """The value of every prize the event's draws list (cents)."""
    return sum(p["value"] for d in repo.prize_draws(event_id) for p in d.prizes)


def _within_cap(repo: Repo, event_id: int, prizes: list[dict[str, Any]]) -> None:
    """Refuse prizes that would take the value of all the event's prizes past its cap (rule
    ``prize_cap``; the event's row is locked, so two draws made at once cannot both pass)."""
    ev = repo.event(event_id, lock=True)
    if ev is None or ev.prize_cap is None:
        return
    listed = prizes_listed(repo, event_id)
    new = sum(p["value"] for p in prizes)
    if listed + new > ev.prize_cap:
        raise Conflict("prize_cap", f"the prizes of {ev.name} are capped at {money.format(ev.prize_cap)} in all: "
                       f"{money.format(listed)} are listed already, so these {money.format(new)} are too much")


def _bankrolls(repo: Repo, event_id: int) -> dict[int, list[int]]:
    """The ledger ids of the bankrolls a draw converts, by the guest whose chips they are: each
    player's who is a person, and each walk-in's (whose chips stay on their name on a night whose
    chips have no cash value: on other nights they cashed out at their table), a walk-in linked to
    a player's account counting as that player."""
    ev = repo.event(event_id)
    kinds = (PERSON, WALK_IN) if ev is not None and ev.play_money else (PERSON,)
    accounts = [a for a in repo.accounts(event_id) if a.role == PLAYER and a.kind in kinds]
    by_key = {la.key: la.id for la in repo.ledger_accounts(event_id)}
    out: dict[int, list[int]] = {}
    for a in accounts:
        if player_key(a.id) in by_key:
            out.setdefault(a.linked_to or a.id, []).append(by_key[player_key(a.id)])
    return out


class Draws:
    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, actor: Account, name: Any, rate: Any, prizes: Any, one_prize_per_guest: bool = False,
               kind: str = "raffle") -> PrizeDraw:
        """A new draw, a raffle (tickets at ``rate``) or prizes to the ``top`` chip counts (no
        rate): open, its seed committed before any chip is converted."""
        require(actor.role, "run_draws")
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise BadRequest("name", "a draw's name is 1 to 100 characters (\"Wave 1\", \"The grand prize\")")
        if kind not in ("raffle", "top"):
            raise BadRequest("draw_kind", f"a draw is a raffle or prizes to the top chip counts, not {kind!r}")
        if kind == "top":
            listed, seed = _prizes(prizes), raffle.new_seed()
            with self.store.transaction() as repo:
                _within_cap(repo, actor.event_id, listed)
                return repo.add_prize_draw(actor.event_id, name.strip(), "top", {}, listed, True, seed.hex(),
                                           raffle.commitment(seed), now())
        if not isinstance(rate, dict):
            raise BadRequest("ticket_rate", "the ticket rule is {rate, rounding, minimum, cap}")
        try:
            rule = TicketRate(**{k: rate[k] for k in ("rate", "rounding", "minimum", "cap") if k in rate})
        except TicketRuleError as e:
            raise BadRequest(e.rule, e.message) from None
        except TypeError:
            raise BadRequest("ticket_rate", "the ticket rule needs its rate: cents of chips per ticket") from None
        listed = _prizes(prizes)
        seed = raffle.new_seed()
        with self.store.transaction() as repo:
            _within_cap(repo, actor.event_id, listed)
            return repo.add_prize_draw(actor.event_id, name.strip(), "raffle", {"rate": rule.rate, "rounding": rule.rounding,
                                       "minimum": rule.minimum, "cap": rule.cap}, listed, bool(one_prize_per_guest),
                                       seed.hex(), raffle.commitment(seed), now())

    def all(self, account: Account) -> list[PrizeDraw]:
        with self.store.transaction() as repo:
            return repo.prize_draws(account.event_id)

    def get(self, account: Account, draw_id: Any) -> PrizeDraw:
        with self.store.transaction() as repo:
            return self._draw(repo, account, draw_id)

    def close(self, actor: Account, draw_id: Any) -> PrizeDraw:
        """Convert every guest's bankroll into tickets, at the draw's rule, all at once. Refused
        when no guest would have a ticket (nothing changes)."""
        require(actor.role, "run_draws")
        with self.store.transaction() as repo:
            d = self._draw(repo, actor, draw_id, lock=True)
            if d.status != "open":
                raise Conflict("draw_closed", f"{d.name} was closed at {d.closed_at:%H:%M} UTC and its chips "
                                              "converted: a draw converts chips once")
            wallets = _bankrolls(repo, actor.event_id)
            held = repo.lock_balances([la for ids in wallets.values() for la in ids]) if wallets else {}
            chips = {g: sum(held[la].balance for la in ids) for g, ids in wallets.items()}
            cashier = cashier_account(repo, actor.event_id)

            def convert(guests: set[int]) -> list[Move]:
                return [Move(la, cashier.id, held[la].balance) for g in sorted(guests) for la in wallets[g]
                        if held[la].balance > 0]
            if d.kind == "top":
                standings = sorted((g, c) for g, c in chips.items() if c > 0)
                if not standings:
                    raise Conflict("draw_needs_tickets", "no guest has chips to count: nothing was converted")
                transfer(repo, actor.event_id, convert({g for g, _ in standings}), PRIZES,
                         f"{d.name}: the chip counts of {len(standings)} guests for the prizes to the most chips, "
                         f"by {actor.name}", by=actor.id)
                repo.close_prize_draw(d.id, standings, now())
                return self._draw(repo, actor, d.id)
            rule = TicketRate(**d.rate)
            counts = {g: rule.tickets(c) for g, c in chips.items()}
            counts = {g: n for g, n in counts.items() if n > 0}
            if not counts:
                raise Conflict("draw_needs_tickets", f"no guest has chips that make a ticket under {rule.describe()}: "
                                                     "nothing was converted")
            moves = convert(set(counts))
            if moves:
                transfer(repo, actor.event_id, moves, PRIZES, f"{d.name}: chips into {sum(counts.values())} tickets "
                         f"({rule.describe()}), by {actor.name}", by=actor.id)
            tickets = raffle.number(counts)
            repo.close_prize_draw(d.id, [(t.number, t.holder) for t in tickets], now())
            return self._draw(repo, actor, d.id)

    def draw(self, actor: Account, draw_id: Any, witness: Any = "") -> PrizeDraw:
        """Name the winners from the seed, the tickets and the witness; the seed is shown."""
        require(actor.role, "run_draws")
        if not isinstance(witness, str) or len(witness) > 200:
            raise BadRequest("witness", "the witness is text of up to 200 characters (a die's roll, words called out)")
        with self.store.transaction() as repo:
            d = self._draw(repo, actor, draw_id, lock=True)
            if d.status == "open":
                raise Conflict("draw_open", f"{d.name} is still open: close it first (its chips become its tickets)")
            if d.status == "drawn":
                raise Conflict("draw_drawn", f"{d.name} was drawn at {d.drawn_at:%H:%M} UTC: a prize is drawn once")
            if d.kind == "top":
                wins = raffle.top(bytes.fromhex(d.seed), d.tickets or [], len(d.prizes), witness)
            else:
                tickets = [raffle.Ticket(n, h) for n, h in d.tickets or []]
                wins = raffle.draw(bytes.fromhex(d.seed), tickets, len(d.prizes), witness, d.one_prize_per_guest)
            repo.finish_prize_draw(d.id, witness, [(w.prize, w.ticket, w.holder) for w in wins], now())
            return self._draw(repo, actor, d.id)

    def tickets_of(self, account: Account) -> list[dict[str, Any]]:
        """The account's own tickets in each draw, and what they won."""
        with self.store.transaction() as repo:
            draws = repo.prize_draws(account.event_id)
        out = []
        for d in draws:
            mine = [] if d.kind == "top" else [n for n, h in d.tickets or [] if h == account.id]
            won = [d.prizes[p - 1]["name"] for p, _, h in d.winners or [] if h == account.id]
            out.append({"draw": d.id, "name": d.name, "kind": d.kind, "status": d.status, "tickets": mine, "won": won})
        return out

    @staticmethod
    def _draw(repo: Repo, account: Account, draw_id: Any, lock: bool = False) -> PrizeDraw:
        if isinstance(draw_id, bool) or not isinstance(draw_id, int):
            raise BadRequest("draw", f"draw is a draw's id, got {draw_id!r}")
        d = repo.prize_draw(draw_id, lock=lock)
        if d is None or d.event_id != account.event_id:
            raise NotFound("draw", f"no draw {draw_id} in this event")
        return d

