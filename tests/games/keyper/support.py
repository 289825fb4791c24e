"""Helpers for Keyper tests: a game in a known spot, and choices applied in order."""

from __future__ import annotations

import app.games.keyper as kp
from app.games.keyper.rules import Game


def fresh(players: int = 2, seed: int = 1, turn: int = 0) -> Game:
    """A new game with seat ``turn`` to play (the random start player moved for the test)."""
    g = kp.setup(players, {}, seed)
    g.turn = g.start = g.last = turn
    return g


def play(g: Game, seat: int, *choices: str) -> Game:
    for choice in choices:
        listed = [o.id for o in kp.options(g, seat)]
        assert choice in listed, f"{choice!r} is not offered to seat {seat}: {listed}"
        g = kp.apply(g, seat, choice)
    return g


def ids(g: Game, seat: int) -> list[str]:
    return [o.id for o in kp.options(g, seat)]


def give(g: Game, seat: int, **goods: int) -> None:
    """Goods from the supply to a seat (keeping the totals right)."""
    for good, n in goods.items():
        g.supply[good] -= n
        g.players[seat].stock[good] += n


def build_on(g: Game, seat: int, plot: str, tile: str, up: bool = False) -> None:
    """A building put straight on a plot (for tests of what it does, not how it is built)."""
    p = g.players[seat]
    if tile in p.home:
        p.home.remove(tile)
    p.plots[plot]["tiles"].append(tile)
    p.plots[plot]["up"] = up


def all_out(g: Game, seat: int, board: int) -> None:
    """The seat's keyper on a board and its hand empty (so it may lay down)."""
    p = g.players[seat]
    p.keyper = board
    g.boards[board - 1]["keyper"] = seat
    p.hand = []
