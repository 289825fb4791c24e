"""Setup by player count: start pairs, the secret starting counters, the registry, the
events in the bag, and the drawn colour's owner naming the start player."""

from __future__ import annotations

from collections import Counter

import pytest

import app.games.key_harvest as kh
from app.games.key_harvest.content import CROPS, EVENTS, FIELDS, START_PAIRS, is_event
from app.games.protocol import IllegalAction

from .support import ids, total_counters


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_one_start_pair_on_its_references(players):
    g = kh.setup(players, {}, 11)
    pairs = {pair.refs for pair in START_PAIRS}
    drawn = [tuple(sorted(p.fields)) for p in g.players]
    assert all(d in {tuple(sorted(r)) for r in pairs} for d in drawn)
    assert len(set(drawn)) == players
    assert all(not harvested for p in g.players for harvested in p.fields.values())


def test_two_players_each_hold_three_counters_one_of_them_the_doubled_colour():
    for seed in range(8):
        g = kh.setup(2, {}, seed)
        (doubled,) = g.start_bag
        for p in g.players:
            assert sum(p.counters.values()) == 3 and p.counters[doubled] == 1
        both = Counter(g.players[0].counters) + Counter(g.players[1].counters)
        assert both == Counter({c: 2 if c == doubled else 1 for c in CROPS})


def test_three_players_draw_nine_counters_one_colour_single():
    g = kh.setup(3, {}, 5)
    (single,) = g.start_bag
    drawn = sum((Counter(p.counters) for p in g.players), Counter())
    assert drawn == Counter({c: 1 if c == single else 2 for c in CROPS})
    assert all(sum(p.counters.values()) == 3 for p in g.players)


def test_four_players_draw_twelve_counters_two_colours_tripled():
    g = kh.setup(4, {}, 5)
    assert len(g.start_bag) == 2
    drawn = sum((Counter(p.counters) for p in g.players), Counter())
    assert drawn == Counter({c: 3 if c in g.start_bag else 2 for c in CROPS})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_rest_of_the_counters_form_the_supply(players):
    g = kh.setup(players, {}, 2)
    assert sum(g.supply.values()) == 60 - 3 * players
    assert total_counters(g) == 60


@pytest.mark.parametrize("players, events", [(2, 14), (3, 12), (4, 12)])
def test_events_in_the_bag_all_with_two_players_twelve_otherwise(players, events):
    g = kh.setup(players, {}, 7)
    assert sum(is_event(t) for t in g.bag) == events
    assert len(g.removed) == 14 - events and not set(g.removed) & set(g.bag)
    assert set(g.removed) | {t for t in g.bag if is_event(t)} == set(EVENTS)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_six_field_tiles_in_the_registry_and_every_tile_somewhere(players):
    g = kh.setup(players, {}, 7)
    assert len(g.registry) == 6 and all(r in FIELDS for r in g.registry)
    on_boards = [r for p in g.players for r in p.fields]
    everywhere = on_boards + g.registry + [t for t in g.bag if not is_event(t)]
    assert sorted(everywhere) == sorted(FIELDS)


def test_the_drawn_colours_owner_names_the_start_player():
    g = kh.setup(3, {}, 4)
    chooser = g.start_chooser
    assert kh.to_act(g) == {chooser}
    assert ids(g, chooser) == ["start:0", "start:1", "start:2"]
    other = (chooser + 1) % 3
    started = kh.apply(g, chooser, f"start:{other}")
    assert started.turn == other and kh.to_act(started) == {other} and started.phase == "play"
    assert f"{{seat{chooser}}} names {{seat{other}}} start player." in started.log
    assert f"{{seat{chooser}}} starts." in kh.apply(g, chooser, f"start:{chooser}").log


def test_player_counts_outside_two_to_four_are_refused():
    for players in (1, 5):
        with pytest.raises(IllegalAction, match="2–4 players"):
            kh.setup(players, {}, 1)


def test_setup_log_never_names_starting_counters():
    g = kh.setup(3, {}, 9)
    lines = [line for line in g.log if "start pair" not in line]
    for name in ("hops", "vegetables", "cider apples", "wine", "wheat"):
        assert not any(name in line for line in lines)
