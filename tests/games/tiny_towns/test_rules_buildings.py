"""Buildings in detail, the black ones that change the flow: Bank, Factory, Warehouse."""

from __future__ import annotations

import pytest

import app.games.tiny_towns as tt
from app.games.protocol import IllegalAction
from app.games.tiny_towns.notation import parse_town

from .support import EMPTY, act, first_game, ids, name_and_place, with_towns

BLACK = ["cottage", "farm", "well", "chapel", "tavern", "theater"]


def game(black: str, players: int = 2, **options):
    g = first_game(players, seed=3, **options)
    g.cards = BLACK + [black]
    return g


# --- Bank ---

def test_bank_takes_a_resource_not_on_another_black_building():
    g = with_towns(game("bank"), "H H . . / W G B . / . . . . / Bk+G . . Fc+W")
    g = name_and_place(g, "stone", {0: ["place:2,3"], 1: ["place:0,0"]})
    g = act(g, 0, "build:bank", "pick:0,0", "pick:0,1", "pick:1,0", "pick:1,1", "pick:1,2", "site:1,1")
    assert ids(g, 0) == ["bankcube:wheat", "bankcube:brick", "bankcube:stone"]
    g = act(g, 0, "bankcube:brick")
    assert g.players[0].town[(1, 1)].stored == ["brick"]
    assert "{seat0} puts brick on the Bank at B2." in g.log


def test_master_builder_may_not_name_a_resource_on_their_banks():
    g = with_towns(game("bank"), "Bk+B Bk+G . . / . . . . / . . . . / . . . .")
    assert ids(g, 0) == ["name:wood", "name:wheat", "name:stone"]
    g.players[0].town = parse_town("Bk+W Bk+H Bk+B Bk+G / Bk+S . . . / . . . . / . . . .")
    assert len(ids(g, 0)) == 5  # all five forbidden: none is, rather than a stuck game


def test_a_bank_cube_on_another_players_bank_does_not_restrict_you():
    g = with_towns(game("bank"), EMPTY, "Bk+B . . . / . . . . / . . . . / . . . .")
    assert "name:brick" in ids(g, 0)


# --- Factory ---

FACTORY = "W . . . / B S S B / . . . . / . . . ."


def test_factory_takes_any_resource_when_built():
    g = with_towns(game("factory"), FACTORY)
    g = name_and_place(g, "glass", {0: ["place:3,3"], 1: ["place:0,0"]})
    g = act(g, 0, "build:factory", "pick:0,0", "pick:1,0", "pick:1,1", "pick:1,2", "pick:1,3", "site:1,3")
    assert ids(g, 0) == [f"factorycube:{r}" for r in ("wood", "wheat", "brick", "glass", "stone")]
    g = act(g, 0, "factorycube:stone")
    assert g.players[0].town[(1, 3)].stored == ["stone"]


def test_factory_lets_you_place_another_resource_when_another_player_names_it():
    g = with_towns(game("factory"), EMPTY, "Fc+B . . . / . . . . / . . . . / . . . .")
    g = act(g, 0, "name:brick")
    opts = ids(g, 1)
    assert [i for i in opts if i.startswith("factory:")] == ["factory:wood", "factory:wheat", "factory:glass", "factory:stone"]
    g = act(g, 1, "factory:glass")
    assert ids(g, 1)[-1] == "cancel" and all(i.startswith("place:") for i in ids(g, 1)[:-1])
    g = act(g, 1, "cancel", "factory:wheat", "place:2,2")
    assert tt.view(g, 0)["public"]["players"][1]["town"][2][2] is None  # still secret
    g = act(g, 0, "place:0,0")
    assert g.players[1].town[(2, 2)].resource == "wheat"
    assert g.log[-1] == "Everyone placed brick: {seat0} at A1, {seat1} placed wheat at C3 instead (Factory)."


def test_factory_does_nothing_for_other_resources_or_your_own_naming():
    g = with_towns(game("factory"), "Fc+B . . . / . . . . / . . . . / . . . .", "Fc+B . . . / . . . . / . . . . / . . . .")
    g = act(g, 0, "name:brick")
    assert not any(i.startswith("factory:") for i in ids(g, 0))  # you named it yourself
    assert any(i.startswith("factory:") for i in ids(g, 1))
    g = act(game("factory"), 0, "name:wood")
    g.players[1].town = parse_town("Fc+B . . . / . . . . / . . . . / . . . .")
    assert not any(i.startswith("factory:") for i in ids(g, 1))


# --- Warehouse ---

def warehouse_game(stored: str):
    token = "Wa+" + stored if stored else "Wa"
    return with_towns(game("warehouse"), EMPTY, f"{token} . . . / . . . . / . . . . / . . . .")


def test_warehouse_stores_a_named_resource_instead_of_placing_it():
    g = act(warehouse_game("S"), 0, "name:brick")
    assert "warehouse:store" in ids(g, 1) and "warehouse:swap:stone" in ids(g, 1)
    g = act(g, 1, "warehouse:store")
    g = act(g, 0, "place:0,0")
    assert g.players[1].town[(0, 0)].stored == ["stone", "brick"]
    assert len(g.players[1].town.empty_cells()) == 15
    assert "{seat1} stored brick on a Warehouse" in g.log[-1]


def test_full_warehouse_can_only_swap():
    g = act(warehouse_game("SSW"), 0, "name:brick")
    opts = ids(g, 1)
    assert "warehouse:store" not in opts
    assert [i for i in opts if i.startswith("warehouse:")] == ["warehouse:swap:wood", "warehouse:swap:stone"]


def test_warehouse_swap_puts_the_stored_cube_on_an_empty_square():
    g = act(warehouse_game("SSW"), 0, "name:brick")
    g = act(g, 1, "warehouse:swap:stone")
    assert ids(g, 1)[0] == "place:0,1" and ids(g, 1)[-1] == "cancel"
    g = act(g, 1, "place:1,1")
    g = act(g, 0, "place:0,0")
    town = g.players[1].town
    assert sorted(town[(0, 0)].stored) == ["brick", "stone", "wood"]
    assert town[(1, 1)].resource == "stone"


def test_warehouse_does_not_trigger_on_your_own_naming():
    g = with_towns(game("warehouse"), "Wa . . . / . . . . / . . . . / . . . .")
    g = act(g, 0, "name:brick")
    assert not any(i.startswith("warehouse") for i in ids(g, 0))


def test_stored_cubes_score_minus_one_each():
    g = with_towns(game("warehouse"), "Wa+SSW . . . / . . . . / . . . . / . . . .")
    g.phase = "over"
    assert tt.result(g).scores[0].breakdown["Warehouse"] == -3


def test_unlisted_warehouse_swap_refused():
    g = act(warehouse_game("S"), 0, "name:brick")
    before = tt.dump(g)
    with pytest.raises(IllegalAction):
        tt.apply(g, 1, "warehouse:swap:wood")
    with pytest.raises(IllegalAction):
        tt.apply(g, 1, "warehouse:swap:brick")  # same as named: pointless, not offered
    assert tt.dump(g) == before
