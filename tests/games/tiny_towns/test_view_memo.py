"""The view remembers each town's drawing and each player's public part (view.py): views
built through those memos must equal views built afresh, byte for byte, and building
the next step's views must leave the earlier ones as they were."""

from __future__ import annotations

import importlib

import orjson
import pytest

import app.games.tiny_towns as tt
from app.games.protocol import shared_public_parts
from app.games.rng import Rng
from app.games.tiny_towns import bot

from .support import first_game

view_module = importlib.import_module("app.games.tiny_towns.view")

GAMES = [(players, {"monuments": True, "cavern": cavern, "town_hall": town_hall,
                    "buildings": buildings}, seed)
         for seed, (players, cavern, town_hall, buildings) in enumerate([
             (1, False, False, "random"), (2, True, False, "first_game"), (3, False, True, "random"),
             (4, True, True, "random"), (5, False, False, "first_game"), (6, True, True, "random")])]


def every_view(state):
    return [orjson.dumps(tt.view(state, seat)) for seat in (None, *range(len(state.players)))]


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_remembered_views_equal_fresh_ones(players, options, seed):
    state = tt.setup(players, options, 700 + seed)
    rng = Rng(seed)
    earlier: list[tuple[dict, bytes]] = []
    while True:
        with shared_public_parts():  # as the table builds them: one public part for all
            views = [tt.view(state, seat) for seat in (None, *range(players))]
        remembered = [orjson.dumps(v) for v in views]
        view_module.clear_memos()
        assert remembered == every_view(state), f"round {state.round}, {state.phase}"
        assert [orjson.dumps(v) for v, _ in earlier] == [b for _, b in earlier], "an earlier view changed"
        earlier = list(zip(views, remembered))
        if not tt.to_act(state):
            break
        seat = sorted(tt.to_act(state))[rng.randrange(len(tt.to_act(state)))]
        state = tt.apply(state, seat, bot.choose(state, seat, rng))
    assert state.round > 3


def test_a_town_changed_after_its_view_is_drawn_again():
    """A test (or any code) may change a viewed town in place: the memo must not show the
    town as it was."""
    g = first_game(2, seed=1)
    before = tt.view(g, None)["public"]["players"][0]["town"]
    g.players[0].town[(1, 2)].resource = "wood"
    g.players[0].town[(0, 0)].building = "cottage"
    after = tt.view(g, None)["public"]["players"][0]
    assert before[1][2] is None and after["town"][1][2] == "wood"
    assert after["town"][0][0] == {"b": "cottage"}
    view_module.clear_memos()
    assert tt.view(g, None)["public"]["players"][0] == after


def test_card_parts_are_shared_not_rebuilt():
    g = first_game(3, seed=2)
    first, second = tt.view(g, 0)["public"], tt.view(g, 1)["public"]
    assert first["cards"] is second["cards"]
    assert first["cards"] == [view_module.card_json(c) for c in g.cards]


def build_monument(g, seat, monument, cell=(3, 3)):
    p = g.players[seat]
    p.monument, p.monument_round = monument, 1
    p.town[cell].building = monument


def feast_halls(g, seat, cells):
    for cell in cells:
        g.players[seat].town[cell].building = "feast_hall"


# Each case: (prepare, change). Every field a player's public part reads is changed in
# place, on its own, after a view was drawn: the next view must show the change.
CHANGES = {
    "complete": (None, lambda g: setattr(g.players[0], "complete", True)),
    "place": (None, lambda g: setattr(g.players[0], "place", 2)),
    "master builder turns": (None, lambda g: setattr(g.players[0], "master_builder_turns", 4)),
    "cavern": (None, lambda g: g.players[0].cavern.append("wood")),
    "caverns used": (None, lambda g: setattr(g.players[0], "caverns_used", 1)),
    "monument built": (None, lambda g: setattr(g.players[0], "monument_round", 1)),
    "watch": (lambda g: build_monument(g, 0, "opaleyes_watch"), lambda g: g.players[0].watch.append("farm")),
    "shrine value": (lambda g: (build_monument(g, 0, "shrine"), setattr(g.players[0], "shrine_value", 1)),
                     lambda g: setattr(g.players[0], "shrine_value", 5)),
    "feast halls on the right": (lambda g: feast_halls(g, 0, [(0, 0)]), lambda g: feast_halls(g, 1, [(2, 2)])),
    "phase": (None, lambda g: setattr(g, "phase", tt.rules.PLACE)),
    # The Sky Baths scores the game's building types missing from the town.
    "building cards": (lambda g: (build_monument(g, 0, "sky_baths"), setattr(g.players[0].town[(0, 0)], "building", "farm")),
                       lambda g: g.cards.__setitem__(g.cards.index("farm"), "granary")),
}


@pytest.mark.parametrize("case", CHANGES)
def test_a_player_part_follows_every_field_it_reads(case):
    prepare, change = CHANGES[case]
    g = first_game(2, seed=3, monuments=True)
    g.players[0].monument = g.players[0].dealt[0]
    if prepare:
        prepare(g)
    drawn = every_view(g)
    change(g)
    remembered = every_view(g)
    assert remembered != drawn, "the change shows in the views"
    view_module.clear_memos()
    assert remembered == every_view(g)
