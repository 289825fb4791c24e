"""Cavern rule, Town Hall variant, solo play."""

from __future__ import annotations

import json

import pytest

import app.games.tiny_towns as tt
from app.games.protocol import IllegalAction
from app.games.tiny_towns import rules
from app.games.tiny_towns.content import LETTER_OF
from app.games.tiny_towns.notation import parse_town

from .support import EMPTY, act, first_game, ids, with_towns


def game(players: int = 2, **options):
    return first_game(players, seed=21, **options)


def finish_round(g):
    """Until the round ends, everyone to act chooses the first resource offered, places on
    their first empty square, or says done."""
    current = g.round
    while g.round == current and g.phase in ("place", "build", "watch") and tt.to_act(g):
        seat = min(tt.to_act(g))
        opts = ids(g, seat)
        placing = [i for i in opts if i.startswith("place:")]
        g = tt.apply(g, seat, "done" if "done" in opts else (placing or opts)[0])
    return g


# --- Cavern rule ---

def test_cavern_sets_aside_a_resource_another_player_named():
    g = act(game(cavern=True), 0, "name:brick")
    assert "cavern" in ids(g, 1) and "cavern" not in ids(g, 0)  # not your own naming
    g = act(g, 1, "cavern")
    assert tt.view(g, 0)["public"]["players"][1]["cavern"] == 0  # secret until revealed
    g = act(g, 0, "place:0,0")
    p = g.players[1]
    assert p.cavern == ["brick"] and p.caverns_used == 1 and len(p.town.empty_cells()) == 16
    assert "{seat1} set brick aside (Cavern)" in g.log[-1]
    assert tt.view(g, 0)["public"]["players"][1]["cavern"] == 1
    assert tt.view(g, 1)["private"]["cavern"] == ["brick"]


def test_cavern_is_off_unless_chosen():
    g = act(game(), 0, "name:brick")
    assert "cavern" not in ids(g, 1)


def test_cavern_only_twice_per_game():
    g = game(cavern=True)
    g.players[1].caverns_used = 2
    g = act(g, 0, "name:brick")
    assert "cavern" not in ids(g, 1)


def test_cavern_cube_is_placed_later_in_a_construction_step():
    g = with_towns(game(cavern=True), EMPTY, "W . . . / . . . . / . . . . / . . . .")
    g = act(g, 0, "name:stone", "place:0,0")
    g = act(g, 1, "cavern")
    # Asked to construct only because of the Cavern cube; may keep it.
    assert g.phase == "build" and tt.to_act(g) == {1}
    assert ids(g, 1) == ["uncavern:stone", "done"]
    g = act(g, 1, "uncavern:stone")
    assert ids(g, 1)[-1] == "cancel" and "place:0,0" not in ids(g, 1)
    g = act(g, 1, "cancel", "uncavern:stone", "place:0,1")
    assert g.players[1].cavern == [] and g.players[1].town[(0, 1)].resource == "stone"
    assert "{seat1} places the set-aside stone at A2 (Cavern)." in g.log
    assert ids(g, 1) == ["build:well", "done"]  # and it can build at once


# --- Town Hall variant ---

def test_town_hall_setup_and_first_card_round():
    g = game(3, town_hall=True)
    assert g.master_builder is None and g.phase == "place" and g.source == "card"
    assert len(g.deck) == 9 and len(g.discard) == 5
    assert tt.to_act(g) == {0, 1, 2}
    assert g.log[-1] == f"Round 1: the Town Hall card is {g.resource}."
    th = tt.view(g, None)["public"]["town_hall"]
    assert th == {"deck": 9, "discard": 5, "cycle": "card"}


