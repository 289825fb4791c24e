"""Scoring: workers at their value, the largest group 1 a tile, the second largest
separate group 2 a tile, one point per crop to the single player with the most counters
behind the screen (none on a tie); tiebreaks by field tiles, then counters."""

from __future__ import annotations

import app.games.key_harvest as kh
from app.games.key_harvest.rules import OVER, crop_majorities, groups

from .support import game, give, lay, stock


def finished(g):
    g.phase = OVER
    g.queue = []
    return kh.result(g)


def line(result, seat, label):
    return result.scores[seat].breakdown[label]


def test_largest_group_one_a_tile_second_largest_two_a_tile():
    g = lay(game(), 0, "A1 A2 A3 A4 A5", harvested="")  # 5 in column A
    lay(g, 0, "C1 C2 C3")  # 3: C1-C2-C3, separate from column A (B between)
    lay(g, 0, "G8")  # 1
    assert [len(grp) for grp in groups(g.players[0])] == [5, 3, 1]
    r = finished(g)
    assert line(r, 0, "Largest group") == 5 and line(r, 0, "Second largest group") == 6


def test_two_equal_groups_score_once_each_way():
    g = lay(game(), 0, "A1 A2 A3", harvested="G1 G2 G3")  # harvested tiles count as well
    r = finished(g)
    assert line(r, 0, "Largest group") == 3 and line(r, 0, "Second largest group") == 6


def test_one_group_only_scores_no_second_group():
    r = finished(lay(game(), 0, "C3 C4 D4"))
    assert line(r, 0, "Largest group") == 3 and line(r, 0, "Second largest group") == 0


def test_workers_score_their_value_and_do_not_join_groups():
    g = lay(game(), 0, "C3 E4")
    g.players[0].workers.update({"D3": "red-steward", "A8": "priest"})
    r = finished(g)
    assert line(r, 0, "Workers") == 8
    assert line(r, 0, "Largest group") == 1 and line(r, 0, "Second largest group") == 2


def test_the_single_player_with_most_of_a_crop_scores_one_and_ties_score_nothing():
    g = game(3)
    give(g, 0, "red red green yellow")
    give(g, 1, "red green brown")
    give(g, 2, "green brown")
    assert crop_majorities(g) == {"brown": None, "green": None, "orange": None, "red": 0, "yellow": 0}
    r = finished(g)
    assert line(r, 0, "Most wine") == 1 and line(r, 0, "Most wheat") == 1
    assert line(r, 1, "Most vegetables") == 0 and line(r, 2, "Most hops") == 0


def test_only_counters_behind_the_screen_count_not_bids():
    g = game()
    give(g, 0, "red")
    stock(g, 1, "A1", "red red")
    assert crop_majorities(g)["red"] == 0


def three_with_a_crop_baron():
    """Seat 2 holds the most of every crop (5 points); seats 0 and 1 each have a townsfolk."""
    g = game(3)
    give(g, 2, " ".join(c for c in ("brown", "green", "orange", "red", "yellow") for _ in range(3)))
    g.players[0].workers["B8"] = "priest"
    g.players[1].workers["B8"] = "lord"
    return g


def test_a_tie_goes_to_the_most_field_tiles():
    g = lay(lay(three_with_a_crop_baron(), 0, "A1 A2", harvested="G8"), 1, "G1 G2 G3 G4")
    r = finished(g)
    assert r.scores[0].score == r.scores[1].score == 9 > r.scores[2].score
    assert r.winners == [1]  # four field tiles against three


def test_then_the_most_counters_behind_the_screen():
    g = lay(lay(three_with_a_crop_baron(), 0, "A1 A2"), 1, "G1 G2")
    give(g, 0, "red")
    give(g, 1, "red green")
    r = finished(g)
    assert r.scores[0].score == r.scores[1].score == 7 and r.winners == [1]
    give(g, 0, "orange orange")
    assert finished(g).winners == [0]


def test_still_tied_the_tied_players_share():
    g = lay(lay(three_with_a_crop_baron(), 0, "A1 A2"), 1, "G1 G2")
    assert finished(g).winners == [0, 1]


def test_the_result_has_a_breakdown_that_adds_up():
    g = lay(game(), 0, "A1 A2")
    give(g, 0, "red")
    r = finished(g)
    for s in r.scores:
        assert sum(s.breakdown.values()) == s.score
        assert set(s.breakdown) >= {"Workers", "Largest group", "Second largest group", "Most wine"}


def test_no_result_before_the_end():
    assert kh.result(game()) is None
