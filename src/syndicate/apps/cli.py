"""The ``syndicate`` command."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from ..core import money
from ..core.errors import ConfigError

app = typer.Typer(
    help="Syndicate: the card room casino nights run on. Blackjack and five-card draw, exact and replayable.",
    epilog="In a clone, ./run runs these through the project's .venv, and also: ./run test (the test "
           "suite; pytest arguments pass through) and ./run bench (the benchmarks in bench/, beside "
           "their peers). ./run alone serves the card room.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()

RulesOpt = Annotated[str, typer.Option("--rules", "-r", help="Rules preset: syndicate, jupiters or notice.")]
SetOpt = Annotated[
    Optional[list[str]],  # noqa: UP045 - Typer reads the annotation at run time
    typer.Option("--set", "-s", help="Override a rule: key=value (repeatable). See `syndicate rules`."),
]


def _fail(message: str) -> typer.Exit:
    from rich.markup import escape

    console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(2)


def load_rules(name: str, overrides: list[str] | None):  # type: ignore[no-untyped-def]
    from ..blackjack.rules import preset

    try:
        return preset(name, tuple(overrides or ()))
    except ConfigError as e:
        raise _fail(str(e)) from None


@app.command("rules")
def rules_cmd(
    preset_name: Annotated[Optional[str], typer.Argument(metavar="PRESET", help="A preset to print.")] = None,  # noqa: UP045
    as_json: Annotated[bool, typer.Option("--json", help="Print every key as JSON.")] = False,
    overrides: SetOpt = None,
) -> None:
    """List the rules presets, or print one with every key."""
    from ..blackjack.rules import DEFAULT_PRESET, PRESET_TITLES, PRESETS

    if preset_name is None:
        if as_json:
            print(json.dumps({n: r.to_dict() for n, r in PRESETS.items()}, indent=2))
            return
        t = Table(title="Blackjack rules presets (one per house-rules document)")
        t.add_column("Preset")
        t.add_column("Document")
        t.add_column("Main rules")
        for name, r in PRESETS.items():
            t.add_row(
                name + (" (default)" if name == DEFAULT_PRESET else ""),
                PRESET_TITLES[name],
                f"{'H17' if r.dealer_hits_soft_17 else 'S17'}, double {r.double_on}, "
                f"{r.hole_card}, surrender {r.surrender}, insurance {'yes' if r.insurance else 'no'}",
            )
        console.print(t)
        console.print("`syndicate rules PRESET --json` prints every key; docs/rules.md explains each.")
        return
    rules = load_rules(preset_name, overrides)
    data = rules.to_dict()
    if as_json:
        print(json.dumps(data, indent=2))
        return
    t = Table(title=f"Preset {preset_name}: {PRESET_TITLES[preset_name]}")
    t.add_column("Key")
    t.add_column("Value")
    for k, v in data.items():
        t.add_row(k, money.format(v) if k in ("min_bet", "max_bet") else str(v))
    console.print(t)


@app.command("play")
def play_cmd(
    game: Annotated[str, typer.Argument(help="blackjack or poker")] = "blackjack",
    rules_name: RulesOpt = "syndicate",
    overrides: SetOpt = None,
    bots: Annotated[int, typer.Option(help="Bots in the other seats (blackjack).")] = 0,
    bankroll: Annotated[str, typer.Option(help="Your starting chips, in dollars.")] = "100",
    players: Annotated[int, typer.Option(help="Players at the poker table, you included.")] = 4,
    ante: Annotated[str, typer.Option(help="Poker ante in dollars ($0.50 to $5).")] = "0.50",
    history: Annotated[Optional[Path], typer.Option(help="Save the hand history to this file.")] = None,  # noqa: UP045
    seed: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help="Practice: 64 hex digits that fix every shuffle (replayable; never for real play)."),
    ] = None,
    server: Annotated[Optional[str], typer.Option(help="Play at a live table: the server's URL.")] = None,  # noqa: UP045
    event: Annotated[int, typer.Option(help="With --server: the event id.")] = 1,
    name: Annotated[Optional[str], typer.Option(help="With --server: your account name.")] = None,  # noqa: UP045
    table: Annotated[int, typer.Option(help="With --server: the table id.")] = 1,
    seat: Annotated[int, typer.Option(help="With --server: the seat to take.")] = 1,
) -> None:
    """Play at a table in the terminal (on your own, or at a live table with --server)."""
    if server is not None:  # the table's own game (the welcome says which), Blackjack or draw
        if name is None:
            raise _fail("--server needs --name (your account)")
        from ..room.errors import RoomError
        from .client import ApiError
        from .remote_play import play_remote

        password = typer.prompt("Password", hide_input=True)
        try:
            left_with = play_remote(server, event, name, password, table, seat=seat,
                                    buy_in=money.parse(bankroll),
                                    out=lambda text: console.print(text, markup=False, highlight=False))
        except (RoomError, ApiError, money.MoneyError, OSError) as e:
            raise _fail(str(e)) from None
        console.print(f"Your bankroll: {money.format(left_with)}")
        return
    if seed is not None:
        try:
            if len(bytes.fromhex(seed)) != 32:
                raise ValueError
        except ValueError:
            raise _fail("--seed takes 64 hex digits (32 bytes)") from None
    if game == "blackjack":
        from ..blackjack.session import Session, seeded_shoes
        from .blackjack_tui import HUMAN, BlackjackTUI

        rules = load_rules(rules_name, overrides)
        try:
            stack = money.parse(bankroll)
            session = None
            if seed is not None:
                stacks = {HUMAN: stack} | {HUMAN + 1 + b: 1_000_000 for b in range(bots)}
                session = Session(rules, stacks, seeded_shoes(bytes.fromhex(seed)))
            tui = BlackjackTUI(rules, bots=bots, bankroll=stack, console=console, session=session)
        except (money.MoneyError, ValueError) as e:
            raise _fail(str(e)) from None
        tui.run()
        if history is not None:
            tui.save_history(history)
            console.print(f"Hand history saved to {history} (replay: syndicate replay {history})")
        return
    if game == "poker":
        from .poker_cli import play_poker

        try:
            play_poker(players=players, ante=ante, seed=seed, console=console, stack=bankroll,
                       save=history)
        except (money.MoneyError, ValueError) as e:
            raise _fail(str(e)) from None
        if history is not None:
            console.print(f"Hand history saved to {history} (replay: syndicate replay {history})")
        return
    raise _fail(f"unknown game {game!r}; games: blackjack, poker")


@app.command("odds")
def odds_cmd(
    game: Annotated[str, typer.Argument(help="blackjack or poker")],
    hand: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(help='Poker: five cards, e.g. "Ah Kh Qh Jh 2c": the odds of each draw.'),
    ] = None,
    discard: Annotated[Optional[str], typer.Option(help="Poker: the cards to throw, e.g. 2c.")] = None,  # noqa: UP045
    rules_name: RulesOpt = "syndicate",
    overrides: SetOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    hands_per_hour: Annotated[Optional[int], typer.Option(help="Blackjack: rounds an hour at the table.")] = None,  # noqa: UP045
    average_bet: Annotated[Optional[str], typer.Option(help="Blackjack: the average bet, in dollars.")] = None,  # noqa: UP045
    hours: Annotated[Optional[float], typer.Option(help="Blackjack: hours of play.")] = None,  # noqa: UP045
    table: Annotated[bool, typer.Option("--table", help="Poker: the frequency of every category.")] = False,
) -> None:
    """Exact odds: Blackjack expectation for any rules (and the house's evening); poker hand frequencies."""
    if game == "blackjack":
        from .maths_cli import odds_blackjack

        if hand is not None or discard is not None:
            raise _fail("a hand and --discard are for poker odds")
        rules = load_rules(rules_name, overrides)
        try:
            bet = money.parse(average_bet) if average_bet is not None else None
        except money.MoneyError as e:
            raise _fail(str(e)) from None
        try:
            odds_blackjack(rules, as_json, hands_per_hour, bet, hours, console)
        except ValueError as e:
            raise _fail(str(e)) from None
        return
    if game == "poker":
        if table:
            from .poker_cli import print_poker_table

            print_poker_table(console)
            return
        if hand is None:
            raise _fail('syndicate odds poker takes --table, or a hand such as "Ah Kh Qh Jh 2c"')
        from ..core.cards import CardError
        from .maths_cli import odds_poker

        try:
            odds_poker(hand, discard, as_json, console)
        except CardError as e:
            raise _fail(str(e)) from None
        return
    raise _fail(f"unknown game {game!r} for odds; games: blackjack, poker")


@app.command("strategy")
def strategy_cmd(
    rules_name: RulesOpt = "syndicate",
    overrides: SetOpt = None,
    fmt: Annotated[str, typer.Option("--format", help="text, json, png or svg.")] = "text",
    output: Annotated[Optional[Path], typer.Option(help="Where to write png/svg/json.")] = None,  # noqa: UP045
) -> None:
    """The basic-strategy chart for a rule set, computed from the rules."""
    from .maths_cli import STRATEGY_FORMATS
    from .maths_cli import strategy_cmd as run

    if fmt not in STRATEGY_FORMATS:
        raise _fail(f"unknown format {fmt!r}; formats: {', '.join(STRATEGY_FORMATS)}")
    run(load_rules(rules_name, overrides), fmt, output, console)


@app.command("simulate")
def simulate_cmd(
    rules_name: RulesOpt = "syndicate",
    overrides: SetOpt = None,
    rounds: Annotated[int, typer.Option(help="Rounds to play.")] = 10_000_000,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same result.")] = 1,
    workers: Annotated[int, typer.Option(help="Processes (the result does not depend on it).")] = 2,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    continuous: Annotated[bool, typer.Option(help="Continuous shuffle instead of the cut card.")] = False,
) -> None:
    """Play the basic-strategy chart through real shoes; expectation with its error beside the exact figure."""
    from .maths_cli import simulate_cmd as run

    if rounds < 1 or workers < 1:
        raise _fail("--rounds and --workers must be at least 1")
    run(load_rules(rules_name, overrides), rounds, seed, workers, as_json, continuous, console)


@app.command("serve")
def serve_cmd(
    db: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help="SQLite file or URL (default ./syndicate.db), or postgresql://user@host/db.",
                     envvar="SYNDICATE_DB"),
    ] = None,
    host: Annotated[Optional[str], typer.Option(  # noqa: UP045
        help="Address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 with --lan).",
        envvar="SYNDICATE_HOST")] = None,
    port: Annotated[int, typer.Option(help="Port to listen on.", envvar="SYNDICATE_PORT")] = 8000,
    lan: Annotated[bool, typer.Option(
        "--lan", help="Serve the local network: listen on every address and put this machine's LAN address "
                      "in the QR codes (printed at start: the address phones open).", envvar="SYNDICATE_LAN")] = False,
    roster: Annotated[bool, typer.Option(help="Seed the event notice's roster of dealers.")] = True,
    redis: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help="redis://host:6379/0: run as one of several processes on one PostgreSQL database "
                          "(docs/deployment.md).", envvar="SYNDICATE_REDIS"),
    ] = None,
    lease_seconds: Annotated[float, typer.Option(
        min=1.0, max=300.0, help="With --redis: how long a table's owner may go silent before another process "
                                 "takes the table over.", envvar="SYNDICATE_LEASE_SECONDS")] = 5.0,
    per_address: Annotated[int, typer.Option(
        "--max-connections-per-address", min=1,
        help="Open connections one client address may hold (players behind one NAT share one).",
        envvar="SYNDICATE_MAX_CONNECTIONS_PER_ADDRESS")] = 256,
    proxy: Annotated[Optional[list[str]], typer.Option(  # noqa: UP045
        "--proxy-address", help="A front proxy's IP address: not capped per address (the proxy caps each "
                                "client; docs/deployment.md). Repeat for several.")] = None,
    event: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help="The current event, the one the pages open (default: the event made at first "
                          "start). Another event an admin creates never replaces it.", envvar="SYNDICATE_EVENT"),
    ] = None,
    public_url: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help="Where the players reach the server (https://casino.example): the address in the "
                          "pages' QR codes, and a name the server answers to. Needed behind a proxy or under a "
                          "name (docs/dealer.md).", envvar="SYNDICATE_PUBLIC_URL"),
    ] = None,
    allowed_host: Annotated[Optional[list[str]], typer.Option(  # noqa: UP045
        "--allowed-host", help="Another name the server answers to (casino.local, or casino.local:8000 at that "
                               "port only); any other Host is refused (docs/security.md). Repeat for several; "
                               "SYNDICATE_ALLOWED_HOSTS takes them space-separated.",
        envvar="SYNDICATE_ALLOWED_HOSTS")] = None,
    secure_cookies: Annotated[Optional[bool], typer.Option(  # noqa: UP045
        "--secure-cookies/--no-secure-cookies",
        help="Send the session cookie over HTTPS only (default: when --public-url is https).",
        envvar="SYNDICATE_SECURE_COOKIES")] = None,
) -> None:
    """Run the card room server (REST + WebSocket; docs/server.md, docs/protocol.md, docs/deployment.md)."""
    from ..room.errors import RoomError
    from .server import OptionError, serve

    try:
        from ..web.connections import ConnectionLimits

        serve(db, host, port, seed_notice=roster, redis=redis, lease_seconds=lease_seconds,
              connection_limits=ConnectionLimits(per_address=per_address), event=event, public_url=public_url,
              allowed_hosts=allowed_host or (), proxies=proxy or (), secure_cookies=secure_cookies, lan=lan)
    except OptionError as e:
        raise _fail(str(e)) from None
    except RoomError as e:
        raise _fail(str(e)) from None