def test_town_hall_rounds_cycle_card_card_free():
    g = game(2, town_hall=True)
    sources = []
    for n in range(6):
        sources.append(g.source)
        if g.source == "free":
            assert ids(g, 0) == [f"choose:{r}" for r in rules.RESOURCES]
            g = act(g, 0, "choose:glass")
            assert ids(g, 0)[-1] == "cancel"
            g = act(g, 0, "cancel", "choose:wood", f"place:3,{n // 2}")
            assert tt.view(g, 1)["public"]["players"][0]["town"][3][n // 2] is None
            assert "wood" not in json.dumps(tt.view(g, 1)["private"])
        g = finish_round(g)
    assert sources == ["card", "card", "free", "card", "card", "free"]
    assert any(line.startswith("Free choice: {seat0} placed wood at D2") for line in g.log)


def test_town_hall_reshuffles_when_the_deck_runs_out():
    g = game(2, town_hall=True)
    for _ in range(15):
        g = finish_round(g)
    assert g.round == 16 and g.source == "card"
    assert "The resource cards are reshuffled; five are set aside face down." in g.log
    assert len(g.deck) == 9 and len(g.discard) == 5
    assert sorted(g.deck + g.discard + [g.resource]) == sorted(rules.RESOURCE_CARDS)


def test_town_hall_card_rounds_trigger_factory_but_free_rounds_do_not():
    g = game(2, town_hall=True)
    card = g.resource
    g.players[0].town = parse_town(f"Fc+{LETTER_OF[card]} . . . / . . . . / . . . . / . . . .")
    other = next(r for r in rules.RESOURCES if r != card)
    assert f"factory:{other}" in ids(g, 0) and not any(i.startswith("factory:") for i in ids(g, 1))
    g = finish_round(finish_round(g))
    assert g.source == "free"
    g.players[0].town = parse_town("Fc+W . . . / . . . . / . . . . / . . . .")
    g = act(g, 0, "choose:wood")
    assert not any(i.startswith("factory:") for i in ids(g, 0))


def test_town_hall_free_round_respects_banks():
    g = with_towns(game(2, town_hall=True), "Bk+G . . . / . . . . / . . . . / . . . .")
    g = finish_round(finish_round(g))
    assert ids(g, 0) == ["choose:wood", "choose:wheat", "choose:brick", "choose:stone"]


def test_fort_ironweed_holder_skips_free_rounds_unless_last():
    g = game(2, town_hall=True)
    g.players[1].monument, g.players[1].monument_round = "fort_ironweed", 0
    g.players[1].town = parse_town("FI . . . / . . . . / . . . . / . . . .")
    g = finish_round(finish_round(g))
    assert g.source == "free" and tt.to_act(g) == {0}
    g.players[0].town = parse_town("G G G G / G G G G / G G G G / G G G .")
    g = act(g, 0, "choose:glass", "place:3,3")
    g = finish_round(g)
    assert g.players[0].complete
    for _ in range(3):
        assert 1 in tt.to_act(g)  # last player: takes free rounds too
        g = finish_round(g)


# --- Solo ---

def test_solo_round_pick_a_card_place_it_card_goes_to_the_bottom():
    g = game(1)
    revealed, deck = list(g.revealed), list(g.deck)
    assert ids(g, 0) == ["card:0", "card:1", "card:2"]
    g = act(g, 0, "card:1")
    assert g.resource == revealed[1] and g.phase == "place"
    assert g.revealed == [revealed[0], deck[0], revealed[2]]
    assert g.deck == deck[1:] + [revealed[1]]
    assert g.log[-1] == "Round 1: {seat0} takes the " + revealed[1] + " card."
    g = act(g, 0, "place:0,0")
    assert g.players[0].town[(0, 0)].resource == revealed[1]
    assert g.phase == "pick" and g.round == 2


def test_solo_card_picks_trigger_warehouse():
    g = with_towns(game(1), "Wa . . . / . . . . / . . . . / . . . .")
    g = act(g, 0, "card:0")
    assert "warehouse:store" in ids(g, 0)


def test_solo_game_ends_with_a_rating():
    g = with_towns(game(1), "Sh Sh Sh Sh / Sh Sh Sh Sh / Sh Sh Sh Sh / Sh Sh Sh .")
    g = act(g, 0, "card:0", "place:3,3")
    assert g.phase == "over"
    r = tt.result(g)
    assert [s.score for s in r.scores] == [14]  # 15 Sheds; the cube is removed: -1
    assert r.scores[0].note == "Solo rating: Builder's Apprentice"
    assert r.reason == "Your town is complete: 14 VP, Builder's Apprentice."
    assert r.winners == [0]


@pytest.mark.parametrize("score,title", [(38, "Master Architect"), (37, "Town Planner"), (32, "Town Planner"),
                                         (25, "Engineer"), (18, "Carpenter"), (17, "Builder's Apprentice"),
                                         (10, "Builder's Apprentice"), (9, "Aspiring Architect"),
                                         (-20, "Aspiring Architect")])
def test_solo_ratings(score, title):
    assert rules.solo_rating(score) == title


def test_solo_feast_halls_have_no_right_neighbour():
    g = with_towns(game(1), "Fe Fe . . / . . . . / . . . . / . . . .")
    g.phase = "over"
    assert tt.result(g).scores[0].breakdown["Feast Hall"] == 4


def test_unlisted_solo_card_refused():
    g = game(1)
    before = tt.dump(g)
    with pytest.raises(IllegalAction):
        tt.apply(g, 0, "card:3")
    with pytest.raises(IllegalAction):
        tt.apply(g, 0, "name:wood")
    assert tt.dump(g) == before


def test_town_hall_card_rounds_trigger_cavern_and_warehouse_for_everyone():
    g = with_towns(game(3, town_hall=True, cavern=True), "Wa . . . / . . . . / . . . . / . . . .")
    assert all("cavern" in ids(g, seat) for seat in range(3))
    assert "warehouse:store" in ids(g, 0) and "warehouse:store" not in ids(g, 1)
