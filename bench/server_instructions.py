"""Instructions the whole server executes per action (HTTP, routing, the table, the
database thread, the websocket frames), counted by valgrind's callgrind: the same count on
a busy machine as on a quiet one, where ``bench/load.py``'s CPU times move by tens of per
cent with other load.

    .venv/bin/python bench/server_instructions.py                     # 20 games x 4 seats, 100 and 400 actions
    .venv/bin/python bench/server_instructions.py --app-dir /tmp/keydom-before   # another checkout

The server (``python -m app`` on a fresh SQLite database, ``synchronous=FULL``) runs under
callgrind twice: once for ``--first`` actions, once for ``--first`` + ``--actions``, in Tiny
Towns games with monuments, every seat's websocket connected (``frames=changes``, as the
game page asks). One action at a time, over HTTP with the acting seat's own version, games
taken in turn, so each action commits alone: the regime of ``bench/load.py --rate 100``.
Everything else is the same in both runs (the games' seeds, the choices, start-up,
migrations, connecting), so the difference over ``--actions`` is what one action costs.
Needs valgrind (Debian's package); a run takes a few minutes. Runs of the same code have
differed by up to 10% (4.37-4.79 M per action): whatever the server does by the clock (socket
pings, its janitor) and the random game ids and tokens are not the same from run to run, so
compare several runs before and after, alternating.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from app.table.changes import apply_changes  # noqa: E402
from bench.load import new_games  # noqa: E402

COLLECTED = re.compile(r"Collected : (\d+)")


async def play(base: str, games: list[tuple[str, list[str], str]], actions: int, seed: int) -> None:
    """``actions`` actions, one at a time, games in turn, each by a seat that is to act."""
    views: dict[tuple[str, int], dict] = {}
    sockets = []

    async def listen(game_id: str, seat: int, token: str, ready: asyncio.Event) -> None:
        url = base.replace("http", "ws", 1) + f"/ws/games/{game_id}?token={token}&frames=changes"
        async with websockets.connect(url, max_size=2**22, ping_interval=None, compression=None,
                                      open_timeout=600) as ws:
            sockets.append(ws)
            async for raw in ws:
                frame = orjson.loads(raw)
                if "chat" in frame or "acted" in frame or "error" in frame:
                    continue
                views[game_id, seat] = apply_changes(views.get((game_id, seat)), frame) if "base" in frame else frame
                ready.set()

    listeners = []
    for game_id, tokens, _ in games:
        for seat, token in enumerate(tokens):
            ready = asyncio.Event()
            listeners.append(asyncio.create_task(listen(game_id, seat, token, ready)))
            await ready.wait()  # one handshake at a time: the same order in every run
    rng = random.Random(seed)
    done = 0
    async with httpx.AsyncClient(timeout=600) as http:
        turn = 0
        while done < actions:
            game_id, tokens, _ = games[turn % len(games)]
            turn += 1
            public = views[game_id, 0]
            if public["status"] == "finished" or not public["to_act"]:
                continue
            seat = rng.choice(sorted(public["to_act"]))
            view = views[game_id, seat]
            choices = [o["id"] for o in view["options"] if o["id"] != "cancel"] or [o["id"] for o in view["options"]]
            if not choices:
                continue
            response = await http.post(f"{base}/api/games/{game_id}/actions",
                                       json={"option": rng.choice(choices), "version": view["version"]},
                                       headers={"Authorization": f"Bearer {tokens[seat]}",
                                                "Prefer": "return=minimal"})  # as the game page asks
            if response.status_code != 200:
                raise SystemExit(f"an action was refused: {response.status_code} {response.text}")
            version = response.json()["version"]
            done += 1
            while any(views[game_id, s]["version"] < (version if s == seat else 0) for s in range(len(tokens))):
                await asyncio.sleep(0.01)  # the acting seat's own frame: its next view is known
            await asyncio.sleep(0.05)  # the other seats' frames of this action
    await asyncio.sleep(1.0)
    for ws in sockets:
        await ws.close()
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)


def _healthy(base: str) -> bool:
    try:
        return httpx.get(f"{base}/api/healthz", timeout=60).status_code == 200
    except httpx.HTTPError:
        return False


def count(args: argparse.Namespace, actions: int) -> int:
    """Instructions of one server run that serves ``actions`` actions."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/bench.db", "PORT": str(args.port),
               "HOST": "127.0.0.1", "WORKERS": "1", "PYTHONHASHSEED": "0", "PYTHONPATH": args.app_dir,
               "CREATE_PER_MINUTE": "1000000", "CREATE_BURST": "1000000", "ACTIONS_PER_MINUTE": "1000000",
               "ACTIONS_BURST": "1000000", "WEBSOCKETS_PER_ADDRESS": "1000000",
               "CONNECTIONS_PER_ADDRESS": "1000000", "MAX_CONNECTIONS": "100000"}
        log = Path(folder) / "valgrind.txt"
        server = subprocess.Popen(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                                   f"--log-file={log}", sys.executable, "-m", "app"],
                                  cwd=args.app_dir, env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            base = f"http://127.0.0.1:{args.port}"
            deadline = time.monotonic() + 600  # valgrind starts the server slowly (a minute or so)
            while not _healthy(base):
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start: {log.read_text()[-2000:]}")
                time.sleep(0.5)
            with httpx.Client(timeout=600) as http:
                games = new_games(http, [base], args.games, args.seats, offset=0)
            asyncio.run(play(base, games, actions, args.seed))
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=600)
        found = COLLECTED.findall(log.read_text())
        if not found:
            raise SystemExit(f"no count in valgrind's log: {log.read_text()[-2000:]}")
        return sum(int(n) for n in found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--first", type=int, default=100, help="actions in both runs (warms the caches)")
    parser.add_argument("--actions", type=int, default=300, help="actions counted: the second run's extra")
    parser.add_argument("--app-dir", default=str(ROOT), help="the Keydom checkout to serve")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--port", type=int, default=8775)
    args = parser.parse_args()
    base = count(args, args.first)
    more = count(args, args.first + args.actions)
    print(f"served from {args.app_dir}: {args.games} games x {args.seats} seats, "
          f"{(more - base) / args.actions:,.0f} instructions per action "
          f"(runs of {args.first} and {args.first + args.actions} actions: {base:,} and {more:,})", flush=True)


if __name__ == "__main__":
    main()
