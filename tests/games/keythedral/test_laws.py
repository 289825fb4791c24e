"""Each of the 20 law cards, when it may be played, and that played cards leave the game."""

from __future__ import annotations

import json

import pytest

import app.games.keythedral as kt
from app.games.keythedral import rules
from app.games.keythedral.notation import position

from .support import LAKE, LAND, QUARRY, QUARRY_LOW, VINE, WOOD, at_actions, give, held, ids, snapshot

def holding(card, seat=0, start=0, players=2):
    g = position(LAND, players, start=start)
    g.players[seat].laws = [card]
    return g


def at_collect(g, workers):
    g.workers = dict(workers)
    g.marker = 6
    rules.await_marker(g)
    return g


# --- Phase 1 ---

def test_royal_decree_its_player_places_every_remaining_marker():
    g = holding("L01")
    assert "play:L01" in ids(g, 0)
    g = kt.apply(g, 0, "play:L01")
    assert g.decree == 0 and g.played == ["L01"] and g.players[0].laws == []
    assert "{seat0} plays the law Royal Decree" in g.log[-1]
    for n in (5, 4, 3, 2):
        assert kt.to_act(g) == {0} and g.phase == rules.ORDER, n
        g = kt.apply(g, 0, f"order:{n}")
        while g.phase == rules.WORKERS:
            s = next(iter(kt.to_act(g)))
            g = kt.apply(g, s, ids(g, s)[0])
    assert g.markers == {"5": 1, "4": 2, "3": 3, "2": 4, "1": 5}
    assert [line.split()[0] for line in g.log if "places work order marker" in line] == ["{seat0}"] * 5


def test_labour_levy_cottages_send_two_workers():
    g = holding("L02")
    g = kt.apply(g, 0, "play:L02")
    assert rules.workers_sent(g, 0, 1) == 2 and rules.workers_sent(g, 1, 1) == 1
    g = kt.apply(g, 0, "order:1")
    g = kt.apply(g, 0, f"field:{g.fields[LAKE]}")
    assert kt.to_act(g) == {0}  # a second worker from cottage 1
    g = kt.apply(g, 0, f"field:{g.fields[VINE]}")
    assert sorted(c for c, s in g.workers.items() if s == 0) == sorted([LAKE, VINE])


def test_right_of_way_lets_workers_cross_fences():
    g = holding("L03")
    assert "play:L03" not in ids(g, 0)  # no fence anywhere: nothing to cross
    g.fences.append({"id": 1, "owner": 1, "gap": "-1,-1", "cell": LAKE})
    assert LAKE not in rules.worker_fields(g, 0, 1)
    g = kt.apply(g, 0, "play:L03")
    assert LAKE in rules.worker_fields(g, 0, 1)
    g.marker = 6
    rules.await_marker(g)  # the phase is over: the right ends with it
    assert LAKE not in rules.worker_fields(g, 0, 1)


# --- Phase 2 ---

@pytest.mark.parametrize("card", ["L04", "L05"])
def test_bumper_harvest_one_more_cube_per_worker_on_a_type_for_the_rest_of_the_phase(card):
    g = holding(card, seat=1, start=0)
    g = at_collect(g, {QUARRY: 0, QUARRY_LOW: 1, WOOD: 1})
    assert held(g, 0) == {"black": 1}  # collected before the card was played: kept
    assert ids(g, 1) == ["collect", f"play:{card}"]
    g = kt.apply(g, 1, f"play:{card}")
    assert ids(g, 1)[:5] == ["type:quarry", "type:wood", "type:lake", "type:farm", "type:vineyard"]
    g = kt.apply(g, 1, "type:quarry")
    assert g.phase == rules.ACTIONS and g.effects == {}  # Phase 2 over: the harvest ends
    assert "For the rest of this phase, workers on quarry fields collect one extra cube." in g.log
    # the card was its last one: it collects at once
    assert held(g, 1) == {"black": 2, "brown": 1}
    assert held(g, 0) == {"black": 1}


def test_blight_stops_one_type_for_the_rest_of_the_phase():
    g = holding("L06", seat=1, start=1)
    g = at_collect(g, {QUARRY: 0, QUARRY_LOW: 1, LAKE: 0})
    g.players[1].laws.append("L12")  # still holding a card after playing Blight
    g = kt.apply(kt.apply(g, 1, "play:L06"), 1, "type:quarry")
    assert ids(g, 1) == ["collect"]
    g = kt.apply(g, 1, "collect")
    assert held(g, 1) == {} and held(g, 0) == {"blue": 1}
    assert g.phase == rules.ACTIONS


