"""Setup: title metadata, options, building cards in play, solo removals, determinism."""

from __future__ import annotations

import doctest
import importlib

import pytest

import app.games.tiny_towns as tt
from app.games.protocol import IllegalAction, TitleSpec
from app.games.tiny_towns.content import BUILDINGS, FIRST_GAME, PILES, SOLO_REMOVED


def test_title_metadata():
    spec = tt.TITLE
    assert isinstance(spec, TitleSpec)
    assert (spec.id, spec.name, spec.min_players, spec.max_players) == ("tiny-towns", "Tiny Towns", 1, 6)
    defaults = {o.key: o.default for o in spec.option_specs}
    assert defaults == {"monuments": True, "buildings": "random", "cavern": False, "town_hall": False}
    buildings = next(o for o in spec.option_specs if o.key == "buildings")
    assert [v for v, _ in buildings.choices] == ["random", "first_game"]
    assert spec.as_json()["options"][0]["label"] == "Play with monuments"


def test_bad_options_and_player_counts_are_refused():
    with pytest.raises(IllegalAction, match="Unknown option"):
        tt.setup(2, {"fortune": True}, 1)
    with pytest.raises(IllegalAction):
        tt.setup(2, {"buildings": "all"}, 1)
    with pytest.raises(IllegalAction):
        tt.setup(2, {"cavern": "yes"}, 1)
    for players in (0, 7):
        with pytest.raises(IllegalAction, match="1 to 6"):
            tt.setup(players, {}, 1)


def test_town_hall_with_one_player_is_refused():
    with pytest.raises(IllegalAction, match="Town Hall"):
        tt.setup(1, {"town_hall": True}, 1)


def test_first_game_buildings():
    g = tt.setup(3, {"buildings": "first_game"}, 1)
    assert g.cards == ["cottage", "farm", "well", "chapel", "tavern", "theater", "factory"]
    assert tuple(g.cards) == FIRST_GAME


@pytest.mark.parametrize("seed", range(8))
def test_random_buildings_are_the_cottage_and_one_card_from_each_pile(seed):
    g = tt.setup(2, {"monuments": False}, seed)
    assert g.cards[0] == "cottage"
    assert [BUILDINGS[c].colour for c in g.cards[1:]] == list(PILES)
    assert all(c in PILES[colour] for c, colour in zip(g.cards[1:], PILES))


def test_random_buildings_vary_with_the_seed():
    sets = {tuple(tt.setup(2, {"monuments": False}, seed).cards) for seed in range(20)}
    assert len(sets) > 10


def test_solo_removes_bank_inn_fort_ironweed_and_opaleyes_watch():
    seen = set()
    for seed in range(60):
        g = tt.setup(1, {}, seed)
        seen |= set(g.cards) | set(g.players[0].dealt)
        assert not SOLO_REMOVED & (set(g.cards) | set(g.players[0].dealt))
    assert {"warehouse", "feast_hall", "starloom"} <= seen  # the rest do come up


def test_solo_has_no_master_builder_and_three_revealed_cards():
    g = tt.setup(1, {"monuments": False}, 4)
    assert g.master_builder is None and g.phase == "pick"
    assert len(g.revealed) == 3 and len(g.deck) == 12
    v = tt.view(g, 0)["public"]
    assert v["solo"] == {"revealed": g.revealed, "deck": 12} and v["variant"] == "solo"


def test_setup_is_deterministic():
    assert tt.dump(tt.setup(4, {}, 123)) == tt.dump(tt.setup(4, {}, 123))
    assert tt.dump(tt.setup(4, {}, 123)) != tt.dump(tt.setup(4, {}, 124))


def test_dump_is_plain_json_and_loads_back():
    import json

    g = tt.setup(3, {"town_hall": True, "cavern": True}, 8)
    raw = tt.dump(g)
    assert json.loads(json.dumps(raw)) == raw
    assert tt.dump(tt.load(raw)) == raw


@pytest.mark.parametrize("module", ["rules", "notation"])
def test_docstring_examples(module):
    outcome = doctest.testmod(importlib.import_module(f"app.games.tiny_towns.{module}"))
    assert outcome.attempted > 0 and outcome.failed == 0
