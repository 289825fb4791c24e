"""Every worker power (re-authored: docs/titles/key-harvest.md, "Workers, re-authored").

Most are played onto D4 with six fields around it: E5, E4 and D3 unharvested, C4, C5 and
D5 harvested, and two tiles (A1, A2) in the fallow fields."""

from __future__ import annotations

from collections import Counter

import pytest

import app.games.key_harvest as kh
from app.games.key_harvest.content import FARMHANDS, TOWNSFOLK, WORKERS, describe_worker
from app.games.key_harvest.rules import IllegalAction

from .support import act, crop, game, give, held, ids, lay, stock, take_out, top_of_bag, total_counters

RIPE, BARE = ["D3", "E4", "E5"], ["C4", "C5", "D5"]
NEAR = sorted(RIPE + BARE)
RED_SET = [w for w in FARMHANDS if w.startswith("red-")]


def around_d4(players: int = 2):
    g = lay(game(players), 0, " ".join(RIPE), harvested=" ".join(BARE))
    for ref in ("A1", "A2"):
        take_out(g, ref)
        g.fallow.append(ref)
    return g


def play(g, worker, space="D4"):
    return act(g, 0, f"play:{worker}", f"space:{space}")


def power_ids(g):
    return [o for o in ids(g, 0) if o != "done"]


def counters(g, seat):
    return sum(g.players[seat].counters.values())


def test_every_worker_says_what_it_does_and_whether_it_must():
    for w in WORKERS.values():
        text = describe_worker(w)
        assert text.endswith("(optional)" if w.mark == "bell" else "(compulsory)"), w.id


# --- value 1 ---

def test_gleaner_takes_one_counter_of_your_choice():
    g = play(around_d4(), "red-gleaner")
    assert sorted(ids(g, 0)) == sorted(["gain:brown", "gain:green", "gain:orange", "gain:red", "gain:yellow", "done"])
    g = act(g, 0, "gain:green")
    assert held(g, 0) == {"green": 1} and g.queue == []


def test_ploughboy_turns_every_field_next_to_him_over_without_a_choice():
    g = play(around_d4(), "red-ploughboy")
    board = g.players[0].fields
    assert g.queue == [] and all(board[r] for r in RIPE) and not any(board[r] for r in BARE)
    assert held(g, 0) == {}


def test_ploughboy_costs_unharvested_fields_when_they_are_all_ripe():
    g = lay(game(), 0, "C3 C4 D4")  # all three unharvested
    g = play(g, "red-ploughboy", "D3")
    assert all(g.players[0].fields[r] for r in ("C3", "C4", "D4"))  # down, and no counter for them
    assert held(g, 0) == {}


# --- value 2 ---

def test_reaper_takes_a_counter_then_harvests_up_to_two_fields_next_to_her():
    g = play(around_d4(), "red-reaper")
    assert all(o.startswith("gain:") for o in power_ids(g))
    g = act(g, 0, "gain:brown")
    assert power_ids(g) == [f"reap:{r}" for r in RIPE]
    g = act(g, 0, "reap:D3", "reap:E5")
    assert g.queue == [] and g.players[0].fields["D3"] and g.players[0].fields["E5"]
    assert not g.players[0].fields["E4"]
    assert held(g, 0) == dict(Counter(["brown", crop("D3"), crop("E5")]))


def test_carter_carries_a_registry_tile_into_the_store_with_a_bid_from_the_supply():
    g = around_d4()
    slot, tile = next((i, t) for i, t in enumerate(g.registry) if t)
    supply = dict(g.supply)
    top_of_bag(g, "G8")
    g = play(g, "red-carter")
    assert "done" not in ids(g, 0)  # a scroll: compulsory
    assert set(power_ids(g)) == {f"cart:{t}" for t in g.registry if t}
    g = act(g, 0, f"cart:{tile}")
    assert g.players[0].store == [{"tile": tile, "bid": {crop(tile): 1}}]
    assert g.supply[crop(tile)] == supply[crop(tile)] - 1 and held(g, 0) == {}
    assert g.registry[slot] == "G8" and g.queue == []  # refilled at once
    assert total_counters(g) == 60


def test_carter_with_a_full_store_must_first_send_one_of_its_tiles_to_the_fallow_fields():
    g = stock(stock(around_d4(), 0, "G7", "red red"), 0, "G8", "green")
    red = g.supply["red"]
    g = play(g, "red-carter")
    assert power_ids(g) == ["drop:G7", "drop:G8"] and "done" not in ids(g, 0)
    g = act(g, 0, "drop:G7")
    assert "G7" in g.fallow and g.supply["red"] == red + 2  # the bid is lost to the supply
    assert [e["tile"] for e in g.players[0].store] == ["G8"]
    tile = next(t for t in g.registry if t)
    g = act(g, 0, f"cart:{tile}")
    assert [e["tile"] for e in g.players[0].store] == ["G8", tile] and g.queue == []


