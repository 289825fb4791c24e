"""Tiny Towns end-of-game scoring, one test per card rule plus worked towns.

Towns are drawn as 4×4 grids, one token per square (see ``town``).
"""

from __future__ import annotations

import doctest
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.tiny_towns import scoring
from app.games.tiny_towns.content import FIRST_GAME
from app.games.tiny_towns.notation import CODES, parse_town
from app.games.tiny_towns.scoring import EMPTY_SQUARES, TownScore, best_feeding, score_town, shrine_points
from app.games.tiny_towns.town import Town, neighbours, surrounding


def town(grid: str) -> Town:
    """A town from a 4×4 grid in town notation (``notation.parse_town``, codes from
    ``notation.CODES``), written one row a line; indentation and blank lines are ignored.
    """
    return parse_town(grid)


def score(grid: str, **facts) -> TownScore:
    return score_town(town(grid), **facts)


def line(grid: str, label: str, **facts) -> int:
    return score(grid, **facts).lines[label]


def grid_of(tokens: list[str]) -> str:
    """A 4×4 grid from 16 tokens, row by row."""
    return "\n".join(" ".join(tokens[r * 4:r * 4 + 4]) for r in range(4))


# --- Notation helper ---

def test_town_helper_reads_buildings_cubes_and_stored_cubes():
    t = town("""
        Co  W   .  .
        .   .   .  .
        .   .   .  .
        .   .   . Wa+WH
    """)
    assert t[(0, 0)].building == "cottage"
    assert t[(0, 1)].resource == "wood" and t[(0, 1)].building is None
    assert t[(3, 3)].building == "warehouse" and t[(3, 3)].stored == ["wood", "wheat"]


# --- Score sheet shape ---

def test_one_line_per_type_in_card_order_then_monument_then_empty_squares():
    s = score("""
        Co Co Fa FI
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """)
    assert list(s.lines) == ["Cottage", "Farm", "Fort Ironweed", EMPTY_SQUARES]
    assert s.lines == {"Cottage": 6, "Farm": 0, "Fort Ironweed": 7, EMPTY_SQUARES: -12}
    assert s.total == 1


def test_empty_squares_line_is_present_on_a_full_town():
    s = score("""
        Sh Sh Sh Sh
        Sh Sh Sh Sh
        Sh Sh Sh Sh
        Sh Sh Sh Sh
    """)
    assert s.lines == {"Shed": 16, EMPTY_SQUARES: 0}
    assert s.total == 16 and s.empty_squares == 0


def test_empty_town_scores_minus_sixteen():
    s = score_town(Town())
    assert s.lines == {EMPTY_SQUARES: -16}
    assert (s.total, s.empty_squares, s.cottages, s.fed_cottages) == (-16, 16, 0, 0)


# --- Empty squares ---

def test_each_empty_square_costs_one():
    s = score("""
        Sh Sh Sh Sh
        Sh Sh Sh Sh
        Sh Sh Sh .
        Sh .  Sh .
    """)
    assert s.lines[EMPTY_SQUARES] == -3
    assert s.empty_squares == 3
    assert s.total == 13 - 3


def test_cube_left_on_a_square_is_removed_so_the_square_scores_as_empty():
    s = score("""
        Sh Sh Sh Sh
        Sh Sh Sh Sh
        Sh Sh Sh Sh
        Sh W  G  Sh
    """)
    assert s.empty_squares == 2
    assert s.lines[EMPTY_SQUARES] == -2


# --- Building: Cottage ---

def test_unfed_cottage_scores_zero():
    s = score("""
        Co .  .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """)
    assert s.lines["Cottage"] == 0
    assert (s.fed_cottages, s.cottages) == (0, 1)


def test_fed_cottage_scores_three():
    s = score("""
        Co Fa .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """)
    assert s.lines["Cottage"] == 3
    assert (s.fed_cottages, s.cottages) == (1, 1)


# --- Building: Farm ---

def test_red_buildings_score_zero_themselves():
    s = score("""
        Fa Gr Gh Or
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """)
    assert s.lines == {"Farm": 0, "Granary": 0, "Greenhouse": 0, "Orchard": 0,
                       EMPTY_SQUARES: -12}


