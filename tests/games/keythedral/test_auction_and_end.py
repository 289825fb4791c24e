"""Phase 5 (the start player auction) and the end of the game with its scoring."""

from __future__ import annotations

import json

import app.games.keythedral as kt
from app.games.keythedral import rules
from app.games.keythedral.notation import position

from .support import LAND, give, held, ids
from .support import at_auction as auction

# --- Phase 5: change start player ---

def test_the_marker_passes_left_and_the_player_left_of_the_new_holder_opens():
    g = auction(3, start=0, cubes={2: "brown black"})
    assert g.start == 1 and g.auction["holder"] == 1 and g.auction["previous"] == 0
    assert g.log[-1] == ("Phase 5: {seat0} passes the start player marker to {seat1}; "
                         "{seat2} opens the bidding.")
    assert kt.to_act(g) == {2}
    assert ids(g, 2) == ["bid:1", "bid:2", "pass"]
    assert ids(g, 0) == [] and ids(g, 1) == []


def test_bidding_goes_clockwise_and_each_bidder_raises_or_passes():
    four = "red red red red"
    g = auction(4, start=0, cubes={0: four, 1: four, 2: four, 3: four})  # holder 1; bidders 2, 3, 0
    g = kt.apply(g, 2, "bid:1")
    assert kt.to_act(g) == {3} and ids(g, 3) == ["bid:2", "bid:3", "bid:4", "pass"]
    g = kt.apply(g, 3, "bid:2")
    assert kt.to_act(g) == {0}
    g = kt.apply(g, 0, "pass")
    assert kt.to_act(g) == {2}  # seat 1 holds the marker and does not bid
    g = kt.apply(g, 2, "bid:3")
    assert kt.to_act(g) == {3}  # seat 0 passed: out for the rest of the auction
    g = kt.apply(g, 3, "pass")
    assert g.auction["step"] == "match" and kt.to_act(g) == {1}
    assert (g.auction["leader"], g.auction["worth"]) == (2, 3)
    assert g.log[-3:] == ["{seat2} bids 3 cubes.", "{seat3} passes and is out of the auction.",
                          "The bid of 3 by {seat2} stands; {seat1} may match it."]


def test_a_pass_is_for_the_rest_of_the_auction():
    g = auction(3, start=0, cubes={0: "red red", 1: "blue blue", 2: "red red"})  # holder 1; bidders 2, 0
    g = kt.apply(g, 2, "pass")
    g = kt.apply(g, 0, "bid:1")
    assert g.auction["step"] == "match"  # seat 2 is not asked again
    assert 2 in g.auction["out"] and kt.view(g, None)["public"]["players"][2]["out"] is True


def test_bids_are_spoken_aloud():
    g = auction(3, start=0, cubes={2: "red red red", 0: "red red red red"})
    g = kt.apply(g, 2, "bid:2")
    assert g.log[-1] == "{seat2} bids 2 cubes."
    for seat in (0, 1, 2, None):
        seen = kt.view(g, seat)["public"]["auction"]
        assert (seen["leader"], seen["bid"], seen["worth"], seen["turn"]) == (2, 2, 2, 0)


def test_a_bidder_who_cannot_raise_passes_unasked_unless_holding_a_law():
    g = auction(3, start=0, cubes={2: "red red", 0: "red red", 1: "blue blue"})  # holder 1; bidders 2, 0
    g = kt.apply(g, 2, "bid:2")
    assert g.auction["step"] == "match"  # seat 0 has 2 cubes: no raise possible
    assert "{seat0} cannot raise the bid of 2 and passes." in g.log
    h = auction(3, start=0, cubes={2: "red red", 0: "red red", 1: "blue blue"}, laws={0: ["L12"]})  # a Phase 3 card: no help, but its holder is asked all the same
    h = kt.apply(h, 2, "bid:2")
    assert kt.to_act(h) == {0} and ids(h, 0) == ["pass"]


