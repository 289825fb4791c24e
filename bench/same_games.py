"""Same games before and after a speed change: one hash per player count and chooser over
seeded whole games of a title.

    PYTHONHASHSEED=0 .venv/bin/python bench/same_games.py key-harvest 6

Each hash takes in, for seeds 0..N-1, every option listed to every seat that acts (as its
JSON), every viewer's view every seventh decision, each decision, the game's dump at the end
and its result; once with the title's bot choosing, once with uniformly random choices (at
most 3,000 of them). A change meant only to be faster must print the same lines before and
after: any other line means a game, a listing or a view came out different.

``PYTHONHASHSEED=0`` keeps anything that iterates a set of texts in one order between runs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games import get_title  # noqa: E402
from app.games.playout import bot_chooser, random_chooser  # noqa: E402
from app.games.protocol import validate_options  # noqa: E402

RANDOM_STEPS = 3000
BOT_STEPS = 20000
VIEW_EVERY = 7


def _feed(digest: Any, value: object) -> None:
    digest.update(json.dumps(value, sort_keys=True, default=str).encode())


def play_into(digest: Any, title_id: str, players: int, seed: int, chooser: str) -> None:
    """One seeded game of ``title_id`` fed into ``digest``."""
    title = get_title(title_id)
    state = title.setup(players, validate_options(title.TITLE, {}, players), seed)
    seats = random.Random(seed)
    if chooser == "bot":
        choose, steps = bot_chooser(title_id, title, seed), BOT_STEPS
    else:
        choose, steps = random_chooser(title, random.Random(seed + 1)), RANDOM_STEPS
    for step in range(steps):
        if title.result(state) is not None:
            break
        acting = sorted(title.to_act(state))
        for seat in acting:
            _feed(digest, [o.as_json() for o in title.options(state, seat)])
        if step % VIEW_EVERY == 0:
            for viewer in [None, *range(players)]:
                _feed(digest, title.view(state, viewer))
        seat = seats.choice(acting)
        pick = choose(state, seat)
        digest.update(f"{seat}:{pick};".encode())
        state = title.apply(state, seat, pick)
    _feed(digest, title.dump(state))
    result = title.result(state)
    _feed(digest, result.as_json() if result else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("title", help="a title id, e.g. tiny-towns")
    parser.add_argument("games", type=int, help="seeds 0..games-1 at each player count")
    args = parser.parse_args()
    spec = get_title(args.title).TITLE
    for players in range(spec.min_players, spec.max_players + 1):
        for chooser in ("bot", "random"):
            digest = hashlib.sha256()
            for seed in range(args.games):
                play_into(digest, args.title, players, seed, chooser)
            print(args.title, players, chooser, digest.hexdigest()[:16], flush=True)


if __name__ == "__main__":
    main()