def test_carter_draws_an_event_for_everyone_when_the_refill_meets_one():
    g = around_d4()
    top_of_bag(g, "E05", "G8")  # Market Day: everyone takes a counter
    tile = next(t for t in g.registry if t)
    g = act(play(g, "red-carter"), 0, f"cart:{tile}")
    assert g.track == ["E05"] and g.queue[0]["do"] == "gain"


# --- value 3 ---

def test_steward_takes_a_tile_from_the_fallow_fields_or_the_registry_onto_the_board():
    g = play(around_d4(), "red-steward")
    offered = power_ids(g)
    assert {"settle:A1", "settle:A2"} | {f"settle:{t}" for t in g.registry if t} == set(offered)
    assert "done" in ids(g, 0)
    slot, tile = next((i, t) for i, t in enumerate(g.registry) if t)
    targets = {o.id: o.target for o in kh.options(g, 0)}
    assert targets["settle:A1"] == "fallow:A1" and targets[f"settle:{tile}"] == f"registry:{slot}"
    top_of_bag(g, "G8")
    g = act(g, 0, f"settle:{tile}")
    assert g.players[0].fields[tile] is False and g.registry[slot] == "G8" and g.queue == []


def test_steward_never_offers_a_tile_whose_space_holds_one_of_your_workers():
    g = around_d4()
    g.players[0].workers["A1"] = "red-gleaner"
    g = play(g, "red-steward")
    assert "settle:A1" not in ids(g, 0) and "settle:A2" in ids(g, 0)


def test_drover_harvests_every_ripe_field_next_to_him_twice_over_then_must_clear_one():
    g = play(around_d4(), "red-drover")
    for ref in RIPE:
        assert "done" not in ids(g, 0)
        g = act(g, 0, f"reap:{ref}")
    assert held(g, 0) == dict(Counter(crop(r) for r in RIPE for _ in range(2)))
    assert power_ids(g) == [f"clear:{r}" for r in NEAR] and "done" not in ids(g, 0)
    g = act(g, 0, "clear:C4")
    assert "C4" not in g.players[0].fields and g.fallow == ["A1", "A2", "C4"] and g.queue == []


def test_drover_with_nothing_ripe_only_costs_a_field():
    g = lay(game(), 0, "", harvested=" ".join(NEAR))
    g = play(g, "red-drover")
    assert power_ids(g) == [f"clear:{r}" for r in NEAR]  # straight to the cost
    g = act(g, 0, "clear:D5")
    assert held(g, 0) == {} and len(g.players[0].fields) == 5 and "D5" in g.fallow


# --- value 4 ---

def test_miller_takes_three_counters_of_your_choice():
    g = act(play(around_d4(), "miller"), 0, "gain:red", "gain:red", "gain:yellow")
    assert held(g, 0) == {"red": 2, "yellow": 1} and g.queue == []


def test_surveyor_takes_a_tile_from_another_players_store_with_its_bid():
    g = stock(around_d4(), 1, "G8", "green yellow")
    g = play(g, "surveyor")
    targets = {o.id: o.target for o in kh.options(g, 0)}
    assert targets["settle:G8"] == "store:1:0"
    assert {"settle:A1", "settle:A2"} <= set(targets)
    g = act(g, 0, "settle:G8")
    assert g.players[0].fields["G8"] is False and g.players[1].store == []
    assert held(g, 0) == {"green": 1, "yellow": 1}  # the bid, behind the Surveyor's player's screen
    assert held(g, 1) == {}
    assert all(o.startswith("gain:") for o in power_ids(g))  # then a counter of your choice
    g = act(g, 0, "gain:red")
    assert held(g, 0) == {"green": 1, "yellow": 1, "red": 1} and total_counters(g) == 60


def test_surveyor_does_not_take_from_your_own_store():
    g = stock(around_d4(), 0, "G8", "green")
    assert "settle:G8" not in ids(play(g, "surveyor"), 0)


def test_reeve_takes_a_counter_then_must_swap_stores_with_another_player():
    g = stock(stock(around_d4(3), 1, "G8", "green"), 2, "G7", "red red")
    mine = g.players[0].store
    g = act(play(g, "reeve"), 0, "gain:brown")
    assert power_ids(g) == ["swap:1", "swap:2"] and "done" not in ids(g, 0)
    labels = {o.id: o.label for o in kh.options(g, 0)}
    assert "G7" in labels["swap:2"] and "an empty store" in labels["swap:2"]
    g = act(g, 0, "swap:2")
    assert g.players[0].store == [{"tile": "G7", "bid": {"red": 2}}] and g.players[2].store == mine == []
    assert g.queue == []