admin_app = typer.Typer(help="Administer the card room's database.", no_args_is_help=True)
app.add_typer(admin_app, name="admin")


@admin_app.command("create")
def admin_create_cmd(
    name: Annotated[str, typer.Argument(help="The admin's account name.")],
    password: Annotated[str, typer.Option(prompt=True, hide_input=True, help="At least 8 characters.")],
    db: Annotated[Optional[str], typer.Option(help="Database (default ./syndicate.db).")] = None,  # noqa: UP045
    event: Annotated[str, typer.Option(help="The event (created if new).")] = "Casino night",
) -> None:
    """Create an admin account for an event."""
    from ..room.errors import RoomError
    from .server import admin_create

    try:
        account = admin_create(db, name, password, event)
    except RoomError as e:
        raise _fail(str(e)) from None
    console.print(f"admin {account.name!r} created (account {account.id})")


@admin_app.command("check")
def admin_check_cmd(
    db: Annotated[Optional[str], typer.Option(help="Database (default ./syndicate.db).")] = None,  # noqa: UP045
) -> None:
    """Check the ledger of every event: each stored balance equals the sum of its entries and
    the balances sum to zero (after restoring a backup, say); no chips are stranded (a stack
    at a closed table, a table the server could not restore); and each table's cash count
    matches the cash its dealer took for walk-ins' chips. Exit status 1 on a problem; a warning
    (an open table's cash not counted since its last sale) is printed and does not fail."""
    from .server import ledger_check

    warnings: dict[str, list[str]] = {}
    problems = ledger_check(db, warnings)
    for event, found in problems.items():
        for p in found or ["ledger sound"]:
            console.print(f"{event}: {p}", markup=False)
        for w in warnings.get(event, []):
            console.print(f"{event}: warning: {w}", markup=False)
    if any(problems.values()):
        raise typer.Exit(1)


