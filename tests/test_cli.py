import json

from typer.testing import CliRunner

from syndicate.apps.cli import app

runner = CliRunner()


def play(tmp_path, keys: str, *args: str):
    history = tmp_path / "h.json"
    out = runner.invoke(app, ["play", "blackjack", "--history", str(history), *args], input=keys)
    return out, history


def test_play_blackjack_from_the_terminal_and_replay_and_verify(tmp_path):
    # bet $5 three times, standing each time (or whatever is legal), then quit
    keys = "5\ns\ns\ns\ns\n" * 3 + "q\n"
    out, history = play(tmp_path, keys, "--bots", "2", "--bankroll", "50")
    assert out.exit_code == 0, out.output
    assert "Blackjack" in out.output and "You leave with" in out.output
    doc = json.loads(history.read_text())
    assert doc["game"] == "blackjack" and len(doc["rounds"]) >= 1
    assert all(s["seed"] for s in doc["shoes"])  # the shoe is finished: its seed is revealed
    rep = runner.invoke(app, ["replay", str(history), "--json"])
    assert rep.exit_code == 0, rep.output
    data = json.loads(rep.output)
    assert data["matches"] and set(data["results"]) == {"1", "2", "3"}
    ver = runner.invoke(app, ["verify", str(history)])
    assert ver.exit_code == 0 and "verified" in ver.output


def scripted_tui(keys: list[str], shoe: str, **kw):
    from rich.console import Console

    from syndicate.apps.blackjack_tui import BlackjackTUI
    from syndicate.blackjack.rules import preset
    from syndicate.blackjack.session import Session
    from syndicate.core.shoe import Shoe

    rules = preset("syndicate")
    console = Console(record=True, width=100)
    feed = iter(keys)
    session = Session(rules, {1: 10_000}, lambda r: Shoe.stacked(shoe))
    tui = BlackjackTUI(rules, console=console, input_fn=lambda _: next(feed), session=session, **kw)
    return tui, console


def test_hint_key_gives_basic_strategy():
    # You: 9-2 (11) against a 6: basic strategy doubles.
    tui, console = scripted_tui(["5", "?", "d", "q"], "9s 6c 2d Tc 5h Kd 9d")
    tui.run()
    text = console.export_text()
    assert "Basic strategy: double" in text
    assert tui.session.stacks[1] == 11_000  # doubled $5 to $10 on 16 against 6+10+K: dealer busts


def test_bad_bet_is_explained_and_nothing_lost(tmp_path):
    out, history = play(tmp_path, "-5\n0.001\n100000\nq\n", "--bankroll", "20")
    assert "amounts cannot be negative" in out.output
    assert "fraction of a cent" in out.output
    assert "seat 1 has only $20.00" in out.output or "between" in out.output
    assert "You leave with $20.00" in out.output


def test_verify_detects_a_changed_card(tmp_path):
    out, history = play(tmp_path, "5\ns\ns\ns\nq\n")
    doc = json.loads(history.read_text())
    log = doc["rounds"][0]["log"]
    first = next(r for r in log if r["type"] == "card")
    first["card"] = "As" if first["card"] != "As" else "Ks"
    history.write_text(json.dumps(doc))
    ver = runner.invoke(app, ["verify", str(history)])
    assert ver.exit_code == 1 and "NOT verified" in ver.output and "committed order" in ver.output


def test_replay_detects_a_changed_payout(tmp_path):
    out, history = play(tmp_path, "5\ns\ns\ns\nq\n")
    doc = json.loads(history.read_text())
    pay = next(r for r in doc["rounds"][0]["log"] if r["type"] == "payout")
    pay["returned"] += 100
    history.write_text(json.dumps(doc))
    rep = runner.invoke(app, ["replay", str(history)])
    assert rep.exit_code == 1 and "differs" in rep.output


