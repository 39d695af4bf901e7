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
    import socket
    import subprocess
    import time

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
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
