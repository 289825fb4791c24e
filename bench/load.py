"""Load benchmark: a real server, many games with every seat's websocket connected, bots
acting at a fixed total rate. Prints the latency from an accepted action to every seat's
websocket update (p50/p99), the actions/s achieved, and server memory per connected seat.

    .venv/bin/python bench/load.py                                   # 50 games x 4 seats, SQLite
    .venv/bin/python bench/load.py --games 200 --rate 400 --duration 20
    .venv/bin/python bench/load.py --games 200 --find-max            # ramp the rate until it no longer keeps up
    .venv/bin/python bench/load.py --database-url postgresql://postgres@127.0.0.1/test --workers 2 --find-max

The bots and the server share this machine's cores, so the client's own CPU use is part
of what is measured; see docs/benchmarks.md for recorded results.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
VERSION = re.compile(r'"version":\s*(-?\d+)')
TO_ACT = re.compile(r'"to_act":\s*\[([^\]]*)\]')
STATUS = re.compile(r'"status":\s*"(\w+)"')
try:  # the client's own JSON work competes with the server for the same cores
    from orjson import loads as parse
except ImportError:
    from json import loads as parse


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def process_tree_rss_kb(pid: int) -> int:
    """RSS of a process and all its descendants (uvicorn --workers forks children)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    tree, frontier = {pid}, [pid]
    while frontier:
        current = frontier.pop()
        for child, parent in parents.items():
            if parent == current and child not in tree:
                tree.add(child)
                frontier.append(child)
    total = 0
    for p in tree:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


@dataclass
class Seat:
    raw: str = ""
    version: int = -1


@dataclass
class Game:
    id: str
    tokens: list[str]
    seats: list[Seat]
    sent_at: dict[int, float] = field(default_factory=dict)
    delivered: dict[int, int] = field(default_factory=dict)
    finished: bool = False
    version: int = 0  # the game's version: every action in it is one of ours
    waiting: tuple[int, int] | None = None  # (seat, its view version) our last accepted action produced


class Load:
    def __init__(self, base: str, games: list[Game]) -> None:
        self.base = base
        self.games = games
        self.latencies: list[float] = []
        self.actions = 0
        self.refused = 0
        self.measuring = False

    async def listen(self, game: Game, index: int) -> None:
        url = self.base.replace("http", "ws") + f"/ws/games/{game.id}?token={game.tokens[index]}"
        async with websockets.connect(url, max_size=2**22, ping_interval=None) as ws:
            async for raw in ws:
                match = VERSION.search(raw)
                if not match:
                    continue
                version = int(match.group(1))
                now = time.perf_counter()
                seat = game.seats[index]
                seat.raw, seat.version = raw, version
                sent = game.sent_at.get(version)
                if sent is not None and self.measuring:
                    self.latencies.append(now - sent)

    async def bot(self, http: httpx.AsyncClient, game: Game, interval: float, until: float, rng: random.Random) -> None:
        next_at = time.perf_counter() + rng.uniform(0, interval)
        while not game.finished:
            delay = next_at - time.perf_counter()
            if next_at >= until:
                return
            if delay > 0:
                await asyncio.sleep(delay)
            next_at += interval
            # Each socket holds its own seat's view, whose version moves only when what that
            # seat sees changes (another seat's private step sends it nothing).
            if game.waiting and game.seats[game.waiting[0]].version < game.waiting[1]:
                continue  # our last action's update has not reached its seat's socket yet
            public = max(game.seats, key=lambda s: s.version)  # the newest view: to_act is public
            if STATUS.search(public.raw).group(1) == "finished":
                game.finished = True
                return
            seat = rng.choice([int(x) for x in TO_ACT.search(public.raw).group(1).split(",")])
            mine = game.seats[seat]
            options = [o["id"] for o in parse(mine.raw)["options"]]
            choices = [o for o in options if o != "cancel"] or options
            if not choices:
                continue  # that seat's socket has not caught up yet; try next tick
            target = game.version + 1  # frames at this version are the ones this action caused
            game.sent_at[target] = time.perf_counter()
            response = await http.post(
                f"{self.base}/api/games/{game.id}/actions",
                json={"option": rng.choice(choices), "version": mine.version},
                headers={"Authorization": f"Bearer {game.tokens[seat]}"},
            )
            if response.status_code == 200:
                self.actions += self.measuring
                game.version = target
                game.waiting = (seat, int(VERSION.search(response.text).group(1)))
            else:
                game.sent_at.pop(target, None)
                self.refused += 1


