"""Monuments: dealt two, keep one in secret, only the holder builds it, once; each
monument's immediate or lasting effect during play."""

from __future__ import annotations

import json

import pytest

import app.games.tiny_towns as tt
from app.games.protocol import IllegalAction
from app.games.tiny_towns.notation import parse_town

from . import support
from .support import EMPTY, act, ids, with_towns


def game(*monuments: str, **options):
    """A first-game set with each seat holding the given monument (dealt it and another)."""
    g = tt.setup(len(monuments), {"buildings": "first_game", **options}, 5)
    spare = [m for m in ("starloom", "cathedral", "archive", "silva_forum") if m not in monuments]
    for p, m in zip(g.players, monuments):
        p.dealt = [m, spare[p.seat % len(spare)]]
    for seat, m in enumerate(monuments):
        g = tt.apply(g, seat, f"keep:{m}")
    return g


def play_round(g, resource, cells=None):
    """As ``support.play_round``, naming only if the game still waits for a name."""
    return support.play_round(g, resource, cells, unless_named=True)


def build(g, seat, card, cells, site):
    return act(g, seat, f"build:{card}", *[f"pick:{c}" for c in cells], f"site:{site}")


# --- Setup: two dealt, one kept in secret ---

def test_each_player_keeps_one_of_two_dealt_monuments():
    g = tt.setup(3, {}, 9)
    assert g.phase == "keep" and tt.to_act(g) == {0, 1, 2}
    dealt = [m for p in g.players for m in p.dealt]
    assert len(dealt) == 6 and len(set(dealt)) == 6
    first = g.players[0].dealt
    assert ids(g, 0) == [f"keep:{m}" for m in first]
    assert tt.view(g, 0)["private"]["dealt"][0]["id"] == first[0]
    for viewer in (1, 2, None):
        text = json.dumps(tt.view(g, viewer))
        assert first[0] not in text and first[1] not in text
    g = act(g, 0, f"keep:{first[1]}")
    assert tt.to_act(g) == {1, 2}
    assert tt.view(g, 0)["private"]["monument"]["id"] == first[1]
    assert tt.view(g, 0)["private"]["dealt"] == []
    assert tt.view(g, 1)["public"]["players"][0]["chosen"] is True
    for viewer in (1, 2, None):
        assert first[1] not in json.dumps(tt.view(g, viewer))
    g = act(g, 1, f"keep:{g.players[1].dealt[0]}")
    g = act(g, 2, f"keep:{g.players[2].dealt[0]}")
    assert g.phase == "name" and g.round == 1


def test_without_monuments_nothing_is_dealt():
    g = tt.setup(2, {"monuments": False}, 9)
    assert g.phase == "name" and all(p.dealt == [] and p.monument is None for p in g.players)


# --- Only the holder, only once ---

ARCHIVE = "H H . . / B G . . / . . . . / . . . ."


def test_only_the_holder_may_build_their_monument_and_only_once():
    g = with_towns(game("archive", "starloom"), ARCHIVE, ARCHIVE)
    g = play_round(g, "stone", {0: "3,3", 1: "3,3"})
    assert ids(g, 0) == ["build:cottage", "build:archive", "done"]
    assert ids(g, 1) == ["build:cottage", "done"]  # the layout, but not the card
    g = build(g, 0, "archive", ["0,0", "0,1", "1,0", "1,1"], "0,0")
    g = act(g, 1, "done")
    assert g.players[0].town[(0, 0)].building == "archive"
    assert "{seat0} builds the monument Archive of the Second Age at A1." in g.log
    view = tt.view(g, 1)["public"]
    assert view["players"][0]["monument"] == "archive" and "archive" in view["monument_cards"]
    g.players[0].town = parse_town("AR H H . / . B G . / . . . . / . . . .")
    g = play_round(g, "stone", {0: "3,3", 1: "3,2"})
    assert ids(g, 0) == ["build:cottage", "done"]


def test_unlisted_monument_build_refused():
    g = with_towns(game("archive", "starloom"), ARCHIVE, ARCHIVE)
    g = play_round(g, "stone", {0: "3,3", 1: "3,3"})
    before = tt.dump(g)
    with pytest.raises(IllegalAction):
        tt.apply(g, 1, "build:archive")
    assert tt.dump(g) == before


# --- Architect's Guild ---

