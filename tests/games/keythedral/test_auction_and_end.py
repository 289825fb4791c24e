"""Phase 5 (the start player auction) and the end of the game with its scoring."""

from __future__ import annotations

import json

import app.games.keythedral as kt
from app.games.keythedral import rules
from app.games.keythedral.notation import position

from .support import LAND, give, held, ids
from .support import at_auction as auction

# --- Phase 5: change start player ---

def test_the_marker_passes_left_and_the_others_bid_at_once():
    g = auction(3, start=0)
    assert g.start == 1 and g.auction["holder"] == 1
    assert "the start player marker passes to {seat1}" in g.log[-1]
    assert kt.to_act(g) == {0, 2}
    give(g, 0, "brown black")
    assert ids(g, 0) == ["bid:0", "bid:1", "bid:2"]
    assert ids(g, 1) == []


def test_bids_stay_sealed_until_all_are_in():
    g = auction(3, start=0)
    give(g, 2, "red red red")
    g = kt.apply(g, 2, "bid:3")
    assert kt.to_act(g) == {0}
    for seat in (0, 1, None):
        public = kt.view(g, seat)["public"]
        assert public["auction"]["bids"] is None and public["auction"]["sealed"] == [2]
        assert public["players"][2]["sealed"] is True
        if seat is not None:
            assert kt.view(g, seat)["private"]["bid"] is None
    assert kt.view(g, 2)["private"]["bid"] == 3
    assert not any("3" in line for line in g.log[-1:])  # "{seat2} seals a bid."
    g = kt.apply(g, 0, "bid:0")
    assert kt.view(g, None)["public"]["auction"]["bids"] == {2: 3, 0: 0}
    assert g.log[-1] == "Bids revealed: {seat2} 3, {seat0} 0."


def test_a_tie_goes_to_the_first_bidder_clockwise_from_the_holders_left():
    g = auction(3, start=0)  # holder 1: bidders in order 2, 0
    give(g, 0, "brown brown")
    give(g, 2, "blue blue")
    g = kt.apply(kt.apply(g, 0, "bid:2"), 2, "bid:2")
    assert g.auction["winner"] == 2 and g.auction["step"] == "match"
    assert kt.to_act(g) == {1}


def test_the_holder_may_match_paying_the_store_and_keeps_the_marker():
    g = auction(2, start=1)  # holder 0, bidder 1
    give(g, 1, "red red")
    give(g, 0, "brown black green")
    g = kt.apply(g, 1, "bid:2")
    assert ids(g, 0) == ["match", "decline"]
    store = dict(g.store)
    g = kt.apply(g, 0, "match")
    assert ids(g, 0) == ["pay:brown", "pay:black", "pay:green"]  # no cancel: it is owed
    g = kt.apply(kt.apply(g, 0, "pay:green"), 0, "pay:black")
    assert held(g, 0) == {"brown": 1} and held(g, 1) == {"red": 2}
    assert g.store["green"] == store["green"] + 1
    assert g.log[-1] == "{seat0} pays 2 cubes into the store."
    assert ids(g, 0) == ["start:0", "start:1"]
    g = kt.apply(g, 0, "start:0")
    assert g.start == 0 and g.phase == rules.ORDER and g.round == 2


def test_when_the_holder_declines_the_winner_pays_the_holder():
    g = auction(2, start=1)
    give(g, 1, "red red white")
    g = kt.apply(g, 1, "bid:2")
    g = kt.apply(g, 0, "decline")
    assert kt.to_act(g) == {1}
    g = kt.apply(kt.apply(g, 1, "pay:red"), 1, "pay:white")
    assert held(g, 0) == {"red": 1, "white": 1} and held(g, 1) == {"red": 1}
    assert g.log[-1] == "{seat1} pays 2 cubes to {seat0}."  # how many, never which
    g = kt.apply(g, 1, "start:0")  # the winner may hand the start to anyone
    assert g.start == 0 and "{seat1} makes {seat0} the start player." in g.log


def test_a_holder_without_enough_cubes_cannot_match():
    g = auction(2, start=1)
    give(g, 1, "red red")
    give(g, 0, "brown")
    g = kt.apply(g, 1, "bid:2")
    assert ids(g, 0) == ["decline"]


def test_when_nobody_bids_the_holder_keeps_the_marker_for_free():
    g = auction(3, start=2)  # holder 0
    g = kt.apply(kt.apply(g, 1, "bid:0"), 2, "bid:0")
    assert g.auction["winner"] == 0 and kt.to_act(g) == {0}
    assert "Nobody bid: {seat0} keeps the marker." in g.log
    g = kt.apply(g, 0, "start:2")
    assert g.start == 2 and g.round == 2 and kt.to_act(g) == {2}


# --- The end of the game ---

def test_the_game_ends_the_moment_the_last_tile_is_acquired():
    g = position(LAND, 3, start=0)
    rules.begin_actions(g)
    for v in ("4", "6", "8", "10"):
        g.rows[v] = []
    g.rows["12"] = ["12a"]
    g.face_up = [4, 6, 8, 10, 12]
    give(g, 0, "green blue yellow")
    g = kt.apply(g, 0, "tile:12a")
    assert g.phase == rules.OVER and kt.to_act(g) == frozenset()
    assert kt.options(g, 1) == [] and kt.options(g, 0) == []
    assert g.log[-1] == "The last building tile is gone: the Keythedral is complete and the game ends."
    result = kt.result(g)
    assert result.winners == [0] and result.scores[0].score == 12


def test_scores_are_tiles_plus_leftover_cubes_with_a_breakdown():
    g = position(LAND, 2)
    g.players[0].tiles = ["12a", "4a", "6b"]
    give(g, 0, "yellow purple purple white brown black red")
    g.phase = rules.OVER
    s0 = kt.result(g).scores[0]
    assert s0.breakdown == {"Building tiles": 22, "Gold": 4, "Stained glass": 6,
                            "Ironwork": 2, "Basic resources": 3}
    assert s0.score == 37 and s0.tiebreak == (3,)


def test_a_tie_goes_to_the_most_building_tiles_then_is_shared():
    g = position(LAND, 3)
    g.players[0].tiles = ["12a"]
    g.players[1].tiles = ["6a", "6b"]
    g.players[2].tiles = ["8a"]
    give(g, 2, "yellow")
    g.phase = rules.OVER
    assert [s.score for s in kt.result(g).scores] == [12, 12, 12]
    assert kt.result(g).winners == [1]
    g.players[0].tiles = ["4a", "8b"]
    assert kt.result(g).winners == [0, 1]
    assert json.loads(json.dumps(kt.result(g).as_json()))["scores"][0]["breakdown"]["Building tiles"] == 12