def test_reeve_must_swap_even_when_it_gives_a_full_store_away():
    g = stock(stock(around_d4(), 0, "G8", "green"), 0, "G7", "red")
    g = act(play(g, "reeve"), 0, "gain:brown")
    assert power_ids(g) == ["swap:1"] and "done" not in ids(g, 0)
    g = act(g, 0, "swap:1")
    assert g.players[0].store == [] and [e["tile"] for e in g.players[1].store] == ["G8", "G7"]


def test_reeve_skips_the_swap_when_every_store_is_empty():
    g = act(play(around_d4(), "reeve"), 0, "gain:brown")
    assert g.queue == [] and held(g, 0) == {"brown": 1}


# --- value 5 ---

def test_brewer_tallies_takes_two_then_scorches_the_ripe_fields_next_to_him():
    g = play(around_d4(), "brewer")
    kinds = {crop(r) for r in NEAR}
    assert held(g, 0) == {c: 1 for c in kinds}  # the tally, at once
    assert "done" not in ids(g, 0)
    g = act(g, 0, "gain:red", "gain:red", "gain:green")
    assert all(g.players[0].fields[r] for r in NEAR)  # the ripe ones are lost
    assert counters(g, 0) == len(kinds) + 3 and g.queue == []


def test_lord_takes_up_to_two_tiles_from_anywhere():
    g = stock(around_d4(), 1, "G8", "green")
    g = play(g, "lord")
    assert {"settle:A1", "settle:G8"} <= set(power_ids(g)) and "done" in ids(g, 0)
    g = act(g, 0, "settle:G8", "settle:A1")
    assert {"G8", "A1"} <= set(g.players[0].fields) and held(g, 0) == {"green": 1}
    assert g.players[1].store == [] and g.queue == []


def test_priest_takes_four_counters_then_turns_every_harvested_field_back_up():
    g = act(play(around_d4(), "priest"), 0, "gain:red", "gain:red", "gain:red", "gain:red")
    assert power_ids(g) == [f"renew:{r}" for r in BARE]
    g = act(g, 0, *[f"renew:{r}" for r in BARE])
    assert not any(g.players[0].fields[r] for r in NEAR) and g.queue == []


# --- bells, scrolls and what a power may see ---

def test_a_bell_power_can_be_stopped_effect_by_effect():
    g = act(play(around_d4(), "red-reaper"), 0, "done")  # no counter...
    assert power_ids(g) == [f"reap:{r}" for r in RIPE]  # ...but still the harvest
    g = act(g, 0, "reap:D3", "done")
    assert held(g, 0) == {crop("D3"): 1} and g.queue == []


def test_a_scroll_power_has_no_way_out():
    g = play(around_d4(), "red-drover")
    with pytest.raises(IllegalAction):
        kh.apply(g, 0, "done")


@pytest.mark.parametrize("worker", RED_SET + list(TOWNSFOLK))
def test_no_power_needs_the_counters_behind_a_screen_to_decide_what_it_offers(worker):
    """What a power offers (and whether its step waits) depends on public things only."""
    a = stock(around_d4(3), 1, "G8", "green")
    b = kh.load(kh.dump(a))
    give(b, 0, "red red")
    give(b, 1, "yellow")
    give(b, 2, "brown")
    a, b = play(a, worker), play(b, worker)
    while a.queue and a.queue[0]["do"] == "power":
        assert ids(a, 0) == ids(b, 0) and kh.to_act(a) == kh.to_act(b)
        choice = ids(a, 0)[0]
        a, b = act(a, 0, choice), act(b, 0, choice)
    assert kh.to_act(a) == kh.to_act(b)


def test_a_townsfolk_comes_from_the_town_board_and_any_player_may_take_it():
    g = around_d4()
    assert "play:priest" in ids(g, 0)
    g = play(g, "priest")
    assert "priest" not in g.town
    assert "play:priest" not in [o.id for o in kh.rules.play_options(g, g.players[1])]


def test_value_buys_power_on_this_board():
    """Played on D4 and answered by the bot, each dearer tier brings more than the one below
    it (counter-equivalents, as in bench/key_harvest_workers.py)."""
    from app.games.key_harvest import bot
    from app.games.rng import Rng

    def worth(g, seat=0):
        p = g.players[seat]
        return (sum(p.counters.values()) + 2 * len(p.fields) + 0.5 * sum(not h for h in p.fields.values())
                + 1.5 * len(p.store))

    tiers: dict[int, list[float]] = {}
    for worker in RED_SET + list(TOWNSFOLK):
        g0 = stock(around_d4(), 1, "G8", "green")
        g = play(g0, worker)
        rng = Rng(1)
        while g.queue:
            seat = min(kh.to_act(g))
            g = kh.apply(g, seat, bot.choose(g, seat, rng))
        tiers.setdefault(WORKERS[worker].value, []).append(worth(g) - worth(g0))
    means = [sum(v) / len(v) for _, v in sorted(tiers.items())]
    assert means == sorted(means) and len(set(means)) == 5, tiers
