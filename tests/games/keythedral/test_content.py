"""The content tables agree with the component list, and authored items say so."""

from __future__ import annotations

from collections import Counter

import pytest

from app.games.keythedral import content
from app.games.keythedral.content import (AUTHORED, CRAFT, FIELDS, LAWS, PUBLISHED, ROW_SIZES,
                                          TILES, BuildingTile)
from app.games.keythedral.rules import LAW_EFFECTS


def test_there_are_34_building_tiles_valued_6x4_8x6_8x8_6x10_6x12():
    assert len(TILES) == 34
    assert Counter(t.value for t in TILES.values()) == {4: 6, 6: 8, 8: 8, 10: 6, 12: 6}


def test_every_tile_costs_two_to_four_cubes():
    assert {len(t.cost) for t in TILES.values()} <= {2, 3, 4}
    assert min(len(t.cost) for t in TILES.values()) == 2
    assert max(len(t.cost) for t in TILES.values()) == 4


def test_first_row_costs_two_common_resources_and_top_row_needs_a_craft_cube():
    for tile in TILES.values():
        if tile.value == 4:
            assert len(tile.cost) == 2 and set(tile.cost) <= {"black", "brown"}, tile.id
        if tile.value == 12:
            assert set(tile.cost) & set(CRAFT), tile.id


def test_stone_only_in_the_first_two_rows_and_timber_in_the_first_three():
    assert max(t.value for t in TILES.values() if "black" in t.cost) == 6
    assert max(t.value for t in TILES.values() if "brown" in t.cost) == 8


def test_29_fields_with_back_numbers_1x4_2x10_and_5_each_of_3_4_5():
    assert len(FIELDS) == 29
    assert Counter(f.number for f in FIELDS.values()) == {1: 4, 2: 10, 3: 5, 4: 5, 5: 5}
    assert Counter(f.type for f in FIELDS.values()) == {"quarry": 6, "wood": 8, "lake": 5,
                                                        "farm": 5, "vineyard": 5}
    assert sorted(f.type for f in FIELDS.values() if f.number == 1) == ["quarry", "quarry", "wood", "wood"]


def test_authored_items_are_marked():
    assert {t.source for t in TILES.values()} == {AUTHORED}
    assert {c.source for c in LAWS.values()} == {AUTHORED}
    assert {f.source for f in FIELDS.values() if f.number == 1} == {PUBLISHED}
    assert {f.source for f in FIELDS.values() if f.number > 1} == {AUTHORED}
    assert content.ROW_SIZES_SOURCE == AUTHORED


def test_twenty_law_cards_each_with_a_phase_and_a_known_effect():
    assert len(LAWS) == 20
    assert Counter(c.phase for c in LAWS.values()) == {1: 3, 2: 4, 3: 11, 5: 2}
    assert {c.effect for c in LAWS.values()} <= set(LAW_EFFECTS)
    assert all(c.text and c.name for c in LAWS.values())


def test_short_and_full_games_lay_15_and_22_tiles():
    assert sum(ROW_SIZES["full"].values()) == 22
    assert sum(ROW_SIZES["short"].values()) == 15
    assert ROW_SIZES["full"][4] == 5


def test_a_table_that_breaks_the_component_list_is_refused(monkeypatch):
    broken = dict(TILES)
    broken["4a"] = BuildingTile("4a", 4, ("green", "green"))  # not a common resource
    monkeypatch.setattr(content, "TILES", broken)
    with pytest.raises(AssertionError, match="first-row tile 4a"):
        content._check()
    monkeypatch.setattr(content, "TILES", {k: v for k, v in TILES.items() if k != "12f"})
    with pytest.raises(AssertionError, match="34 building tiles"):
        content._check()
