"""Tiny Towns twin games: the kept monument, the two monuments dealt, the Town Hall deck."""

from __future__ import annotations

import app.games.tiny_towns as tt
from app.games.tiny_towns.content import MONUMENTS
from app.games.tiny_towns.rules import layouts

from ..twins import Twins

WITH_MONUMENTS = {"monuments": True, "buildings": "random"}


def players_for(seed: int) -> int:
    return 2 + seed % 3  # 2, 3 or 4 seats


def kept_monument(seed: int) -> Twins:
    """Seat 1 keeps the first monument dealt in one game, the second in the other."""
    players = players_for(seed)
    g = tt.setup(players, WITH_MONUMENTS, seed)
    for seat in range(players):
        if seat != 1:
            g = tt.apply(g, seat, f"keep:{g.players[seat].dealt[0]}")
    first, second = g.players[1].dealt
    return Twins("tiny-towns", players, tt.apply(g, 1, f"keep:{first}"), tt.apply(g, 1, f"keep:{second}"),
                 holder=1, hidden=monument_unbuilt, what=f"seat 1 kept {first} or {second}")


def kept_monument_fits(seed: int) -> Twins:
    """As ``kept_monument``, with the first monument's whole pattern already in seat 1's
    town: in one game the kept monument fits at the first construction step, in the other
    it does not, and the table must not be able to tell."""
    twins = kept_monument(seed)
    first = twins.a.players[1].monument
    layout = layouts(first)[seed % len(layouts(first))]
    for g in (twins.a, twins.b):
        for cell, resource in layout:
            g.players[1].town[cell].resource = resource
    twins.what += ", the first one's pattern laid out"
    return twins


def dealt_monuments(seed: int) -> Twins:
    """Seat 1 was dealt two other monuments (ones nobody else holds) in the twin."""
    players = players_for(seed)
    a = tt.setup(players, WITH_MONUMENTS, seed)
    b = tt.load(tt.dump(a))
    dealt = {m for p in a.players for m in p.dealt}
    b.players[1].dealt = [m for m in MONUMENTS if m not in dealt][:2]
    for seat in range(players):
        if seat != 1:
            a, b = (tt.apply(x, seat, f"keep:{x.players[seat].dealt[0]}") for x in (a, b))
    a, b = (tt.apply(x, 1, f"keep:{x.players[1].dealt[0]}") for x in (a, b))
    return Twins("tiny-towns", players, a, b, holder=1, hidden=monument_unbuilt,
                 what="the two monuments dealt to seat 1")


def monument_unbuilt(a: tt.Game, b: tt.Game) -> bool:
    return a.players[1].monument_round is None and b.players[1].monument_round is None


def town_hall_deck(seed: int) -> Twins:
    """Two face-down resource cards of the Town Hall deck trade places."""
    players = players_for(seed)
    a = tt.setup(players, {"monuments": False, "town_hall": True}, seed)
    b = tt.load(tt.dump(a))
    i = next(i for i in range(len(b.deck) - 1, 0, -1) if b.deck[i] != b.deck[1])
    b.deck[1], b.deck[i] = b.deck[i], b.deck[1]
    return Twins("tiny-towns", players, a, b, holder=None, hidden=deck_differs_only_face_down,
                 what=f"Town Hall cards 2 and {i + 1} swapped")


def deck_differs_only_face_down(a: tt.Game, b: tt.Game) -> bool:
    return a.deck != b.deck and sorted(a.deck) == sorted(b.deck)


CASES = [kept_monument, kept_monument_fits, dealt_monuments, town_hall_deck]