def test_granary_rights_each_of_its_players_workers_collects_one_more():
    g = holding("L07", seat=1, start=1)
    g = at_collect(g, {QUARRY_LOW: 1, WOOD: 1, LAKE: 0})
    g = kt.apply(g, 1, "play:L07")  # the card was its last: it collects at once
    assert held(g, 1) == {"black": 2, "brown": 2} and held(g, 0) == {"blue": 1}


def test_a_phase_2_choice_can_be_cancelled_and_the_card_stays_in_hand():
    g = holding("L06", seat=1, start=1)
    g = at_collect(g, {QUARRY_LOW: 1})
    before = snapshot(g)
    assert snapshot(kt.apply(kt.apply(g, 1, "play:L06"), 1, "cancel")) == before


# --- Phase 3 ---

@pytest.mark.parametrize("card", ["L08", "L09"])
def test_guild_discount_the_buyer_leaves_out_one_cube_of_their_choice(card):
    g = at_actions(holding(card, seat=0))
    g.rows["4"] = ["4c", "4a"]
    g = kt.apply(g, 0, f"play:{card}")
    assert ids(g, 0) == ["mark:4c", "mark:4a", "cancel"]
    g = kt.apply(g, 0, "mark:4c")
    assert g.discounts == {"4c": 1} and g.actor == 1
    give(g, 1, "black brown")
    g = kt.apply(g, 1, "tile:4c")
    assert ids(g, 1) == ["drop:brown", "drop:black", "cancel"]
    g = kt.apply(g, 1, "drop:black")
    assert held(g, 1) == {"black": 1} and g.players[1].tiles == ["4c"] and g.discounts == {}


def test_a_discounted_tile_with_one_affordable_way_is_bought_at_once():
    g = at_actions(holding("L08"))
    g.rows["4"] = ["4c"]
    g = kt.apply(kt.apply(g, 0, "play:L08"), 0, "mark:4c")
    give(g, 1, "brown")
    g = kt.apply(g, 1, "tile:4c")
    assert g.players[1].tiles == ["4c"] and held(g, 1) == {}


def test_building_tax_adds_a_cube_of_a_colour_already_in_the_cost():
    g = at_actions(holding("L10"))
    g.rows["4"] = ["4c"]
    g = kt.apply(kt.apply(g, 0, "play:L10"), 0, "mark:4c")
    assert ids(g, 0) == ["add:brown", "add:black", "cancel"]
    g = kt.apply(g, 0, "add:black")
    assert rules.tile_cost(g, "4c") == ["black", "brown", "black"]
    give(g, 1, "black brown")
    assert "tile:4c" not in ids(g, 1)
    give(g, 1, "black")
    assert "tile:4c" in ids(g, 1)
    assert kt.view(g, None)["public"]["mat"][0]["tiles"][0]["cost"] == ["black", "brown", "black"]


def test_honest_trader_one_basic_cube_for_one_for_the_rest_of_the_phase():
    g = at_actions(holding("L11"))
    give(g, 0, "red")
    assert "trade" not in ids(g, 0)
    g = kt.apply(g, 0, "play:L11")
    assert g.actor == 1
    g = kt.apply(g, 1, "pass")
    assert "trade" in ids(g, 0)
    g = kt.apply(kt.apply(g, 0, "trade"), 0, "get:green")
    assert held(g, 0) == {"green": 1}


def test_master_mason_a_free_house():
    g = at_actions(holding("L12"))
    g = kt.apply(g, 0, "play:L12")
    assert ids(g, 0) == ["house:1", "house:2", "cancel"]
    g = kt.apply(g, 0, "house:2")
    assert g.cottages["0-2"]["house"] and held(g, 0) == {} and g.actor == 1


def test_fence_breaker_removes_any_fence_for_free():
    g = at_actions(holding("L13"))
    assert "play:L13" not in ids(g, 0)
    g.fences.append({"id": 4, "owner": 0, "gap": "1,0", "cell": "0,0"})
    g = kt.apply(kt.apply(g, 0, "play:L13"), 0, "remove:4")
    assert g.fences == [] and g.played == ["L13"]


def test_enclosure_act_builds_a_fence_without_timber():
    g = at_actions(holding("L14"))
    g = kt.apply(g, 0, "play:L14")
    g = kt.apply(g, 0, "fence:1,0/0,0")
    assert g.fences[0]["owner"] == 0 and g.players[0].fences == 2 and held(g, 0) == {}


def test_smiths_gift_a_free_ironwork_cube_spent_ones_when_the_mat_is_empty():
    g = at_actions(holding("L15"))
    g.craft["white"], g.spent["white"] = 0, 2
    g = kt.apply(g, 0, "play:L15")
    assert held(g, 0) == {"white": 1} and g.spent["white"] == 1