def test_farm_feeds_four_cottages_anywhere():
    s = score("""
        Co .  .  Co
        .  Fa .  .
        .  .  .  .
        Co .  .  Co
    """)
    assert s.lines["Cottage"] == 12
    assert s.fed_cottages == 4


def test_farm_feeds_only_four_of_six_cottages_and_chapel_counts_only_fed():
    s = score("""
        Co Co Co Co
        Co Co Fa Ch
        .  .  .  .
        .  .  .  .
    """)
    assert s.lines["Cottage"] == 12
    assert s.lines["Chapel"] == 4
    assert (s.fed_cottages, s.cottages) == (4, 6)


def test_two_farms_feed_eight_cottages():
    s = score("""
        Co Co Co Co
        Co Co Co Co
        Co Fa Fa .
        .  .  .  .
    """)
    assert s.lines["Cottage"] == 24
    assert (s.fed_cottages, s.cottages) == (8, 9)


def test_farm_feeds_the_cottages_beside_a_temple_first():
    s = score("""
        Co Co Co Co
        Co Te Fa .
        Co Co .  .
        .  .  .  .
    """)
    # The Temple touches (0,1), (1,0), (2,1): feed two of them and the Temple scores.
    assert s.lines["Cottage"] == 12
    assert s.lines["Temple"] == 4


# --- Building: Granary ---

def test_granary_feeds_the_eight_surrounding_squares_diagonals_included():
    s = score("""
        Co Co Co Co
        Co Gr Co Co
        Co Co Co Co
        Co Co Co Co
    """)
    # Fed: the 8 around (1,1); not fed: column 3 and row 3.
    assert s.fed_cottages == 8
    assert s.lines["Cottage"] == 24


# --- Building: Greenhouse ---

def test_greenhouse_feeds_one_group_that_need_not_touch_it():
    s = score("""
        Gh .  .  .
        .  .  .  .
        .  .  Co Co
        .  .  Co .
    """)
    assert s.lines["Cottage"] == 9


def test_greenhouse_picks_the_biggest_group():
    grid = """
        Co Co .  Gh
        .  .  .  .
        Co .  Co Co
        Co .  Co .
    """
    # Groups: {(0,0),(0,1)}, {(2,0),(3,0)}, {(2,2),(2,3),(3,2)}.
    assert line(grid, "Cottage") == 9
    assert best_feeding(town(grid)) == {(2, 2), (2, 3), (3, 2)}


def test_greenhouse_picks_the_group_that_makes_a_temple_score():
    grid = """
        Co Co Co Gh
        .  .  .  .
        .  Co Co .
        .  Te Co .
    """
    # Two groups of 3; only the lower one touches the Temple twice ((2,1) and (3,2)).
    s = score(grid)
    assert (s.lines["Cottage"], s.lines["Temple"]) == (9, 4)
    assert best_feeding(town(grid)) == {(2, 1), (2, 2), (3, 2)}


def test_greenhouse_prefers_a_smaller_group_when_it_wakes_a_temple():
    grid = """
        Co Co Co Co
        Gh .  .  .
        .  Co Co .
        .  Te Co .
    """
    # Row 0 (4 Cottages) gives 12; the lower group of 3 gives 9 + the Temple's 4.
    s = score(grid)
    assert (s.lines["Cottage"], s.lines["Temple"]) == (9, 4)
    assert s.total == 13 - 7  # 7 empty squares


def test_two_greenhouses_feed_two_different_groups():
    s = score("""
        Co Co .  Gh
        .  .  .  Gh
        Co .  Co Co
        Co .  Co .
    """)
    # Best two groups: 3 + 2 Cottages.
    assert s.lines["Cottage"] == 15
    assert s.fed_cottages == 5


def test_greenhouse_and_farm_share_out_the_groups():
    s = score("""
        Co Co Co Co
        .  .  .  Co
        Co Co Co .
        Gh Fa .  .
    """)
    # Greenhouse takes the group of 5, the Farm the group of 3.
    assert s.lines["Cottage"] == 24
    assert s.fed_cottages == 8


