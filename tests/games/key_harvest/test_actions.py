"""A turn of up to two different actions: harvest, workers, transfers, the registry."""

from __future__ import annotations

import pytest

import app.games.key_harvest as kh
from app.games.protocol import IllegalAction

from .support import act, crop, game, give, held, ids, lay, snapshot, stock, top_of_bag


# --- A turn ---

def test_a_turn_offers_the_four_actions_and_ending_it():
    g = lay(give(game(), 0, "red"), 0, "C3 C4")
    stock(g, 1, "A1", "green")
    options = ids(g, 0)
    assert "harvest:C3" in options and "play:red-gleaner" in options
    assert "registry:0" in options and "end" in options
    assert not any(o.startswith("take:") for o in options)  # seat 1's bid is green: unaffordable


def test_each_action_only_once_and_the_turn_ends_after_two():
    g = lay(game(), 0, "C3 C4 A1")
    g = act(g, 0, "harvest:A1")
    assert g.used == ["harvest"] and not any(o.startswith("harvest:") for o in ids(g, 0))
    g = act(g, 0, "play:red-gleaner", "space:D3", "gain:brown")
    assert g.turn == 1 and kh.to_act(g) == {1} and g.used == []


def test_end_passes_the_bag_to_the_left():
    g = act(game(3, start=2), 2, "end")
    assert g.turn == 0


# --- Action A: Harvest crops ---

def test_harvest_flips_every_unharvested_field_of_the_group_one_counter_each():
    g = lay(game(), 0, "C3 C4 D4", harvested="D3")
    assert [o for o in ids(g, 0) if o.startswith("harvest:")] == ["harvest:C3"]
    g = act(g, 0, "harvest:C3")
    assert all(g.players[0].fields.values())
    assert held(g, 0) == {crop("C3"): 1, crop("C4"): 1, crop("D4"): 1}  # none for D3, already harvested


def test_a_single_unconnected_tile_can_be_harvested():
    g = act(lay(game(), 0, "A1 G8"), 0, "harvest:G8")
    assert held(g, 0) == {crop("G8"): 1} and g.players[0].fields == {"A1": False, "G8": True}


def test_workers_do_not_connect_fields():
    g = lay(game(), 0, "C3 E4")
    g.players[0].workers["D3"] = "red-gleaner"  # touches both
    assert [o for o in ids(g, 0) if o.startswith("harvest:")] == ["harvest:C3", "harvest:E4"]


def test_a_wholly_harvested_group_is_not_offered():
    g = lay(game(), 0, "", harvested="C3 C4")
    assert not any(o.startswith("harvest:") for o in ids(g, 0))


def test_when_a_crop_runs_out_the_harvester_takes_any_counter():
    g = lay(game(), 0, "C3")  # wine
    g.supply["red"] = 0
    g = act(g, 0, "harvest:C3")
    assert ids(g, 0) == ["gain:brown", "gain:green", "gain:orange", "gain:yellow"]
    g = act(g, 0, "gain:orange")
    assert held(g, 0) == {"orange": 1} and g.queue == []


# --- Action B: Play or remove a worker tile ---

def test_a_worker_must_touch_at_least_as_many_fields_as_its_number():
    g = lay(game(), 0, "C4 D4 C5")  # three mutually touching fields: no space touches all three
    plays = [o for o in ids(g, 0) if o.startswith("play:")]
    assert "play:red-reaper" in plays and "play:red-steward" not in plays
    g = act(g, 0, "play:red-reaper")
    spaces = [o for o in ids(g, 0) if o.startswith("space:")]
    assert spaces and all(len([n for n in kh.rules.NEIGHBOURS[s[6:]] if n in g.players[0].fields]) >= 2
                          for s in spaces)


def test_a_worker_may_not_touch_another_worker_but_may_replace_a_lower_one():
    g = lay(game(), 0, "C3 C4 D4 C5")
    g.players[0].workers["D3"] = "red-gleaner"
    g = act(g, 0, "play:red-reaper")
    spaces = ids(g, 0)
    assert "space:D3" in spaces  # replacing the gleaner (1) with the reaper (2)
    assert "space:D2" not in spaces and "space:E4" not in spaces  # next to the gleaner
    g = act(g, 0, "space:D3")
    assert g.players[0].workers == {"D3": "red-reaper"}
    assert "red-gleaner" in kh.rules.workers_at_home(g, g.players[0])


def test_a_worker_cannot_replace_an_equal_or_higher_one():
    g = lay(game(), 0, "C3 C4 D4 C5")
    g.players[0].workers["D3"] = "red-carter"  # value 2
    g = act(g, 0, "play:red-reaper")
    assert "space:D3" not in ids(g, 0)


