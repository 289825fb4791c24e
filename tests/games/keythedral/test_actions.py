"""Phase 3: acquiring tiles, houses, fences and repositioning, craft cubes, trading,
taking a new law, passing."""

from __future__ import annotations

import json
from functools import partial

import pytest

import app.games.keythedral as kt
from app.games.keythedral import rules
from app.games.keythedral.notation import position
from app.games.protocol import IllegalAction

from .support import HOUSE_LAND, held, ids, snapshot
from .support import give as give_any


def actions(players=2, actor=0, land=HOUSE_LAND, **options):
    g = position(land, players, start=actor, options=options)
    rules.begin_actions(g)
    return g


give = partial(give_any, from_supply=True)  # here cubes come out of the store or off the mat


# --- A: acquire a building tile ---

def test_a_tile_is_offered_only_at_its_exact_cost_which_goes_to_the_store():
    g = actions()
    g.rows["4"] = ["4c", "4a"]  # stone + timber; stone + stone
    give(g, 0, "black brown")
    assert "tile:4c" in ids(g, 0) and "tile:4a" not in ids(g, 0)
    store = dict(g.store)
    g = kt.apply(g, 0, "tile:4c")
    assert g.players[0].tiles == ["4c"] and held(g, 0) == {}
    assert g.store["black"] == store["black"] + 1 and g.store["brown"] == store["brown"] + 1
    assert g.rows["4"] == ["4a"]
    assert g.log[-1] == "{seat0} acquires a building tile from the 4 row."
    assert g.actor == 1


def test_emptying_a_row_turns_the_next_row_face_up():
    g = actions()
    g.rows["4"] = ["4c"]
    give(g, 0, "black brown")
    assert kt.view(g, None)["public"]["mat"][1]["tiles"][0]["id"] is None
    g = kt.apply(g, 0, "tile:4c")
    assert g.face_up == [4, 6]
    assert "The 4 row is complete; the 6 row turns face up." in g.log
    assert all(t["id"] for t in kt.view(g, None)["public"]["mat"][1]["tiles"])


def test_strategic_variant_only_the_lowest_row_may_be_bought():
    g = actions(strategic=True)
    g.rows["4"] = ["4a"]
    g.rows["6"] = ["6e"]  # stone food water
    give(g, 0, "black green blue")
    assert not [o for o in ids(g, 0) if o.startswith("tile:")]
    give(g, 0, "black")
    assert [o for o in ids(g, 0) if o.startswith("tile:")] == ["tile:4a"]


# --- B: cottage to house ---

def test_a_cottage_becomes_a_house_for_a_stone_and_a_timber():
    g = actions()
    give(g, 0, "black")
    assert not [o for o in ids(g, 0) if o.startswith("house:")]
    give(g, 0, "brown")
    assert [o for o in ids(g, 0) if o.startswith("house:")] == ["house:1", "house:2"]
    g = kt.apply(g, 0, "house:2")
    assert g.cottages["0-2"]["house"] is True and held(g, 0) == {}
    assert rules.workers_sent(g, 0, 2) == 2


# --- C: fences ---

def test_a_fence_costs_a_timber_and_blocks_workers():
    g = actions()
    give(g, 0, "brown")
    g = kt.apply(g, 0, "fence")
    slots = ids(g, 0)
    assert "fence:-1,-1/-2,-2" in slots and slots[-1] == "cancel"
    assert all(o.startswith("fence:") for o in slots[:-1])
    g = kt.apply(g, 0, "fence:-1,-1/-2,-2")
    assert g.fences == [{"id": 1, "owner": 0, "gap": "-1,-1", "cell": "-2,-2"}]
    assert g.players[0].fences == 2 and held(g, 0) == {}
    assert "-2,-2" not in rules.worker_fields(g, 0, 1)


def test_no_fence_can_be_built_once_all_three_are_used():
    g = actions()
    give(g, 0, "brown")
    g.players[0].fences = 0
    assert "fence" not in ids(g, 0)


