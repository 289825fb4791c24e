"""Actions per second through the HTTP API, and the latency from an action to every
connected websocket receiving the update.

Starts a real server (``python -m app``) on a fresh SQLite file (or ``--database-url``),
creates GAMES games of SEATS seats, connects one websocket per seat, then drives every
game with random legal choices taken from the seats' own views, for DURATION seconds.

    .venv/bin/python bench/api_latency.py --games 50 --seats 4 --duration 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class GameDriver:
    def __init__(self, base: str, game: dict, rng: random.Random) -> None:
        self.base = base
        self.game = game
        self.rng = rng
        self.views: dict[int, dict] = {}
        self.arrived: dict[int, asyncio.Event] = {}
        self.sent_at: dict[int, float] = {}
        self.latencies: list[float] = []
        self.actions = 0
        self.finished = False

    async def listen(self, seat: int) -> None:
        token = self.game["seats"][seat]["token"]
        url = self.base.replace("http", "ws") + f"/ws/games/{self.game['id']}?token={token}"
        async with websockets.connect(url, max_size=2**22) as ws:
            async for raw in ws:
                view = json.loads(raw)
                now = time.perf_counter()
                version = view["version"]
                if version in self.sent_at:
                    self.latencies.append(now - self.sent_at[version])
                self.views[seat] = view
                self.arrived.setdefault(version, asyncio.Event())
                if all(v["version"] >= version for v in self.views.values()) and len(self.views) == len(self.game["seats"]):
                    self.arrived[version].set()
                if self.finished:
                    return

    async def play(self, http: httpx.AsyncClient, until: float) -> None:
        while time.perf_counter() < until:
            view = self.views.get(0)
            if view is None:
                await asyncio.sleep(0.01)
                continue
            if view["status"] == "finished":
                self.finished = True
                return
            seat = self.rng.choice(view["to_act"])
            mine = self.views[seat]
            if mine["version"] != view["version"]:
                await asyncio.sleep(0.001)
                continue
            choices = [o for o in mine["options"] if o["id"] != "cancel"] or mine["options"]
            option = self.rng.choice(choices)["id"]
            target = view["version"] + 1
            self.arrived.setdefault(target, asyncio.Event())
            self.sent_at[target] = time.perf_counter()
            response = await http.post(
                f"{self.base}/api/games/{self.game['id']}/actions",
                json={"option": option, "version": view["version"]},
                headers={"Authorization": f"Bearer {self.game['seats'][seat]['token']}"},
            )
            if response.status_code != 200:
                del self.sent_at[target]
                await asyncio.sleep(0.005)
                continue
            self.actions += 1
            await asyncio.wait_for(self.arrived[target].wait(), timeout=10)


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{tmp}/bench.db"
        port = args.port
        env = {**os.environ, "DATABASE_URL": url, "PORT": str(port), "HOST": "127.0.0.1", "WORKERS": str(args.workers)}
        server = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        base = f"http://127.0.0.1:{port}"
        try:
            async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=200)) as http:
                for _ in range(200):
                    try:
                        if (await http.get(f"{base}/api/titles")).status_code == 200:
                            break
                    except httpx.HTTPError:
                        await asyncio.sleep(0.1)
                rng = random.Random(args.seed)
                drivers = []
                for g in range(args.games):
                    body = {"title": "tiny-towns", "players": [f"P{i}" for i in range(args.seats)],
                            "seed": g, "options": {"monuments": True}}
                    game = (await http.post(f"{base}/api/games", json=body)).json()
                    drivers.append(GameDriver(base, game, random.Random(rng.random())))
                listeners = [asyncio.create_task(d.listen(s)) for d in drivers for s in range(args.seats)]
                await asyncio.sleep(1.0)
                start = time.perf_counter()
                until = start + args.duration
                await asyncio.gather(*(d.play(http, until) for d in drivers), return_exceptions=True)
                elapsed = time.perf_counter() - start
                for t in listeners:
                    t.cancel()
                rss = _rss_kb(server.pid)
        finally:
            server.terminate()
            server.wait(timeout=10)
    actions = sum(d.actions for d in drivers)
    lat = [x * 1000 for d in drivers for x in d.latencies]
    print(f"database: {'PostgreSQL' if args.database_url and 'postgres' in args.database_url else 'SQLite'}, "
          f"workers: {args.workers}, games: {args.games} x {args.seats} seats, {args.duration}s")
    print(f"actions applied:      {actions}  ({actions / elapsed:.0f} actions/s)")
    print(f"websocket deliveries: {len(lat)}")
    print(f"action -> every socket latency: p50 {percentile(lat, 50):.1f} ms, p99 {percentile(lat, 99):.1f} ms, "
          f"mean {statistics.fmean(lat) if lat else float('nan'):.1f} ms")
    if rss:
        print(f"server RSS at end: {rss / 1024:.1f} MB")


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--duration", type=float, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--database-url", default="")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
