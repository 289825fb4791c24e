"""Does an action cost more late in a long game? Plays one game to 10,000 actions through
``Table.act`` on SQLite and prints the cost of an action around action 100 and around
action 10,000, with the stored snapshot's and the views' sizes at both points.

    .venv/bin/python bench/action_cost.py                       # Keythedral, 2 players, 10,000 actions
    .venv/bin/python bench/action_cost.py --actions 3000 --synchronous NORMAL

The game is Keythedral with random choices that never buy a building tile, so it never
ends and its log keeps growing (a line or more per action): the thing that used to make
every view, frame and snapshot, and so every action, grow with the game. The target is an
action at 10,000 within 1.5x of one at 100. Timings come from this shared machine: compare
the windows' medians, run twice if the ratio looks odd.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402

from app.games import get_title  # noqa: E402
from app.hub.local import Hub  # noqa: E402
from app.store.db import Database  # noqa: E402
from app.store.migrate import upgrade  # noqa: E402
from app.store.models import Game  # noqa: E402
from app.table.service import Table, Viewer  # noqa: E402


def endless_choice(option_ids: list[str], rng: random.Random) -> str:
    """Any choice but buying a building tile: the Keythedral is never finished."""
    return rng.choice([i for i in option_ids if not i.startswith("tile:")] or option_ids)


async def sizes(table: Table, game_id: str, players: int) -> dict[str, int]:
    async with table.db.read() as session:
        snapshot = (await session.execute(select(Game.snapshot).where(Game.id == game_id))).scalar_one()
    views = [await table.view(Viewer(game_id, seat)) for seat in [*range(players), None]]
    return {"snapshot": len(snapshot), "view": max(len(json.dumps(v)) for v in views),
            "log lines": views[-1].get("log_total", len(views[-1]["log"]))}


async def run(actions: int, players: int, seed: int, window: int, synchronous: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/bench.db"
        upgrade(url)
        try:
            table = Table(Database(url, synchronous=synchronous), Hub())
        except TypeError:  # a checkout from before the synchronous setting, for comparison
            table = Table(Database(url), Hub())
        try:
            game = await table.create_game("keythedral", [f"P{i}" for i in range(players)], seed=seed)
            title = get_title("keythedral")
            rng = random.Random(seed)
            costs: list[float] = []
            early_at = min(100, actions // 2)
            marks: dict[int, dict[str, int]] = {}
            started = time.perf_counter()
            for n in range(1, actions + 1):
                snap = table.cache.get(game.id, 0)
                assert snap is not None and snap.status == "active", f"the game ended at action {n}"
                seat = rng.choice(sorted(title.to_act(snap.state)))
                option = endless_choice([o.id for o in title.options(snap.state, seat)], rng)
                before = time.perf_counter()
                # (a checkout from before view versions has only the game's version)
                version = snap.view_version(seat) if hasattr(snap, "view_version") else snap.version
                await table.act(Viewer(game.id, seat), option, version)
                costs.append(time.perf_counter() - before)
                if n in (early_at, actions):
                    marks[n] = await sizes(table, game.id, players)
                if n % 1000 == 0:
                    print(f"  {n} actions, {time.perf_counter() - started:.0f} s", file=sys.stderr)
        finally:
            await table.db.dispose()

    def around(n: int) -> list[float]:
        low = max(0, min(n - window // 2, len(costs) - window))
        return costs[low:low + window]

    print(f"Keythedral, {players} players, seed {seed}, SQLite synchronous={synchronous}; "
          f"Table.act timed over {window} actions around each point")
    print(f"{'at action':>10} {'p50 ms':>8} {'mean ms':>8} {'p90 ms':>8} {'snapshot B':>11} {'view B':>8} {'log lines':>10}")
    rows = {}
    for n in (early_at, actions):
        part = sorted(around(n))
        rows[n] = statistics.median(part)
        print(f"{n:>10} {1000 * rows[n]:8.2f} {1000 * statistics.fmean(part):8.2f} "
              f"{1000 * part[int(0.9 * (len(part) - 1))]:8.2f} {marks[n]['snapshot']:>11} {marks[n]['view']:>8} "
              f"{marks[n]['log lines']:>10}")
    print(f"action at {actions} / action at {early_at} (p50): {rows[actions] / rows[early_at]:.2f}x (target <= 1.5x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--window", type=int, default=200, help="actions timed around each point")
    parser.add_argument("--synchronous", choices=["NORMAL", "FULL"], default="FULL",
                        help="SQLite's synchronous level (FULL is what the server runs with)")
    args = parser.parse_args()
    asyncio.run(run(args.actions, args.players, args.seed, args.window, args.synchronous))


if __name__ == "__main__":
    main()
