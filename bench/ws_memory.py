"""Server memory per connected websocket, and whether it comes back when they close.

    .venv/bin/python bench/ws_memory.py --sockets 800 [--ws wsproto]      # seats, 4 per game
    .venv/bin/python bench/ws_memory.py --spectators 3000                 # watchers of 10 games

Prints the server's RSS before connecting, with every socket open, and after they all
closed (a few rounds, so slow-to-free memory shows as a trend rather than a snapshot).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import process_tree_rss_kb  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def mb(kb: int) -> str:
    return f"{kb / 1024:.1f} MB"


async def open_sockets(base: str, urls: list[str], batch: int = 200) -> list:  # type: ignore[type-arg]
    sockets = []
    for start in range(0, len(urls), batch):
        opened = await asyncio.gather(*(websockets.connect(u, open_timeout=30) for u in urls[start:start + batch]))
        await asyncio.gather(*(ws.recv() for ws in opened))
        sockets += opened
    return sockets


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wanted = (args.spectators or args.sockets) + 500
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/mem.db", "PORT": str(args.port),
               "WS": args.ws, "CREATE_PER_MINUTE": "100000", "CREATE_BURST": "100000",
               # Every socket comes from this one address: lift the per-address caps.
               "WEBSOCKETS_PER_ADDRESS": str(wanted), "CONNECTIONS_PER_ADDRESS": str(wanted),
               "MAX_CONNECTIONS": str(wanted)}
        server = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
        base = f"http://127.0.0.1:{args.port}"
        ws_base = base.replace("http", "ws")
        try:
            async with httpx.AsyncClient() as http:
                for _ in range(100):
                    try:
                        await http.get(f"{base}/api/healthz")
                        break
                    except httpx.HTTPError:
                        await asyncio.sleep(0.1)
                games = []
                count = 10 if args.spectators else args.sockets // 4
                for g in range(count):
                    games.append((await http.post(f"{base}/api/games", json={
                        "title": "tiny-towns", "players": ["A", "B", "C", "D"], "seed": g})).json())
                # Warm every game's state into the cache before measuring the sockets alone.
                for game in games:
                    await http.get(f"{base}/api/games/{game['id']}")
            if args.spectators:
                urls = [f"{ws_base}/ws/games/{games[i % len(games)]['id']}" for i in range(args.spectators)]
                kind = "spectators"
            else:
                urls = [f"{ws_base}/ws/games/{game['id']}?token={seat['token']}" for game in games for seat in game["seats"]]
                kind = "idle seats"
            await asyncio.sleep(0.5)
            before = process_tree_rss_kb(server.pid)
            for round_ in range(1, args.rounds + 1):
                sockets = await open_sockets(base, urls)
                await asyncio.sleep(1.0)
                held = process_tree_rss_kb(server.pid)
                await asyncio.gather(*(ws.close() for ws in sockets))
                await asyncio.sleep(7.0)  # the server tidies up within 5 s of a crowd leaving
                after = process_tree_rss_kb(server.pid)
                print(f"--ws {args.ws}, round {round_}: {len(sockets)} {kind}; server RSS {mb(before)} before, "
                      f"{mb(held)} connected ({(held - before) / len(sockets):.1f} KB each), "
                      f"{mb(after)} after all closed ({(after - before) / 1024:+.1f} MB vs before)", flush=True)
        finally:
            os.killpg(server.pid, 15)
            server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=800, help="seat sockets (4 per game)")
    parser.add_argument("--spectators", type=int, default=0, help="spectator sockets over 10 games instead")
    parser.add_argument("--rounds", type=int, default=3, help="open-and-close rounds")
    parser.add_argument("--ws", default="auto", choices=["auto", "websockets", "wsproto"])
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, (args.spectators or args.sockets) + 1000)), hard))
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
