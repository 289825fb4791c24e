"""Building Construction: layouts in every rotation and mirror, picking squares one by
one, where the building may stand, Trading Posts as wild squares, cubes that never count."""

from __future__ import annotations

import pytest

import app.games.tiny_towns as tt
from app.games.protocol import IllegalAction
from app.games.tiny_towns import rules
from app.games.tiny_towns.content import ALL_CARDS, RESOURCE_LETTER
from app.games.tiny_towns.notation import format_town, parse_town

from .support import act, first_game, ids, play_round, town_notation, with_towns


def game(players: int = 2, **options):
    return first_game(players, seed=7, **options)


def pattern_variants(card_id):
    """The 8 rotations/mirrors of a printed pattern, computed independently of the rules."""
    rows = ALL_CARDS[card_id].pattern.split("/")
    out = []
    for _ in range(4):
        rows = ["".join(col) for col in zip(*rows[::-1])]  # rotate a quarter turn
        for grid in (rows, [r[::-1] for r in rows]):
            if grid not in out:
                out.append(grid)
    return out


def town_with(grid_rows, at=(0, 0)):
    """A town notation with a pattern (letters, '.' for none) drawn at a corner."""
    board = [["."] * 4 for _ in range(4)]
    for r, row in enumerate(grid_rows):
        for c, ch in enumerate(row):
            if ch != ".":
                board[at[0] + r][at[1] + c] = ch
    return town_notation(board)


# --- Layouts in all rotations and mirrors ---

def test_pattern_variants_helper_finds_eight_chapels():
    assert len(pattern_variants("chapel")) == 8
    assert len(pattern_variants("farm")) == 4  # HH/WW is symmetric under a mirror


@pytest.mark.parametrize("variant", pattern_variants("chapel"), ids="/".join)
def test_rotated_or_mirrored_chapel_is_buildable(variant):
    g = with_towns(game(), town_with(variant, at=(4 - len(variant), 4 - len(variant[0]))))
    g = play_round(g, "wood", {0: "0,0", 1: "0,0"})
    assert "build:chapel" in ids(g, 0)
    assert 1 not in tt.to_act(g)  # nothing to build: not asked


@pytest.mark.parametrize("wrong", [[".G.", "SGS"], ["G..", "GSS"], ["..G", "SSG"], ["G..", "S.S", ".G."]])
def test_a_wrong_chapel_layout_is_not_buildable(wrong):
    g = with_towns(game(), town_with(wrong, at=(1, 0)))
    g = play_round(g, "wood", {0: "0,3", 1: "0,0"})
    assert "build:chapel" not in ids(g, 0)


@pytest.mark.parametrize("card_id", ["cottage", "farm", "theater", "tavern"])
def test_every_orientation_of_every_first_game_card_matches(card_id):
    for variant in pattern_variants(card_id):
        town = parse_town(town_with(variant))
        g = game()
        g.players[0].town = town
        assert rules.layouts_in_town(g, g.players[0], card_id), (card_id, variant)


def test_layouts_cover_each_placement_once():
    assert len(rules.layouts("chapel")) == 8 * 6  # 8 orientations, 6 positions each
    assert len(rules.layouts("farm")) == 4 * 9
    assert len(rules.layouts("well")) == 4 * 12


def test_diagonal_is_not_a_layout():
    g = game()
    g.players[0].town = parse_town("W . . . / . S . . / . . . . / . . . .")
    assert rules.layouts_in_town(g, g.players[0], "well") == []


# --- Picking squares one at a time ---

def test_picks_offer_only_squares_that_can_complete_the_layout():
    g = with_towns(game(), "W S . . / . . . . / . . W . / . . . .")
    g = play_round(g, "stone", {0: "2,3", 1: "0,0"})
    g = act(g, 0, "build:well")
    assert ids(g, 0) == ["pick:0,0", "pick:0,1", "pick:2,2", "pick:2,3", "cancel"]
    g = act(g, 0, "pick:0,1")
    assert ids(g, 0) == ["pick:0,0", "cancel"]  # the other wood is not beside this stone
    g = act(g, 0, "pick:0,0")
    assert ids(g, 0) == ["site:0,0", "site:0,1", "cancel"]


def test_cancel_before_the_site_changes_nothing():
    g = with_towns(game(), "W S . . / . . . . / . . . . / . . . .")
    g = play_round(g, "wood", {0: "3,3", 1: "0,0"})
    before = tt.dump(g)
    g2 = act(g, 0, "build:well", "pick:0,0", "pick:0,1", "cancel")
    assert g2.players[0].town == g.players[0].town
    assert ids(g2, 0) == ids(g, 0)
    assert tt.dump(g) == before


