"""Helpers shared by the Keythedral rule tests: a landscape to play on, its fields, a
seat's choices, handing out cubes and comparing states."""

from __future__ import annotations

import json

import app.games.keythedral as kt
from app.games.keythedral import rules
from app.games.keythedral.notation import position

# a1 touches lake, vineyard, farm, quarry; b1 vineyard, farm, quarry, wood;
# a2 farm, quarry, wood; b2 wood, quarry.
LAND = """
.  .  .  .
 L  V  F
.  a1 b1 .
 F  Q  W
.  a2 K  b2
 .  W  Q
.  .  .  .
"""
HOUSE_LAND = LAND.replace("b2", "B2")  # the same landscape with seat 1's cottage 2 a house
LAKE, VINE, FARM_TOP, FARM, QUARRY, WOOD, WOOD_LOW, QUARRY_LOW = (
    "-2,-2", "-1,-2", "0,-2", "-2,-1", "-1,-1", "0,-1", "-1,0", "0,0")


def game(players=2, seed=4, **options):
    """A new game at set-up."""
    return kt.setup(players, options, seed)


def at_actions(g, actor=0):
    """Skip to Phase 3 with ``actor`` acting first."""
    g.start = actor
    rules.begin_actions(g)
    return g


def at_auction(players=3, start=0, land=LAND, cubes=None, laws=None):
    """A game on ``land`` at Phase 5, after everyone has passed in Phase 3; ``cubes``
    (seat -> "red red") and ``laws`` (seat -> ["L19"]) are handed out before it begins."""
    g = position(land, players, start=start)
    for seat, held_cubes in (cubes or {}).items():
        give(g, seat, held_cubes)
    for seat, cards in (laws or {}).items():
        g.players[seat].laws = list(cards)
    rules.begin_actions(g)
    rules.end_actions(g)
    return g


def ids(g, seat):
    return [o.id for o in kt.options(g, seat)]


def give(g, seat, cubes, *, from_supply=False):
    """Hand the seat the space-separated ``cubes``; with ``from_supply`` each comes out of
    the store (basic) or off the craft mat."""
    for c in cubes.split():
        g.players[seat].cubes[c] += 1
        if from_supply:
            if c in g.store:
                g.store[c] -= 1
            else:
                g.craft[c] -= 1
    return g


def held(g, seat):
    return {c: n for c, n in g.players[seat].cubes.items() if n}


def snapshot(g):
    return json.dumps(kt.dump(g), sort_keys=True)
