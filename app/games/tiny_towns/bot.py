"""A tiny random Tiny Towns bot, for tests and benchmarks.

It picks uniformly among the listed options, but prefers progress: never "cancel" unless
nothing else is offered (so every construction it starts is finished), and it stops
building ("done", "guild-done") only one time in five while something else is offered.
"""

from __future__ import annotations

from app.games.rng import Rng

from .rules import Game, options

Seat = int
STOPS = ("done", "guild-done")


def choose(state: Game, seat: Seat, rng: Rng) -> str:
    """One option id for the seat, drawn from ``rng``."""
    offered = [o.id for o in options(state, seat)]
    if not offered:
        raise ValueError(f"seat {seat} has nothing to choose")
    progress = [o for o in offered if o != "cancel"] or offered
    onward = [o for o in progress if o not in STOPS]
    if onward and len(onward) < len(progress) and rng.randrange(5):
        return rng.choice(onward)
    return rng.choice(progress)


def choose_from_view(view: dict, offered: list[dict], rng: Rng) -> str:
    """The same choice from a seat's view alone (what app/bots' "strong" level calls): this
    bot only ever looks at the seat's own options, which the view lists."""
    ids = [o["id"] for o in offered]
    if not ids:
        raise ValueError("nothing to choose")
    progress = [o for o in ids if o != "cancel"] or ids
    onward = [o for o in progress if o not in STOPS]
    if onward and len(onward) < len(progress) and rng.randrange(5):
        return rng.choice(onward)
    return rng.choice(progress)
