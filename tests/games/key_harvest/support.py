"""Helpers shared by the Key Harvest rule tests: a game at the first turn, boards laid by
hand, a seat's choices, and comparing states."""

from __future__ import annotations

import json

import app.games.key_harvest as kh
from app.games.key_harvest.content import CROPS, FIELDS
from app.games.key_harvest.rules import Game


def game(players: int = 2, seed: int = 3, start: int = 0) -> Game:
    """A new game at the start player's first turn, with every board, store and screen
    emptied and the registry as dealt."""
    g = kh.setup(players, {}, seed)
    g = kh.apply(g, g.start_chooser, f"start:{start}")
    for p in g.players:
        for c in CROPS:
            g.supply[c] += p.counters[c]
        p.counters = {c: 0 for c in CROPS}
        for ref in p.fields:
            g.bag.append(ref)  # back into the bag: the content stays whole
        p.fields = {}
    return g


def lay(g: Game, seat: int, refs: str, harvested: str = "") -> Game:
    """Put field tiles (space-separated references) on a board; ``harvested`` ones show
    their harvested side. Each tile is taken out of wherever it was."""
    for ref in refs.split() + harvested.split():
        take_out(g, ref)
        g.players[seat].fields[ref] = ref in harvested.split()
    return g


def take_out(g: Game, ref: str) -> None:
    if ref in g.bag:
        g.bag.remove(ref)
    if ref in g.registry:
        g.registry[g.registry.index(ref)] = None
    if ref in g.fallow:
        g.fallow.remove(ref)
    for p in g.players:
        p.fields.pop(ref, None)
        p.store = [e for e in p.store if e["tile"] != ref]


def give(g: Game, seat: int, counters: str) -> Game:
    """Hand the seat counters (space-separated colours) out of the supply."""
    for c in counters.split():
        g.supply[c] -= 1
        g.players[seat].counters[c] += 1
    return g


def stock(g: Game, seat: int, ref: str, bid: str) -> Game:
    """Put a tile into a seat's store with a bid (space-separated colours, taken from the supply)."""
    take_out(g, ref)
    counts: dict[str, int] = {}
    for c in bid.split():
        g.supply[c] -= 1
        counts[c] = counts.get(c, 0) + 1
    g.players[seat].store.append({"tile": ref, "bid": counts})
    return g


def top_of_bag(g: Game, *tiles: str) -> Game:
    """These tiles are drawn next, in this order."""
    for t in tiles:
        if t in g.bag:
            g.bag.remove(t)
        else:
            take_out(g, t)
    g.bag[0:0] = list(tiles)
    return g


def ids(g: Game, seat: int) -> list[str]:
    return [o.id for o in kh.options(g, seat)]


def act(g: Game, seat: int, *choices: str) -> Game:
    for choice in choices:
        g = kh.apply(g, seat, choice)
    return g


def held(g: Game, seat: int) -> dict[str, int]:
    return {c: n for c, n in g.players[seat].counters.items() if n}


def crop(ref: str) -> str:
    return FIELDS[ref].crop


def snapshot(g: Game) -> str:
    return json.dumps(kh.dump(g), sort_keys=True)


def total_counters(g: Game) -> int:
    """Every counter in the game: supply, screens and bids (always 60)."""
    return (sum(g.supply.values()) + sum(sum(p.counters.values()) for p in g.players)
            + sum(sum(e["bid"].values()) for p in g.players for e in p.store))