def test_a_fully_fenced_house_is_moved_by_its_owner_and_stays_a_house():
    g = actions()
    # B2 (seat 1's house 2) touches only the wood at 0,-1 and the quarry at 0,0
    g.fences.append({"id": 1, "owner": 1, "gap": "1,0", "cell": "0,-1"})
    g.next_fence = 2
    give(g, 0, "brown")
    g = kt.apply(kt.apply(g, 0, "fence"), 0, "fence:1,0/0,0")
    assert kt.to_act(g) == {1}  # the owner re-places it
    choices = ids(g, 1)
    assert "gap:1,0" not in choices and "gap:2,2" not in choices
    assert "gap:1,-1" in choices and "gap:0,1" in choices
    assert "{seat1}'s house 2 is fully fenced and must move." in g.log
    g = kt.apply(g, 1, "gap:0,1")
    assert g.cottages["1-2"] == {"owner": 1, "number": 2, "gap": "0,1", "house": True}
    assert len(g.fences) == 2  # fences stay where they are
    assert "1,0" not in rules.cottage_places(g)  # a fully fenced gap is no place to go
    assert kt.to_act(g) == {1} and g.actor == 1  # then play goes on after seat 0's action


def test_fencing_your_own_cottage_is_allowed_and_moves_it():
    g = actions(actor=1)
    g.fences.append({"id": 1, "owner": 0, "gap": "1,0", "cell": "0,-1"})
    g.next_fence = 2
    give(g, 1, "brown")
    g = kt.apply(kt.apply(g, 1, "fence"), 1, "fence:1,0/0,0")
    assert g.pending["kind"] == "reposition" and kt.to_act(g) == {1}


def test_any_fence_can_be_removed_for_two_wine_and_leaves_the_game():
    g = actions()
    g.fences.append({"id": 7, "owner": 1, "gap": "1,0", "cell": "0,-1"})
    g.players[1].fences = 2
    give(g, 0, "red")
    assert "unfence" not in ids(g, 0)
    give(g, 0, "red")
    g = kt.apply(g, 0, "unfence")
    assert ids(g, 0) == ["remove:7", "cancel"]
    red = g.store["red"]
    g = kt.apply(g, 0, "remove:7")
    assert g.fences == [] and g.players[1].fences == 2 and g.store["red"] == red + 2


# --- D: craft cubes ---

def test_a_craft_cube_is_bought_with_basic_resources_chosen_one_by_one():
    g = actions()
    give(g, 0, "brown black green")
    g = kt.apply(g, 0, "craft:white")
    assert ids(g, 0) == ["pay:brown", "pay:black", "pay:green", "cancel"]
    g = kt.apply(g, 0, "pay:green")
    assert ids(g, 0) == ["pay:brown", "pay:black", "cancel"]
    g = kt.apply(g, 0, "pay:black")
    assert held(g, 0) == {"brown": 1, "white": 1}
    assert g.craft["white"] == 9 and g.log[-1] == "{seat0} buys an ironwork cube."


def test_craft_cubes_cannot_pay_for_craft_cubes():
    g = actions()
    give(g, 0, "white brown")
    assert not [o for o in ids(g, 0) if o.startswith("craft:")]


def test_spent_craft_cubes_are_reused_when_the_mat_runs_out():
    g = actions()
    g.rows["4"], g.rows["6"], g.face_up = [], ["6a"], [4, 6]
    g.craft["purple"] = 0
    give(g, 0, "black brown green")
    g = kt.apply(g, 0, "tile:6a")  # 6a costs stone, timber, food: no craft cube spent
    assert g.spent["purple"] == 0
    give(g, 1, "blue blue blue")
    assert "craft:purple" not in ids(g, 1)  # none on the mat, none spent
    g.spent["purple"] = 1
    g = kt.apply(g, 1, "craft:purple")  # one colour: paid without asking
    assert held(g, 1) == {"purple": 1} and g.spent["purple"] == 0
    assert "(a spent one: the mat had none left)" in g.log[-1]