def test_the_holder_may_match_paying_the_previous_holder():
    g = auction(2, start=1, cubes={1: "red red", 0: "brown black green"})  # holder 0, previous holder and only bidder 1
    g = kt.apply(g, 1, "bid:2")
    assert ids(g, 0) == ["match", "decline"]
    store = dict(g.store)
    g = kt.apply(g, 0, "match")
    assert ids(g, 0) == ["pay:brown", "pay:black", "pay:green"]  # no cancel: it is owed
    g = kt.apply(kt.apply(g, 0, "pay:green"), 0, "pay:black")
    assert held(g, 0) == {"brown": 1} and held(g, 1) == {"red": 2, "black": 1, "green": 1}
    assert g.store == store
    assert g.log[-1] == "{seat0} pays 2 cubes to {seat1}."  # how many, never which
    assert ids(g, 0) == ["start:0", "start:1"]
    g = kt.apply(g, 0, "start:0")
    assert g.start == 0 and g.phase == rules.ORDER and g.round == 2


def test_when_the_holder_lets_it_go_the_winner_pays_the_holder():
    g = auction(3, start=2, cubes={0: "blue blue", 1: "red red white"})  # holder 0, previous 2; bidders 1, 2
    g = kt.apply(g, 1, "bid:2")
    g = kt.apply(g, 0, "decline")
    assert kt.to_act(g) == {1}
    g = kt.apply(kt.apply(g, 1, "pay:red"), 1, "pay:white")
    assert held(g, 0) == {"blue": 2, "red": 1, "white": 1} and held(g, 1) == {"red": 1}
    assert held(g, 2) == {}
    assert g.log[-1] == "{seat1} pays 2 cubes to {seat0}."
    g = kt.apply(g, 1, "start:2")  # the winner may hand the start to anyone
    assert g.start == 2 and "{seat1} makes {seat2} the start player." in g.log


def test_which_cubes_pay_only_payer_and_payee_see():
    g = auction(3, start=2, cubes={0: "blue blue", 1: "red red white"})  # holder 0; bidder 1 wins
    g = kt.apply(kt.apply(g, 1, "bid:2"), 0, "decline")
    before = {seat: kt.view(g, seat)["public"] for seat in (None, 0, 2)}
    g = kt.apply(g, 1, "pay:white")  # a private step: nothing public changes
    assert {seat: kt.view(g, seat)["public"] for seat in (None, 0, 2)} == before
    g = kt.apply(g, 1, "pay:red")
    assert kt.view(g, 0)["private"]["received"] == {"from": 1, "cubes": {"red": 1, "white": 1}}
    for seat in (None, 2):
        seen = json.dumps(kt.view(g, seat))
        assert "white" not in json.dumps(kt.view(g, seat)["public"]["players"])
        assert '"received"' not in seen or kt.view(g, seat)["private"]["received"] is None
    assert kt.view(g, None)["public"]["auction"]["amount"] == 2


def test_a_payer_with_one_colour_is_still_asked_unless_paying_every_cube():
    g = auction(2, start=1, cubes={0: "blue blue", 1: "red red red"})
    g = kt.apply(kt.apply(g, 1, "bid:2"), 0, "decline")
    assert ids(g, 1) == ["pay:red"]  # asking or not must not tell the table what is behind the screen
    h = auction(2, start=1, cubes={0: "blue blue", 1: "red blue"})
    h = kt.apply(kt.apply(h, 1, "bid:2"), 0, "decline")
    assert held(h, 0) == {"red": 1, "blue": 3} and h.auction["step"] == "start"


def test_a_holder_with_too_few_cubes_lets_it_go_unasked_unless_holding_a_law():
    g = auction(2, start=1, cubes={1: "red red", 0: "brown"})
    g = kt.apply(g, 1, "bid:2")
    assert g.auction["winner"] == 1 and kt.to_act(g) == {1}
    assert "{seat0} has too few cubes to match." in g.log
    h = auction(2, start=1, cubes={1: "red red"}, laws={0: ["L12"]})
    h = kt.apply(h, 1, "bid:2")
    assert ids(h, 0) == ["decline"]


def test_when_nobody_bids_the_holder_keeps_the_marker_for_free():
    g = auction(3, start=2, cubes={1: "red", 2: "red"})  # holder 0
    g = kt.apply(kt.apply(g, 1, "pass"), 2, "pass")
    assert g.auction["winner"] == 0 and kt.to_act(g) == {0}
    assert "Nobody bid: {seat0} keeps the marker." in g.log
    g = kt.apply(g, 0, "start:2")
    assert g.start == 2 and g.round == 2 and kt.to_act(g) == {2}


def test_with_no_cubes_anywhere_the_auction_asks_only_the_holder():
    g = auction(3, start=0)
    assert g.auction["step"] == "start" and kt.to_act(g) == {1}


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