def test_royal_grant_two_basic_cubes_of_your_choice():
    g = at_actions(holding("L16"))
    g = kt.apply(g, 0, "play:L16")
    g = kt.apply(g, 0, "get:red")
    assert held(g, 0) == {} and g.pending["got"] == ["red"]  # taken together at the end
    g = kt.apply(g, 0, "get:red")
    assert held(g, 0) == {"red": 2} and g.store["red"] == 13


def test_royal_grant_with_one_cube_in_the_store_takes_that_one():
    g = at_actions(holding("L16"))
    g.store = {"brown": 0, "black": 0, "green": 0, "blue": 1, "red": 0}
    g = kt.apply(g, 0, "play:L16")
    assert ids(g, 0) == ["get:blue", "cancel"]
    g = kt.apply(g, 0, "get:blue")
    assert held(g, 0) == {"blue": 1} and g.pending is None


def test_foreman_two_more_actions_in_a_row():
    g = at_actions(holding("L17"))
    give(g, 0, "black brown black brown")
    g = kt.apply(g, 0, "play:L17")
    assert g.actor == 0
    g = kt.apply(g, 0, "house:1")
    assert g.actor == 0
    g = kt.apply(g, 0, "house:2")
    assert g.actor == 1


def test_surveyor_moves_a_cottage_to_an_empty_place():
    g = at_actions(holding("L18"))
    g = kt.apply(g, 0, "play:L18")
    assert ids(g, 0) == ["move:1", "move:2", "cancel"]
    g = kt.apply(g, 0, "move:2")
    assert "gap:1,-1" in ids(g, 0) and "gap:-1,0" not in ids(g, 0)
    g = kt.apply(g, 0, "gap:1,-1")
    assert g.cottages["0-2"]["gap"] == "1,-1" and g.played == ["L18"]


def test_a_card_is_played_only_in_its_phase():
    g = holding("L12")  # Master Mason, Phase 3
    assert "play:L12" not in ids(g, 0)  # Phase 1
    g = at_collect(g, {LAKE: 0})
    assert ids(g, 0) == ["collect"]  # Phase 2
    g = kt.apply(g, 0, "collect")
    assert "play:L12" in ids(g, 0)  # Phase 3


# --- Phase 5 ---

def auction(g, cubes=None):
    for seat, held_cubes in (cubes or {}).items():
        give(g, seat, held_cubes)
    rules.end_actions(at_actions(g, g.start))
    return g


def test_royal_favour_wins_the_auction_at_once_for_nothing():
    g = auction(holding("L19", seat=0, start=0, players=3), {2: "green green"})  # holder 1; bidders 2, 0
    g = kt.apply(g, 2, "bid:2")
    assert kt.to_act(g) == {0} and ids(g, 0) == ["pass", "play:L19"]  # no cubes, but a law to play
    g = kt.apply(g, 0, "play:L19")
    assert g.auction["winner"] == 0 and g.auction["step"] == "start"
    assert held(g, 2) == {"green": 2}  # the bid is never paid
    g = kt.apply(g, 0, "start:0")
    assert g.start == 0 and g.phase == rules.ORDER


def test_royal_favour_lets_the_holder_keep_the_marker_for_nothing():
    g = auction(holding("L19", seat=1, start=0, players=2), {0: "red red"})  # holder 1, bidder 0
    g = kt.apply(g, 0, "bid:2")
    assert ids(g, 1) == ["decline", "play:L19"]
    g = kt.apply(g, 1, "play:L19")
    assert g.auction["winner"] == 1 and held(g, 0) == {"red": 2} and kt.to_act(g) == {1}


def test_patronage_every_bid_counts_two_more():
    g = holding("L20", seat=1, start=1)  # holder 0, bidder 1
    g.players[0].laws = ["L12"]  # so the holder is asked although unable to match
    h = auction(g, {1: "red", 0: "brown brown"})
    h = kt.apply(h, 1, "play:L20")
    assert ids(h, 1) == ["bid:0", "bid:1", "pass"]
    h = kt.apply(h, 1, "bid:1")
    assert h.auction["worth"] == 3 and h.auction["leader"] == 1
    assert h.log[-2] == "{seat1} bids 1 cube (it counts 3 with Patronage)."
    assert "match" not in ids(h, 0)  # the holder cannot match 3 with 2 cubes
    h = kt.apply(h, 0, "decline")
    assert held(h, 1) == {} and held(h, 0) == {"brown": 2, "red": 1}  # only the cube bid moves