def test_replay_and_verify_refuse_non_histories(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("{not json")
    for cmd in ("replay", "verify"):
        out = runner.invoke(app, [cmd, str(bad)])
        assert out.exit_code == 2 and "not JSON" in out.output
    bad.write_text(json.dumps({"format": "other"}))
    out = runner.invoke(app, ["replay", str(bad)])
    assert out.exit_code == 2 and "not a Syndicate hand history" in out.output
    out = runner.invoke(app, ["verify", str(tmp_path / "missing.json")])
    assert out.exit_code == 2 and "no such file" in out.output


def test_unknown_game():
    out = runner.invoke(app, ["play", "roulette"])
    assert out.exit_code == 2 and "unknown game 'roulette'" in out.output


SEED = "ab" * 32


def test_practice_seed_deals_the_same_cards_twice(tmp_path):
    docs = []
    for name in ("a.json", "b.json"):
        path = tmp_path / name
        out = runner.invoke(app, ["play", "blackjack", "--seed", SEED, "--history", str(path)], input="5\ns\ns\nq\n")
        assert out.exit_code == 0, out.output
        docs.append(json.loads(path.read_text()))
    assert docs[0]["shoes"][0]["seed"] == docs[1]["shoes"][0]["seed"]
    assert docs[0]["rounds"][0]["log"] == docs[1]["rounds"][0]["log"]


def test_bad_seed_is_refused():
    out = runner.invoke(app, ["play", "blackjack", "--seed", "xyz"])
    assert out.exit_code == 2 and "64 hex digits" in out.output


def test_play_poker_replay_and_verify(tmp_path):
    path = tmp_path / "poker.json"
    out = runner.invoke(app, ["play", "poker", "--players", "3", "--seed", SEED, "--history", str(path)],
                        input="k\np\nk\nq\n")
    assert out.exit_code == 0, out.output
    doc = json.loads(path.read_text())
    assert doc["game"] == "poker" and len(doc["hands"]) >= 1
    rep = runner.invoke(app, ["replay", str(path), "--json"])
    assert rep.exit_code == 0, rep.output
    assert json.loads(rep.output)["matches"]
    ver = runner.invoke(app, ["verify", str(path)])
    assert ver.exit_code == 0 and "verified" in ver.output
    phh = runner.invoke(app, ["export", str(path)])
    assert phh.exit_code == 0, phh.output
    assert 'variant = "S5D"' in phh.output and "actions = [" in phh.output


def test_export_refuses_blackjack(tmp_path):
    out, history = play(tmp_path, "5\ns\nq\n")
    result = runner.invoke(app, ["export", str(history)])
    assert result.exit_code == 2 and "PHH is a poker format" in result.output


def test_odds_poker_table():
    out = runner.invoke(app, ["odds", "poker", "--table"])
    assert out.exit_code == 0
    for figure in ("2,598,960", "1,302,540", "1,098,240", "123,552", "54,912", "10,200", "5,108", "3,744", "624"):
        assert figure in out.output


def test_admin_create_and_serve(tmp_path):
    """`syndicate admin create` and `syndicate serve` as wired commands (the server itself is
    tested in tests/web)."""
    import subprocess
    import sys
    import time
    import urllib.request

    from tests.kit.ports import free_port

    db = str(tmp_path / "room.db")
    out = runner.invoke(app, ["admin", "create", "boss", "--db", db], input="s3cret-pass\ns3cret-pass\n")
    assert out.exit_code == 0, out.output
    assert "admin 'boss' created" in out.output
    out = runner.invoke(app, ["admin", "create", "boss", "--db", db], input="s3cret-pass\ns3cret-pass\n")
    assert out.exit_code == 2  # the name is taken: a clear refusal
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "syndicate.apps.cli", "serve", "--db", db, "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json", timeout=2) as r:
                    assert b"Syndicate card room" in r.read()
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.3)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_admin_check_reports_a_sound_ledger_and_a_tampered_one(tmp_path):
    """`syndicate admin check`: the ledger audit of every event, exit 1 on a problem."""
    from sqlalchemy import text

    from syndicate.room.cardroom import CardRoom
    from syndicate.room.ledger import player_key
    from syndicate.store import Database, SqlStore

    db = str(tmp_path / "room.db")
    assert runner.invoke(app, ["admin", "create", "boss", "--db", db], input="s3cret-pass\ns3cret-pass\n").exit_code == 0
    database = Database(db)
    room = CardRoom(SqlStore(database))
    ev = room.accounts.events()[0]
    boss = room.accounts.sign_in(ev.id, "boss", "s3cret-pass")[1]
    alice = room.accounts.create(boss, "Alice", "player", "alice-pass")
    room.cashier.buy_in(boss, alice.id, 5_000)
    out = runner.invoke(app, ["admin", "check", "--db", db])
    assert out.exit_code == 0, out.output
    assert f"{ev.name}: ledger sound" in out.output
    with database.engine.begin() as c:  # a balance edited behind the ledger's back
        c.execute(text("UPDATE ledger_accounts SET balance = balance + 1 WHERE key = :k"), {"k": player_key(alice.id)})
    database.dispose()
    out = runner.invoke(app, ["admin", "check", "--db", db])
    assert out.exit_code == 1
    assert "ledger sound" not in out.output and ev.name in out.output


def test_admin_check_reads_the_tables_cash(tmp_path):
    """`syndicate admin check` on walk-ins' cash (docs/walk-ins.md): an open table's cash not
    counted yet is a warning (exit 0); a short count is a problem (exit 1)."""
    from syndicate.room.cardroom import CardRoom
    from syndicate.room.seating import seat_walk_in
    from syndicate.store import Database, SqlStore

    db = str(tmp_path / "room.db")
    assert runner.invoke(app, ["admin", "create", "boss", "--db", db], input="s3cret-pass\ns3cret-pass\n").exit_code == 0
    database = Database(db)
    room = CardRoom(SqlStore(database))
    ev = room.accounts.events()[0]
    boss = room.accounts.sign_in(ev.id, "boss", "s3cret-pass")[1]
    dealer = room.accounts.create(boss, "Kyohei", "dealer", "dealer-pass")
    room.roster.seed_notice(ev.id)
    table = room.tables.open(dealer, "Kyohei's")
    with room.store.transaction() as repo:
        seat_walk_in(repo, table, dealer, "Kenji", 1, 2_000)
    out = runner.invoke(app, ["admin", "check", "--db", db])
    assert out.exit_code == 0, out.output
    assert f"{ev.name}: ledger sound" in out.output and "warning: table" in out.output
    room.walk_ins.count_cash(boss, table.id, 1_500)  # counted by someone other than its dealer
    database.dispose()
    out = runner.invoke(app, ["admin", "check", "--db", db])
    assert out.exit_code == 1 and "short by $5.00" in out.output, out.output


def test_quitting_mid_round_asks_before_forfeiting_the_bet():
    # "3.4) A player who leaves at this stage will forfeit his bet": q asks first; any other key stays.
    tui, console = scripted_tui(["5", "q", "n", "d", "q"], "9s 6c 2d Tc 5h Kd 9d")
    tui.run()
    text = console.export_text()
    assert "You stay: play on." in text
    assert tui.session.stacks[1] == 11_000  # she stayed, doubled and won: the dealer busts
    tui, console = scripted_tui(["5", "q", "y"], "9s 6c 2d Tc 5h Kd 9d")
    tui.run()
    assert "You leave the table; your bets on it are forfeit." in console.export_text()
    assert tui.session.stacks[1] == 9_500  # y: she left, her $5 forfeit
