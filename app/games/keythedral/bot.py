"""A small Keythedral bot, for tests and benchmarks.

It plays through the listed options only, with a few plain preferences: acquire a
building tile whenever it can; buy a craft cube or trade only now and then; pay with
its most plentiful basic cubes; bid little; keep the start player marker when it wins
it; never "cancel" unless nothing else is offered.
"""

from __future__ import annotations

from app.games.rng import Rng

from .content import BASIC
from .rules import Game, options

Seat = int


def choose(state: Game, seat: Seat, rng: Rng) -> str:
    """One option id for the seat, drawn from ``rng``."""
    offered = [o.id for o in options(state, seat)]
    if not offered:
        raise ValueError(f"seat {seat} has nothing to choose")
    onward = [o for o in offered if o != "cancel"] or offered
    for prefix in ("tile:", "collect", "keep", f"start:{seat}", "decline"):
        hits = [o for o in onward if o.startswith(prefix)]
        if hits:
            return rng.choice(hits)
    pays = [o for o in onward if o.startswith("pay:")]
    if pays:
        cubes = state.players[seat].cubes
        return max(pays, key=lambda o: (o[4:] in BASIC, cubes[o[4:]]))
    bids = [o for o in onward if o.startswith("bid:")]
    if bids:
        return bids[min(len(bids) - 1, rng.randrange(3) // 2)]
    if "pass" in onward and len(onward) > 1:
        # Build up: houses and craft cubes sometimes, laws rarely, otherwise pass.
        useful = [o for o in onward if o.startswith(("house:", "craft:", "trade", "play:"))]
        if useful and rng.randrange(3):
            return rng.choice(useful)
        laws = [o for o in onward if o.startswith("law:")]
        if laws and not rng.randrange(6):
            return rng.choice(laws)
        return "pass"
    return rng.choice(onward)
