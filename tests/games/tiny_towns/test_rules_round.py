"""The round: naming, simultaneous secret placement, construction, passing the hammer,
completing towns, the last player, the end and the tiebreakers."""

from __future__ import annotations

import json

import pytest

import app.games.tiny_towns as tt
from app.games.protocol import IllegalAction
from app.games.tiny_towns import rules
from app.games.tiny_towns.notation import parse_town

from .support import act, first_game, ids, play_round, with_towns

ALMOST_FULL = "G G G G / G G G G / G G G G / G G G ."  # glass only: no building fits


def game(players: int = 2, **options):
    return first_game(players, seed=11, **options)


def without_flags(view):
    """A view minus the "who has chosen" flags, which may change when someone chooses."""
    view = json.loads(json.dumps(view))
    view["public"].pop("to_act")
    for p in view["public"]["players"]:
        p.pop("chosen"), p.pop("to_act")
    return view


# --- 1. Name Resource ---

def test_first_master_builder_is_seat_zero_and_names_any_resource():
    g = game(3)
    assert g.phase == "name" and tt.to_act(g) == {0}
    assert ids(g, 0) == ["name:wood", "name:wheat", "name:brick", "name:glass", "name:stone"]
    assert ids(g, 1) == [] and ids(g, 2) == []
    g = act(g, 0, "name:brick")
    assert g.log[-1] == "Round 1: {seat0} names brick."
    assert g.players[0].master_builder_turns == 1


# --- 2. Place Resource: simultaneous and secret ---

def test_placement_is_hidden_from_others_until_everyone_has_placed():
    g = act(game(3), 0, "name:brick")
    assert tt.to_act(g) == {0, 1, 2}
    before = {seat: without_flags(tt.view(g, seat)) for seat in (0, 2, None)}
    g = act(g, 1, "place:2,3")
    assert tt.to_act(g) == {0, 2}
    for seat in (0, 2, None):
        after = tt.view(g, seat)
        assert without_flags(after) == before[seat]  # nothing but the flags changed
        assert after["public"]["players"][1]["chosen"] is True
        assert after["public"]["players"][1]["town"][2][3] is None
        if seat is not None:
            assert after["private"]["pending"] is None
    mine = tt.view(g, 1)
    assert mine["private"]["pending"] == {"kind": "place", "resource": "brick", "cell": [2, 3]}
    assert mine["public"]["players"][1]["town"][2][3] is None  # not on the board yet
    assert all("C4" not in line for line in mine["log"])


def test_all_placements_are_revealed_at_once_and_logged():
    g = act(game(3), 0, "name:brick")
    g = act(g, 1, "place:2,3")
    g = act(g, 2, "place:0,0")
    assert g.players[1].town[(2, 3)].is_empty
    g = act(g, 0, "place:1,1")
    assert g.log[-1] == "Everyone placed brick: {seat0} at B2, {seat1} at C4, {seat2} at A1."
    assert g.players[1].town[(2, 3)].resource == "brick"
    assert tt.view(g, None)["public"]["players"][2]["town"][0][0] == "brick"


def test_a_seat_that_has_placed_cannot_place_again():
    g = act(game(2), 0, "name:brick", "place:0,0")
    before = tt.dump(g)
    with pytest.raises(IllegalAction, match="nothing to choose"):
        tt.apply(g, 0, "place:0,1")
    assert tt.dump(g) == before


def test_unlisted_options_are_refused_and_leave_the_state_unchanged():
    g = game(2)
    before = tt.dump(g)
    for seat, bad in [(0, "name:gold"), (1, "name:wood"), (0, "place:0,0"), (0, "done"), (0, ""),
                      (5, "name:wood")]:
        with pytest.raises(IllegalAction):
            tt.apply(g, seat, bad)
    assert tt.dump(g) == before


def test_apply_never_mutates_its_input():
    g = game(2)
    raw = tt.dump(g)
    g2 = act(g, 0, "name:wood", "place:0,0")
    assert tt.dump(g) == raw
    assert g2 is not g and g2.players[0].town is not g.players[0].town


# --- 3. Construct Buildings ---