def test_craft_cubes_spent_on_a_tile_go_beside_the_mat():
    g = actions()
    g.rows["4"], g.rows["6"], g.rows["8"], g.face_up = [], [], ["8c"], [4, 6, 8]
    give(g, 0, "green blue white")
    g = kt.apply(g, 0, "tile:8c")
    assert g.spent["white"] == 1 and g.craft["white"] == 9


# --- E: trade ---

def test_two_basic_cubes_trade_for_one_of_any_basic_type():
    g = actions()
    give(g, 0, "brown brown black white")
    g = kt.apply(g, 0, "trade")
    assert ids(g, 0) == ["pay:brown", "pay:black", "cancel"]  # never the craft cube
    g = kt.apply(g, 0, "pay:brown")
    g = kt.apply(g, 0, "pay:brown")
    assert ids(g, 0) == ["get:brown", "get:black", "get:green", "get:blue", "get:red", "cancel"]
    g = kt.apply(g, 0, "get:red")
    assert held(g, 0) == {"black": 1, "red": 1, "white": 1}
    assert g.log[-1] == "{seat0} trades 2 basic cubes for 1 wine."


def test_one_basic_cube_is_not_enough_to_trade():
    g = actions()
    give(g, 0, "brown white yellow")
    assert "trade" not in ids(g, 0)


# --- F: take a new law ---

def test_a_new_law_costs_one_cube_stays_hidden_and_stops_only_its_taker():
    g = actions()
    g.law_slots = ["L01", "L02"]
    give(g, 0, "yellow brown")  # any cube pays, a craft one too
    g = kt.apply(g, 0, "law:1")
    g = kt.apply(g, 0, "pay:yellow")
    assert g.players[0].laws == ["L02"] and g.law_slots == ["L01", None]
    assert g.spent["yellow"] == 1
    assert ids(g, 0) == ["keep"]  # a Phase 1 card cannot be played now
    for seat in (1, None):
        seen = json.dumps(kt.view(g, seat))
        assert "L02" not in seen and "Labour Levy" not in seen
    assert "Labour Levy" in json.dumps(kt.view(g, 0)["private"])
    g = kt.apply(g, 0, "keep")
    assert g.phase == rules.ACTIONS and kt.to_act(g) == {1}  # the other player goes on
    assert g.log[-1] != "{seat0} passes."
    assert kt.view(g, None)["public"]["players"][0]["stopped"] is True


def test_the_taker_acts_no_more_this_phase_the_others_go_round():
    g = actions(players=3)
    give(g, 0, "brown")
    give(g, 1, "black black black black")
    g = kt.apply(kt.apply(g, 0, "law:0"), 0, "keep")
    assert kt.to_act(g) == {1}
    g = kt.apply(kt.apply(g, 1, "trade"), 1, "get:red")  # paid with two stone at once
    assert kt.to_act(g) == {2}
    g = kt.apply(g, 2, "pass")
    assert kt.to_act(g) == {1}  # seat 0 is skipped for the rest of the phase
    assert "law:1" not in ids(g, 0) and ids(g, 0) == []


def test_a_second_law_can_be_taken_in_the_same_round():
    g = actions(players=3)
    g.law_slots = ["L01", "L02"]
    give(g, 0, "brown")
    give(g, 1, "black")
    g = kt.apply(kt.apply(g, 0, "law:0"), 0, "keep")
    assert ids(g, 1) == ["law:1", "pass"]
    g = kt.apply(kt.apply(g, 1, "law:1"), 1, "keep")
    assert g.players[1].laws == ["L02"] and g.law_slots == [None, None]
    assert g.phase == rules.ACTIONS and kt.to_act(g) == {2}
    g = kt.apply(g, 2, "pass")  # the only player still able to act passes: the phase ends
    assert g.phase == rules.AUCTION