@app.command("report")
def report_cmd(
    db: Annotated[Optional[str], typer.Option(help="Database (default ./syndicate.db).")] = None,  # noqa: UP045
    event: Annotated[Optional[str], typer.Option(help="The event's name (default: the only one, or "  # noqa: UP045
                                                      "'Casino night').")] = None,
    fmt: Annotated[str, typer.Option("--format", help="text, json (with every ledger line), csv (the whole "
                                                      "ledger), players (each player's summary, CSV) or html "
                                                      "(a printable page).")] = "text",
    output: Annotated[Optional[Path], typer.Option(help="Write it here instead of printing it.")] = None,  # noqa: UP045
) -> None:
    """The end-of-night report: per player buy-ins, cash-outs, net and hands; per table and
    dealer hands dealt and the house's result; the winners; its totals checked against the
    ledger audit of `syndicate admin check` (docs/report.md). Exit status 1 if they disagree."""
    from ..room.errors import RoomError
    from .server import event_report

    try:
        out, agrees = event_report(db, event, fmt)
    except RoomError as e:
        raise _fail(str(e)) from None
    if output is not None:
        output.write_text(out, encoding="utf-8")
        console.print(f"report written to {output}", markup=False)
    else:
        sys.stdout.write(out)
    if not agrees:
        console.print("the report's totals do not agree with the ledger: run `syndicate admin check`",
                      markup=False, style="bold red")
        raise typer.Exit(1)