def test_several_buildings_in_one_round():
    g = with_towns(game(2), "W S . . / W S . . / H . . . / B G . .")
    g = play_round(g, "wheat", {0: "2,1", 1: "0,0"})
    # Two Wells and a Cottage: wheat C2 above glass D2, brick D1 beside it.
    assert ids(g, 0) == ["build:cottage", "build:well", "done"]
    g = act(g, 0, "build:well", "pick:0,0", "pick:0,1", "site:0,0")
    g = act(g, 0, "build:well", "pick:1,0", "pick:1,1", "site:1,1")
    g = act(g, 0, "build:cottage", "pick:2,1", "pick:3,0", "pick:3,1", "site:3,0")
    assert [b for _, b in g.players[0].town.buildings()] == ["well", "well", "cottage"]
    assert g.phase == "name" and g.round == 2  # nothing left to build: the round ended


def test_each_cube_is_used_for_one_building_only():
    g = with_towns(game(2), "W S W . / . . . . / . . . . / . . . .")
    g = play_round(g, "glass", {0: "3,3", 1: "0,0"})
    g = act(g, 0, "build:well", "pick:0,1", "pick:0,0", "site:0,0")
    assert g.phase == "name"  # the stone is gone: the second Well is no longer possible


def test_player_with_nothing_to_build_is_not_asked():
    g = with_towns(game(2), "W . . . / . . . . / . . . . / . . . .")
    g = play_round(g, "stone", {0: "0,1", 1: "0,0"})
    assert g.phase == "build" and tt.to_act(g) == {0}
    assert ids(g, 1) == []
    g = act(g, 0, "done")
    assert g.phase == "name" and g.round == 2


def test_buildings_need_not_be_built_at_once():
    g = with_towns(game(2), "W . . . / . . . . / . . . . / . . . .")
    g = play_round(g, "stone", {0: "0,1", 1: "0,0"})
    g = act(g, 0, "done")
    g = play_round(g, "glass", {0: "3,3", 1: "3,3"})
    assert "build:well" in ids(g, 0)


# --- 4. Pass the Master Builder's hammer ---

def test_hammer_passes_left_and_turns_are_counted():
    g = game(3)
    masters = []
    for _ in range(4):
        masters.append(g.master_builder)
        g = play_round(g, "glass")
    assert masters == [0, 1, 2, 0]
    assert [p.master_builder_turns for p in g.players] == [2, 1, 1]
    assert tt.view(g, None)["public"]["players"][0]["master_builder_turns"] == 2


# --- Completing your town ---

def test_full_town_is_complete_and_leaves_the_rotation():
    g = with_towns(game(3), "G G G G / G G G G / G G G G / G G G .")
    g = play_round(g, "glass", {0: "3,3"})
    assert g.players[0].complete and g.players[0].place == 1
    assert "{seat0}'s town is complete (1st)." in g.log
    assert g.master_builder == 1
    for _ in range(3):
        g = play_round(g, "glass")
        assert 0 not in tt.to_act(g)
    assert g.master_builder == 2  # 1, 2, then skip seat 0 back to 1, now 2
    assert g.players[0].master_builder_turns == 1


def test_towns_completed_in_the_same_round_share_the_place():
    g = with_towns(game(3), ALMOST_FULL, ALMOST_FULL, "G G G G / G G G G / G G G G / G G . .")
    g = play_round(g, "glass", {0: "3,3", 1: "3,3", 2: "3,3"})
    assert [p.place for p in g.players] == [1, 1, None]
    g = play_round(g, "glass")
    assert g.players[2].place == 3 and g.phase == "over"


def test_a_player_who_can_still_build_is_not_complete_until_the_round_ends():
    g = with_towns(game(2), "G G G G / G G G G / G G G G / G G G W")
    g.players[0].town[(3, 2)].resource = "stone"  # S W at the end: a Well
    g = play_round(g, "glass", {1: "0,0"})  # seat 0 has no empty square: does not place
    assert g.phase == "build" and tt.to_act(g) == {0}
    g = act(g, 0, "build:well", "pick:3,2", "pick:3,3", "site:3,3")
    assert not g.players[0].complete  # the Well freed a square


