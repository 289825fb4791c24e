"""Load benchmark: a real server, many Tiny Towns games (with monuments) with every seat's
websocket connected, bots acting at a fixed total rate.

    .venv/bin/python bench/load.py                                  # 200 games x 4 seats, 100/s, SQLite
    .venv/bin/python bench/load.py --rate 100 400 1000              # one fresh server per rate
    .venv/bin/python bench/load.py --rate 400 --via ws              # actions over the game's websocket
    .venv/bin/python bench/load.py --frames changes                 # frames carry only what changed
    .venv/bin/python bench/load.py --frames changes --pages         # and each seat fetches the page's live part
    .venv/bin/python bench/load.py --profile /tmp/server.txt        # py-spy the server (pip install py-spy)
    .venv/bin/python bench/load.py --gc-spy                         # the server's garbage collections
    .venv/bin/python bench/load.py --app-dir /tmp/keydom-before     # serve another checkout (before/after)
    .venv/bin/python bench/load.py --database-url postgresql://postgres@127.0.0.1/perf --reset
    .venv/bin/python bench/load.py --database-url ... --reset --workers 2 --server-cpus 0,1   # WORKERS=2
    .venv/bin/python bench/load.py --database-url ... --reset --workers 2 --server-cpus 0,1 --by-game

Prints for each rate: actions/s achieved, latency from sending an action to each socket
of that game receiving the frame it caused (p50/p99, and p99.9 and the worst, which
show what rare stalls such as a garbage collection cost), server CPU per action (the server
processes' own CPU time over the measured window, from /proc), the client's CPU, and the
bytes of each update frame.

Measure the server, not the client: the server is pinned to ``--server-cpus`` and the
client processes (``--clients``, each with its share of the games) to ``--client-cpus``.
The client runs on Node.js by default (bench/node/load_client.mjs, the same bots and
measurements; ``npm ci`` fetches its one package, ws, on first use): on one core it drives
several times the actions the Python client (``--client python``, uvloop) can, which
saturates its core at a few hundred actions/s. When the client's CPU approaches 100% of its
cores, the achieved rate says more about the client than the server; the server CPU per
action does not.

``--workers 2`` runs one server with WORKERS=2: any process may serve any socket, so each
follows every game. ``--by-game`` instead runs that many separate servers on one database
(ports ``--port``, ``--port`` + 1...; one CPU each of ``--server-cpus``) and sends every
request and socket of a game to one of them, as a proxy that routes by game would (see
README, "More than one process").

Versions are per viewer: each seat posts with its own view's version, and a frame is
counted for the action that was last sent in that game when it arrived (each game has at
most one action in flight: a bot waits for its seat's new view before acting again).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing as mp
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from app.table.changes import apply_changes  # noqa: E402
VERSION = re.compile(rb'"version":\s*(-?\d+)')
TO_ACT = re.compile(rb'"to_act":\s*\[([^\]]*)\]')
FINISHED = re.compile(rb'"status":\s*"finished"')
TICK = os.sysconf("SC_CLK_TCK")
NODE_CLIENT = ROOT / "bench" / "node" / "load_client.mjs"
GC_SPY = ROOT / "bench" / "gc_spy"


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def process_tree(pid: int) -> list[int]:
    """A process and all its descendants (uvicorn --workers forks children)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    tree, frontier = [pid], [pid]
    while frontier:
        current = frontier.pop()
        for child, parent in parents.items():
            if parent == current and child not in tree:
                tree.append(child)
                frontier.append(child)
    return tree