def test_architects_guild_replaces_up_to_two_buildings():
    town = "We Fa . G / . . H S / . W B . / . . . ."
    g = with_towns(game("architects_guild", "starloom"), town)
    g = play_round(g, "glass", {0: "3,3", 1: "0,0"})
    g = build(g, 0, "architects_guild", ["0,3", "1,2", "1,3", "2,1", "2,2"], "1,2")
    assert ids(g, 0) == ["guild:0,0", "guild:0,1", "guild-done"]  # not the Guild itself
    g = act(g, 0, "guild:0,0")
    assert "guild-to:well" not in ids(g, 0) and "guild-to:farm" in ids(g, 0)
    g = act(g, 0, "guild-to:chapel")
    assert ids(g, 0) == ["guild:0,1", "guild-done"]
    g = act(g, 0, "guild:0,1", "guild-to:factory")
    assert ids(g, 0)[0] == "factorycube:wood"  # a new Factory takes its cube
    g = act(g, 0, "factorycube:glass")
    town = g.players[0].town
    assert (town[(0, 0)].building, town[(0, 1)].building) == ("chapel", "factory")
    assert town[(0, 1)].stored == ["glass"]
    assert "{seat0}'s Architect's Guild turns the Well at A1 into a Chapel." in g.log


def test_architects_guild_may_stop_early():
    g = with_towns(game("architects_guild", "starloom"), "We . . G / . . H S / . W B . / . . . .")
    g = play_round(g, "glass", {0: "3,3", 1: "0,0"})
    g = build(g, 0, "architects_guild", ["0,3", "1,2", "1,3", "2,1", "2,2"], "2,2")
    g = act(g, 0, "guild-done")
    assert g.players[0].town[(0, 0)].building == "well"
    assert g.phase == "name"


# --- Grove University ---

def test_grove_university_places_a_building_on_an_empty_square():
    g = with_towns(game("grove_university", "starloom"), ". B . . / S G S . / . . . . / . . . .")
    g = play_round(g, "wood", {0: "3,3", 1: "0,0"})
    g = build(g, 0, "grove_university", ["0,1", "1,0", "1,1", "1,2"], "1,1")
    assert ids(g, 0) == [f"grove:{c}" for c in g.cards]
    g = act(g, 0, "grove:tavern")
    assert "place:3,3" not in ids(g, 0) and "place:0,1" in ids(g, 0) and len(ids(g, 0)) == 14
    g = act(g, 0, "place:2,2")
    assert g.players[0].town[(2, 2)].building == "tavern"
    assert "{seat0} places a Tavern at C3 (Grove University)." in g.log


# --- Opaleye's Watch ---

WATCH = "W . . . / B G H H / S . . . / . . . ."


def test_opaleyes_watch_takes_buildings_its_neighbours_build_from_the_next_round():
    g = with_towns(game("opaleyes_watch", "starloom", "cathedral"), WATCH,
                   "W S W S / . . . . / . . . . / . . . .", "W S . . / . . . . / . . . . / . . . .")
    g = play_round(g, "glass", {0: "3,3", 1: "3,3", 2: "3,3"})
    g = build(g, 0, "opaleyes_watch", ["0,0", "1,0", "1,1", "1,2", "1,3", "2,0"], "1,1")
    assert ids(g, 0) == [f"watch:{c}" for c in g.cards]
    g = act(g, 0, "watch:well", "watch:farm")
    assert "watch:well" not in ids(g, 0)
    assert tt.view(g, 1)["public"]["players"][0]["watch"] is None  # not decided yet
    g = act(g, 0, "watch:tavern", "watch-done")
    assert tt.view(g, 1)["public"]["players"][0]["watch"] == ["well", "farm", "tavern"]
    # A Well built in the same round does not move yet.
    g = build(g, 1, "well", ["0,0", "0,1"], "0,0")
    g = act(g, 1, "done")
    g = act(g, 2, "done")
    assert g.phase == "name" and g.players[0].watch == ["well", "farm", "tavern"]
    # Next round seat 1 (beside seat 0) builds a Well: seat 0 moves it into town.
    g = play_round(g, "stone", {0: "3,2", 1: "3,2", 2: "3,2"})
    g = build(g, 1, "well", ["0,2", "0,3"], "0,2")
    assert g.phase == "build"
    g = act(g, 2, "done")
    assert g.phase == "watch" and tt.to_act(g) == {0}
    assert ids(g, 0)[0] == "place:0,0"
    g = act(g, 0, "place:0,0")
    assert g.players[0].town[(0, 0)].building == "well"
    assert g.players[0].watch == ["farm", "tavern"]
    assert "{seat0} moves a Well from Opaleye's Watch to A1." in g.log
    assert g.phase == "name"


# --- Shrine of the Elder Tree ---