def test_building_removes_the_cubes_and_stands_on_a_vacated_square():
    g = with_towns(game(), "W S . . / . . . . / . . . . / . . . .")
    g = play_round(g, "wheat", {0: "3,3", 1: "0,0"})
    g = act(g, 0, "build:well", "pick:0,0", "pick:0,1", "site:0,1")
    assert format_town(g.players[0].town).split("\n")[0].split() == [".", "We", ".", "."]
    assert "{seat0} builds a Well at A2." in g.log


def test_a_shed_may_stand_on_any_empty_square():
    g = tt.setup(2, {"monuments": False, "buildings": "random"}, 7)
    g.cards = ["cottage", "farm", "shed", "chapel", "tavern", "theater", "factory"]
    g = with_towns(g, "W S . . / H . . . / . . . . / . . . .")
    g = play_round(g, "wheat", {0: "3,3", 1: "0,0"})
    g = act(g, 0, "build:shed", "pick:0,0", "pick:0,1")
    sites = [i for i in ids(g, 0) if i.startswith("site:")]
    assert "site:0,0" in sites and "site:2,2" in sites and "site:1,0" not in sites
    assert len(sites) == 14  # 12 empty squares + the 2 vacated ones


def test_unlisted_pick_is_refused_and_state_unchanged():
    g = with_towns(game(), "W S . . / . . . . / . . . . / . . . .")
    g = play_round(g, "wheat", {0: "3,3", 1: "0,0"})
    g = act(g, 0, "build:well")
    before = tt.dump(g)
    with pytest.raises(IllegalAction, match="not one of"):
        tt.apply(g, 0, "pick:3,3")
    with pytest.raises(IllegalAction):
        tt.apply(g, 0, "site:0,0")
    assert tt.dump(g) == before


# --- Trading Post: wild, stays, needs a real cube ---

def tp_game():
    g = game()
    g.cards = ["cottage", "farm", "well", "chapel", "tavern", "theater", "trading_post"]
    return g


def test_trading_post_is_wild_and_stays():
    g = with_towns(tp_game(), "Tp H . . / . . . . / . . . . / . . . .")
    g = play_round(g, "brick", {0: "1,0", 1: "0,0"})
    # Cottage .H/BG: the Trading Post in the corner stands in for the glass.
    assert "build:cottage" in ids(g, 0)
    g = act(g, 0, "build:cottage", "pick:0,0", "pick:0,1", "pick:1,0")
    assert ids(g, 0) == ["site:0,1", "site:1,0", "cancel"]  # not on the Trading Post
    g = act(g, 0, "site:1,0")
    assert g.players[0].town[(0, 0)].building == "trading_post"
    assert g.players[0].town[(0, 1)].is_empty


def test_trading_posts_alone_are_not_a_layout():
    g = tp_game()
    g.players[0].town = parse_town("Tp Tp . . / . . . . / . . . . / . . . .")
    assert rules.layouts_in_town(g, g.players[0], "well") == []
    g.players[0].town = parse_town("Tp S . . / . . . . / . . . . / . . . .")
    assert rules.layouts_in_town(g, g.players[0], "well") == [((0, 0), (0, 1))]


def test_a_trading_post_built_this_round_is_wild_only_from_the_next_round():
    g = with_towns(tp_game(), "S W W . / S W B . / H . . . / . . . .", "W S . . / . . . . / . . . . / . . . .")
    g = play_round(g, "stone", {0: "3,3", 1: "3,3"})
    g = act(g, 0, "build:trading_post", "pick:0,0", "pick:0,1", "pick:1,0", "pick:1,1", "pick:1,2",
            "site:0,1")
    # The wood at A3 and the new Trading Post would make a Well, but not this round.
    assert 0 not in tt.to_act(g) and 1 in tt.to_act(g)
    assert rules.layouts_in_town(g, g.players[0], "well") == []
    g = act(g, 1, "done")
    g = play_round(g, "glass", {0: "3,0", 1: "3,0"})
    assert "build:well" in ids(g, 0)
    assert rules.layouts_in_town(g, g.players[0], "well") == [((0, 1), (0, 2))]


# --- Cubes that never count ---

def test_cubes_stored_on_buildings_never_count():
    g = game()
    g.players[0].town = parse_town("Co+W S . . / Wa+S W . . / . . . . / . . . .")
    assert rules.layouts_in_town(g, g.players[0], "well") == [((0, 1), (1, 1))]


def test_resource_letters_cover_all_resources():
    assert sorted(RESOURCE_LETTER.values()) == sorted(rules.RESOURCES)
