"""Command bodies for ``syndicate odds blackjack``, ``syndicate strategy`` and
``syndicate simulate``: plain functions of parsed options and a Rich console, so the CLI
module only parses arguments (and tests can call these directly)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

# simulate (numba) and rich.progress are imported by the command that uses them: `odds
# blackjack` answers from the disk cache without loading numba at all (docs/benchmarks.md).
from ..blackjack.maths import house, odds, strategy
from ..blackjack.rules import Rules
from ..core import money

STRATEGY_FORMATS = ("text", "json", "png", "svg")


def odds_blackjack(
    rules: Rules,
    as_json: bool,
    hands_per_hour: int | None,
    average_bet_cents: int | None,
    hours: float | None,
    console: Console,
) -> None:
    """Exact expectation, variance and dealer probabilities; the evening if asked."""
    a = odds.analyze(rules)
    wants_house = any(x is not None for x in (hands_per_hour, average_bet_cents, hours))
    ev: house.Evening | None = None
    if wants_house:
        if hands_per_hour is None or average_bet_cents is None or hours is None:
            raise ValueError("the house's view needs --hands-per-hour, --average-bet and --hours")
        ev = house.evening(a, hands_per_hour, average_bet_cents, hours)
    if as_json:
        data: dict[str, Any] = a.to_dict()
        if ev is not None:
            data["house"] = ev.to_dict()
        console.print_json(json.dumps(data))
        return
    t = Table(title="Blackjack, full shoe: exact expectation (combinatorial analysis)")
    t.add_column("Measure")
    t.add_column("Value", justify="right")
    t.add_row("Player expectation, optimal composition-dependent", f"{a.expectation_pct:+.4f}%")
    t.add_row("Player expectation, basic strategy chart",
              f"{a.basic_strategy_expectation_pct:+.4f}%")
    t.add_row("House edge (optimal play)", f"{-a.expectation_pct:.4f}%")
    t.add_row("Variance per round (initial bets²)", f"{a.variance:.4f}")
    t.add_row("Standard deviation per round", f"{a.variance ** 0.5:.4f}")
    t.add_row("Computed in", f"{a.seconds:.2f} s" + (" (earlier: read from the cache)" if a.from_cache else ""))
    console.print(t)
    d = Table(title="Dealer's final total by up card (full shoe, before any peek)")
    d.add_column("Up")
    for label in odds.OUTCOME_LABELS:
        d.add_column(label, justify="right")
    for up in strategy.UPCARDS:
        d.add_row(up, *[f"{a.dealer_probabilities[up][k]:.4f}" for k in odds.OUTCOME_LABELS])
    console.print(d)
    if ev is not None:
        bet = money.format(ev.average_bet_cents)
        h = Table(title=f"The house's evening: {ev.rounds} rounds at {bet}")
        h.add_column("Measure")
        h.add_column("Value", justify="right")
        h.add_row("Expected house result", money.format(ev.expected_house_result_cents))
        h.add_row("Standard deviation", money.format(ev.standard_deviation_cents))
        h.add_row("House does at least this well 95% of evenings",
                  money.format(ev.house_result_5th_percentile_cents))
        h.add_row("Probability the house ends behind", f"{ev.probability_house_loses:.1%}")
        console.print(h)


def strategy_cmd(rules: Rules, fmt: str, output: Path | None, console: Console) -> None:
    """The basic strategy chart as a coloured table, JSON, or a PNG/SVG picture."""
    if fmt not in STRATEGY_FORMATS:
        raise ValueError(f"format must be one of {', '.join(STRATEGY_FORMATS)}, not {fmt!r}")
    c = strategy.chart(rules)
    if fmt == "text":
        console.print(c.render_rich())
    elif fmt == "json":
        if output is not None:
            output.write_text(c.to_json() + "\n")
            console.print(f"wrote {output}")
        else:
            console.print_json(c.to_json())
    else:
        path = output or Path(f"basic-strategy.{fmt}")
        c.save(path, fmt)
        console.print(f"wrote {path}")


def simulate_cmd(
    rules: Rules,
    rounds: int,
    seed: int,
    workers: int,
    as_json: bool,
    continuous: bool,
    console: Console,
) -> None:
    """Play the chart through real shoes, with a progress bar, beside the exact figure."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from ..blackjack.maths import simulate

    if as_json:
        res = simulate.simulate(rules, rounds, seed, workers, continuous=continuous)
        console.print_json(json.dumps(res.to_dict()))
        return
    with Progress(
        TextColumn("simulating"), BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,} rounds"),
        TimeRemainingColumn(), console=console, transient=True,
    ) as bar:
        task = bar.add_task("sim", total=rounds)
        res = simulate.simulate(
            rules, rounds, seed, workers,
            progress=lambda done, total: bar.update(task, completed=done), continuous=continuous,
        )
    shuffle = "continuous shuffle" if continuous else f"cut card at {rules.penetration:.0%}"
    t = Table(title=f"Simulation: {rounds:,} rounds, seed {seed}, {shuffle}")
    t.add_column("Measure")
    t.add_column("Value", justify="right")
    t.add_row("Simulated expectation", f"{res.mean_pct:+.4f}% ± {res.std_error_pct:.4f}")
    t.add_row("95% interval", f"[{res.ci95_low_pct:+.4f}%, {res.ci95_high_pct:+.4f}%]")
    t.add_row("Exact, basic strategy, full shoe", f"{res.exact_basic_strategy_pct:+.4f}%")
    t.add_row("Distance from exact", f"{res.z_score:+.2f} standard errors")
    t.add_row("Variance per round", f"{res.variance:.4f}")
    t.add_row("Speed", f"{res.rounds_per_second / 1e6:.1f} M rounds/s "
                       f"({workers} worker(s), {res.seconds:.2f} s)")
    console.print(t)


def odds_poker(hand: str, discard: str | None, as_json: bool, console: Console) -> None:
    """Exact draw odds for a five-card hand: one discard, or every discard the rules allow."""
    from ..core.cards import CardError, parse
    from ..poker.maths.odds import allowed, discard_options, draw_odds

    cards = parse(hand)
    if discard is not None:
        thrown = parse(discard)
        if not allowed(cards, thrown):
            raise CardError("the house rule allows up to 3 discards, or 4 when the card kept is an Ace")
        options = [draw_odds(cards, thrown)]
    else:
        options = discard_options(cards)
    if as_json:
        console.print_json(json.dumps({"hand": hand, "options": [o.to_json() for o in options]}))
        return
    t = Table(title=f"Draw odds for {' '.join(c.text for c in cards)} (every draw enumerated)")
    t.add_column("Discard")
    t.add_column("Draws", justify="right")
    t.add_column("Improve", justify="right")
    t.add_column("Strength", justify="right")
    t.add_column("Final hand")
    for i, o in enumerate(options[:12]):
        final = ", ".join(f"{name} {p:.2%}" for name, p in o.categories.items())
        label = " ".join(c.text for c in o.discard) or "stand pat"
        t.add_row(("★ " if i == 0 and discard is None else "") + label, f"{o.draws:,}",
                  f"{o.improve:.2%}", f"{o.strength:.3f}", final)
    console.print(t)
    if discard is None:
        console.print("★ the discard most likely to improve. Strength: the share of all five-card "
                      "hands the final hand beats, on average.")
