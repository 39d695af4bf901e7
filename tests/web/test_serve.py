"""`syndicate serve` at its edges: every option that takes a URL or an address refused in one line
naming it (no traceback, the database untouched); `--lan` serving the local network with the QR
codes right; the session cookie's Secure flag from the public URL or the option."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from syndicate.apps import server as server_module
from syndicate.apps.cli import app as cli
from syndicate.web import create_app
from syndicate.web.qr import qr_svg
from tests.kit.room import FAST_HASHER, PASSWORD, free_port

runner = CliRunner()


def _never_served(monkeypatch: pytest.MonkeyPatch) -> None:
    """An option that should have been refused must not start a server (and hang the test)."""
    import uvicorn

    def run(*_: Any, **__: Any) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn, "run", run)


@pytest.mark.parametrize(("args", "option", "says"), [
    (["--public-url", "foo"], "--public-url", "http(s)://host[:port][/path]"),
    (["--public-url", "http://[::1"], "--public-url", "http(s)://host[:port][/path]"),
    (["--public-url", "https://user@casino.example"], "--public-url", "http(s)://host[:port][/path]"),
    (["--allowed-host", "https://casino.example"], "--allowed-host", "not a URL"),
    (["--proxy-address", "proxy.lan"], "--proxy-address", "IP address"),
    (["--host", "999.1.1.1"], "--host", "not an address of this machine"),
    (["--host", "192.0.2.7"], "--host", "not an address of this machine"),
    (["--port", "70000"], "--port", "1 to 65535"),
    (["--db", "ftp://files.example/x"], "--db", "postgresql://user@host/db"),
    (["--db", "postgresql://nobody@127.0.0.1:1/none"], "--db", "cannot open the database postgresql://nobody@"),
    (["--db", "postgresql://u:pw@127.0.0.1/x", "--redis", "redis.lan:6379"], "--redis", "redis://"),
])
def test_a_bad_option_is_one_line_naming_it(tmp_path, monkeypatch, args, option, says) -> None:
    _never_served(monkeypatch)
    monkeypatch.chdir(tmp_path)
    out = runner.invoke(cli, ["serve", "--port", str(free_port()), *args])
    assert out.exit_code == 2 and out.exception is None or isinstance(out.exception, SystemExit), out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {option}: ") and says in lines[0], out.output
    assert "pw" not in out.output  # a password in a URL is not repeated
    assert not (tmp_path / "syndicate.db").exists()  # refused before the database was touched


def test_an_invalid_public_url_prints_one_line_not_a_traceback(tmp_path) -> None:
    """As the newcomer met it: the command itself, in its own process."""
    done = subprocess.run([sys.executable, "-m", "syndicate.apps.cli", "serve", "--public-url", "casino.example/[x]",
                           "--port", str(free_port())], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert (done.stdout + done.stderr).strip() == ("error: --public-url: a public URL is http(s)://host[:port][/path], "
                                                   "got 'casino.example/[x]'")


def test_a_port_in_use_is_named(tmp_path, monkeypatch) -> None:
    import socket

    _never_served(monkeypatch)
    monkeypatch.chdir(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        out = runner.invoke(cli, ["serve", "--port", str(taken.getsockname()[1])])
    assert out.exit_code == 2
    assert out.output.startswith("error: --port: another program listens on 127.0.0.1:"), out.output


class _Served:
    """``syndicate.apps.server.serve`` run in a thread, its uvicorn server kept to be stopped."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> None:
        import uvicorn

        self.server: uvicorn.Server | None = None

        def run(app: Any, **config: Any) -> None:
            self.server = uvicorn.Server(uvicorn.Config(app, lifespan="on", **config))
            self.server.run()

        monkeypatch.setattr(uvicorn, "run", run)
        self.error: BaseException | None = None

        def go() -> None:
            try:
                server_module.serve(**kwargs)
            except BaseException as e:  # noqa: BLE001 - the test reads it
                self.error = e

        self.thread = threading.Thread(target=go, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while self.server is None or not self.server.started:
            assert self.error is None, self.error
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        assert self.server is not None
        self.server.should_exit = True
        self.thread.join(15)


def test_lan_serves_the_local_network_with_the_qr_codes_right(tmp_path, monkeypatch, capsys) -> None:
    """``serve --lan``: every address, this machine's LAN address in the QR codes and printed
    for the phones, that address and localhost answered, other names refused. (The LAN address
    is a loopback alias here: the tests reach nothing off this machine.)"""
    monkeypatch.setattr(server_module, "lan_address", lambda: "127.0.0.2")
    port = free_port()
    served = _Served(monkeypatch, db=str(tmp_path / "lan.db"), port=port, lan=True)
    try:
        out = capsys.readouterr().out
        assert f"Serving the card room on http://0.0.0.0:{port}" in out
        assert f"phones and other computers open http://127.0.0.2:{port} " in out
        lan = f"http://127.0.0.2:{port}"
        for url in (lan, f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
            r = httpx.get(url + "/qr.svg", timeout=10)  # whichever address the host's screen opened
            assert r.status_code == 200, (url, r.text)
            assert r.text == qr_svg(lan + "/", f"QR code of the card room's lobby: {lan}/")
        assert httpx.get(lan + "/api/events", timeout=10).json()[0]["name"] == "Casino night"
        r = httpx.get(lan + "/api/events", headers={"Host": f"evil.example:{port}"}, timeout=10)
        assert r.status_code == 400 and r.json()["error"]["rule"] == "host"
    finally:
        served.stop()


def test_lan_without_a_network_says_so(tmp_path, monkeypatch) -> None:
    _never_served(monkeypatch)
    monkeypatch.setattr(server_module, "lan_address", lambda: None)
    monkeypatch.chdir(tmp_path)
    out = runner.invoke(cli, ["serve", "--lan", "--port", str(free_port())])
    assert out.exit_code == 2 and out.output.startswith("error: --lan: this machine has no address on a local"), \
        out.output
    assert not (tmp_path / "syndicate.db").exists()


def test_the_lan_address_is_the_one_this_machine_sends_from(monkeypatch) -> None:
    """A route lookup (a UDP socket "connected": nothing is sent), else the machine's name."""
    tried: list[tuple[str, int]] = []

    class Probe:
        def __init__(self, *_: Any) -> None:
            self.at = "0.0.0.0"

        def __enter__(self) -> Probe:
            return self

        def __exit__(self, *_: Any) -> None:
            pass

        def connect(self, address: tuple[str, int]) -> None:
            tried.append(address)
            if address[0] == "192.0.2.1":
                raise OSError("Network is unreachable")  # no default route
            self.at = "192.168.1.20"

        def getsockname(self) -> tuple[str, int]:
            return self.at, 40000

    monkeypatch.setattr(server_module.socket, "socket", Probe)
    assert server_module.lan_address() == "192.168.1.20"
    assert tried[:2] == [("192.0.2.1", 9), ("10.254.254.254", 9)]

    class Nowhere(Probe):
        def connect(self, address: tuple[str, int]) -> None:
            raise OSError("Network is unreachable")

    monkeypatch.setattr(server_module.socket, "socket", Nowhere)
    monkeypatch.setattr(server_module.socket, "getaddrinfo",
                        lambda *_a, **_k: [(2, 1, 6, "", ("127.0.1.1", 0)), (2, 1, 6, "", ("10.0.0.5", 0))])
    assert server_module.lan_address() == "10.0.0.5"
    monkeypatch.setattr(server_module.socket, "getaddrinfo", lambda *_a, **_k: [(2, 1, 6, "", ("127.0.1.1", 0))])
    assert server_module.lan_address() is None


@pytest.mark.parametrize(("public_url", "forced", "secure"), [
    ("https://casino.example", None, True), ("http://192.168.1.20:8000", None, False), (None, None, False),
    ("https://casino.example", False, False), (None, True, True),
])
def test_the_session_cookie_is_secure_behind_https(database, cast, public_url, forced, secure) -> None:  # noqa: F811
    app = create_app(database=database, hasher=FAST_HASHER, migrate=False, public_url=public_url,
                     secure_cookies=forced)
    with TestClient(app) as client:
        r = client.post(f"/api/events/{cast.event.id}/session", json={"name": "Alice", "password": PASSWORD})
        assert r.status_code == 200, r.text
        cookie = r.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        assert ("; secure" in cookie) is secure, cookie


def test_serve_passes_the_edges_options(tmp_path, monkeypatch) -> None:
    """The options reach ``serve`` as given, the environment's too."""
    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(server_module, "serve", lambda *args, **kw: seen.append({"args": args, **kw}))
    assert runner.invoke(cli, ["serve", "--secure-cookies", "--allowed-host", "a.local",
                               "--allowed-host", "b.local:8000", "--lan"]).exit_code == 0
    assert runner.invoke(cli, ["serve", "--no-secure-cookies"]).exit_code == 0
    assert runner.invoke(cli, ["serve"], env={"SYNDICATE_SECURE_COOKIES": "1", "SYNDICATE_LAN": "1",
                                              "SYNDICATE_ALLOWED_HOSTS": "a.local b.local"}).exit_code == 0
    assert runner.invoke(cli, ["serve"]).exit_code == 0
    picked = [(s["secure_cookies"], tuple(s["allowed_hosts"]), s["lan"], s["args"][1]) for s in seen]
    assert picked == [(True, ("a.local", "b.local:8000"), True, None), (False, (), False, None),
                      (True, ("a.local", "b.local"), True, None), (None, (), False, None)]


def test_the_docs_name_every_option_of_serve() -> None:
    """docs/deployment.md's table lists each option of ``syndicate serve``."""
    doc = (Path(__file__).parents[2] / "docs" / "deployment.md").read_text()
    out = runner.invoke(cli, ["serve", "--help"], env={"COLUMNS": "200", "TERM": "dumb"})
    import re

    options = set(re.findall(r"(--[a-z][a-z-]+)", out.output)) - {"--help", "--no-roster", "--no-secure-cookies"}
    assert options and all(f"`{o}" in doc for o in options), sorted(o for o in options if f"`{o}" not in doc)