def test_a_replaced_townsfolk_goes_back_to_the_town_board():
    g = lay(game(), 0, "E5 E4 D3 C4 C5")
    g.players[0].workers["D4"] = "miller"
    g.town.remove("miller")
    g = act(g, 0, "play:lord", "space:D4")
    assert g.players[0].workers == {"D4": "lord"} and "miller" in g.town and "lord" not in g.town


def test_removing_a_worker_sends_it_home_and_uses_the_worker_action():
    g = lay(game(), 0, "C3 C4")
    g.players[0].workers["D3"] = "red-gleaner"
    g = act(g, 0, "remove:D3")
    assert g.players[0].workers == {} and g.used == ["worker"]
    assert not any(o.startswith(("play:", "remove:")) for o in ids(g, 0))


def test_playing_can_be_cancelled_before_a_space_is_chosen():
    g = lay(game(), 0, "C3 C4")
    before = snapshot(g)
    g = act(g, 0, "play:red-gleaner", "cancel")
    assert snapshot(g) == before


def test_a_bell_power_is_optional_and_a_scroll_power_compulsory():
    g = lay(game(), 0, "C3 C4", harvested="D4")
    bell = act(g, 0, "play:red-gleaner", "space:D3")
    assert "done" in ids(bell, 0)
    scroll = act(g, 0, "play:red-carter", "space:D3")
    assert ids(scroll, 0) == [f"cart:{t}" for t in g.registry if t]  # no way out


# --- Action C: Transfer field tiles from stores ---

def test_a_tile_from_your_own_store_costs_its_bid_to_the_supply():
    g = stock(lay(game(), 0, "C4"), 0, "C3", "red red")
    supply = g.supply["red"]
    g = act(g, 0, "take:0:0")
    assert g.players[0].fields["C3"] is False and g.players[0].store == []
    assert g.supply["red"] == supply + 2 and held(g, 0) == {}


def test_buying_from_an_opponent_matches_the_bid_exactly_and_they_keep_both():
    g = stock(game(), 1, "D4", "green yellow")
    give(g, 0, "green green yellow")
    g = act(g, 0, "take:1:0")
    assert held(g, 0) == {"green": 1}
    assert held(g, 1) == {"green": 2, "yellow": 2}  # the bid and the payment, behind the screen
    assert "D4" in g.players[0].fields and g.players[1].store == []


def test_an_opponents_tile_is_not_offered_without_the_exact_colours():
    g = stock(game(), 1, "D4", "green yellow")
    give(g, 0, "red red green")
    assert not any(o.startswith("take:1:") for o in ids(g, 0))
    with pytest.raises(IllegalAction):
        kh.apply(g, 0, "take:1:0")


def test_one_or_two_tiles_per_transfer():
    g = stock(stock(stock(game(3), 0, "A1", "red"), 0, "A2", "red"), 2, "G8", "green")
    give(g, 0, "green")
    g = act(g, 0, "take:0:0")
    assert g.queue[0]["do"] == "more" and set(ids(g, 0)) == {"take:0:0", "take:2:0", "done"}
    g = act(g, 0, "take:2:0")
    assert g.queue == [] and g.used == ["transfer"]
    assert not any(o.startswith("take:") for o in ids(g, 0))


def test_no_transfer_after_placing_from_the_registry_but_the_other_way_round_is_fine():
    g = stock(give(game(), 0, "red red"), 0, "A1", "green")
    after_d = act(g, 0, "registry:0", "add:red", "confirm")  # the store is full: no second tile
    assert "take:0:0" not in ids(after_d, 0) and after_d.turn == 0
    after_c = act(g, 0, "take:0:0")
    assert "registry:0" in ids(after_c, 0)


def test_a_tile_landing_on_a_worker_displaces_it_and_it_may_be_re_placed_and_used_again():
    g = stock(lay(game(), 0, "C4 D4 B2"), 0, "C3", "red")
    g.players[0].workers["C3"] = "red-gleaner"
    g = act(g, 0, "take:0:0")
    assert "C3" in g.players[0].fields and "C3" not in g.players[0].workers
    assert g.queue[0]["do"] == "place" and "home" in ids(g, 0)
    g = act(g, 0, "space:D3")
    assert g.players[0].workers == {"D3": "red-gleaner"}
    assert ids(g, 0)[-1] == "done" and "gain:yellow" in ids(g, 0)  # its power works again
    g = act(g, 0, "gain:yellow")
    assert held(g, 0) == {"yellow": 1}


def test_a_displaced_worker_with_nowhere_to_go_goes_home():
    g = stock(game(), 0, "C3", "red")
    g.players[0].workers["C3"] = "red-gleaner"
    g = act(g, 0, "take:0:0")
    assert g.queue[0]["do"] == "place"  # the gleaner (1) can go next to the new tile
    g2 = stock(game(), 0, "C3", "red")
    g2.players[0].workers["C3"] = "red-steward"
    g2 = act(g2, 0, "take:0:0")
    assert g2.players[0].workers == {} and "red-steward" in kh.rules.workers_at_home(g2, g2.players[0])
    assert any("nowhere to go" in line for line in g2.log)