# --- Building: Orchard ---

def test_orchard_feeds_its_row_and_column_only():
    s = score("""
        Co Co .  Co
        Co Or Co Co
        Co Co Co .
        .  Co .  Co
    """)
    # Row 1: (1,0), (1,2), (1,3); column 1: (0,1), (2,1), (3,1). Diagonals are not fed.
    assert s.fed_cottages == 6
    assert s.lines["Cottage"] == 18
    assert s.cottages == 11


def test_feeders_overlap_without_double_counting():
    s = score("""
        Co Co .  .
        Or Gr .  .
        .  .  .  .
        .  .  .  .
    """)
    assert s.fed_cottages == 2
    assert s.lines["Cottage"] == 6


# --- Building: Fountain ---

def test_fountain_next_to_a_fountain_scores_two():
    assert line("""
        Fo Fo .  .
        .  .  .  Fo
        .  .  .  .
        .  .  .  .
    """, "Fountain") == 4


def test_fountain_with_a_gray_building_only_diagonal_scores_zero():
    assert line("""
        Fo .  .  .
        .  Fo .  .
        .  .  .  .
        .  .  .  .
    """, "Fountain") == 0


def test_fountain_scores_two_at_most():
    assert line("""
        .  Fo .  .
        Fo Fo Fo .
        .  Fo .  .
        .  .  .  .
    """, "Fountain") == 10


# --- Building: Millstone ---

def test_millstone_next_to_red_or_yellow_scores_two_once():
    assert line("""
        Fa Mi Ba .
        .  .  .  .
        .  .  .  Mi
        .  .  .  We
    """, "Millstone") == 2


