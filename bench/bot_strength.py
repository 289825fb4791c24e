"""How strong each title's "strong" bot is, and how fast it decides (issue 18).

    nohup .venv/bin/python bench/bot_strength.py [--games 200] [--title keythedral] > out.txt &

For every title with a view-based strong bot (``app.bots.levels.strong_titles()``), over
``--games`` seeded 2-player games each: its win rate against the "random" level, and
against today's per-title state bot (``choose(state, seat, rng)`` in the title's bot.py,
which sees the true state); the strong bot sits first in even-seeded games and second in
odd ones. It is handed only its seat's view, as the server hands it
(``app.bots.arena.seat_view``). A shared win counts half; a game that does not finish
within the cap counts as not won. Decision times are this process's CPU seconds per
``choose`` call (one core; building the view is not counted: the server builds it anyway).

Goals: ≥ 90% against random; more wins than losses against the state bot; every decision
under 1 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots import levels  # noqa: E402
from app.bots.arena import Timer, play_match, state_player, view_player  # noqa: E402


def series(title_id: str, opponent: str, games: int, timer: Timer) -> dict[str, float]:
    won = lost = shared = unfinished = 0
    for seed in range(games):
        strong_seat = seed % 2
        strong = view_player(title_id, "strong", random.Random(seed * 7 + 1), timer)
        other = (view_player(title_id, "random", random.Random(seed * 7 + 2)) if opponent == "random"
                 else state_player(title_id, seed * 7 + 3))
        seats = [strong, other] if strong_seat == 0 else [other, strong]
        match = play_match(title_id, seats, seed=1000 + seed)
        if not match.winners:
            unfinished += 1
        elif match.winners == [strong_seat]:
            won += 1
        elif strong_seat in match.winners:
            shared += 1
        else:
            lost += 1
    return {"won": won, "lost": lost, "shared": shared, "unfinished": unfinished,
            "rate": (won + shared / 2) / games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="seeded 2-player games per title and opponent")
    parser.add_argument("--title", action="append", help="only this title (repeatable)")
    parser.add_argument("--against", choices=("random", "state", "both"), default="both")
    args = parser.parse_args()
    titles = args.title or levels.strong_titles()
    opponents = ["random", "state"] if args.against == "both" else [args.against]
    print(f"{args.games} seeded 2-player games per title and opponent; strong bot from its seat's view only")
    print(f"{'title':12} {'opponent':9} | {'win rate':>8} {'W-L-shared-unfinished':>22} | "
          f"{'mean ms':>8} {'worst ms':>9} {'decisions':>9} | {'wall s':>6}")
    for title_id in titles:
        for opponent in opponents:
            timer = Timer()
            start = time.perf_counter()
            r = series(title_id, opponent, args.games, timer)
            wall = time.perf_counter() - start
            times = timer.times or [0.0]
            record = f"{r['won']}-{r['lost']}-{r['shared']}-{r['unfinished']}"
            print(f"{title_id:12} {opponent:9} | {r['rate']:8.1%} {record:>22} | "
                  f"{statistics.fmean(times) * 1000:8.2f} {max(times) * 1000:9.1f} {len(timer.times):9d} | "
                  f"{wall:6.0f}", flush=True)


if __name__ == "__main__":
    main()
