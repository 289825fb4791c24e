"""Whole games per second through the rules alone (no server, no database), per title and
player count: games chosen by the title's bot (with their length in decisions, and in
rounds where the title's public view counts them), and purely random games.

    .venv/bin/python bench/rules_playouts.py [--title keythedral] [--seconds 3]

Every playable title in the registry is measured, including ones added later: a title
without a ``bot.py`` is played at random in the bot columns too (marked "no bot").
A random game still running after the playout helper's cap is finished by the bot; the
random column says how many games needed that.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games import LISTINGS, get_title  # noqa: E402
from app.games.playout import Playout, bot_module, bot_playout, random_playout  # noqa: E402


def measure(play: Callable[..., Playout], title_id: str, players: int, seconds: float) -> tuple[float, list[Playout]]:
    """Games per second of this process's CPU time (one core) over about ``seconds`` of it
    (at least one game), seeds 0, 1, 2… CPU time, not the wall clock: on a shared machine
    other load then moves the figure little."""
    games: list[Playout] = []
    start = time.process_time()
    while not games or time.process_time() - start < seconds:
        games.append(play(title_id, players, seed=len(games)))
    return len(games) / (time.process_time() - start), games


def spread(values: list[int]) -> str:
    """median (min–max)"""
    return f"{statistics.median(values):g} ({min(values)}–{max(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--title", default=None, help="one title id (default: every playable title)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per title, player count and chooser")
    args = parser.parse_args()
    ids = [args.title] if args.title else [listing.id for listing in LISTINGS if listing.module]
    # The interpreter's own build moves these figures by a sixth or more (a build without
    # PGO and LTO, as pyenv makes by default, against a distribution's or Docker's): say which.
    print(f"interpreter: {platform.python_implementation()} {platform.python_version()} "
          f"({os.path.realpath(sys.executable)}, {platform.python_compiler()}, built {platform.python_build()[1]})")
    print(f"{'title':12} {'pl':>2} | {'bot games/s':>11} {'decisions/game':>16} {'rounds/game':>13} | "
          f"{'random games/s':>14} {'decisions/game':>16} {'bot-finished':>12}")
    for title_id in ids:
        spec = get_title(title_id).TITLE
        has_bot = bot_module(title_id) is not None
        for players in range(spec.min_players, spec.max_players + 1):
            bot_rate, bot_games = measure(bot_playout, title_id, players, args.seconds)
            random_rate, random_games = measure(random_playout, title_id, players, args.seconds)
            rounds = [g.rounds for g in bot_games if g.rounds is not None]
            handed_over = sum(1 for g in random_games if g.random_steps < len(g.actions))
            print(f"{title_id:12} {players:2} | {bot_rate:11.1f} {spread([len(g.actions) for g in bot_games]):>16} "
                  f"{spread(rounds) if rounds else '-':>13} | {random_rate:14.1f} "
                  f"{spread([len(g.actions) for g in random_games]):>16} {handed_over:>5}/{len(random_games):<6}"
                  f"{'' if has_bot else '  (no bot: random in both)'}")


if __name__ == "__main__":
    main()
