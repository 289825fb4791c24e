"""Phases 1, 2 and 4: work order markers, workers, collecting cubes, retrieving."""

from __future__ import annotations

import app.games.keythedral as kt
from app.games.keythedral import rules
from app.games.keythedral.notation import position

from .support import FARM, FARM_TOP, LAKE, LAND, QUARRY, QUARRY_LOW, VINE, WOOD, WOOD_LOW, ids


def fid(g, cell):
    return g.fields[cell]


def test_work_order_markers_go_clockwise_from_the_start_player():
    def placers(players, start):
        g = position(LAND, players, start=start)
        out = []
        for marker in range(1, 6):
            g.marker = marker
            out.append(rules.marker_placer(g))
        return out

    assert placers(2, 0) == [0, 1, 0, 1, 0]
    assert placers(3, 1) == [1, 2, 0, 1, 2]
    assert placers(4, 3) == [3, 0, 1, 2, 3]
    assert placers(5, 2) == [2, 3, 4, 0, 1]


def test_a_marker_sends_the_matching_cottages_start_player_first():
    g = position(LAND, 2, start=1)
    assert kt.to_act(g) == {1}
    assert ids(g, 1) == ["order:1", "order:2", "order:3", "order:4", "order:5"]
    g = kt.apply(g, 1, "order:1")
    assert g.markers == {"1": 1}
    # b1 (seat 1, the start player) chooses first, among its four empty fields
    assert kt.to_act(g) == {1}
    assert ids(g, 1) == [f"field:{fid(g, c)}" for c in (VINE, FARM_TOP, QUARRY, WOOD)]
    g = kt.apply(g, 1, f"field:{fid(g, QUARRY)}")
    # then a1 (seat 0): the quarry is taken now
    assert kt.to_act(g) == {0}
    assert ids(g, 0) == [f"field:{fid(g, c)}" for c in (LAKE, VINE, FARM)]
    g = kt.apply(g, 0, f"field:{fid(g, LAKE)}")
    assert g.workers == {QUARRY: 1, LAKE: 0}
    # marker 2 is placed by the next player clockwise (seat 0)
    assert kt.to_act(g) == {0} and ids(g, 0)[0] == "order:2"


def test_fences_and_other_workers_keep_workers_out():
    g = position(LAND, 2, start=0)
    g.fences.append({"id": 1, "owner": 1, "gap": "-1,-1", "cell": LAKE})
    g.workers[VINE] = 1
    assert rules.worker_fields(g, 0, 1) == [FARM, QUARRY]
    # the fence shuts the lake off from a1 only: b1 does not touch it anyway, and a fence
    # between a1 and the lake does not stop b1 reaching the quarry both share
    assert rules.worker_fields(g, 1, 1) == [FARM_TOP, QUARRY, WOOD]


def test_a_house_sends_two_workers_to_different_fields():
    g = position(LAND.replace("a1", "A1"), 2, start=0)
    g = kt.apply(g, 0, "order:1")
    g = kt.apply(g, 0, f"field:{fid(g, LAKE)}")
    assert kt.to_act(g) == {0}  # the second worker of the house
    assert f"field:{fid(g, LAKE)}" not in ids(g, 0)
    g = kt.apply(g, 0, f"field:{fid(g, VINE)}")
    assert [c for c, s in g.workers.items() if s == 0] == [LAKE, VINE]


def test_a_house_with_one_free_field_places_one_worker_the_other_stays_home():
    g = position(LAND.replace("a2", "A2"), 2, start=0)
    g.workers = {FARM: 1, QUARRY: 1}  # only the lower wood is free for a2
    g = kt.apply(g, 0, "order:2")
    assert g.workers[WOOD_LOW] == 0
    assert sum(1 for s in g.workers.values() if s == 0) == 1
    assert "{seat0} has no free field for a worker from number 2." in g.log


def test_a_cottage_with_no_free_field_sends_nobody():
    g = position(LAND, 2, start=0)
    g.workers = {WOOD: 0, QUARRY_LOW: 0}  # both of b2's fields
    g = kt.apply(g, 0, "order:2")  # a2 then b2
    g = kt.apply(g, 0, f"field:{fid(g, FARM)}")  # a2: farm, quarry or lower wood
    assert "{seat1} has no free field for a worker from number 2." in g.log