async def new_games(http: httpx.AsyncClient, base: str, count: int, seats: int, offset: int) -> list[Game]:
    games = []
    for g in range(count):
        body = {"title": "tiny-towns", "players": [f"P{i}" for i in range(seats)], "seed": offset + g,
                "options": {"monuments": True}}
        created = (await http.post(f"{base}/api/games", json=body)).json()
        games.append(Game(created["id"], [s["token"] for s in created["seats"]], [Seat() for _ in range(seats)]))
    return games


async def run_rate(http: httpx.AsyncClient, base: str, args: argparse.Namespace, rate: float, offset: int,
                   server_pid: int) -> dict[str, float]:
    games = await new_games(http, base, args.games, args.seats, offset)
    rss_before = process_tree_rss_kb(server_pid)
    load = Load(base, games)
    listeners = [asyncio.create_task(load.listen(g, i)) for g in games for i in range(args.seats)]
    while any(s.version < 0 for g in games for s in g.seats):
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)
    rss_idle = process_tree_rss_kb(server_pid)
    rng = random.Random(args.seed + offset)
    interval = len(games) / rate
    warmup = 2.0
    start = time.perf_counter()
    until = start + warmup + args.duration
    bots = [asyncio.create_task(load.bot(http, g, interval, until, random.Random(rng.random()))) for g in games]
    await asyncio.sleep(warmup)
    load.measuring = True
    measured_from = time.perf_counter()
    await asyncio.gather(*bots)
    elapsed = until - measured_from  # the window in which actions were sent
    load.measuring = False
    await asyncio.sleep(0.5)
    for t in listeners:
        t.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    lat = [x * 1000 for x in load.latencies]
    sockets = len(games) * args.seats
    return {
        "target": rate,
        "achieved": load.actions / elapsed,
        "p50": percentile(lat, 50),
        "p99": percentile(lat, 99),
        "deliveries": len(lat),
        "refused": load.refused,
        "kb_per_seat": (rss_idle - rss_before) / sockets,
        "rss_mb": rss_idle / 1024,
    }


def report(r: dict[str, float]) -> None:
    print(f"  target {r['target']:6.0f}/s  achieved {r['achieved']:7.1f} actions/s  "
          f"latency p50 {r['p50']:6.1f} ms  p99 {r['p99']:7.1f} ms  "
          f"({r['deliveries']:.0f} deliveries, {r['refused']:.0f} refused)  "
          f"server {r['rss_mb']:.0f} MB, {r['kb_per_seat']:.1f} KB per connected seat", flush=True)


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{tmp}/load.db"
        env = {**os.environ, "DATABASE_URL": url, "PORT": str(args.port), "HOST": "127.0.0.1",
               "WORKERS": str(args.workers), "CREATE_PER_MINUTE": "1000000", "CREATE_BURST": "1000000",
               # Every bot and socket is on 127.0.0.1 and far faster than a person: lift the limits.
               "ACTIONS_PER_MINUTE": "1000000", "ACTIONS_BURST": "1000000", "WEBSOCKETS_PER_ADDRESS": "1000000",
               "CONNECTIONS_PER_ADDRESS": "1000000", "MAX_CONNECTIONS": "100000"}
        if args.database_url and "postgres" in args.database_url and args.reset:
            _reset_postgres(args.database_url)
        server = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        base = f"http://127.0.0.1:{args.port}"
        kind = "PostgreSQL" if "postgres" in url else "SQLite"
        print(f"{kind}, {args.workers} process(es), {args.games} games x {args.seats} seats "
              f"({args.games * args.seats} websockets), {args.duration:.0f} s per rate", flush=True)
        try:
            async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=64)) as http:
                for _ in range(300):
                    try:
                        if (await http.get(f"{base}/api/healthz")).status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    await asyncio.sleep(0.1)
                rates = [args.rate] if not args.find_max else [100, 200, 400, 600, 800, 1000, 1300, 1700, 2200]
                best = None
                for n, rate in enumerate(rates):
                    r = await run_rate(http, base, args, rate, offset=n * args.games, server_pid=server.pid)
                    report(r)
                    if r["achieved"] >= 0.95 * rate:
                        best = r
                    elif args.find_max:
                        break
                if args.find_max and best:
                    print(f"highest sustained rate: {best['achieved']:.0f} actions/s "
                          f"(p50 {best['p50']:.1f} ms, p99 {best['p99']:.1f} ms)")
        finally:
            os.killpg(server.pid, 15)
            server.wait(timeout=15)


def _reset_postgres(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS actions, seats, games, alembic_version CASCADE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rate", type=float, default=200, help="total actions per second across all games")
    parser.add_argument("--duration", type=float, default=10, help="measured seconds per rate")
    parser.add_argument("--find-max", action="store_true", help="ramp the rate until the server falls behind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--reset", action="store_true", help="drop Keydom's tables in that PostgreSQL database first")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