def test_shrine_value_is_fixed_when_built():
    g = with_towns(game("shrine", "starloom"), "B H S Sh / W G W Sh / Sh Sh . . / . . . .")
    g = play_round(g, "glass", {0: "3,3", 1: "0,0"})
    g = build(g, 0, "shrine", ["0,0", "0,1", "0,2", "1,0", "1,1", "1,2"], "0,0")
    assert g.players[0].shrine_value == 5  # 4 Sheds and the Shrine itself
    assert tt.view(g, 1)["public"]["players"][0]["shrine_value"] == 5


# --- Obelisk of the Crescent ---

def test_obelisk_lets_later_buildings_stand_on_any_empty_square():
    g = with_towns(game("obelisk", "starloom"), "H . . . / B G B . / . . . . / W S . W")
    g = play_round(g, "stone", {0: "2,3", 1: "0,0"})
    g = build(g, 0, "obelisk", ["0,0", "1,0", "1,1", "1,2"], "1,0")
    g = act(g, 0, "build:well", "pick:3,0", "pick:3,1")
    assert ids(g, 0) == ["site:3,0", "site:3,1", "cancel"]  # not yet: same round
    g = act(g, 0, "site:3,0", "done")
    g = play_round(g, "glass", {0: "0,0", 1: "0,1"})
    g = act(g, 0, "build:well", "pick:3,3", "pick:2,3")
    sites = [i for i in ids(g, 0) if i.startswith("site:")]
    assert "site:0,3" in sites and "site:2,3" in sites and len(sites) == 13  # 11 empty + 2


# --- Fort Ironweed ---

def test_fort_ironweed_holder_no_longer_takes_the_hammer():
    g = with_towns(game("starloom", "fort_ironweed", "cathedral"), EMPTY, "H . B . / S W S . / . . . . / . . . .")
    g = play_round(g, "glass", {1: "3,3"})
    g = build(g, 1, "fort_ironweed", ["0,0", "0,2", "1,0", "1,1", "1,2"], "0,0")
    assert g.master_builder == 2  # seat 1 is skipped
    g = play_round(g, "glass")
    assert g.master_builder == 0
    g = play_round(g, "glass")
    assert g.master_builder == 2
    assert g.players[1].master_builder_turns == 0


def test_fort_ironweed_holder_names_when_last():
    g = with_towns(game("starloom", "fort_ironweed"), "G G G G / G G G G / G G G G / G G G .",
                   "H . B . / S W S . / . . . . / . . . .")
    g = play_round(g, "glass", {0: "3,3", 1: "3,3"})
    g = build(g, 1, "fort_ironweed", ["0,0", "0,2", "1,0", "1,1", "1,2"], "0,0")
    assert g.players[0].complete and g.master_builder == 1 and tt.to_act(g) == {1}


# --- Statue of the Bondmaker ---

def test_bondmaker_puts_a_named_cube_on_a_cottage_that_cannot_build():
    g = with_towns(game("starloom", "bondmaker"), EMPTY, "Co Co S . / . . . . / . . . . / . . . .")
    g.players[1].monument_round = 0  # built before this round
    g.players[1].town[(3, 3)].building = "bondmaker"
    g = act(g, 0, "name:wood")
    statues = [i for i in ids(g, 1) if i.startswith("statue:")]
    assert statues == ["statue:0,0", "statue:0,1"]
    g = act(g, 1, "statue:0,1")
    g = act(g, 0, "place:0,0")
    assert g.players[1].town[(0, 1)].stored == ["wood"]
    assert g.phase == "name"  # the wood beside the stone is no Well: it sits on the Cottage
    assert g.master_builder == 1
    g = act(g, 1, "name:glass")
    assert not any(i.startswith("statue:") for i in ids(g, 1))  # named it yourself
    g = play_round(g, "glass")
    g = act(g, 0, "name:glass")
    assert [i for i in ids(g, 1) if i.startswith("statue:")] == ["statue:0,0"]  # one per Cottage


def test_bondmaker_does_not_trigger_on_own_naming():
    g = with_towns(game("bondmaker", "starloom"), "Co . . BM / . . . . / . . . . / . . . .")
    g.players[0].monument_round = 0
    g = act(g, 0, "name:wood")
    assert not any(i.startswith("statue:") for i in ids(g, 0))


def test_opaleyes_watch_building_stays_on_the_card_without_an_empty_square():
    full = "OW G G G / G G G G / G G G G / G G G G"
    g = with_towns(game("opaleyes_watch", "starloom"), full, "W S . . / . . . . / . . . . / . . . .")
    g.players[0].monument_round, g.players[0].watch = 0, ["well", "farm", "tavern"]
    g = play_round(g, "glass", {1: "3,3"})
    g = build(g, 1, "well", ["0,0", "0,1"], "0,0")
    assert g.phase == "name"  # no Watch step: nowhere to put the Well
    assert g.players[0].watch == ["well", "farm", "tavern"] and g.players[0].complete
