"""Keyper content: the tables match the seed's counts, and every authored building side,
fair and boat does what its text says when played through the rules."""

from __future__ import annotations

import dataclasses

import pytest

import app.games.keyper as kp
from app.games.keyper import content
from app.games.keyper.content import (ANIMALS, AUTHORED, BOATS, BUILDINGS, COUNTRY, FAIRS, GOODS, HOME,
                                      KEYPLE_COLOURS, SEASONS, WHITE, folds, layout)
from app.games.keyper.rules import building_points, house_animals
from app.games.keyper.view import tile_json

from .support import build_on, fresh, ids, play

STAND_IN = {"raw": "clay", "finished": "brick", "gem": "ruby"}


def test_counts_match_the_seed():
    assert len(HOME) == 12 and len(COUNTRY) == 48 and sum(b.season == "spring" for b in COUNTRY.values()) == 21
    assert sum(b.area == "farm" for b in COUNTRY.values()) == 12 and len(FAIRS) == 26 and len(BOATS) == 6
    assert all(len([f for s in SEASONS for f in folds(b, s)]) == 14 for b in content.BOARDS)


def test_every_item_says_where_it_comes_from():
    for table in (content.BOARDS, BUILDINGS, FAIRS, BOATS):
        assert all(item.source == AUTHORED for item in table.values())


def test_a_broken_table_is_refused_at_import(monkeypatch):
    monkeypatch.setitem(content.COUNTRY, "c99", COUNTRY["c1"])
    with pytest.raises(AssertionError):
        content._check()
    monkeypatch.delitem(content.COUNTRY, "c99")
    monkeypatch.setitem(content.BOARDS, 1, dataclasses.replace(content.BOARDS[1], br="clay clay clay clay"))
    with pytest.raises(AssertionError):
        content._check()
    monkeypatch.undo()
    content._check()  # the real tables again (and the cached folds read afresh)


def test_folds_keep_the_keyp_field_and_river_in_place():
    for board in content.BOARDS:
        for season in SEASONS:
            for fold in folds(board, season):
                cells = layout(board, fold)
                assert cells[(0, 3)] == "keyp" and cells[(1, 2)] == cells[(1, 3)] == "river"


def plenty(g, seat: int) -> None:
    p = g.players[seat]
    for good in GOODS:
        g.supply[good] += 9
        p.stock[good] = 9


SIDES = [(b, up) for b in BUILDINGS for up in (False, True)]


@pytest.mark.parametrize("tile, up", SIDES, ids=[f"{b}-{'back' if up else 'front'}" for b, up in SIDES])
def test_every_building_side_acts_houses_and_scores_as_written(tile, up):
    b = BUILDINGS[tile]
    side = b.back if up else b.front
    plot = f"{b.area}1"
    g = fresh()
    build_on(g, 0, plot, tile, up)
    plenty(g, 0)
    p = g.players[0]
    for i, act in enumerate(side.acts):
        g.queue = [{"do": "act", "kind": "work", "seat": 0, "plot": plot, "left": 1}]
        uses = [o for o in ids(g, 0) if o.startswith(f"use:{i}:")]
        assert uses, f"{tile}: action {i} is offered with plenty of goods"
        before = dict(p.stock), p.ship
        g = play(g, 0, uses[0])
        p = g.players[0]
        paid = sum(before[0][k] - p.stock[k] for k in before[0] if p.stock[k] < before[0][k])
        got = sum(p.stock[k] - before[0][k] for k in before[0] if p.stock[k] > before[0][k])
        want_paid = sum(act.pay.values()) + ("refine" in act.gain)
        want_got = sum(n for k, n in act.gain.items() if k != "ship")
        assert (paid, got, p.ship - before[1]) == (want_paid, want_got, act.gain.get("ship", 0)), tile
    if side.houses:
        for a in ANIMALS:
            g.supply[a] -= 5 - p.stock[a]
            p.stock[a] = 5
        house_animals(g, p)
        assert sum(p.housed[plot].values()) == side.capacity and set(p.housed[plot]) <= set(side.houses)
    else:
        p.housed = {"farm4": {a: 5 for a in ANIMALS}}
    p.hand = [c for c in KEYPLE_COLOURS for _ in range(5)]
    flat, per = building_points(p)
    assert flat == side.points
    expected = sum(n * (min(4, side.capacity) if thing == "housed" else 4) for thing, n in side.per)
    assert per == expected, tile


@pytest.mark.parametrize("fair_id", sorted(FAIRS))
def test_every_fair_is_held_with_its_goods(fair_id):
    fair = FAIRS[fair_id]
    sides = [("front", fair.needs, fair.points, fair.season)] if fair.season != "winter" else [
        ("4", fair.needs, 4, "summer"), ("6", fair.back_needs, 6, "winter")]
    for side_name, needs, points, season in sides:
        g = fresh()
        g.season = SEASONS.index(season)
        p = g.players[0]
        if fair.season == "winter":
            p.winter = [fair_id]
        else:
            p.fairs[season] = fair_id
        p.stock = {k: 0 for k in p.stock}
        for good, n in needs.items():
            good = STAND_IN.get(good, good)
            g.supply[good] -= n
            p.stock[good] += n
        g.queue = [{"do": "fair", "seat": 0}]
        g = play(g, 0, f"fair:{fair_id}:{side_name}")
        p = g.players[0]
        assert p.shown[-1]["points"] == points and not any(p.stock.values())


@pytest.mark.parametrize("boat_id", sorted(BOATS))
def test_every_boat_face_trades_its_goods(boat_id):
    for season in SEASONS:
        for good in BOATS[boat_id].faces[season]:
            g = fresh()
            g.season = SEASONS.index(season)
            g.boards[0]["boat"] = boat_id
            g.queue = [{"do": "act", "kind": "boat", "seat": 0, "board": 1, "left": 1, "group": "x"}]
            have = g.players[0].stock[good]
            g = play(g, 0, f"get:{good}")
            assert g.players[0].stock[good] == have + 1
            g.queue = [{"do": "act", "kind": "boat", "seat": 0, "board": 1, "left": 1, "group": "y"}]
            g.trades = {}
            g = play(g, 0, f"sell:{good}")
            assert g.players[0].stock[good] == have and g.players[0].ship == 2


def test_white_goods_stand_for_their_kinds():
    assert set(WHITE) == {"raw", "finished", "gem"} and kp.TITLE.id == "keyper"


def test_every_tile_in_a_view_reads_its_sides_in_words_as_the_content_writes_them():
    """``view.tile_json`` keeps each tile's two texts once (``side_texts``): every tile's,
    read in either order and again, are its own sides' words, and its cost dicts are its own
    copies (a view may be changed by whoever holds it)."""
    for tile in [*BUILDINGS, *reversed(BUILDINGS), *BUILDINGS]:
        b = BUILDINGS[tile]
        shown = tile_json(tile, slot=1)
        assert (shown["text"], shown["back_text"]) == (content.describe_side(b.front), content.describe_side(b.back)), tile
        assert shown["slot"] == 1 and shown["cost"] == b.front.cost and shown["cost"] is not b.front.cost
        shown["cost"]["gold"] = 99
        assert tile_json(tile)["cost"] == b.front.cost
    assert len({content.describe_side(b.front) for b in BUILDINGS.values()}) > 10  # the texts differ from tile to tile
