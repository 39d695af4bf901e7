"""The README's promises stay true: its code runs and its quick start is two commands."""

import re
from pathlib import Path

README = (Path(__file__).parents[1] / "README.md").read_text()


def test_readme_python_example_runs(capsys):
    block = re.search(r"```python\n(.*?)```", README, re.DOTALL)
    assert block, "the README has a Python example"
    exec(compile(block.group(1), "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "{1:" in out  # it printed the results


def test_quick_start_is_two_commands():
    block = re.search(r"## Quick start.*?```sh\n(.*?)```", README, re.DOTALL)
    assert block
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]
    assert commands == ["./run", "./run test"]
    ci = (Path(__file__).parents[1] / ".ci" / "run").read_text()
    assert "./run test" in ci


def test_the_main_command_serves_the_card_room(tmp_path):
    """`./run` alone starts the card room server on SQLite, nothing to install: a new database
    file is created and migrated, the first admin's password is printed once, the API answers."""
    import os
    import subprocess
    import time

    import httpx

    from tests.kit.ports import free_port

    port = free_port()
    root = Path(__file__).parents[1]
    env = {**os.environ, "SYNDICATE_PORT": str(port), "SYNDICATE_DB": str(tmp_path / "night.db")}
    proc = subprocess.Popen([str(root / "run")], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            try:
                events = httpx.get(f"http://127.0.0.1:{port}/api/events", timeout=1).json()
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the server did not answer within a minute"
                time.sleep(0.2)
        assert [e["name"] for e in events] == ["Casino night"]
        assert (tmp_path / "night.db").exists()
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
    assert "password:" in out and "Serving the card room" in out


def test_the_rosters_dealers_get_accounts_as_the_readme_says(tmp_path):
    """The README's few lines on the roster: its names are the notice's, they are on the roster
    from the first start with no account, and an account the admin creates under the roster's
    name (dealer, or pit boss for the heads of the groups) opens a table at once."""
    import io

    from fastapi.testclient import TestClient

    from syndicate.apps.server import prepare
    from syndicate.room.roster import NOTICE
    from syndicate.web import create_app

    said = re.search(r"authorized dealers \((Jean-Marc: .*?)\) are on the roster", README, re.DOTALL)
    assert said, "the README says who is on the roster"
    groups = dict(g.split(": ") for g in " ".join(said.group(1).split()).split("; "))
    assert {boss: tuple(names.split(", ")) for boss, names in groups.items()} == NOTICE
    out = io.StringIO()
    db = prepare(f"sqlite:///{tmp_path / 'night.db'}", out=out)
    password = out.getvalue().split("password: ")[1].split()[0]
    with TestClient(create_app(database=db, migrate=False)) as c:
        ev = c.get("/api/events/current").json()["id"]
        admin = {"Authorization": "Bearer " + c.post(f"/api/events/{ev}/tokens",
                                                     json={"name": "admin", "password": password}).json()["token"]}
        assert [a["name"] for a in c.get("/api/accounts", headers=admin).json()] == ["admin"]
        for name, role in (("Bokuden", "dealer"), ("Jean-Marc", "pit_boss")):
            r = c.post("/api/accounts", headers=admin, json={"name": name, "role": role, "password": "at least 8"})
            assert r.status_code == 201, r.text
            token = c.post(f"/api/events/{ev}/tokens", json={"name": name, "password": "at least 8"}).json()["token"]
            r = c.post("/api/tables", headers={"Authorization": f"Bearer {token}"}, json={"name": f"{name}'s"})
            assert r.status_code == 201, r.text
    db.dispose()