def test_a_displaced_worker_may_be_sent_home_instead():
    g = stock(lay(game(), 0, "C4"), 0, "C3", "red")
    g.players[0].workers["C3"] = "red-gleaner"
    g = act(g, 0, "take:0:0", "home")
    assert g.players[0].workers == {} and g.queue == []  # no store holds a second tile
    assert "red-gleaner" in kh.rules.workers_at_home(g, g.players[0])


def test_faq_counters_gained_by_re_placing_can_pay_in_the_second_action():
    g = stock(lay(game(), 0, "C4 D4"), 0, "C3", "red")
    g.players[0].workers["C3"] = "red-gleaner"
    assert not any(o.startswith("registry:") for o in ids(g, 0))  # no counter to bid with
    g = act(g, 0, "take:0:0", "space:D3", "gain:brown")
    assert "registry:0" in ids(g, 0)
    g = act(g, 0, "registry:0", "add:brown", "confirm")
    assert g.players[0].store[0]["bid"] == {"brown": 1}


# --- Action D: Place tiles from the registry into your store ---

def test_placing_from_the_registry_bids_counter_by_counter_then_refills_at_once():
    g = give(game(), 0, "red red green")
    tile = g.registry[2]
    top_of_bag(g, "A1")
    g = act(g, 0, "registry:2")
    assert "confirm" not in ids(g, 0)  # a bid is at least one counter
    g = act(g, 0, "add:red", "add:green", "confirm")
    assert g.players[0].store == [{"tile": tile, "bid": {"green": 1, "red": 1}}]
    assert held(g, 0) == {"red": 1} and g.registry[2] == "A1"


def test_a_bid_in_the_making_is_private_until_confirmed():
    g = give(game(), 0, "red red green")
    before = {seat: kh.view(g, seat) for seat in (None, 1)}
    g2 = act(g, 0, "registry:2", "add:red", "add:green")
    for seat in (None, 1):
        assert kh.view(g2, seat) == before[seat]
    assert kh.view(g2, 0)["private"]["bid"] == {"slot": 2, "tile": g.registry[2], "counters": {"red": 1, "green": 1}}
    assert snapshot(act(g2, 0, "cancel")) == snapshot(g)


def test_store_holds_at_most_two_tiles():
    g = stock(stock(give(game(), 0, "red"), 0, "A1", "green"), 0, "A2", "green")
    assert not any(o.startswith("registry:") for o in ids(g, 0))


def test_a_second_registry_tile_may_follow_with_its_own_bid():
    g = give(game(), 0, "red green")
    g = act(g, 0, "registry:0", "add:red", "confirm")
    assert g.queue[0]["do"] == "more" and "done" in ids(g, 0)
    g = act(g, 0, "registry:1", "add:green", "confirm")
    assert len(g.players[0].store) == 2 and g.used == ["registry"] and g.queue == []


def test_no_counters_no_registry_tile():
    assert not any(o.startswith("registry:") for o in ids(game(), 0))


def test_a_townsfolk_removed_goes_back_to_the_town_board():
    g = lay(game(), 0, "E5 E4 D3 C4")
    g.players[0].workers["D4"] = "miller"
    g.town.remove("miller")
    g = act(g, 0, "remove:D4")
    assert "miller" in g.town and g.players[0].workers == {}


def test_harvesting_with_the_supply_empty_takes_nothing_and_asks_nothing():
    g = lay(game(), 0, "C3 C4")
    for c in g.supply:
        g.supply[c] = 0
    g = act(g, 0, "harvest:C3")
    assert held(g, 0) == {} and g.queue == [] and all(g.players[0].fields.values())
    assert "the supply is empty" in g.log[-1]


def test_whether_a_seat_can_afford_a_second_tile_changes_nothing_the_others_see():
    rich = stock(stock(game(), 0, "A1", "red"), 1, "G8", "green")
    poor = stock(stock(game(), 0, "A1", "red"), 1, "G8", "green")
    rich.players[0].counters["green"] += 1  # behind the screen only: the supply stays the same
    rich, poor = act(rich, 0, "take:0:0"), act(poor, 0, "take:0:0")
    assert "take:1:0" in ids(rich, 0) and "take:1:0" not in ids(poor, 0)  # its own choices differ...
    assert kh.to_act(rich) == kh.to_act(poor) == {0}  # ...but it is asked either way
    for seat in (None, 1):
        assert kh.view(rich, seat)["public"] == kh.view(poor, seat)["public"]
