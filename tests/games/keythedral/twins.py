"""Keythedral twin games: face-down building tiles, the law deck, a law card behind a
screen, and the colours of the cubes behind a screen."""

from __future__ import annotations

import app.games.keythedral as kd
from app.games.keythedral.content import BASIC

from ..twins import Twins

OPTIONS = {"length": "full", "strategic": False}


def players_for(seed: int) -> int:
    return 2 + seed % 4  # 2–5 seats


def fresh_pair(seed: int) -> tuple[kd.Game, kd.Game, int]:
    players = players_for(seed)
    a = kd.setup(players, OPTIONS, seed)
    return a, kd.load(kd.dump(a)), players


def face_down_tiles(seed: int) -> Twins:
    """Two building tiles of a face-down row trade places."""
    a, b, players = fresh_pair(seed)
    row = str(sorted(int(v) for v in b.rows)[1 + seed % (len(b.rows) - 1)])
    b.rows[row][0], b.rows[row][-1] = b.rows[row][-1], b.rows[row][0]

    def hidden(x: kd.Game, y: kd.Game) -> bool:
        return int(row) not in x.face_up and x.rows[row] != y.rows[row]
    return Twins("keythedral", players, a, b, holder=None, hidden=hidden, what=f"the order of face-down row {row}")


def law_deck_order(seed: int) -> Twins:
    """Two law cards deep in the face-down deck trade places."""
    a, b, players = fresh_pair(seed)
    b.law_deck[0], b.law_deck[-1] = b.law_deck[-1], b.law_deck[0]

    def hidden(x: kd.Game, y: kd.Game) -> bool:  # the difference is still in the deck or face-down slots
        return (x.played == y.played and all(p.laws == q.laws for p, q in zip(x.players, y.players))
                and (x.law_deck, x.law_slots) != (y.law_deck, y.law_slots))
    return Twins("keythedral", players, a, b, holder=None, hidden=hidden, what="two law cards in the deck")


def law_in_hand(seed: int) -> Twins:
    """Seat 1 holds one law card in one game and another in the twin."""
    a, b, players = fresh_pair(seed)
    for g, index in ((a, 0), (b, -1)):
        g.players[1].laws = [g.law_deck.pop(index)]

    def hidden(x: kd.Game, y: kd.Game) -> bool:
        return (x.played == y.played and x.players[1].laws != y.players[1].laws
                and all(p.laws == q.laws for p, q in zip(x.players, y.players) if p.seat != 1))
    return Twins("keythedral", players, a, b, holder=1, hidden=hidden, what="the law card behind seat 1's screen")


def cube_colours(seed: int) -> Twins:
    """Seat 1 has as many cubes in both games, of other colours."""
    a, b, players = fresh_pair(seed)
    first, second = BASIC[seed % len(BASIC)], BASIC[(seed + 1) % len(BASIC)]
    a.players[1].cubes.update({first: 3, second: 1})
    b.players[1].cubes.update({first: 1, second: 3})

    def hidden(x: kd.Game, y: kd.Game) -> bool:
        return (x.players[1].cubes != y.players[1].cubes and x.store == y.store and x.spent == y.spent
                and all(p.cubes == q.cubes for p, q in zip(x.players, y.players) if p.seat != 1))
    return Twins("keythedral", players, a, b, holder=1, hidden=hidden, what="the colours behind seat 1's screen")


CASES = [face_down_tiles, law_deck_order, law_in_hand, cube_colours]
