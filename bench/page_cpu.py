"""CPU per fetch of the game page's live part (``/g/{id}/fragment``), in one process.

    .venv/bin/python bench/page_cpu.py                        # 4-player Tiny Towns with monuments
    .venv/bin/python bench/page_cpu.py --title key-flow --players 5

A browser player's page fetches the live part after every websocket frame that changed its
view (static/game.js), so a four-player game played in browsers asks for three or four of
them per action: on a real table they, not the action, are most of the server's work
(``bench/load.py --pages``). Here the app runs in process behind httpx's ASGI transport
(no sockets, no HTTP parsing): games are played with random choices and, after each action,
every seat fetches its live part with ``?seen=`` its new view version, as the page does.
The figure is the process's CPU time over the fetches alone, divided by their number.
Run it under ``py-spy record`` to see where the time goes. The last figure is a digest of every
page fetched (game ids and link secrets taken out): a change meant only to be faster prints
the same one.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402

from app.main import create_app  # noqa: E402
from app.settings import Settings, async_database_url  # noqa: E402
from app.store.migrate import upgrade  # noqa: E402

OPTIONS = {"tiny-towns": {"monuments": True}}
TIMES = re.compile(r"<time [^>]*>[^<]*</time>")  # when each log line was written: differs run to run
DUMP = os.environ.get("PAGE_DUMP", "")


async def run(url: str, title: str, players: int, games: int, actions: int, seed: int) -> None:
    app = create_app(Settings(database_url=url, actions_burst=10**6, actions_per_minute=10**6,
                              create_burst=10**6, create_per_minute=10**6), migrate=False)
    rng = random.Random(seed)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as http:
            tables = []
            for g in range(games):
                made = (await http.post("/api/games", json={"title": title, "players": [f"P{i}" for i in range(players)],
                                                            "seed": seed + g, "options": OPTIONS.get(title)})).json()
                tables.append((made["id"], [s["token"] for s in made["seats"]]))
            fetched, spent, sizes, done = 0, 0.0, [], 0
            digest = hashlib.sha256()  # of every page, with the game's id and links' secrets taken out
            while done < actions:
                for game_id, tokens in tables:
                    views = [(await http.get(f"/api/games/{game_id}", headers=_bearer(t))).json() for t in tokens]
                    acting = [v for v in views if v["options"]]
                    if not acting or done >= actions:
                        continue
                    view = rng.choice(acting)
                    choice = rng.choice(view["options"])["id"]
                    answer = await http.post(f"/api/games/{game_id}/actions", headers=_bearer(tokens[view["seat"]]),
                                             json={"option": choice, "version": view["version"]})
                    if answer.status_code != 200:
                        continue
                    done += 1
                    seen = [(await http.get(f"/api/games/{game_id}", headers=_bearer(t))).json()["version"] for t in tokens]
                    began = time.process_time()
                    for token, version in zip(tokens, seen):
                        page = await http.get(f"/g/{game_id}/fragment?seen={version}", headers=_bearer(token))
                        sizes.append(len(page.content))
                        fetched += 1
                        text = page.text.replace(game_id, "GAME")
                        for n, secret in enumerate(tokens):
                            text = text.replace(secret, f"SEAT{n}")
                        digest.update(TIMES.sub("", text).encode())
                        if DUMP and fetched in (1, 40, 400):
                            Path(f"{DUMP}.{fetched}.html").write_text(TIMES.sub("", text))
                    spent += time.process_time() - began
    sizes.sort()
    print(f"{title} {players}p: {fetched} live parts after {done} actions in {games} games: "
          f"{1000 * spent / max(1, fetched):.2f} ms CPU per fetch, median {sizes[len(sizes) // 2] / 1024:.1f} KiB; "
          f"pages {digest.hexdigest()[:16]} (the same before and after a change that should not alter them)")


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--title", default="tiny-towns")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/pages.db"
        upgrade(url)
        asyncio.run(run(async_database_url(url), args.title, args.players, args.games, args.actions, args.seed))


if __name__ == "__main__":
    main()
