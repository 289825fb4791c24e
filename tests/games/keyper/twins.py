"""Keyper twin games: a seat's face-down fair tile, the fold a seat chose while the
others are still choosing, and the order of the bag of country tiles."""

from __future__ import annotations

import app.games.keyper as kp
from app.games.keyper.bot import choose
from app.games.keyper.rules import FOLD, Game
from app.games.rng import Rng

from ..twins import Twins


def players_for(seed: int) -> int:
    return 2 + seed % 3  # 2, 3 or 4 seats


def face_down_fair(seed: int) -> Twins:
    """Seat 1's face-down spring fair is swapped with a spring fair that was not dealt."""
    players = players_for(seed)
    a = kp.setup(players, {}, seed)
    b = kp.load(kp.dump(a))
    spare = next(f for f in b.fair_pool if f.startswith("sp"))
    mine = b.players[1].fairs["spring"]
    b.players[1].fairs["spring"] = spare
    b.fair_pool[b.fair_pool.index(spare)] = mine
    b.fair_pool.sort()
    swapped = {mine, spare}

    def hidden(ga: Game, gb: Game) -> bool:
        """Until seat 1 holds the fair (it is turned face up); a fair discarded unheld stays hidden."""
        return not any(f["id"] in swapped for g in (ga, gb) for p in g.players for f in p.shown)

    return Twins("keyper", players, a, b, holder=1, hidden=hidden, steps=300,
                 what=f"seat 1's spring fair is {spare} instead of {mine}")


def to_fold(seed: int, players: int) -> Game:
    """A bot game played to the first secret fold."""
    g = kp.setup(players, {}, seed)
    rng = Rng(seed)
    while g.phase != FOLD:
        seat = min(kp.to_act(g))
        g = kp.apply(g, seat, choose(g, seat, rng))
    return g


def chosen_fold(seed: int) -> Twins:
    """Seat 0 has chosen one fold in one game and another fold in the other; the rest are
    still choosing."""
    players = players_for(seed)
    g = to_fold(seed, players)
    ids = [o.id for o in kp.options(g, 0)]
    a, b = kp.apply(g, 0, ids[0]), kp.apply(g, 0, ids[-1])

    def hidden(ga: Game, gb: Game) -> bool:
        return ga.phase == FOLD and gb.phase == FOLD

    return Twins("keyper", players, a, b, holder=0, hidden=hidden,
                 what=f"seat 0 folded {ids[0]} instead of {ids[-1]}")


def bag_order(seed: int) -> Twins:
    """Two country tiles deep in the bag trade places."""
    players = players_for(seed)
    a = kp.setup(players, {}, seed)
    b = kp.load(kp.dump(a))
    b.bag[1], b.bag[-1] = b.bag[-1], b.bag[1]

    def hidden(ga: Game, gb: Game) -> bool:
        return ga.display == gb.display and ga.bag != gb.bag and sorted(ga.bag) == sorted(gb.bag)

    return Twins("keyper", players, a, b, holder=None, hidden=hidden,
                 what=f"bag tiles 2 and {len(b.bag)} swapped")


CASES = [face_down_fair, chosen_fold, bag_order]