def test_empty_law_spaces_are_refilled_only_at_the_end_of_the_phase():
    g = actions()
    g.law_slots, g.law_deck = ["L01", "L02"], ["L03", "L04", "L05"]
    give(g, 0, "brown")
    g = kt.apply(kt.apply(g, 0, "law:0"), 0, "keep")
    assert g.law_slots == [None, "L02"] and g.law_deck == ["L03", "L04", "L05"]
    g = kt.apply(g, 1, "pass")
    assert g.phase == rules.AUCTION
    assert g.law_slots == ["L03", "L02"] and g.law_deck == ["L04", "L05"]


def test_when_every_player_has_taken_a_law_the_phase_ends():
    g = actions()
    give(g, 0, "brown")
    give(g, 1, "brown")
    g = kt.apply(kt.apply(g, 0, "law:0"), 0, "keep")
    g = kt.apply(kt.apply(g, 1, "law:1"), 1, "keep")
    assert g.phase == rules.AUCTION


def test_the_taker_may_play_a_phase_3_card_at_once_then_the_turn_moves_on():
    g = actions()
    g.law_slots = ["L15", "L02"]  # Smith's Gift
    give(g, 0, "brown")
    g = kt.apply(g, 0, "law:0")
    assert ids(g, 0) == ["play:L15", "keep"]
    g = kt.apply(g, 0, "play:L15")
    assert held(g, 0) == {"white": 1} and g.played == ["L15"]
    assert g.phase == rules.ACTIONS and kt.to_act(g) == {1}


def test_foreman_actions_left_are_lost_by_taking_a_law():
    g = actions()
    g.players[0].laws = ["L17"]
    give(g, 0, "brown black")
    g = kt.apply(g, 0, "play:L17")
    g = kt.apply(g, 0, "law:0")
    g = kt.apply(kt.apply(g, 0, "pay:brown"), 0, "keep")
    assert kt.to_act(g) == {1} and g.extra == 0


def test_law_payment_can_be_cancelled():
    g = actions()
    give(g, 0, "brown black")
    before = snapshot(g)
    g2 = kt.apply(g, 0, "law:0")
    assert ids(g2, 0) == ["pay:brown", "pay:black", "cancel"]
    assert snapshot(kt.apply(g2, 0, "cancel")) == before


# --- G: pass ---

def test_phase_3_ends_when_all_pass_in_succession():
    g = actions()
    give(g, 1, "brown brown")
    g = kt.apply(g, 0, "pass")
    g = kt.apply(g, 1, "trade")
    g = kt.apply(g, 1, "get:green")  # paid with both timber at once
    g = kt.apply(g, 0, "pass")
    assert g.phase == rules.ACTIONS  # the trade broke the succession
    g = kt.apply(g, 1, "pass")
    assert g.phase == rules.AUCTION


def test_after_a_law_is_taken_the_players_still_able_to_act_must_all_pass():
    g = actions(players=3)
    give(g, 1, "brown")
    g = kt.apply(g, 0, "pass")
    g = kt.apply(kt.apply(g, 1, "law:0"), 1, "keep")  # breaks the succession
    g = kt.apply(g, 2, "pass")
    assert g.phase == rules.ACTIONS and kt.to_act(g) == {0}
    g = kt.apply(g, 0, "pass")  # seats 2 and 0 have now passed in succession
    assert g.phase == rules.AUCTION


def test_a_player_may_always_pass_and_illegal_choices_are_refused():
    g = actions()
    assert ids(g, 0) == ["pass"]  # no cubes: nothing else is affordable
    give(g, 0, "green")
    assert ids(g, 0) == ["law:0", "law:1", "pass"]
    with pytest.raises(IllegalAction):
        kt.apply(g, 0, "tile:4a")
    with pytest.raises(IllegalAction):
        kt.apply(g, 1, "pass")


def test_cancelling_a_fence_changes_nothing():
    g = actions()
    give(g, 0, "brown")
    before = snapshot(g)
    assert snapshot(kt.apply(kt.apply(g, 0, "fence"), 0, "cancel")) == before
