"""Every worker power, played onto D4 with six fields around it: E5, E4 and D3 unharvested,
C4, C5 and D5 harvested, two tiles in the fallow fields."""

from __future__ import annotations

from collections import Counter

import pytest

import app.games.key_harvest as kh
from app.games.key_harvest.content import FARMHANDS, TOWNSFOLK, WORKERS

from .support import act, crop, game, held, ids, lay, take_out

RIPE, BARE = ["D3", "E4", "E5"], ["C4", "C5", "D5"]
RED_SET = [w for w in FARMHANDS if w.startswith("red-")]


def around_d4():
    g = lay(game(), 0, " ".join(RIPE), harvested=" ".join(BARE))
    for ref in ("A1", "A2"):
        take_out(g, ref)
        g.fallow.append(ref)
    return g


def use_power(g, worker):
    """Play the worker on D4, then take the power's choices in order until it is over."""
    g = act(g, 0, f"play:{worker}", "space:D4")
    picks = []
    while g.queue and g.queue[0]["do"] == "power":
        choice = next(o for o in ids(g, 0) if o != "done")
        picks.append(choice)
        g = act(g, 0, choice)
    return g, picks


@pytest.mark.parametrize("worker", RED_SET + list(TOWNSFOLK))
def test_each_worker_power_does_what_its_tile_says(worker):
    w = WORKERS[worker]
    g, picks = use_power(around_d4(), worker)
    board = g.players[0].fields
    if w.power == "gain":
        assert len(picks) == w.amount and sum(held(g, 0).values()) == w.amount
    elif w.power == "reap":
        reaped = RIPE[:min(w.amount, 3)]
        assert picks == [f"reap:{r}" for r in reaped] and all(board[r] for r in reaped)
        assert held(g, 0) == dict(Counter(crop(r) for r in reaped))
    elif w.power == "renew":
        renewed = BARE[:min(w.amount, 3)]
        assert picks == [f"renew:{r}" for r in renewed] and not any(board[r] for r in renewed)
        assert sum(board[r] for r in BARE) == 3 - len(renewed)
    elif w.power == "settle":
        settled = ["A1", "A2"][:w.amount]
        assert all(board[r] is False for r in settled) and g.fallow == ["A1", "A2"][w.amount:]
    else:  # tally: one of each different crop around it, no choice
        assert picks == []
        assert held(g, 0) == {c: 1 for c in {crop(r) for r in RIPE + BARE}}


def test_a_bell_power_can_be_stopped_or_skipped():
    g = act(around_d4(), 0, "play:red-reaper", "space:D4", "reap:D3", "done")
    assert held(g, 0) == {crop("D3"): 1} and g.queue == []
    g = act(around_d4(), 0, "play:miller", "space:D4", "done")
    assert held(g, 0) == {}


def test_a_scroll_power_with_nothing_to_do_does_nothing():
    g = lay(game(), 0, "C3 C4")
    g = act(g, 0, "play:red-ploughboy", "space:D3")  # no harvested field next to it
    assert g.queue == [] and g.used == ["worker"]


def test_a_scroll_power_must_be_used_in_full():
    g = act(around_d4(), 0, "play:reeve", "space:D4")
    assert "done" not in ids(g, 0)
    g = act(g, 0, "renew:C4")
    assert "done" not in ids(g, 0) and g.queue[0]["left"] == 2


def test_the_lord_of_the_manor_harvests_every_field_next_to_him():
    g, picks = use_power(around_d4(), "lord")
    assert picks == ["reap:D3", "reap:E4", "reap:E5"] and all(g.players[0].fields.values())


def test_tally_takes_any_counter_for_a_crop_that_ran_out():
    g = around_d4()
    g.supply["green"] = 0
    g = act(g, 0, "play:red-carter", "space:D4")
    assert g.queue[0]["do"] == "gain" and "gain:green" not in ids(g, 0)
    g = act(g, 0, "gain:wine" if "gain:wine" in ids(g, 0) else "gain:red")
    assert sum(held(g, 0).values()) == 4


def test_settle_skips_fallow_tiles_whose_space_holds_a_worker():
    g = around_d4()
    g.players[0].workers["A1"] = "red-gleaner"
    g = act(g, 0, "play:red-steward", "space:D4")
    assert [o for o in ids(g, 0) if o != "done"] == ["settle:A2"]


def test_a_townsfolk_comes_from_the_town_board_and_any_player_may_take_it():
    g = around_d4()
    assert "play:priest" in ids(g, 0)
    g = act(g, 0, "play:priest", "space:D4")
    assert "priest" not in g.town
    assert "play:priest" not in [o.id for o in kh.rules.play_options(g, g.players[1])]
