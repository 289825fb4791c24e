"""Server memory per idle connected seat: connect N websockets, compare the server's RSS.

    .venv/bin/python bench/ws_memory.py --sockets 800 [--ws wsproto]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import process_tree_rss_kb  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/mem.db", "PORT": str(args.port),
               "WS": args.ws, "CREATE_PER_MINUTE": "100000", "CREATE_BURST": "100000"}
        server = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
        base = f"http://127.0.0.1:{args.port}"
        try:
            async with httpx.AsyncClient() as http:
                for _ in range(100):
                    try:
                        await http.get(f"{base}/api/healthz")
                        break
                    except httpx.HTTPError:
                        await asyncio.sleep(0.1)
                games = []
                for g in range(args.sockets // 4):
                    games.append((await http.post(f"{base}/api/games", json={
                        "title": "tiny-towns", "players": ["A", "B", "C", "D"], "seed": g})).json())
                # Warm every game's state into the cache before measuring the sockets alone.
                for game in games:
                    await http.get(f"{base}/api/games/{game['id']}")
            await asyncio.sleep(0.5)
            before = process_tree_rss_kb(server.pid)
            sockets = []
            for game in games:
                for seat in game["seats"]:
                    ws = await websockets.connect(base.replace("http", "ws") + f"/ws/games/{game['id']}?token={seat['token']}")
                    await ws.recv()
                    sockets.append(ws)
            await asyncio.sleep(1.0)
            after = process_tree_rss_kb(server.pid)
            print(f"--ws {args.ws}: {len(sockets)} idle seats, server RSS {before / 1024:.1f} MB -> {after / 1024:.1f} MB, "
                  f"{(after - before) / len(sockets):.1f} KB per connected seat")
            for ws in sockets:
                await ws.close()
        finally:
            os.killpg(server.pid, 15)
            server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=800)
    parser.add_argument("--ws", default="auto", choices=["auto", "websockets", "wsproto"])
    parser.add_argument("--port", type=int, default=8766)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