def cpu_seconds(pids: list[int], system_only: bool = False) -> float:
    """User + system CPU time the processes have used (or the system part alone: the
    kernel's work for them, such as sockets, fsync and waking threads), from /proc/<pid>/stat."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[12]) + (0 if system_only else int(fields[11]))
        except (OSError, ValueError, IndexError):
            pass
    return total / TICK


def named_processes(name: str) -> list[int]:
    """Every process whose command is ``name`` (the PostgreSQL server's backends)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def process_tree_rss_kb(pid: int) -> int:
    """Resident memory of a process and its descendants (bench/ws_memory.py uses it)."""
    return rss_kb(process_tree(pid))


def cpu_list(text: str) -> set[int]:
    return {int(c) for c in text.split(",") if c.strip()}


# --- One client process: its share of the games ---
@dataclass
class SeatSocket:
    token: str
    raw: bytes = b""
    version: int = -1
    ws: Any = None
    view: dict[str, Any] | None = None  # --frames changes: the view, kept up to date from each frame


@dataclass
class Game:
    id: str
    seats: list[SeatSocket]
    base: str  # the server that serves this game
    latest: bytes = b""  # the newest view any of its sockets got: whose turn is public
    latest_view: dict[str, Any] | None = None  # the same, with --frames changes
    sent_at: float | None = None  # when the action in flight (or the last one) was sent
    waiting: tuple[int, int] | None = None  # (seat, view version) our last action should bring it to
    answer: asyncio.Future[tuple[bool, int]] | None = None  # a websocket action's acknowledgement
    finished: bool = False


@dataclass
class Tally:
    actions: int = 0
    refused: int = 0
    latencies: list[float] = field(default_factory=list)
    frame_bytes: list[int] = field(default_factory=list)
    measuring: bool = False
    frames: str = "full"
    pages: bool = False  # each seat then asks for the game page's live part after each new view
    fragments: int = 0
    fragments_failed: int = 0
    fetching: set[asyncio.Task[None]] = field(default_factory=set)


async def fetch_fragment(http: httpx.AsyncClient, base: str, game: Game, seat: SeatSocket, version: int,
                         tally: Tally) -> None:
    """What the game page does after a frame with a new view: fetch its live part, telling
    the server which version of its view the frame carried."""
    try:
        response = await http.get(f"{base}/g/{game.id}/fragment?seen={version}",
                                  headers={"Authorization": f"Bearer {seat.token}"})
        failed = response.status_code != 200
    except httpx.HTTPError:  # a server that cannot keep up: counted, not fatal
        failed = True
    if tally.measuring:
        tally.fragments += 1
        tally.fragments_failed += failed


async def listen(base: str, game: Game, index: int, tally: Tally, opening: asyncio.Semaphore,
                 http: httpx.AsyncClient) -> None:
    seat = game.seats[index]
    changes = tally.frames == "changes"
    url = base.replace("http", "ws", 1) + f"/ws/games/{game.id}?token={seat.token}&frames={tally.frames}"
    async with opening:  # a few handshakes at a time: a busy server answers them all in turn
        ws = await websockets.connect(url, max_size=2**22, ping_interval=None, compression=None, open_timeout=120)
    async with ws:
        seat.ws = ws
        async for raw in ws:
            now = time.perf_counter()
            raw = raw.encode() if isinstance(raw, str) else raw
            if raw.startswith(b'{"acted"') or raw.startswith(b'{"error"'):
                reply = orjson.loads(raw)
                if game.answer is not None and not game.answer.done():
                    game.answer.set_result(("acted" in reply, reply.get("version", -1)))
                continue
            if raw.startswith(b'{"chat"'):
                continue
            before = seat.version
            if changes:
                frame = orjson.loads(raw)
                seat.view = apply_changes(seat.view, frame) if "base" in frame else frame
                seat.version, game.latest_view = seat.view["version"], seat.view
            else:
                match = VERSION.search(raw)
                if not match:
                    continue
                seat.raw, seat.version, game.latest = raw, int(match.group(1)), raw
            if tally.pages and before >= 0 and seat.version > before:
                fetching = asyncio.create_task(fetch_fragment(http, base, game, seat, seat.version, tally))
                tally.fetching.add(fetching)
                fetching.add_done_callback(tally.fetching.discard)
            if tally.measuring:
                tally.frame_bytes.append(len(raw))
                if game.sent_at is not None:
                    tally.latencies.append(now - game.sent_at)


async def act_http(http: httpx.AsyncClient, base: str, game: Game, seat: int, option: str) -> tuple[bool, int]:
    response = await http.post(f"{base}/api/games/{game.id}/actions",
                               json={"option": option, "version": game.seats[seat].version},
                               headers={"Authorization": f"Bearer {game.seats[seat].token}",
                                        "Prefer": "return=minimal"})  # as the page: the view comes as a frame
    if response.status_code != 200:
        return False, -1
    return True, int(VERSION.search(response.content).group(1))


async def act_ws(game: Game, seat: int, option: str) -> tuple[bool, int]:
    game.answer = asyncio.get_running_loop().create_future()
    await game.seats[seat].ws.send(orjson.dumps({"act": option, "version": game.seats[seat].version}).decode())
    return await asyncio.wait_for(game.answer, 30)


async def bot(http: httpx.AsyncClient | None, base: str, game: Game, interval: float, start: float, until: float,
              rng: random.Random, tally: Tally) -> None:
    next_at = start + rng.uniform(0, interval)
    while not game.finished:
        if next_at >= until:
            return
        delay = next_at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        next_at += interval
        if game.waiting and game.seats[game.waiting[0]].version < game.waiting[1]:
            continue  # our last action's frame has not reached its seat's socket yet
        if game.latest_view is not None:  # --frames changes
            if game.latest_view["status"] == "finished":
                game.finished = True
                return
            acting = game.latest_view["to_act"]
        else:
            if FINISHED.search(game.latest):
                game.finished = True
                return
            listed = TO_ACT.search(game.latest).group(1)
            acting = [int(x) for x in listed.split(b",")] if listed.strip() else []
        if not acting:
            continue
        seat = rng.choice(acting)
        held = game.seats[seat].view if game.latest_view is not None else orjson.loads(game.seats[seat].raw)
        options = [o["id"] for o in held["options"]]
        choices = [o for o in options if o != "cancel"] or options
        if not choices:
            continue  # that seat's socket has not caught up yet; try next tick
        game.sent_at = time.perf_counter()
        ok, version = await (act_http(http, base, game, seat, rng.choice(choices)) if http
                             else act_ws(game, seat, rng.choice(choices)))
        if ok:
            tally.actions += tally.measuring
            game.waiting = (seat, version) if version > game.seats[seat].version else None
        else:
            tally.refused += 1


async def client_async(games: list[tuple[str, list[str], str]], args: dict[str, Any], rate_share: float,
                       seed: int, pipe: Any) -> None:
    tally = Tally(frames=args["frames"], pages=args["pages"])
    state = [Game(gid, [SeatSocket(t) for t in tokens], base) for gid, tokens, base in games]
    opening = asyncio.Semaphore(20)
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    http = httpx.AsyncClient(timeout=30, limits=limits)
    listeners = [asyncio.create_task(listen(g.base, g, i, tally, opening, http))
                 for g in state for i in range(len(g.seats))]
    while any(s.version < 0 for g in state for s in g.seats):
        await asyncio.sleep(0.02)
        for task in listeners:
            if task.done() and task.exception():
                raise task.exception()  # type: ignore[misc]
    # The client's own garbage collections would stall every socket of its games and count
    # as server latency (a full pass over its views took tens of milliseconds): keep what
    # exists now out of the collector and collect nothing until the measurement is over.
    gc.collect()
    gc.freeze()
    gc.disable()
    pipe.send("ready")
    start_wall, warmup, duration = pipe.recv()
    start = time.perf_counter() + (start_wall - time.time())
    until = start + warmup + duration
    rng = random.Random(seed)
    interval = len(state) / rate_share
    async with http:
        bots = [asyncio.create_task(bot(http if args["via"] == "http" else None, g.base, g, interval, start, until,
                                        random.Random(rng.random()), tally)) for g in state]
        await asyncio.sleep(max(0.0, start + warmup - time.perf_counter()))
        tally.measuring = True
        cpu0 = sum(os.times()[:2])
        await asyncio.sleep(max(0.0, until - time.perf_counter()))
        cpu1 = sum(os.times()[:2])
        tally.measuring = False
        gc.enable()
        for failure in await asyncio.gather(*bots, return_exceptions=True):
            if isinstance(failure, BaseException):
                print(f"a bot failed: {failure!r}", file=sys.stderr, flush=True)
    await asyncio.sleep(0.3)
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    pipe.send({"actions": tally.actions, "refused": tally.refused, "latencies": tally.latencies,
               "frame_bytes": tally.frame_bytes, "cpu": cpu1 - cpu0, "fragments": tally.fragments,
               "fragments_failed": tally.fragments_failed})


def client_process(games: list[tuple[str, list[str], str]], args: dict[str, Any], rate_share: float,
                   seed: int, pipe: Any) -> None:
    os.sched_setaffinity(0, cpu_list(args["client_cpus"]))
    try:
        import uvloop

        uvloop.run(client_async(games, args, rate_share, seed, pipe))
    except ImportError:
        asyncio.run(client_async(games, args, rate_share, seed, pipe))


class NodeClient:
    """``--client node``: one bench/node/load_client.mjs process with its share of the games,
    driven over its stdin and stdout by lines of JSON; ``send``/``recv``/``join`` as for the
    Python client's pipe and process."""

    def __init__(self, games: list[tuple[str, list[str], str]], args: dict[str, Any], rate_share: float,
                 seed: int) -> None:
        command = ["node", str(NODE_CLIENT)]
        if args["client_cpus"]:
            command = ["taskset", "-c", args["client_cpus"], *command]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send({"games": games, "frames": args["frames"], "via": args["via"], "pages": args["pages"],
                   "rate": rate_share, "seed": seed, "views": args.get("views", False)})

    def send(self, value: Any) -> None:
        self.process.stdin.write(orjson.dumps(value).decode() + "\n")
        self.process.stdin.flush()

    def recv(self) -> Any:
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the Node client stopped (exit code {self.process.wait()})")
        answer = orjson.loads(line)
        if isinstance(answer, dict) and answer.get("broken"):
            raise RuntimeError(f"the Node client lost track of views: {answer['broken']} frames did not follow its version")
        return answer

    def join(self, timeout: float) -> None:
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()


def node_client_ready() -> None:
    """Node.js and the client's one package (ws), installed into bench/node on first use."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        raise SystemExit("The load client runs on Node.js: install node and npm (Debian: apt-get install nodejs npm), "
                         "or pass --client python")
    if not (NODE_CLIENT.parent / "node_modules" / "ws").is_dir():
        subprocess.run(["npm", "ci", "--silent", "--no-audit", "--no-fund"], cwd=NODE_CLIENT.parent, check=True)


# --- The run: a fresh server per rate ---
def start_servers(args: argparse.Namespace, url: str) -> list[subprocess.Popen[bytes]]:
    """One server (with ``--workers`` processes), or with ``--by-game`` that many servers of
    one process each, on ports from ``--port`` up, each on its own CPU of ``--server-cpus``."""
    count = args.workers if args.by_game else 1
    cpus = [c for c in args.server_cpus.split(",") if c.strip()] if args.by_game else [args.server_cpus]
    servers = []
    for n in range(count):
        env = {**os.environ, "DATABASE_URL": url, "PORT": str(args.port + n), "HOST": "127.0.0.1",
               "WORKERS": "1" if args.by_game else str(args.workers),
               "CREATE_PER_MINUTE": "1000000", "CREATE_BURST": "1000000",
               # Every bot and socket is on 127.0.0.1 and far faster than a person: lift the limits.
               "ACTIONS_PER_MINUTE": "1000000", "ACTIONS_BURST": "1000000", "WEBSOCKETS_PER_ADDRESS": "1000000",
               "CONNECTIONS_PER_ADDRESS": "1000000", "MAX_CONNECTIONS": "100000", "PYTHONPATH": str(args.app_dir)}
        if args.gc_spy:
            env["PYTHONPATH"] = f"{GC_SPY}{os.pathsep}{args.app_dir}"
            env["GC_SPY"] = args.gc_spy
        command = [sys.executable, "-m", "app"]
        if cpus and cpus[n % len(cpus)]:
            command = ["taskset", "-c", cpus[n % len(cpus)], *command]
        servers.append(subprocess.Popen(command, cwd=args.app_dir, env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True))
        wait_healthy(f"http://127.0.0.1:{args.port + n}")  # one at a time: each migrates the database on start
    return servers


def wait_healthy(base: str) -> None:
    with httpx.Client(timeout=30) as http:
        for _ in range(300):
            try:
                if http.get(f"{base}/api/healthz").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)


def new_games(http: httpx.Client, bases: list[str], count: int, seats: int,
              offset: int) -> list[tuple[str, list[str], str]]:
    """(id, seat tokens, the server that serves it): the games go round the servers."""
    games = []
    for g in range(count):
        body = {"title": "tiny-towns", "players": [f"P{i}" for i in range(seats)], "seed": offset + g,
                "options": {"monuments": True}}
        base = bases[g % len(bases)]
        created = http.post(f"{base}/api/games", json=body).json()
        games.append((created["id"], [s["token"] for s in created["seats"]], base))
    return games


def start_profile(args: argparse.Namespace, server_pid: int) -> subprocess.Popen[bytes] | None:
    """py-spy sampling the server process (only threads holding the GIL: Python's CPU)
    over the measured window, into ``--profile`` as raw folded stacks."""
    if not args.profile:
        return None
    worker = max(process_tree(server_pid))  # with --workers, one of the serving children
    spy = shutil.which("py-spy", path=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")
    if spy is None:
        raise SystemExit("--profile needs py-spy: .venv/bin/pip install py-spy")
    return subprocess.Popen([spy, "record", "--gil", "--nonblocking", "-r", "200", "-d", str(int(args.duration)),
                             "-f", "raw", "-o", args.profile, "-p", str(worker)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run_rate(args: argparse.Namespace, rate: float, url: str) -> dict[str, float]:
    if args.database_url and "postgres" in args.database_url and args.reset:
        _reset_postgres(args.database_url)
    servers = start_servers(args, url)
    bases = [f"http://127.0.0.1:{args.port + n}" for n in range(len(servers))]
    try:
        with httpx.Client(timeout=30) as http:
            games = new_games(http, bases, args.games, args.seats, offset=int(rate) * 1000)
        pids = [pid for server in servers for pid in process_tree(server.pid)]
        rss_before = rss_kb(pids)
        shares = [games[i::args.clients] for i in range(args.clients)]
        context = mp.get_context("fork")
        pipes, clients = [], []
        for n, share in enumerate(shares):
            if args.client == "node":
                node = NodeClient(share, vars(args), rate * len(share) / len(games), args.seed + n)
                pipes.append(node)
                clients.append(node)
                continue
            ours, theirs = context.Pipe()
            proc = context.Process(target=client_process, daemon=True,
                                   args=(share, vars(args), rate * len(share) / len(games), args.seed + n, theirs))
            proc.start()
            pipes.append(ours)
            clients.append(proc)
        for pipe in pipes:
            if pipe.recv() != "ready":
                raise RuntimeError("a client process failed to connect")
        time.sleep(1.0)
        pids = [pid for server in servers for pid in process_tree(server.pid)]
        rss_idle = rss_kb(pids)
        start = time.time() + 0.3
        for pipe in pipes:
            pipe.send((start, args.warmup, args.duration))
        time.sleep(max(0.0, start + args.warmup - time.time()))
        server_cpu0 = cpu_seconds(pids)
        server_system0 = cpu_seconds(pids, system_only=True)
        each0 = {pid: cpu_seconds([pid]) for pid in pids}
        postgres = "postgres" in url
        database0 = {pid: cpu_seconds([pid]) for pid in named_processes("postgres")} if postgres else {}
        spy = start_profile(args, servers[0].pid)
        time.sleep(max(0.0, start + args.warmup + args.duration - time.time()))
        server_cpu1 = cpu_seconds(pids)
        server_system1 = cpu_seconds(pids, system_only=True)
        each = [cpu_seconds([pid]) - each0[pid] for pid in pids]
        # backends alive at the end, from when the window began (or they did); one that
        # ended inside the window is missed
        database_cpu = sum(cpu_seconds([pid]) - database0.get(pid, 0.0) for pid in named_processes("postgres")) \
            if postgres else 0.0
        results = [pipe.recv() for pipe in pipes]
        if spy is not None:
            spy.wait(30)
        for proc in clients:
            proc.join(10)
    finally:
        for server in servers:
            os.killpg(server.pid, 15)
        for server in servers:
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, 9)
                server.wait()
    actions = sum(r["actions"] for r in results)
    lat = [x * 1000 for r in results for x in r["latencies"]]
    frames = [b for r in results for b in r["frame_bytes"]]
    return {
        "target": rate, "achieved": actions / args.duration, "actions": actions,
        "p50": percentile(lat, 50), "p99": percentile(lat, 99),
        "p999": percentile(lat, 99.9), "worst": max(lat, default=0.0), "deliveries": len(lat),
        "refused": sum(r["refused"] for r in results),
        "server_ms": 1000 * (server_cpu1 - server_cpu0) / max(1, actions),
        "server_cores": (server_cpu1 - server_cpu0) / args.duration,
        "server_system_ms": 1000 * (server_system1 - server_system0) / max(1, actions),
        # each serving process (a supervisor that serves nothing is left out), and PostgreSQL's own
        "each_ms": [1000 * c / max(1, actions) for c in each if c > 0.05 * (server_cpu1 - server_cpu0)],
        "database_ms": 1000 * database_cpu / max(1, actions) if postgres else None,
        "client_cores": sum(r["cpu"] for r in results) / args.duration,
        "frame_median": percentile(frames, 50), "frame_mean": sum(frames) / max(1, len(frames)),
        "kb_per_seat": (rss_idle - rss_before) / (len(games) * args.seats), "rss_mb": rss_idle / 1024,
        "fragments": sum(r["fragments"] for r in results), "fragments_failed": sum(r["fragments_failed"] for r in results),
        "gc": gc_passes(args, pids, start + args.warmup, start + args.warmup + args.duration), "gc_spy": bool(args.gc_spy),
    }


def gc_passes(args: argparse.Namespace, pids: list[int], begin: float, end: float) -> list[tuple[int, float, int, int]]:
    """(generation, pause ms, objects visited, garbage found) of each collection the servers made in the
    measured window, from ``--gc-spy``'s records (bench/gc_spy/sitecustomize.py)."""
    if not args.gc_spy:
        return []
    time.sleep(1.5)  # the records are written every second
    passes = []
    for pid in pids:
        try:
            with open(f"{args.gc_spy}.{pid}.json") as f:
                passes += [(g, ms, n, found) for at, g, ms, n, found in orjson.loads(f.read())["passes"] if begin <= at <= end]
        except FileNotFoundError:
            pass
    return passes


def report(r: dict[str, float]) -> None:
    print(f"  offered {r['target']:5.0f}/s  achieved {r['achieved']:6.1f}/s  p50 {r['p50']:6.1f} ms  "
          f"p99 {r['p99']:7.1f} ms (p99.9 {r['p999']:.1f}, worst {r['worst']:.1f})  "
          f"server CPU {r['server_ms']:.2f} ms/action ({r['server_system_ms']:.2f} in the kernel; "
          f"{r['server_cores']:.3f} cores)  "
          f"client CPU {r['client_cores']:.2f} cores  frames median {r['frame_median']:.0f} B "
          f"(mean {r['frame_mean']:.0f})  {r['deliveries']:.0f} frames, {r['refused']:.0f} refused  "
          f"server {r['rss_mb']:.0f} MB, {r['kb_per_seat']:.1f} KB per connected seat", flush=True)
    if len(r["each_ms"]) > 1:
        print("    per process: " + ", ".join(f"{ms:.2f}" for ms in r["each_ms"]) + " ms of CPU per action (of all actions)")
    if r["database_ms"] is not None:
        print(f"    PostgreSQL's processes: {r['database_ms']:.2f} ms of CPU per action", flush=True)
    if r["gc"]:
        pauses = sorted(ms for _, ms, _, _ in r["gc"])
        print(f"    garbage collections: {len(pauses)} in the window, {sum(pauses):.0f} ms in all "
              f"({sum(pauses) / max(1, r['actions']):.3f} ms per action), median {pauses[len(pauses) // 2]:.1f} ms, "
              f"longest {pauses[-1]:.1f} ms; objects visited: at most {max(n for _, _, n, _ in r['gc'])}; "
              f"garbage found: {sum(found for _, _, _, found in r['gc']) / max(1, r['actions']):.1f} objects per action; "
              f"generations {sorted({g for g, _, _, _ in r['gc']})}", flush=True)
    elif r["gc_spy"]:
        print("    garbage collections: none in the window", flush=True)
    if r["fragments"]:
        print(f"    pages: {r['fragments'] / max(1, r['actions']):.1f} live parts fetched per action "
              f"({r['fragments_failed']:.0f} failed)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rate", type=float, nargs="+", default=[100], help="total actions/s; several: one run each")
    parser.add_argument("--duration", type=float, default=8, help="measured seconds per rate")
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--via", choices=("http", "ws"), default="http", help="how the bots send actions")
    parser.add_argument("--frames", choices=("full", "changes"), default="full",
                        help="whole views in every frame, or only what changed (as the game page asks)")
    parser.add_argument("--client", choices=("node", "python"), default="node",
                        help="the client's runtime: Node.js drives far more actions per core (bench/node)")
    parser.add_argument("--clients", type=int, default=None, help="client processes (default: 1 Node.js, 2 Python)")
    parser.add_argument("--server-cpus", default="0", help="taskset list for the server ('' for none)")
    parser.add_argument("--client-cpus", default="1", help="CPUs for the client processes")
    parser.add_argument("--app-dir", default=str(ROOT), help="the Keydom checkout to serve")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--by-game", action="store_true",
                        help="--workers separate servers, each game's requests and sockets all to one of them")
    parser.add_argument("--database-url", default="")
    parser.add_argument("--reset", action="store_true", help="empty that PostgreSQL database before each run")
    parser.add_argument("--gc-spy", default="", nargs="?", const="/tmp/keydom-gc",
                        help="record the server's garbage collections (files with this prefix) and print them")
    parser.add_argument("--profile", default="", help="py-spy the server over the measured window into this file")
    parser.add_argument("--pages", action="store_true",
                        help="each seat also fetches the game page's live part after each new view, as the page does")
    args = parser.parse_args()
    if args.by_game and "postgres" not in args.database_url:
        parser.error("--by-game needs --database-url postgresql://...: separate servers share games through it")
    if args.clients is None:
        args.clients = 1 if args.client == "node" else 2
    if args.client == "node":
        node_client_ready()
    os.sched_setaffinity(0, cpu_list(args.client_cpus))
    kind = "PostgreSQL" if "postgres" in args.database_url else "SQLite"
    how = f"{args.workers} separate servers, each game on one" if args.by_game else f"{args.workers} process(es)"
    print(f"{kind}, {how} on CPU {args.server_cpus or 'any'}, {args.clients} {args.client} client "
          f"process(es) on CPU {args.client_cpus}, {args.games} games x {args.seats} seats, actions over "
          f"{args.via}, {args.frames} frames{', pages fetched' if args.pages else ''}, {args.warmup:.0f}+{args.duration:.0f} s "
          f"per rate, served from {args.app_dir}", flush=True)
    for rate in args.rate:
        with tempfile.TemporaryDirectory() as tmp:
            report(run_rate(args, rate, args.database_url or f"sqlite:///{tmp}/load.db"))


def _reset_postgres(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
        conn.execute("CREATE SCHEMA public")


if __name__ == "__main__":
    main()
