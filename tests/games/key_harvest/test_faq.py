"""The seed's FAQ, one test per answer."""

from __future__ import annotations

import app.games.key_harvest as kh
from app.games.key_harvest.rules import OVER, workers_at_home

from .support import act, crop, game, give, held, ids, lay, stock, top_of_bag


def test_you_can_harvest_a_single_unconnected_tile():
    g = act(lay(game(), 0, "A1 C3 C4"), 0, "harvest:A1")
    assert held(g, 0) == {crop("A1"): 1} and g.players[0].fields["C3"] is False


def test_workers_may_stand_next_to_harvested_fields():
    g = lay(game(), 0, "", harvested="C3 C4")
    assert "play:red-reaper" in ids(g, 0)
    g = act(g, 0, "play:red-reaper")
    assert "space:D3" in ids(g, 0)  # touches C3 and C4, both harvested


def test_replacing_a_worker_with_a_higher_one_does_not_use_the_replaced_ones_action_again():
    g = lay(game(), 0, "C3 C4 D4")
    g.players[0].workers["D3"] = "red-gleaner"
    g = act(g, 0, "play:red-reaper", "space:D3")
    assert g.queue[0]["do"] == "power" and g.queue[0]["worker"] == "red-reaper"  # only the new one's
    assert not any(job["do"] == "place" for job in g.queue)  # the gleaner is not re-placed
    assert "red-gleaner" in workers_at_home(g, g.players[0])


def test_only_a_field_tile_landing_on_a_worker_lets_it_move_and_act_again():
    g = stock(lay(game(), 0, "C4 D4"), 0, "C3", "red")
    g.players[0].workers["C3"] = "red-gleaner"
    g = act(g, 0, "take:0:0")
    assert g.queue[0] == {"do": "place", "seat": 0, "worker": "red-gleaner", "why": "displaced"}


def test_a_worker_cannot_be_played_with_no_fields_next_to_it():
    assert not any(o.startswith("play:") for o in ids(game(), 0))


def test_unharvested_tiles_count_toward_group_size():
    g = lay(game(), 0, "A1 A2", harvested="A3")
    g.phase, g.queue = OVER, []
    assert kh.result(g).scores[0].breakdown["Largest group"] == 3


def test_no_more_than_two_tiles_in_a_store():
    g = give(game(), 0, "red red red")
    g = act(g, 0, "registry:0", "add:red", "confirm", "registry:1", "add:red", "confirm")
    assert len(g.players[0].store) == 2
    g = act(g, 0, "end")
    g = act(g, 1, "end")
    assert not any(o.startswith("registry:") for o in ids(g, 0))


def test_an_empty_bag_leaves_the_space_empty_and_play_goes_on():
    g = give(game(), 0, "red")
    g.bag = []
    g = act(g, 0, "registry:3", "add:red", "confirm")
    assert g.registry[3] is None and kh.result(g) is None and kh.to_act(g) == {0}


def test_counters_gained_while_placing_a_tile_can_pay_in_the_second_action():
    g = stock(lay(game(), 0, "C4 D4"), 0, "C3", "red")
    g.players[0].workers["C3"] = "red-gleaner"
    g = act(g, 0, "take:0:0", "space:D3", "gain:orange")
    top_of_bag(g, "A1")
    g = act(g, 0, "registry:0", "add:orange", "confirm")
    assert g.players[0].store[0]["bid"] == {"orange": 1} and g.registry[0] == "A1"
