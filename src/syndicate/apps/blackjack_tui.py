"""Blackjack in the terminal: one person against the house, bots in the other seats.

Input comes from ``input_fn`` (``input`` by default) so the whole game can be driven by a
script in tests. At a terminal the actions are single keys, no Enter (:mod:`syndicate.apps.keys`);
bets, which are amounts, are typed as lines. The table is drawn with Rich.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..blackjack import course as E
from ..blackjack import views
from ..blackjack.bots import act as bot_act
from ..blackjack.bots import advisor
from ..blackjack.round import Round
from ..blackjack.rules import Rules
from ..blackjack.session import Session
from ..core import money
from ..core.cards import Card, card
from ..core.errors import RuleError
from .keys import key_reader

KEYS = {
    "h": E.HIT, "s": E.STAND, "d": E.DOUBLE, "p": E.SPLIT, "r": E.SURRENDER,
    "i": E.INSURE, "e": E.EVEN_MONEY, "n": E.NO_INSURANCE, "c": E.PLAY_ON,
}
LABELS = {
    E.HIT: "[h]it", E.STAND: "[s]tand", E.DOUBLE: "[d]ouble", E.SPLIT: "s[p]lit",
    E.SURRENDER: "surrende[r]", E.INSURE: "[i]nsurance", E.EVEN_MONEY: "[e]ven money",
    E.NO_INSURANCE: "[n]o insurance", E.PLAY_ON: "[c]ontinue (no surrender)",
}
HUMAN = 1


class Quit(Exception):
    """The player asked to leave the table."""


def card_text(c: Card | None) -> Text:
    if c is None:
        return Text(" ?? ", style="bold white on blue")
    style = "bold red on white" if c.suit in "hd" else "bold black on white"
    return Text(f" {c.pretty} ", style=style)


def cards_text(cards: list[Card | None]) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out


class BlackjackTUI:
    def __init__(
        self,
        rules: Rules,
        *,
        bots: int = 0,
        bankroll: int = 10_000,
        console: Console | None = None,
        input_fn: Callable[[str], str] = input,
        session: Session | None = None,
    ) -> None:
        if bots < 0 or bots > rules.seats - 1:
            raise ValueError(f"bots must be 0..{rules.seats - 1} at a {rules.seats}-seat table")
        self.rules = rules
        self.console = console or Console()
        self.input = input_fn
        self.key = key_reader(input_fn)
        stacks = {HUMAN: bankroll}
        for b in range(bots):
            stacks[HUMAN + 1 + b] = 1_000_000
        self.session = session or Session(rules, stacks)
        self.advise = advisor(rules)
        self.last_bet = rules.min_bet
        self.start_bankroll = bankroll

    # -- the loop ----------------------------------------------------------------------
    def run(self) -> int:
        """Play until the player quits or runs out of chips; returns the net result in cents."""
        c = self.console
        c.print(Panel.fit(self._rules_line(), title="Blackjack", border_style="green"))
        try:
            while True:
                stack = self.session.stacks[HUMAN]
                if stack < self.rules.min_bet:
                    c.print(f"[bold red]You have {money.format(stack)}, under the table minimum. Game over.[/]")
                    break
                self._play_round()
        except (Quit, EOFError, KeyboardInterrupt):
            c.print()
        self.session.close()
        net = self.session.stacks[HUMAN] - self.start_bankroll
        c.print(
            f"You leave with [bold]{money.format(self.session.stacks[HUMAN])}[/] "
            f"({'+' if net >= 0 else ''}{money.format(net)})."
        )
        return net

    def _ask(self, prompt: str) -> str:
        return self.input(prompt).strip().lower()

    def _play_round(self) -> None:
        rd = self.session.new_round()
        stack = self.session.stacks[HUMAN]
        while True:
            raw = self._ask(
                f"Bankroll {money.format(stack)}. Bet ({money.format(self.rules.min_bet)}–"
                f"{money.format(min(self.rules.max_bet, stack))}) [{money.format(self.last_bet)}], q to quit: "
            )
            if raw in ("q", "quit", "exit"):
                raise Quit
            try:
                amount = money.parse(raw) if raw else self.last_bet
                rd.bet(HUMAN, amount)
            except (money.MoneyError, RuleError) as e:
                self.console.print(f"[red]{e}[/]")
                continue
            self.last_bet = amount
            break
        for seat in rd.seats:
            if seat != HUMAN:
                rd.bet(seat, self.rules.min_bet)
        rd.deal()
        while not rd.is_terminal:
            actor = rd.to_act
            assert actor is not None
            if actor == HUMAN:
                self._human_turn(rd)
            else:
                bot_act(rd, self.advise)
        self.console.print(self.render(rd))
        self.console.print(self.bankroll_line(rd))
        for line in self._results(rd):
            self.console.print(line)
        self.session.finish_round()

    def _human_turn(self, rd: Round) -> None:
        """The table once, then keys until one action is taken (a hint or a wrong key only
        prints its own line)."""
        self.console.print(self.render(rd))
        self.console.print(self.bankroll_line(rd))
        while not self._one_key(rd):
            pass

    def _one_key(self, rd: Round) -> bool:
        legal = rd.legal_actions(HUMAN)
        options = "  ".join(LABELS[a] for a in legal)
        raw = self.key(f"{options}  [?] hint  [q]uit: ").strip().lower()
        if raw in ("q", "quit"):
            # Leaving now forfeits what is on the table (3.4): never on one key.
            at_risk = rd.seats[HUMAN].at_risk
            try:
                sure = self.key(f"Leave now? Your {money.format(at_risk)} on the table is forfeit. "
                                "[y] (or q again) to leave, any other key to stay: ").strip().lower()
            except EOFError:  # no one left to answer (the input ended): leave, as asked
                sure = "y"
            if sure not in ("y", "yes", "q", "quit"):
                self.console.print("[cyan]You stay: play on.[/]")
                return False
            rd.leave(HUMAN)
            self.console.print("[yellow]You leave the table; your bets on it are forfeit.[/]")
            while not rd.is_terminal:
                bot_act(rd, self.advise)
            self.session.finish_round()
            raise Quit
        if raw in ("?", "hint"):
            self.console.print(f"[cyan]Basic strategy: {self.hint(rd)}[/]")
            return False
        action = KEYS.get(raw[:1]) if raw else None
        if action is None:
            self.console.print(f"[red]Unknown key {raw!r}. Choose one of: {options}[/]")
            return False
        try:
            if action == E.INSURE and len(raw.split()) > 1:
                rd.insurance(HUMAN, money.parse(raw.split()[1]))
            else:
                getattr(rd, action)(HUMAN)
        except (RuleError, money.MoneyError) as e:
            self.console.print(f"[red]{e}[/]")
            return False
        return True

    def hint(self, rd: Round) -> str:
        legal = rd.legal_actions(HUMAN)
        if rd.phase == E.INSURANCE:
            return "no insurance (it costs more than it returns unless you count cards)"
        if rd.phase == E.EARLY_SURRENDER:
            first = rd.seats[HUMAN].hands[0]
            play = self.advise(first.cards, rd.dealer[0], {E.HIT, E.STAND, E.SURRENDER})
            return "surrender" if play == E.SURRENDER else "continue"
        hand = rd.current_hand
        assert hand is not None
        return self.advise(hand.cards, rd.dealer[0], legal)

    # -- drawing -------------------------------------------------------------------------
    def _rules_line(self) -> str:
        r = self.rules
        return (
            f"{r.decks} decks · dealer {'hits' if r.dealer_hits_soft_17 else 'stands on'} soft 17 · "
            f"blackjack pays {r.blackjack_pays} · double {r.double_on} · "
            f"surrender {r.surrender} · {r.hole_card.replace('_', ' ')} · "
            f"bets {money.format(r.min_bet)}–{money.format(r.max_bet)}"
        )

    def render(self, rd: Round) -> Table:
        view = views.view(rd, HUMAN)
        table = Table(title="Blackjack", expand=False, show_lines=True)
        table.add_column("Seat")
        table.add_column("Cards")
        table.add_column("Total", justify="right")
        table.add_column("Bet", justify="right")
        table.add_column("Result")
        dealer_cards = [None if t is None else card(t) for t in view["dealer"]["cards"]]
        dtotal = view["dealer"]["total"]
        table.add_row(
            "Dealer", cards_text(dealer_cards), "" if dtotal is None else str(dtotal), "", ""
        )
        for s in view["seats"]:
            name = "You" if s["seat"] == HUMAN else f"Bot {s['seat']}"
            for h in s["hands"] or [None]:
                if h is None:
                    table.add_row(name, "", "", money.format(s["bet"]), "")
                    continue
                acting = view["to_act"] == s["seat"] and view["acting_hand"] == h["index"]
                label = name + (f" ({h['index'] + 1})" if len(s["hands"]) > 1 else "") + (" ◀" if acting else "")
                total = ("soft " if h["soft"] and h["total"] < 21 else "") + str(h["total"])
                if h["blackjack"]:
                    total = "Blackjack"
                result = ""
                if h["outcome"]:
                    result = f"{h['outcome']} {money.format(h['returned'] - h['bet'])}"
                elif h["surrendered"]:
                    result = "surrendered"
                table.add_row(label, cards_text([card(t) for t in h["cards"]]), total,
                              money.format(h["bet"]), result)
            if s["insurance"]:
                table.add_row(name, "insurance", "", money.format(s["insurance"]), "")
        return table

    def bankroll_line(self, rd: Round) -> str:
        """Its own line (a caption wraps to the table's width): short enough for 80 columns
        even at the largest stacks."""
        you = rd.seats[HUMAN]
        return f"Bankroll: {money.format(you.stack)} behind, {money.format(you.at_risk)} on the table"

    def _results(self, rd: Round) -> list[str]:
        net = rd.results().get(HUMAN, 0)
        colour = "green" if net > 0 else "red" if net < 0 else "white"
        return [f"[{colour}]This round: {'+' if net > 0 else ''}{money.format(net)}[/]"]

    def save_history(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.session.history(), indent=1), encoding="utf-8")