@app.command("archive")
def archive_cmd(
    output: Annotated[Path, typer.Argument(help="The zip file to write.")],
    db: Annotated[Optional[str], typer.Option(help="Database (default ./syndicate.db).")] = None,  # noqa: UP045
    event: Annotated[Optional[str], typer.Option(help="The event's name (default: the only one).")] = None,  # noqa: UP045
) -> None:
    """One archive of the night to keep: the database's backup, the report, every hand's
    history and every prize draw's proof, in a zip file (docs/charity-night.md)."""
    from ..room.errors import RoomError
    from .archive import archive

    try:
        held = archive(db, event, output)
    except RoomError as e:
        raise _fail(str(e)) from None
    console.print(f"archive written to {output}: {held['histories']} hand histories ({held['hands']} hands), "
                  f"{held['draws']} draw proofs, {held['ledger_lines']} ledger lines, the report and the database",
                  markup=False)


def _run_on_history(file: Path, verb: str, as_json: bool) -> Any:
    """Load a hand history and replay or verify it; print the JSON form if asked."""
    from . import history

    try:
        doc = history.load(file)
        result = history.replay(doc) if verb == "replay" else history.verify(doc)
    except (history.HistoryError, KeyError, TypeError, ValueError) as e:
        raise _fail(f"cannot {verb} {file}: {e}") from None
    if as_json:
        print(json.dumps(result.to_json(), indent=2))
    return result


