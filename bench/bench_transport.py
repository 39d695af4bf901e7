"""The floor under the card room's cost per action: the server CPU that uvicorn and
its WebSocket protocol spend on the frames of one action alone, with no card room behind them.

A bare ASGI app, served by uvicorn exactly as ``syndicate serve`` serves the card room (the same
``uvicorn.run`` settings: uvloop, httptools, the sans-I/O websockets protocol, pings every 20 s),
answers each text frame a client sends with ``--fanout`` frames of ``--frame-bytes`` bytes, the
frames of one action at a live table: its acting player's ack and a state to each of the table's
six clients. ``--sockets`` clients connect from a load process (pinned away from the server with
``--server-cpus``/``--load-cpus``, as in ``bench_cluster.py``) and each sends a frame after a
think time drawn uniformly from 0 to twice ``--think`` ms, so that the server sees the sockets and
the rate of a ``bench_cluster.py`` run. Prints actions per second and the server's CPU per action.

    python bench/bench_transport.py --sockets 2400 --think 9000 --seconds 15 --server-cpus 0 --load-cpus 1

(2,400 sockets at a 9 s think time: the 265 actions/s of bench_cluster.py's 400 tables.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_cluster import cpus
from bench_room import free_port

from syndicate.apps import loadtest


def serve(port: int, fanout: int, frame_bytes: int) -> None:
    """The bare server: each text frame in is answered with ``fanout`` frames out."""
    import uvicorn

    payload = json.dumps({"type": "state", "pad": "x" * max(0, frame_bytes - 30)})

    async def app(scope: dict, receive, send) -> None:  # type: ignore[no-untyped-def]
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "websocket":
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"ok"})
            return
        while True:
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
            elif message["type"] == "websocket.receive":
                for _ in range(fanout):
                    await send({"type": "websocket.send", "text": payload})
            else:
                return

    # The card room's own settings (syndicate.apps.server.serve).
    uvicorn.run(app, host="127.0.0.1", port=port, ws_max_size=65536, ws_per_message_deflate=False,
                log_level="warning")


async def load(url: str, sockets: int, think: float, fanout: int, seconds: float, server_pid: int) -> dict:
    import websockets

    count = 0
    window = [float("inf"), float("inf")]
    connected = 0
    go = asyncio.Event()

    async def client() -> None:
        nonlocal count, connected
        async with websockets.connect(url, max_size=None, open_timeout=120, ping_interval=None) as ws:
            connected += 1
            await go.wait()
            while time.monotonic() < window[1]:
                if think:
                    await asyncio.sleep(random.uniform(0, 2 * think))
                t0 = time.monotonic()
                await ws.send('{"type":"action"}')
                for _ in range(fanout):
                    await ws.recv()
                if window[0] <= t0 < window[1]:
                    count += 1

    tasks = [asyncio.create_task(client()) for _ in range(sockets)]
    while connected < sockets:
        if any(t.done() for t in tasks):
            for t in tasks:
                if t.done():
                    t.result()  # a client that could not connect: its error ends the run
        await asyncio.sleep(0.1)
    warmup = min(3.0, 2 * think + 0.5)
    now = time.monotonic()
    window[:] = [now + warmup, now + warmup + seconds]
    go.set()
    await asyncio.sleep(warmup)
    c0 = loadtest.process_cpu_seconds(server_pid)
    await asyncio.sleep(seconds)
    c1 = loadtest.process_cpu_seconds(server_pid)
    await asyncio.gather(*tasks)
    return {"actions": count, "cpu_seconds": c1 - c0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sockets", type=int, default=2400)
    ap.add_argument("--think", type=float, default=9000, help="mean ms between one client's actions (0: none)")
    ap.add_argument("--fanout", type=int, default=7, help="frames out per frame in")
    ap.add_argument("--frame-bytes", type=int, default=2500, help="size of each frame out")
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--server-cpus", default=None, help="pin the server to these CPUs (0 or 0,1 or 0-1)")
    ap.add_argument("--load-cpus", default=None, help="pin this load process to these CPUs")
    ap.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve is not None:
        serve(args.serve, args.fanout, args.frame_bytes)
        return
    port = free_port()
    pin, mine = cpus(args.server_cpus), cpus(args.load_cpus)
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--fanout", str(args.fanout),
                               "--frame-bytes", str(args.frame_bytes)],
                              preexec_fn=(lambda: os.sched_setaffinity(0, pin)) if pin else None)
    try:
        import httpx

        for _ in range(300):
            if server.poll() is not None:
                sys.exit(f"the server exited with code {server.returncode}")
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        if mine:
            os.sched_setaffinity(0, mine)
        out = asyncio.run(load(f"ws://127.0.0.1:{port}/", args.sockets, args.think / 1000, args.fanout,
                               args.seconds, server.pid))
    finally:
        server.terminate()
        server.wait(10)
    rate = out["actions"] / args.seconds
    per = 1000 * out["cpu_seconds"] / out["actions"] if out["actions"] else float("nan")
    print(f"{args.sockets} sockets, think {args.think:g} ms, {args.fanout} frames of {args.frame_bytes} bytes per "
          f"action: {rate:.1f} actions/s, server CPU {100 * out['cpu_seconds'] / args.seconds:.0f}%, "
          f"{per:.3f} ms per action (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")


if __name__ == "__main__":
    main()
