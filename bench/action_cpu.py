"""CPU per action on the table's action path, in one process, without HTTP or sockets.

    .venv/bin/python bench/action_cpu.py                      # 200 games x 4 seats, Tiny Towns with monuments
    .venv/bin/python bench/action_cpu.py --database-url postgresql://postgres@127.0.0.1/perf

Each action is what the server does for it with every seat connected: check and apply it
through ``Table.act`` (rules, change test, durable commit on SQLite ``synchronous=FULL``),
then, as the websockets do, ask each seat's view if it changed and encode the frames.
The figure is the process's own CPU time (all threads, ``time.process_time``) divided by
the actions, so other load on a shared machine moves it much less than wall-clock rates.
Run it under ``py-spy record`` to see where the time goes.

``--frames changes`` encodes each frame as the websocket does for ``?frames=changes``
(what changed since the frame that socket was sent last), as the game page asks.

``--clocks untimed`` adds the bot driver and its clocks (app/bots) as the server has them,
listening to every action, on games with no time limit; ``--clocks timed`` gives every game
a 24-hour limit per decision, so each action also moves the seats' clocks (their background
work is waited for and counted).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.hub.local import Hub  # noqa: E402
from app.settings import async_database_url  # noqa: E402
from app.store.db import Database  # noqa: E402
from app.store.migrate import upgrade  # noqa: E402
from app.table.service import Table, Viewer  # noqa: E402
from app.api.ws import Frames  # noqa: E402


async def run(url: str, games: int, seats: int, actions: int, seed: int, clocks: str = "off",
              frames_as: str = "full", answer: str = "view") -> None:
    table = Table(Database(url), Hub())
    rng = random.Random(seed)
    driver = None
    also = None
    if clocks != "off":
        from app.bots.clocks import Clocks, Limit
        from app.bots.config import BotConfig
        from app.bots.driver import BotDriver

        driver = BotDriver(table, BotConfig(delay=3600, background=False))
        driver.clocks = Clocks(driver)
        table.events.subscribe(driver.on_event)
        if clocks == "timed":
            also = driver.clocks.writer(Limit(86400, "wait"))
    ids = [(await table.create_game("tiny-towns", [f"P{i}" for i in range(seats)], seed=seed + g,
                                    options={"monuments": True}, also=also)).id for g in range(games)]
    if driver is not None:
        await driver.settle()
    sent = {(g, s): -1 for g in ids for s in range(seats)}
    sockets = {(g, s): Frames(frames_as == "changes") for g in ids for s in range(seats)}
    frame_bytes: list[int] = []

    async def frames(game_id: str) -> None:
        newest = table.cache.get(game_id, 0).version
        for s in range(seats):
            view = await table.view_if_changed(Viewer(game_id, s), sent[game_id, s], newest)
            if view is not None:
                frame_bytes.append(len(sockets[game_id, s].encode(view, whole=False)))
                sent[game_id, s] = view["version"]

    for game_id in ids:
        await frames(game_id)
    done = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while done < actions:
        for game_id in ids:
            snap = table.cache.get(game_id, 0)
            if snap.status != "active":
                continue
            seat = rng.choice(sorted(table_title(snap).to_act(snap.state)))
            view = await table.view(Viewer(game_id, seat), snap.version)
            choices = [o["id"] for o in view["options"] if o["id"] != "cancel"] or [o["id"] for o in view["options"]]
            await table.act(Viewer(game_id, seat), rng.choice(choices), view["version"], answer=answer == "view")
            await frames(game_id)
            if driver is not None:
                await driver.settle()
            done += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    frame_bytes.sort()
    print(f"{actions} actions in {games} games x {seats} seats{'' if clocks == 'off' else ', clocks ' + clocks}: "
          f"{1000 * cpu / done:.2f} ms CPU per action "
          f"({done / wall:.0f} actions/s wall on this machine now), frames median {frame_bytes[len(frame_bytes) // 2]} B")
    await table.db.dispose()


def table_title(snap):  # type: ignore[no-untyped-def]
    from app.games import get_title

    return get_title(snap.title)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--clocks", choices=["off", "untimed", "timed"], default="off",
                        help="also run the bot driver and time limits (app/bots) after each action")
    parser.add_argument("--answer", choices=["view", "version"], default="view",
                        help="the acting seat is answered its new view (the API's default), or only the "
                             "version (the game page's 'Prefer: return=minimal')")
    parser.add_argument("--frames", choices=["full", "changes"], default="full",
                        help="frames as whole views, or as what changed (the game page's ?frames=changes)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{tmp}/cpu.db"
        upgrade(url)
        asyncio.run(run(async_database_url(url), args.games, args.seats, args.actions, args.seed, args.clocks, args.frames, args.answer))


if __name__ == "__main__":
    main()