def test_millstone_next_to_yellow_scores_two():
    assert line("""
        Th Mi .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Millstone") == 2


# --- Building: Shed ---

def test_shed_scores_one():
    assert line("""
        Sh .  .  .
        .  .  .  .
        .  .  .  Sh
        .  .  .  .
    """, "Shed") == 2


# --- Building: Well ---

def test_well_scores_one_per_adjacent_cottage_fed_or_not():
    assert line("""
        Co We Co .
        Co We .  .
        .  .  .  .
        .  .  Co .
    """, "Well") == 2 + 1


def test_well_ignores_diagonal_cottages():
    assert line("""
        Co .  Co .
        .  We .  .
        Co .  Co .
        .  .  .  .
    """, "Well") == 0


def test_well_counts_barrett_castle_as_two_cottages():
    assert line("""
        BC We Co .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Well") == 3


# --- Building: Abbey ---

def test_abbey_alone_scores_three():
    assert line("""
        Ab Fa .  .
        We Co .  .
        .  Ch .  .
        .  .  .  .
    """, "Abbey") == 3


@pytest.mark.parametrize("code", ["Bk", "Tp", "Al", "Fe", "In", "Ta", "Ba", "Th"])
def test_abbey_next_to_black_green_or_yellow_scores_zero(code):
    assert line(f"""
        Ab {code} .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Abbey") == 0


def test_abbey_with_black_only_diagonal_scores_three():
    assert line("""
        Ab .  .  .
        .  Bk .  .
        .  .  .  .
        .  .  .  .
    """, "Abbey") == 3


# --- Building: Chapel ---

def test_chapel_scores_one_per_fed_cottage():
    assert line("""
        Co Co Fa Ch
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Chapel") == 2


def test_each_chapel_scores_all_fed_cottages_three_fed_one_unfed():
    s = score("""
        Co Co Co Gh
        .  .  .  .
        .  .  .  .
        Co Ch Ch .
    """)
    # The Greenhouse feeds the row of 3; the Cottage at (3,0) stays unfed.
    assert (s.fed_cottages, s.cottages) == (3, 4)
    assert s.lines["Chapel"] == 3 + 3


def test_chapel_counts_a_fed_barrett_castle_as_two():
    assert line("""
        BC Fa Ch .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Chapel") == 2


# --- Building: Cloister ---

def test_cloister_scores_orange_buildings_in_corners_even_when_not_in_a_corner():
    s = score("""
        Cl .  .  Cl
        .  Cl .  .
        .  .  .  .
        Cl .  .  Ch
    """)
    # Orange in corners: 3 Cloisters and a Chapel = 4, for each of the 4 Cloisters.
    assert s.lines["Cloister"] == 16


def test_cloister_not_in_a_corner_and_none_there_scores_zero():
    assert line("""
        .  Cl .  .
        .  .  .  .
        .  .  .  .
        .  .  .  Fa
    """, "Cloister") == 0


# --- Building: Temple ---

def test_temple_next_to_two_fed_cottages_scores_four():
    assert line("""
        Co Te Co Fa
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Temple") == 4


def test_temple_next_to_unfed_cottages_scores_zero():
    assert line("""
        Co Te Co .
        .  Co .  .
        .  .  .  .
        .  .  .  .
    """, "Temple") == 0


def test_temple_with_diagonal_cottages_scores_zero():
    assert line("""
        Co .  Co Fa
        .  Te .  .
        Co .  Co .
        .  .  .  .
    """, "Temple") == 0


def test_temple_next_to_one_fed_cottage_scores_zero():
    assert line("""
        Co Te Fa .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Temple") == 0


def test_temple_next_to_a_fed_barrett_castle_counts_two_cottages():
    assert line("""
        BC Te Fa .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Temple") == 4


# --- Building: Almshouse ---

@pytest.mark.parametrize("count,points", [(1, -1), (2, 5), (3, -3), (4, 15), (5, -5),
                                          (6, 26), (7, 26)])
def test_almshouses_score_once_by_their_number(count, points):
    tokens = ["Al"] * count + ["Sh"] * (16 - count)
    assert line(grid_of(tokens), "Almshouse") == points


def test_almshouse_six_score_26():
    assert line("""
        Al Al Al .
        .  .  .  .
        Al Al Al .
        .  .  .  .
    """, "Almshouse") == 26


# --- Building: Feast Hall ---

@pytest.mark.parametrize("right,points", [(0, 6), (1, 6), (2, 4), (3, 4), (None, 4)])
def test_feast_halls_score_three_each_with_more_than_the_right_neighbour(right, points):
    assert line("""
        Fe .  .  .
        .  .  .  .
        .  .  .  .
        .  .  .  Fe
    """, "Feast Hall", right_feast_halls=right) == points


def test_feast_hall_two_player_game_fewer_halls_score_two_each():
    grid_more = """
        Fe Fe Fe .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """
    grid_fewer = """
        Fe .  .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """
    # Each player's right neighbour is the other player.
    assert line(grid_more, "Feast Hall", right_feast_halls=1) == 9
    assert line(grid_fewer, "Feast Hall", right_feast_halls=3) == 2


# --- Building: Inn ---

def test_inn_alone_in_its_row_and_column_scores_three():
    assert line("""
        In .  .  .
        .  In .  .
        .  .  In .
        .  .  .  In
    """, "Inn") == 12


def test_inns_sharing_a_row_or_column_score_zero():
    assert line("""
        In .  .  In
        .  .  .  .
        .  .  .  .
        In .  .  .
    """, "Inn") == 0


def test_inn_sharing_a_line_with_one_inn_but_not_another():
    assert line("""
        In In .  .
        .  .  In .
        .  .  .  .
        .  .  .  .
    """, "Inn") == 3


# --- Building: Tavern ---

@pytest.mark.parametrize("count,points", [(1, 2), (2, 5), (3, 9), (4, 14), (5, 20), (6, 20)])
def test_taverns_score_once_by_their_number(count, points):
    tokens = ["Ta"] * count + ["."] * (16 - count)
    assert line(grid_of(tokens), "Tavern") == points


# --- Building: Bakery ---

@pytest.mark.parametrize("code", ["Fa", "Gh", "Fc", "Wa"])
def test_bakery_next_to_red_or_black_scores_three(code):
    assert line(f"""
        Ba {code} .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Bakery") == 3


def test_bakery_next_to_other_colours_or_diagonal_red_scores_zero():
    assert line("""
        Ba We .  .
        Co Fa .  .
        .  .  .  .
        .  .  .  .
    """, "Bakery") == 0


# --- Building: Market ---

def test_market_scores_the_better_of_its_row_or_its_column():
    s = score("""
        Ma Ma Ma .
        Ma .  .  .
        .  .  .  .
        .  .  .  .
    """)
    # (0,0): row 3, column 2 → 3; (0,1): 3; (0,2): 3; (1,0): row 1, column 2 → 2.
    assert s.lines["Market"] == 11


def test_market_scores_at_most_four():
    s = score("""
        Ma Ma Ma Ma
        Ma .  .  .
        Ma .  .  .
        Ma .  .  .
    """)
    # (0,0) has 4 in its row and 4 in its column: still 4, not 7.
    assert s.lines["Market"] == 4 * 4 + 3 * 4


def test_lone_market_scores_one():
    assert line("""
        .  .  .  .
        .  Ma .  .
        .  .  .  .
        .  .  .  .
    """, "Market") == 1


# --- Building: Tailor ---

def test_tailor_outside_the_centre_scores_one_plus_centre_tailors():
    s = score("""
        Tl .  .  .
        .  Tl .  .
        .  .  Tl .
        .  .  .  .
    """)
    # Two Tailors in the centre: each of the 3 Tailors scores 1 + 2.
    assert s.lines["Tailor"] == 9


def test_tailor_scores_at_most_five():
    assert line("""
        Tl .  .  .
        .  Tl Tl .
        .  Tl Tl .
        .  .  .  .
    """, "Tailor") == 5 * 5


# --- Building: Theater ---

def test_theater_counts_distinct_types_in_its_row_and_column():
    assert line("""
        .  We .  .
        Co Th Co Ch
        .  We .  .
        .  Fa .  .
    """, "Theater") == 4  # cottage, chapel, well, farm


def test_theater_does_not_count_other_theaters():
    s = score("""
        Th Th Co .
        We .  .  .
        .  .  .  .
        .  .  .  .
    """)
    # (0,0): cottage, well = 2; (0,1): cottage = 1.
    assert s.lines["Theater"] == 3


def test_theater_scores_at_most_six():
    assert line("""
        .  Co .  .
        We Th Ch Ta
        .  Fa .  .
        .  Fc .  .
    """, "Theater") == 6


def test_theater_counts_barrett_castle_as_cottage():
    assert line("""
        BC Th Co .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Theater") == 1


def test_theater_counts_a_monument_as_its_own_type():
    assert line("""
        FI Th Co .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Theater") == 2


def test_theater_ignores_diagonal_squares():
    assert line("""
        Co .  We .
        .  Th .  .
        Ch .  Fa .
        .  .  .  .
    """, "Theater") == 0


# --- Building: Bank, Factory, Trading Post, Warehouse ---

def test_bank_scores_four_and_its_resource_nothing():
    assert line("""
        Bk+G Bk+S .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Bank") == 8


def test_factory_scores_zero_and_its_resource_nothing():
    s = score("""
        Fc+W .  .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """)
    assert s.lines == {"Factory": 0, EMPTY_SQUARES: -15}


def test_trading_post_scores_one():
    assert line("""
        Tp .  .  .
        .  Tp .  .
        .  .  .  .
        .  .  .  .
    """, "Trading Post") == 2


def test_warehouse_costs_one_per_stored_cube():
    s = score("""
        Wa+WWH Wa+B Wa .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """)
    assert s.lines["Warehouse"] == -4
    assert s.empty_squares == 13


# --- Monument: Archive of the Second Age ---

def test_archive_scores_one_per_building_type_not_counting_monuments():
    assert line("""
        AR Co Co Fa
        We We Ch .
        .  .  .  .
        .  .  .  .
    """, "Archive of the Second Age") == 4


# --- Monument: Architect's Guild ---

def test_architects_guild_scores_one():
    assert line("""
        AG .  .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Architect's Guild") == 1


# --- Monument: Barrett Castle ---

def test_barrett_castle_fed_scores_five_unfed_zero():
    assert line("""
        BC .  .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Barrett Castle") == 0
    s = score("""
        BC Or .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """)
    assert s.lines["Barrett Castle"] == 5
    assert (s.fed_cottages, s.cottages) == (2, 2)


def test_barrett_castle_takes_two_of_a_farms_four_feeds():
    s = score("""
        BC Co Co Co
        Fa .  .  .
        .  .  .  .
        .  .  .  .
    """)
    # Castle + 2 Cottages (5 + 6) beats 3 Cottages (9).
    assert (s.lines["Barrett Castle"], s.lines["Cottage"]) == (5, 6)
    assert (s.fed_cottages, s.cottages) == (4, 5)


def test_farms_feed_eight_cottages_rather_than_barrett_castle_and_six():
    s = score("""
        BC Co Co Co
        Co Co Co Co
        Co Fa Fa .
        .  .  .  .
    """)
    # 8 feeds for 8 Cottages and the Castle: the Castle and 6 Cottages (5 + 18) lose to
    # 8 Cottages (24), so the Castle stays unfed.
    assert (s.lines["Barrett Castle"], s.lines["Cottage"]) == (0, 24)
    assert s.fed_cottages == 8


def test_barrett_castle_joins_a_greenhouse_group_as_cottages():
    s = score("""
        BC Co .  Gh
        .  .  .  .
        Co Co Co .
        .  .  .  .
    """)
    # Group {Castle, (0,1)} is worth 5 + 3 = 8; the row of three is worth 9.
    assert (s.lines["Cottage"], s.lines["Barrett Castle"]) == (9, 0)
    s = score("""
        BC Co .  Gh
        .  .  .  .
        Co Co .  .
        .  .  .  .
    """)
    # Now the lower pair is worth 6, less than the Castle's group.
    assert (s.lines["Cottage"], s.lines["Barrett Castle"]) == (3, 5)


# --- Monument: Cathedral of Caterina ---

def test_cathedral_scores_two_and_empty_squares_zero():
    s = score("""
        CA W  .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """)
    assert s.lines == {"Cathedral of Caterina": 2, EMPTY_SQUARES: 0}
    assert (s.total, s.empty_squares) == (2, 15)


# --- Monument: Fort Ironweed ---

def test_fort_ironweed_scores_seven():
    assert line("""
        FI .  .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Fort Ironweed") == 7


# --- Monument: Grand Mausoleum of the Rodina ---

def test_grand_mausoleum_scores_three_per_unfed_cottage_on_its_own_line():
    s = score("""
        Co Co Fa GM
        Co .  .  .
        .  .  Co .
        .  .  .  .
    """)
    assert s.lines["Cottage"] == 12
    assert s.lines["Grand Mausoleum of the Rodina"] == 0
    s = score("""
        Co Co Gr GM
        .  .  .  .
        Co .  Co .
        .  .  .  .
    """)
    # The Granary feeds (0,1) only; (0,0), (2,0) and (2,2) stay unfed.
    assert s.lines["Cottage"] == 3
    assert s.lines["Grand Mausoleum of the Rodina"] == 9
    assert s.fed_cottages == 1


# --- Monument: Grove University ---

def test_grove_university_scores_three():
    assert line("""
        GU .  .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Grove University") == 3


# --- Monument: Mandras Palace ---

def test_mandras_palace_scores_two_per_distinct_adjacent_type():
    assert line("""
        Co We .  .
        Co MP Co .
        Ch Fa .  .
        .  .  .  .
    """, "Mandras Palace") == 6  # cottage, well, farm; the Chapel is diagonal


# --- Monument: Obelisk, Opaleye's Watch, Statue of the Bondmaker ---

@pytest.mark.parametrize("code,name", [("OB", "Obelisk of the Crescent"),
                                       ("OW", "Opaleye's Watch"),
                                       ("BM", "Statue of the Bondmaker")])
def test_monuments_with_powers_only_score_zero(code, name):
    assert line(f"""
        {code} .  .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, name) == 0


def test_cubes_on_cottages_under_the_bondmaker_score_nothing_and_fill_no_square():
    s = score("""
        BM Co+W Co+H Fa
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """)
    assert s.lines == {"Cottage": 6, "Farm": 0, "Statue of the Bondmaker": 0,
                       EMPTY_SQUARES: -12}


# --- Monument: Shrine of the Elder Tree ---

def test_shrine_scores_the_value_fixed_when_built():
    assert line("""
        SE Co Co .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Shrine of the Elder Tree", shrine_value=8) == 8


def test_shrine_without_its_fixed_value_is_refused():
    with pytest.raises(ValueError, match="shrine_value"):
        score("""
            SE .  .  .
            .  .  .  .
            .  .  .  .
            .  .  .  .
        """)


@pytest.mark.parametrize("buildings,points", [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5),
                                              (6, 8), (7, 8), (16, 8)])
def test_shrine_points_by_buildings_when_built(buildings, points):
    assert shrine_points(buildings) == points


# --- Monument: Silva Forum ---

def test_silva_forum_scores_one_plus_the_largest_same_type_group():
    assert line("""
        We We .  Co
        .  We .  Co
        Co .  .  SF
        Co .  .  .
    """, "Silva Forum") == 1 + 3


def test_silva_forum_groups_are_orthogonal_only():
    assert line("""
        We .  .  .
        .  We .  .
        .  .  We .
        .  .  .  SF
    """, "Silva Forum") == 2


def test_silva_forum_does_not_join_a_group_itself():
    assert line("""
        SF .  .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "Silva Forum") == 1


# --- Monument: The Sky Baths ---

def test_sky_baths_scores_two_per_game_type_missing_from_town():
    # First game: cottage, farm, well, chapel, tavern, theater, factory.
    assert line("""
        SK Co Fa We
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "The Sky Baths", game_types=FIRST_GAME) == 2 * 4


def test_sky_baths_counts_barrett_castle_as_the_cottage_type():
    s = score_town(town("""
        SK BC .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """), game_types=FIRST_GAME)
    assert s.lines["The Sky Baths"] == 2 * 6


def test_sky_baths_without_the_game_types_is_refused():
    with pytest.raises(ValueError, match="game_types"):
        score("""
            SK .  .  .
            .  .  .  .
            .  .  .  .
            .  .  .  .
        """)


# --- Monument: The Starloom ---

@pytest.mark.parametrize("place,points", [(1, 6), (2, 3), (3, 2), (4, 0), (6, 0), (None, 0)])
def test_starloom_scores_by_completion_place(place, points):
    assert line("""
        SL .  .  .
        .  .  .  .
        .  .  .  .
        .  .  .  .
    """, "The Starloom", completion_place=place) == points


# --- Worked towns ---

def test_worked_example_first_game_town():
    s = score("""
        Co Co We Fa
        Co Ch Th Ta
        Co We Fc Ta
        Fa Ch W  FI
    """)
    # Two Farms feed all 4 Cottages: 12. Wells: 1 + 1. Chapels: 4 + 4.
    # Theater: row cottage, chapel, tavern; column well, factory = 5. Taverns: 2 → 5.
    # Fort 7. The wood cube is removed: one empty square, −1.
    assert s.lines == {"Cottage": 12, "Farm": 0, "Well": 2, "Chapel": 8, "Tavern": 5,
                       "Theater": 5, "Factory": 0, "Fort Ironweed": 7, EMPTY_SQUARES: -1}
    assert s.total == 38
    assert (s.fed_cottages, s.cottages, s.empty_squares) == (4, 4, 1)


def test_worked_example_greenhouse_town():
    s = score("""
        Co Co Te Co
        Gh Co Co Bk+S
        Ab Mi Ma Ma
        Al Al Wa+WW .
    """)
    # The Greenhouse feeds the group of 4, which touches the Temple twice: 12 + 4.
    # The Abbey touches an Almshouse (green): 0. The Millstone touches a Market: 2.
    # Markets: 2 in row 2 each. Bank 4. Two Almshouses 5. Warehouse −2. One empty −1.
    assert s.lines == {"Cottage": 12, "Greenhouse": 0, "Millstone": 2, "Abbey": 0,
                       "Temple": 4, "Almshouse": 5, "Market": 4, "Bank": 4,
                       "Warehouse": -2, EMPTY_SQUARES: -1}
    assert s.total == 28
    assert (s.fed_cottages, s.cottages, s.empty_squares) == (4, 5, 1)


# --- Feeding search against brute force ---

FEEDING_CODES = ["Co", "Co", "Co", "Fa", "Gh", "Gr", "Or", "Ch", "Te", "."]


def _brute_force_feeding_points(t: Town) -> int:
    """Best Cottage + Chapel + Temple + Barrett Castle points over every legal feeding."""
    at = {cell: b for cell, b in t.buildings()}
    worth = {c: 2 if b == "barrett_castle" else 1 for c, b in at.items()
             if b in ("cottage", "barrett_castle")}
    fixed = set()
    for cell, b in at.items():
        if b == "granary":
            fixed |= set(surrounding(cell))
        if b == "orchard":
            fixed |= {c for c in worth if c[0] == cell[0] or c[1] == cell[1]}
    groups = _groups(set(worth))
    greenhouses = sum(1 for b in at.values() if b == "greenhouse")
    feeds = 4 * sum(1 for b in at.values() if b == "farm")
    best = 0
    for picks in itertools.product(groups or [frozenset()], repeat=greenhouses):
        base = (fixed | set().union(*picks)) & set(worth)
        hungry = [c for c in worth if c not in base]
        for k in range(len(hungry) + 1):
            for extra in itertools.combinations(hungry, k):
                if sum(worth[c] for c in extra) <= feeds:
                    best = max(best, _feeding_points(at, worth, base | set(extra)))
    return best


def _groups(cells: set) -> list[frozenset]:
    groups = []
    left = set(cells)
    while left:
        todo, group = [left.pop()], set()
        while todo:
            c = todo.pop()
            group.add(c)
            for n in neighbours(c):
                if n in left:
                    left.discard(n)
                    todo.append(n)
        groups.append(frozenset(group))
    return groups


def _feeding_points(at: dict, worth: dict, fed: set) -> int:
    units = sum(worth[c] for c in fed)
    points = sum(3 for c in fed if at[c] == "cottage")
    points += 5 * sum(1 for c in fed if at[c] == "barrett_castle")
    points += units * sum(1 for b in at.values() if b == "chapel")
    for cell, b in at.items():
        if b == "temple" and sum(worth[n] for n in neighbours(cell) if n in fed) >= 2:
            points += 4
    return points


@st.composite
def feeding_towns(draw):
    tokens = draw(st.lists(st.sampled_from(FEEDING_CODES), min_size=16, max_size=16))
    if draw(st.booleans()):
        tokens[draw(st.integers(0, 15))] = "BC"
    return town(grid_of(tokens))


@settings(max_examples=300, deadline=None)
@given(feeding_towns())
def test_best_feeding_matches_brute_force(t):
    s = score_town(t)
    got = sum(s.lines.get(label, 0)
              for label in ("Cottage", "Chapel", "Temple", "Barrett Castle"))
    assert got == _brute_force_feeding_points(t)
    assert s.total == sum(s.lines.values())


ANY_CODE = [c for c in CODES if c not in ("SE", "SK")] + [".", "W"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ANY_CODE), min_size=16, max_size=16),
       st.integers(0, 16), st.integers(1, 6))
def test_any_town_scores_with_total_equal_to_its_lines(tokens, right, place):
    t = town(grid_of(tokens))
    s = score_town(t, right_feast_halls=right, completion_place=place)
    assert s.total == sum(s.lines.values())
    assert s.empty_squares == tokens.count(".") + tokens.count("W")
    assert 0 <= s.fed_cottages <= s.cottages
    assert EMPTY_SQUARES in s.lines


# --- Docs (speed is measured in bench/, never asserted here) ---

def test_module_doctests_pass():
    assert doctest.testmod(scoring).failed == 0
