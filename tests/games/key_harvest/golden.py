"""A golden playthrough: a fixed 2-player bot game's whole log, kept in golden_2p.txt.

A change to the rules that alters play shows up as a diff of this transcript. After a
deliberate change, rewrite it with ``.venv/bin/python -m tests.games.key_harvest.golden``
and read the diff before committing it.
"""

from __future__ import annotations

from pathlib import Path

import app.games.key_harvest as kh
from app.games.key_harvest import bot
from app.games.rng import Rng

GOLDEN = Path(__file__).with_name("golden_2p.txt")
SEED = 7


def transcript() -> str:
    """Every log line of the game, then each seat's score breakdown."""
    g = kh.setup(2, {}, SEED)
    rng = Rng(SEED)
    lines = list(g.log)
    while kh.result(g) is None:
        seat = min(kh.to_act(g))
        before = g.log.total
        g = kh.apply(g, seat, bot.choose(g, seat, rng))
        lines += g.log.lines_since(before)
    for s in kh.result(g).scores:
        lines.append(f"seat {s.seat}: {s.score} {s.breakdown}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    GOLDEN.write_text(transcript())
    print(f"wrote {GOLDEN}")