def test_last_player_names_their_own_resources():
    g = with_towns(game(2), ALMOST_FULL, "Fc+W . . . / . . . . / . . . . / . . . .")
    g = play_round(g, "glass", {0: "3,3"})
    assert g.players[0].complete
    turns = g.players[1].master_builder_turns
    for _ in range(3):
        assert g.phase == "name" and tt.to_act(g) == {1}
        g = act(g, 1, "name:wood")
        # Naming it yourself: the Factory does not trigger.
        assert not any(i.startswith("factory:") for i in ids(g, 1))
        g = act(g, 1, ids(g, 1)[0])
    assert g.players[1].master_builder_turns == turns + 3


def test_game_ends_when_every_town_is_complete():
    g = with_towns(game(2), ALMOST_FULL, ALMOST_FULL)
    g = play_round(g, "glass", {0: "3,3", 1: "3,3"})
    assert g.phase == "over" and tt.to_act(g) == frozenset()
    assert ids(g, 0) == []
    with pytest.raises(IllegalAction, match="over"):
        tt.apply(g, 0, "name:wood")
    r = tt.result(g)
    assert r is not None and r.reason == "Every town is complete."
    assert [s.score for s in r.scores] == [-16, -16]  # every cube is removed at the end
    assert r.winners == [1]  # fewer turns as Master Builder
    assert "Final scores: {seat0} -16, {seat1} -16." in g.log[-1]
    assert tt.view(g, None)["public"]["result"]["winners"] == [1]


def test_result_is_none_while_playing():
    assert tt.result(game(2)) is None


# --- Tiebreakers ---

def finished(*grids, turns):
    g = game(len(grids))
    for p, grid, n in zip(g.players, grids, turns):
        p.town, p.master_builder_turns, p.complete, p.place = parse_town(grid), n, True, 1
    g.phase = rules.OVER
    return g


def test_tiebreak_fewest_master_builder_turns():
    g = finished("Sh Sh . . / . . . . / . . . . / . . . .", "Sh Sh . . / . . . . / . . . . / . . . .",
                 turns=[3, 2])
    r = tt.result(g)
    assert r.scores[0].score == r.scores[1].score == -12
    assert r.winners == [1]
    assert r.scores[1].tiebreak == (-2, -14, 0)


def test_tiebreak_fewest_empty_squares_then_most_cottages():
    # Same score and turns: a Shed (1) + 15 empty = -14; Wells next to nothing score 0.
    fewer_empty = "Sh We We . / . . . . / . . . . / . . . ."  # 1 + 0 + 0 - 13 = -12
    more_empty = "Sh Sh . . / . . . . / . . . . / . . . ."  # 2 - 14 = -12
    r = tt.result(finished(fewer_empty, more_empty, turns=[2, 2]))
    assert r.scores[0].score == r.scores[1].score == -12
    assert r.winners == [0]
    cottages = "Co Sh Sh Sh / . . . . / . . . . / . . . ."  # unfed 0 + 3 - 12 = -9
    sheds = "Sh Sh Sh . / We . . . / . . . . / . . . ."  # 3 + 0 - 12 = -9
    r = tt.result(finished(cottages, sheds, turns=[2, 2]))
    assert r.scores[0].score == r.scores[1].score == -9
    assert r.winners == [0]


def test_complete_tie_is_shared():
    same = "Sh . . . / . . . . / . . . . / . . . ."
    assert tt.result(finished(same, same, same, turns=[1, 1, 1])).winners == [0, 1, 2]


def test_result_passes_the_table_facts_to_scoring():
    g = finished("SL Fe Fe . / . . . . / . . . . / . . . .", "Fe SK . . / . . . . / . . . . / . . . .",
                 turns=[1, 1])
    g.players[1].place = 2
    r = tt.result(g)
    first, second = r.scores[0].breakdown, r.scores[1].breakdown
    assert first["The Starloom"] == 6  # completed 1st
    assert first["Feast Hall"] == 6  # 2 Feast Halls against 1 on the right: 3 each
    assert second["Feast Hall"] == 2
    assert second["The Sky Baths"] == 14  # none of this game's 7 building types
    assert [s.score for s in r.scores] == [6 + 6 - 13, 2 + 14 - 14]
