"""Key Harvest twin games: a seat's starting counters, the order of the bag, and which two
events were removed unseen."""

from __future__ import annotations

import app.games.key_harvest as kh
from app.games.key_harvest.content import CROPS, is_event
from app.games.key_harvest.rules import OVER, Game

from ..twins import Twins


def players_for(seed: int) -> int:
    return 2 + seed % 3  # 2, 3 or 4 seats


def starting_counters(seed: int) -> Twins:
    """Seat 1 and a neighbour swap one starting counter of different colours: seat 1 holds
    the secret, the neighbour (who sees its own screen change) is the only other one told."""
    players = players_for(seed)
    other = 2 if players > 2 else 0
    a = kh.setup(players, {}, seed)
    for c in CROPS:  # the neighbour gets two more of each (in both games), so its choices
        a.supply[c] -= 2  # stay the same in both for longer
        a.players[other].counters[c] += 2
    b = kh.load(kh.dump(a))
    mine, theirs = b.players[1].counters, b.players[other].counters
    x = next(c for c in CROPS if mine[c])
    y = next(c for c in CROPS if c != x)
    mine[x], mine[y], theirs[x], theirs[y] = mine[x] - 1, mine[y] + 1, theirs[x] + 1, theirs[y] - 1

    def hidden(ga: Game, gb: Game) -> bool:
        """Until the screens are lifted at the end, and while the neighbour, who knows it
        too, still has the same choices in both games."""
        if ga.phase == OVER or gb.phase == OVER:
            return False
        if other not in kh.to_act(ga):
            return True
        return [o.id for o in kh.options(ga, other)] == [o.id for o in kh.options(gb, other)]

    return Twins("key-harvest", players, a, b, holder=1, hidden=hidden, seats_to_skip=frozenset({other}),
                 what=f"seat 1 started with {y} instead of {x} (seat {other} the other way round)")


def bag_order(seed: int) -> Twins:
    """Two tiles of the bag, one field tile and one event, trade places."""
    players = players_for(seed)
    a = kh.setup(players, {}, seed)
    b = kh.load(kh.dump(a))
    i = next(i for i in range(2, len(b.bag)) if is_event(b.bag[i]) != is_event(b.bag[1]))
    b.bag[1], b.bag[i] = b.bag[i], b.bag[1]

    def hidden(ga: Game, gb: Game) -> bool:
        return ga.bag != gb.bag and sorted(ga.bag) == sorted(gb.bag)

    return Twins("key-harvest", players, a, b, holder=None, hidden=hidden,
                 what=f"bag tiles 2 and {i + 1} swapped")


def removed_events(seed: int) -> Twins:
    """With three or four players, one of the two events removed unseen is swapped with an
    event in the bag."""
    players = 3 + seed % 2
    a = kh.setup(players, {}, seed)
    b = kh.load(kh.dump(a))
    i = next(i for i, t in enumerate(b.bag) if is_event(t))
    b.bag[i], b.removed[0] = b.removed[0], b.bag[i]
    b.removed.sort()

    def hidden(ga: Game, gb: Game) -> bool:
        return ga.removed != gb.removed and sorted(ga.removed + ga.bag) == sorted(gb.removed + gb.bag)

    return Twins("key-harvest", players, a, b, holder=None, hidden=hidden,
                 what=f"removed event {a.removed[0]} and bag event {a.bag[i]} swapped")


def power_refill(seed: int) -> Twins:
    """A worker power takes a tile from the registry (the Carter into the store, the Steward
    or the Lord onto the board): the refill draws from the bag, whose next tiles but one
    trade places in the twin. Nothing may tell the two bags apart before a tile shows."""
    from .support import act, lay

    players = players_for(seed)
    worker = ("red-carter", "red-steward", "lord")[seed % 3]
    a = kh.setup(players, {}, seed)
    a = kh.apply(a, a.start_chooser, "start:0")
    lay(a, 0, "C4 C5 D5", harvested="D3 E4 E5")
    a = act(a, 0, f"play:{worker}", "space:D4")
    b = kh.load(kh.dump(a))
    i = next(i for i in range(2, len(b.bag)) if is_event(b.bag[i]) != is_event(b.bag[1]))
    b.bag[1], b.bag[i] = b.bag[i], b.bag[1]

    def hidden(ga: Game, gb: Game) -> bool:
        return ga.bag != gb.bag and sorted(ga.bag) == sorted(gb.bag)

    return Twins("key-harvest", players, a, b, holder=None, hidden=hidden,
                 what=f"{worker}'s power refills the registry; bag tiles 2 and {i + 1} swapped")


CASES = [starting_counters, bag_order, removed_events, power_refill]