@app.command("loadtest")
def loadtest_cmd(
    url: Annotated[str, typer.Argument(
        help="The card room, e.g. http://127.0.0.1:8000; several server processes comma-separated (see "
             "--route).")],
    tables: Annotated[int, typer.Option(min=1, max=2000, help="Tables to open (the games alternate).")] = 10,
    players: Annotated[int, typer.Option(min=2, max=7, help="Player bots per table.")] = 5,
    spectators: Annotated[int, typer.Option(min=0, max=50, help="Watchers per table.")] = 0,
    duration: Annotated[float, typer.Option(min=1, help="Seconds measured (after the warm-up).")] = 30,
    think: Annotated[float, typer.Option(min=0, help="Players' mean think time in seconds (0: none).")] = 1.0,
    warmup: Annotated[Optional[float], typer.Option(help="Seconds over which tables start (default ~a round).")] = None,  # noqa: UP045
    games: Annotated[str, typer.Option(help="blackjack, poker or both.")] = "both",
    procs: Annotated[int, typer.Option(min=1, max=64, help="Load processes.")] = 2,
    event: Annotated[int, typer.Option(help="The event's id.")] = 1,
    admin: Annotated[str, typer.Option(help="An admin of the event (creates the bots' accounts).")] = "admin",
    password: Annotated[str, typer.Option(prompt=True, hide_input=True, envvar="SYNDICATE_ADMIN_PASSWORD",
                                          help="The admin's password.")] = "",
    server_pid: Annotated[Optional[int], typer.Option(help="A local server's pid, to report its CPU.")] = None,  # noqa: UP045
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Also write the report here.")] = None,  # noqa: UP045
    connect_timeout: Annotated[float, typer.Option(min=0.1, help="Seconds a client may take to connect; "
                                                   "one that takes longer fails (its table stops).")] = 30.0,
    route: Annotated[str, typer.Option(help="With several URLs: 'spread' connects each table's clients to each "
                                            "in turn (a load balancer without sticky sessions), 'table' all of "
                                            "them to the one the table's id picks (one hashing the socket's "
                                            "path; docs/deployment.md).")] = "spread",
) -> None:
    """Bots over real WebSockets playing both games at a live card room, with a live progress
    line and a report of actions per second, p50/p95/p99 action latency and errors. Clients
    that fail are counted (their tables stop, the others play on): the report names the first
    error and the command exits with 1."""
    import httpx
    from rich.live import Live

    from . import loadbots, loadtest
    from .client import ApiError

    chosen = loadbots.GAMES if games == "both" else (games,)
    if any(g not in loadbots.GAMES for g in chosen):
        raise _fail(f"games is blackjack, poker or both, not {games!r}")
    try:
        loadbots.check_route(route)
    except ValueError as e:
        raise _fail(str(e)) from None
    specs = loadtest.plan(tables, players, spectators, chosen)
    console.print(f"Preparing {len(specs)} tables and {sum(1 + len(s.players) + len(s.watchers) for s in specs)} "
                  "bot accounts (the first run creates them)...")
    try:
        bots_password = loadtest.prepare_accounts(url.split(",")[0], event, admin, password, specs)
    except ApiError as e:
        raise _fail(f"the card room refused: {e.message} [rule: {e.rule}]") from None
    except httpx.HTTPError as e:
        raise _fail(f"cannot reach the card room at {url.split(',')[0]}: {loadbots.describe(e)}") from None
    cpu = (lambda: loadtest.process_cpu_seconds(server_pid)) if server_pid else None
    with Live(console=console, refresh_per_second=4, transient=True) as live:
        def progress(elapsed: float, actions: int) -> None:
            rate = actions / elapsed if elapsed else 0.0
            live.update(f"[bold]{elapsed:5.1f} s[/] of {duration:g}: {actions} actions, {rate:,.0f}/s")

        figures = loadtest.run(url, event, specs, bots_password, seconds=duration, think=think, warmup=warmup,
                               procs=procs, progress=progress, cpu_seconds=cpu, connect_timeout=connect_timeout,
                               route=route)
    t = Table(title=f"{figures.tables} tables, {figures.clients} clients, {duration:g} s measured")
    for col in ("actions/s", "errors", "p50 ms", "p95 ms", "p99 ms", "server CPU"):
        t.add_column(col, justify="right")
    t.add_row(f"{figures.actions_per_second:,}", str(figures.errors), str(figures.p50_ms), str(figures.p95_ms),
              str(figures.p99_ms), "" if figures.server_cpu_percent is None else f"{figures.server_cpu_percent}%")
    console.print(t)
    per = Table(title="by action")
    for col in ("action", "count", "p50 ms", "p99 ms"):
        per.add_column(col, justify="right")
    for action, f in figures.by_action.items():
        per.add_row(action, str(f["count"]), str(f["p50_ms"]), str(f["p99_ms"]))
    console.print(per)
    if json_out:
        json_out.write_text(json.dumps(figures.to_json(), indent=2))
    if figures.failures:
        console.print(f"[bold red]failed:[/] {figures.failure_line()}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A hand-history JSON file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Re-run a hand history through the engine, step by step, and check it reproduces exactly."""
    result = _run_on_history(file, "replay", as_json)
    if not as_json:
        for line in result.steps:
            console.print(line, highlight=False)
        console.print()
        for seat, net in sorted(result.results.items()):
            console.print(f"seat {seat}: net {money.format(net)}")
        if result.matches:
            console.print(f"[green]Replay reproduces the record exactly ({result.rounds} round(s)).[/]")
        else:
            for p in result.problems:
                console.print(f"[red]{p}[/]")
    if not result.matches:
        raise typer.Exit(1)


@app.command("export")
def export_cmd(
    file: Annotated[Path, typer.Argument(help="A poker hand-history JSON file.")],
    fmt: Annotated[str, typer.Option("--format", help="phh: the Poker Hand History standard (TOML).")] = "phh",
) -> None:
    """Convert a poker hand history to PHH (docs/hand-history-poker.md)."""
    from . import history

    if fmt != "phh":
        raise _fail(f"unknown format {fmt!r}; formats: phh")
    try:
        doc = history.load(file)
        phh = history.format_of(doc).phh
        if phh is None:
            raise history.HistoryError(f"PHH is a poker format; {file} is a {doc['game']} history")
        print(phh(doc), end="")
    except (history.HistoryError, KeyError, TypeError, ValueError) as e:
        raise _fail(f"cannot export {file}: {e}") from None


def _verify_draw(doc: dict[str, Any], file: Path, as_json: bool) -> None:
    """A prize draw's proof (docs/prize-draw.md): its tickets, its seed and every winner."""
    from ..prizes import draw

    try:
        verdict = draw.verify(doc)
    except draw.DrawError as e:
        raise _fail(f"cannot verify {file}: {e.message}") from None
    if as_json:
        print(json.dumps({"ok": verdict.ok, "pending": verdict.pending, "messages": list(verdict.messages)}, indent=2))
    else:
        for m in verdict.messages:
            console.print(m, highlight=False, markup=False)
        console.print("[bold red]NOT verified[/]" if not verdict.ok else
                      "[yellow]not yet verifiable[/]: the seed is still secret" if verdict.pending else "[green]verified[/]")
    if not verdict.ok:
        raise typer.Exit(1)


@app.command("verify")
def verify_cmd(
    file: Annotated[Path, typer.Argument(help="A hand-history JSON file, or a prize draw's proof.")],
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Check every card dealt against the shoe's committed order (SHA-256 of the revealed seed),
    or a prize draw's winners against its tickets, its commitment and its seed."""
    from ..prizes.draw import KIND

    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        doc = None  # the history's loader names what is wrong with the file
    if isinstance(doc, dict) and doc.get("kind") == KIND:
        _verify_draw(doc, file, as_json)
        return
    result = _run_on_history(file, "verify", as_json)
    if not as_json:
        for m in result.messages:
            console.print(m, highlight=False)
        entered = getattr(result, "entered", 0)
        checked = len(result.messages) - entered - result.pending  # what had a shuffle to check
        if not result.ok:
            console.print("[bold red]NOT verified[/]")
        elif result.pending:  # nothing failed, but a seed is still secret: no claim either way
            console.print(f"[yellow]not yet verifiable[/]: {result.pending} still wait for their seed")
        elif entered and checked <= 0:  # real cards entered by the dealer: no claim either way
            console.print("[yellow]nothing to verify[/]: the dealer entered real cards; there is no shuffle")
        else:
            console.print("[green]verified[/]" + (f" ({entered} more had real cards entered by the dealer: "
                                                  "no shuffle to verify)" if entered else ""))
    if not result.ok:
        raise typer.Exit(1)


def main() -> None:  # pragma: no cover - the console script
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