def test_when_the_free_fields_are_no_more_than_the_workers_nobody_is_asked():
    g = position(LAND, 2, start=0)
    g.workers = {WOOD: 0}
    g = kt.apply(g, 0, "order:2")
    g = kt.apply(g, 0, f"field:{fid(g, FARM)}")
    assert g.workers[QUARRY_LOW] == 1  # b2's only free field, placed at once
    # number 2 has worked; marker 2 goes to the next player clockwise
    assert g.marker == 2 and kt.to_act(g) == {1}
    assert ids(g, 1) == ["order:1", "order:3", "order:4", "order:5"]


def first_four_markers(g):
    """Place markers 1-4, each worker taking its first choice."""
    for n in (1, 2, 3, 4):
        s = next(iter(kt.to_act(g)))
        g = kt.apply(g, s, f"order:{n}")
        while g.phase == rules.WORKERS:
            s = next(iter(kt.to_act(g)))
            g = kt.apply(g, s, ids(g, s)[0])
    return g


def test_the_last_marker_is_placed_without_asking_unless_its_placer_holds_a_law():
    g = first_four_markers(position(LAND, 2, start=0))
    assert g.markers["5"] == 5 and g.phase == rules.ACTIONS  # placed, collected, on to Phase 3

    h = position(LAND, 2, start=0)
    h.players[0].laws = ["L08"]  # a Phase 3 card: nothing to play now, but still asked
    h = first_four_markers(h)
    assert h.phase == rules.ORDER and ids(h, 0) == ["order:5"]


def test_collecting_gives_one_cube_per_worker_in_its_fields_colour():
    g = position(LAND, 2, start=0)
    g.workers = {LAKE: 0, QUARRY: 0, VINE: 1, WOOD: 1}
    g.marker = 6
    rules.await_marker(g)  # all markers placed: Phase 2 runs
    assert g.phase == rules.ACTIONS
    assert {c: n for c, n in g.players[0].cubes.items() if n} == {"blue": 1, "black": 1}
    assert {c: n for c, n in g.players[1].cubes.items() if n} == {"red": 1, "brown": 1}
    assert g.store == {"brown": 19, "black": 19, "green": 15, "blue": 14, "red": 14}
    assert "{seat0} collects 1 stone and 1 water." in g.log


def test_a_depleted_store_gives_nothing_and_the_start_player_collects_first():
    g = position(LAND, 2, start=1)
    g.store["black"] = 1
    g.workers = {QUARRY: 0, QUARRY_LOW: 1}
    g.marker = 6
    rules.await_marker(g)
    assert g.players[1].cubes["black"] == 1  # the start player
    assert g.players[0].cubes["black"] == 0
    assert g.store["black"] == 0
    assert "{seat0} collects nothing (the store ran short)." in g.log


def test_a_law_holder_is_asked_before_collecting_others_collect_at_once():
    g = position(LAND, 2, start=0)
    g.players[1].laws = ["L12"]  # a Phase 3 card: nothing to play, but no one can tell
    g.workers = {LAKE: 0, WOOD: 1}
    g.marker = 6
    rules.await_marker(g)
    assert g.phase == rules.COLLECT and kt.to_act(g) == {1}
    assert g.players[0].cubes["blue"] == 1
    assert ids(g, 1) == ["collect"]
    g = kt.apply(g, 1, "collect")
    assert g.players[1].cubes["brown"] == 1 and g.phase == rules.ACTIONS


def test_phase_4_returns_workers_clears_markers_and_refills_taken_laws():
    g = position(LAND, 2, start=0)
    g.workers = {LAKE: 0}
    g.markers = {"1": 1}
    g.phase = rules.ACTIONS
    taken = g.law_slots[1]
    g.law_slots[1] = None
    deck_top = g.law_deck[0]
    rules.end_actions(g)
    assert g.workers == {} and g.markers == {}
    assert g.law_slots[1] == deck_top and taken not in g.law_deck
    assert g.phase == rules.AUCTION


def test_an_empty_law_deck_leaves_slots_empty():
    g = position(LAND, 2, start=0)
    g.law_deck = []
    g.law_slots = [None, "L03"]
    rules.end_actions(g)
    assert g.law_slots == [None, "L03"]
    assert any("1 new law card on offer (the law deck is empty)" in line for line in g.log)
