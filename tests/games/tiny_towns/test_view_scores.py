"""Every town shows its score if the game ended now, and which Cottages are fed."""

from __future__ import annotations

import app.games.tiny_towns as tt

from .support import first_game, with_towns


def test_each_town_shows_its_score_now_and_its_fed_cottages():
    g = with_towns(first_game(2, seed=5),
                   "Co Fa . . / Co . . . / . . . . / . . . W",
                   "Co . . . / . . . . / . . . . / . . . .")
    players = tt.view(g, None)["public"]["players"]
    ann, bob = players
    assert ann["fed"] == [[0, 0], [1, 0]]
    # Two fed Cottages (3 each), a Farm (0), 12 empty squares and one cube (−1 each).
    assert ann["score_now"] == 6 - 13
    assert bob["fed"] == [] and bob["score_now"] == 0 - 15


def test_score_now_is_the_same_in_every_seats_view():
    g = with_towns(first_game(3, seed=5), "Co Fa . . / . . . . / . . . . / . . . .")
    totals = {seat: [p["score_now"] for p in tt.view(g, seat)["public"]["players"]] for seat in (0, 1, 2, None)}
    assert len({tuple(t) for t in totals.values()}) == 1
