"""Helpers shared by the Tiny Towns rule tests: set up a game, draw towns, list and take
options, play a round."""

from __future__ import annotations

import app.games.tiny_towns as tt
from app.games.tiny_towns.notation import parse_town

FIRST = {"monuments": False, "buildings": "first_game"}  # cottage farm well chapel tavern theater factory
EMPTY = ". . . . / . . . . / . . . . / . . . ."


def first_game(players: int = 2, *, seed: int, **options):
    """The first-game building set without monuments; ``options`` override."""
    return tt.setup(players, {**FIRST, **options}, seed)


def with_towns(g, *grids):
    """Give the seats, in order, the towns drawn in notation."""
    for p, grid in zip(g.players, grids):
        p.town = parse_town(grid)
    return g


def town_notation(rows) -> str:
    """Town notation for a 4×4 grid of tokens (one list or string of tokens per row)."""
    return "/".join(" ".join(row) for row in rows)


def ids(g, seat):
    return [o.id for o in tt.options(g, seat)]


def act(g, seat, *choices):
    for choice in choices:
        g = tt.apply(g, seat, choice)
    return g


def first_place(g, seat):
    """The seat's first ``place:`` option (its first empty square)."""
    return next(i for i in ids(g, seat) if i.startswith("place:"))


def name_and_place(g, resource, choices, *, unless_named=False):
    """The Master Builder names ``resource`` (with ``unless_named``, only while the game
    waits for a name); each seat to act then makes its listed choices (``{seat: [ids]}``),
    or places on its first empty square."""
    if not unless_named or g.phase == "name":
        g = tt.apply(g, g.master_builder, f"name:{resource}")
    for seat in sorted(tt.to_act(g)):
        g = act(g, seat, *(choices.get(seat) or [first_place(g, seat)]))
    return g


def play_round(g, resource, cells=None, *, unless_named=False):
    """The Master Builder names ``resource``; each placing seat puts it on the given
    square (``{seat: "r,c"}``) or on its first empty square."""
    choices = {seat: [f"place:{cell}"] for seat, cell in (cells or {}).items()}
    return name_and_place(g, resource, choices, unless_named=unless_named)
