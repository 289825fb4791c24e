"""What durable commits cost on SQLite, and what group commit wins back.

N games act at once, each as soon as its last action is answered (closed loop). Two
parts: "writer" hands the action writer only the writes of an action (conditional
version update with a real snapshot, plus the log row), so it shows the commit path
alone; "table" sends real actions through the table in-process (rules, then the same
writes). For each setting it prints committed actions/s, transactions/s (so the mean
batch size), the p50/p99 time of one action from call to answer, and this process's CPU
time per committed action (all threads; less disturbed by other load than the rates).

    .venv/bin/python bench/durable_commit.py                      # the full grid, 3 s per cell
    .venv/bin/python bench/durable_commit.py --seconds 5 --concurrency 1 8 32 --parts writer
    .venv/bin/python bench/durable_commit.py --dir /path/on/the/disk/to/measure
    .venv/bin/python bench/durable_commit.py --repeat 3                # medians of 3 rounds (busy machines)

synchronous NORMAL survives a killed process but can lose the last commits on power loss;
FULL waits for the disk at every COMMIT (the server's setting). "batch 1" is one
transaction per action (no group commit). The database file must be on the disk you care
about (not tmpfs), or fsync is free and the comparison means nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import insert, update

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.games import get_title  # noqa: E402
from app.hub.local import Hub  # noqa: E402
from app.store.db import MAX_BATCH, Database  # noqa: E402
from app.store.migrate import upgrade  # noqa: E402
from app.table.errors import TableError  # noqa: E402
from app.table.service import ACTIONS, GAMES, Table, Viewer  # noqa: E402

TITLE = "tiny-towns"
PLAYERS = 4


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def fsync_ms(directory: Path, rounds: int = 50) -> float:
    """The median time of one small write + fsync in that directory."""
    path = directory / "fsync-probe"
    times = []
    with open(path, "wb") as f:
        for _ in range(rounds):
            f.write(b"x" * 4096)
            f.flush()
            start = time.perf_counter()
            os.fsync(f.fileno())
            times.append((time.perf_counter() - start) * 1000)
    path.unlink()
    return percentile(times, 50)


async def run_cell(directory: Path, part: str, synchronous: str, max_batch: int, concurrency: int,
                   seconds: float, seed: int) -> dict[str, float]:
    path = directory / f"bench-{synchronous}-{max_batch}-{concurrency}.db"
    url = f"sqlite+aiosqlite:///{path}"
    upgrade(url)
    table = Table(Database(url, synchronous=synchronous, max_batch=max_batch), Hub())
    title = get_title(TITLE)
    latencies: list[float] = []
    measuring = False
    stop_at = 0.0
    try:
        async def writes_only(n: int) -> None:
            """The commit path alone: the writes one action makes, without its rules."""
            game_id = (await table.create_game(TITLE, [f"P{i}" for i in range(PLAYERS)], seed=n)).id
            snap = table.cache.get(game_id, 0)
            assert snap is not None
            snapshot = json.dumps(title.dump(snap.state))
            version = 0
            while time.perf_counter() < stop_at:
                bump = (update(GAMES).where(GAMES.c.id == game_id, GAMES.c.version == version)
                        .values(version=version + 1, snapshot=snapshot))
                log = insert(ACTIONS).values(game_id=game_id, seq=version + 1, seat=0, option="x",
                                             created_at=datetime.now(timezone.utc))

                def write(conn) -> None:  # type: ignore[no-untyped-def]
                    if conn.execute(bump).rowcount != 1:
                        raise RuntimeError("lost a version: the benchmark is wrong")
                    conn.execute(log)

                start = time.perf_counter()
                await table.db.commit_action(write, None)  # type: ignore[arg-type]
                version += 1
                if measuring:
                    latencies.append((time.perf_counter() - start) * 1000)

        async def bot(n: int) -> None:
            rng = random.Random(seed * 1000 + n)
            game_id = (await table.create_game(TITLE, [f"P{i}" for i in range(PLAYERS)], seed=n)).id
            while time.perf_counter() < stop_at:
                snap = table.cache.get(game_id, 0)
                assert snap is not None
                if snap.status == "finished":
                    game_id = (await table.create_game(TITLE, [f"P{i}" for i in range(PLAYERS)],
                                                       seed=rng.randrange(2**31))).id
                    continue
                seat = rng.choice(sorted(title.to_act(snap.state)))
                ids = [o.id for o in title.options(snap.state, seat)]
                choices = [i for i in ids if i != "cancel"] or ids
                start = time.perf_counter()
                try:
                    await table.act(Viewer(game_id, seat), rng.choice(choices), snap.version)
                except TableError:
                    continue
                if measuring:
                    latencies.append((time.perf_counter() - start) * 1000)

        warmup = 1.0
        stop_at = time.perf_counter() + warmup + seconds
        worker = bot if part == "table" else writes_only
        bots = [asyncio.create_task(worker(n)) for n in range(concurrency)]
        await asyncio.sleep(warmup)
        writer = table.db.writer
        assert writer is not None
        tx0, done0 = writer.transactions, writer.committed
        measuring = True
        began, cpu_began = time.perf_counter(), time.process_time()
        await asyncio.sleep(seconds)
        measuring = False
        elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu_began
        tx, done = writer.transactions - tx0, writer.committed - done0
        await asyncio.gather(*bots)
    finally:
        await table.db.dispose()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    return {"actions": done / elapsed, "transactions": tx / elapsed, "batch": done / tx if tx else float("nan"),
            "p50": percentile(latencies, 50), "p99": percentile(latencies, 99),
            "cpu_ms": cpu * 1000 / done if done else float("nan")}


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        print(f"SQLite file in {directory} (fsync of 4 KB there: median {fsync_ms(directory):.2f} ms); "
              f"{TITLE}, {PLAYERS} players, {args.seconds:g} s per cell", flush=True)
        cells = [(part, synchronous, batch, concurrency) for part in args.parts for synchronous in args.synchronous
                 for batch in (1, MAX_BATCH) for concurrency in args.concurrency]
        # Rounds go through every cell in turn, so load from elsewhere on the machine
        # spreads over all settings instead of spoiling one; each cell shows its median.
        runs: dict[tuple[str, str, int, int], list[dict[str, float]]] = {cell: [] for cell in cells}
        for n in range(args.repeat):
            for cell in cells:
                part, synchronous, batch, concurrency = cell
                runs[cell].append(await run_cell(directory, part, synchronous, batch, concurrency, args.seconds,
                                                 args.seed + n))
            print(f"  round {n + 1}/{args.repeat} done", file=sys.stderr, flush=True)
        print(f"{'part':>6} {'synchronous':>11} {'batch':>6} {'games':>5} {'actions/s':>10} {'commits/s':>10} "
              f"{'per commit':>10} {'p50 ms':>7} {'p99 ms':>7} {'CPU ms/action':>13}", flush=True)
        for cell in cells:
            part, synchronous, batch, concurrency = cell
            r = {key: statistics.median(run[key] for run in runs[cell]) for key in runs[cell][0]}
            print(f"{part:>6} {synchronous:>11} {batch:>6} {concurrency:>5} {r['actions']:>10.0f} "
                  f"{r['transactions']:>10.0f} {r['batch']:>10.1f} {r['p50']:>7.2f} {r['p99']:>7.2f} {r['cpu_ms']:>13.2f}",
                  flush=True)
        print(f"fsync of 4 KB at the end: median {fsync_ms(directory):.2f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="measured seconds per cell")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 16, 64],
                        help="games acting at once")
    parser.add_argument("--parts", nargs="+", default=["writer", "table"], choices=["writer", "table"])
    parser.add_argument("--synchronous", nargs="+", default=["NORMAL", "FULL"], choices=["NORMAL", "FULL", "EXTRA"])
    parser.add_argument("--dir", default=str(ROOT), help="where to put the database (default: the project folder)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="rounds over all cells; each figure is the median over rounds")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
