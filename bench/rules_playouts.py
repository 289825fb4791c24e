"""Random full-game playouts per second through the rules alone (no server, no database).

    .venv/bin/python bench/rules_playouts.py [--title tiny-towns] [--seconds 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games import LISTINGS, get_title  # noqa: E402
from app.games.playout import random_playout  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--title", default=None, help="one title id (default: every playable title)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per player count")
    args = parser.parse_args()
    ids = [args.title] if args.title else [listing.id for listing in LISTINGS if listing.module]
    for title_id in ids:
        spec = get_title(title_id).TITLE
        for players in range(spec.min_players, spec.max_players + 1):
            games = actions = 0
            start = time.perf_counter()
            while time.perf_counter() - start < args.seconds:
                playout = random_playout(title_id, players, seed=games)
                games += 1
                actions += len(playout.actions)
            elapsed = time.perf_counter() - start
            print(f"{title_id:12} {players} players: {games / elapsed:8.1f} games/s, "
                  f"{actions / elapsed:9.0f} actions/s, {actions / games:6.0f} actions/game")


if __name__ == "__main__":
    main()
