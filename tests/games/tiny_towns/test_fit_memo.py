"""The town's memo of which cards fit (``rules.FitMemo``), moved from one step to the
next, answers exactly as a fresh search of every layout; and the cheap state copies
(``rules.clone``, ``Town.copy`` sharing squares until one side changes) share nothing a
choice could change."""

from __future__ import annotations

import functools
import random

import pytest

import app.games.tiny_towns as tt
from app.games.playout import bot_playout, random_playout
from app.games.protocol import IllegalAction
from app.games.tiny_towns import rules
from app.games.tiny_towns.content import ALL_CARDS, MONUMENTS, RESOURCES
from app.games.tiny_towns.rules import WILD, FitMemo, buildable, layouts, match_code
from app.games.tiny_towns.town import RESOURCE_BITS, SIZE, WILD_BITS, iter_cells

from .support import EMPTY, with_towns

CARDS = sorted(ALL_CARDS)
VALUES = [None, WILD, *RESOURCES]


def searched(squares, card):
    """Whether the card fits the squares, by looking at every layout (no memo)."""
    for layout in layouts(card):
        values = [squares[r * SIZE + c] for (r, c), _ in layout]
        if all(v in (want, WILD) for v, (_, want) in zip(values, layout)) and any(v != WILD for v in values):
            return True
    return False


def random_squares(rng, full):
    """Squares mostly holding cubes (so patterns fit often), some wild, some empty."""
    return tuple(rng.choice(VALUES) if rng.random() > full else rng.choice(RESOURCES) for _ in range(SIZE * SIZE))


@pytest.mark.parametrize("seed", range(6))
def test_a_moved_memo_answers_as_a_fresh_search(seed):
    rng = random.Random(seed)
    fits = moved = 0
    for _ in range(150):
        before = random_squares(rng, rng.random())
        memo = FitMemo(match_code(before), {})
        asked = rng.sample(CARDS, rng.randrange(1, len(CARDS) + 1))
        for card in asked:
            assert (memo.fit(card) is not None) == searched(before, card), (before, card)
        after = list(before)
        for i in rng.sample(range(SIZE * SIZE), rng.choice((1, 1, 1, 2, 3, 6))):
            after[i] = rng.choice(VALUES)
        after = tuple(after)
        old, memo = memo, memo.moved_to(match_code(after))
        assert memo.code == match_code(after)
        for card in CARDS:  # cards asked before (moved) and never asked (searched now)
            expected = searched(after, card)
            assert (memo.fit(card) is not None) == expected, (before, after, card)
            fits += expected
            moved += card in asked
        for card in CARDS:  # the memo moved from answers for its own town still (they may share)
            assert (old.fit(card) is not None) == searched(before, card), (before, after, card)
    assert fits and moved


@pytest.mark.parametrize("seed", range(4))
def test_the_every_layout_table_finds_each_fitting_layout(seed):
    """``rules._fitting_layouts`` (one OR per square over the table of every card's
    layouts) gives, for random towns with wild squares, exactly the layouts a look at
    each layout's squares finds fitting; and a layout's index is its place in ``layouts``."""
    rng = random.Random(seed)
    fitting = 0
    for _ in range(60):
        squares = random_squares(rng, rng.random())
        code = match_code(squares)
        ruled_out = rules._ruled_out(code.to_bytes(SIZE * SIZE, "little"))
        for card in CARDS:
            expected = [n for n, layout in enumerate(layouts(card))
                        if all(squares[r * SIZE + c] in (want, WILD) for (r, c), want in layout)
                        and any(squares[r * SIZE + c] != WILD for (r, c), _ in layout)]
            bits = rules._fitting_layouts(card, code, ruled_out)
            assert [n for n in range(bits.bit_length()) if bits >> n & 1] == expected, (squares, card)
            assert rules._first_fitting(card, code, ruled_out) == (expected[0] if expected else None)
            fitting += len(expected)
    assert fitting


@pytest.mark.parametrize("players, options, seed", [
    (2, {"monuments": True, "cavern": True}, 10),  # seeds 10, 12 and 1 deal the Trading Post
    (3, {"monuments": True, "town_hall": True}, 12),
    (4, {"monuments": True}, 3),
    (1, {"monuments": True, "cavern": True}, 1),
])
def test_buildable_and_monument_fits_agree_with_a_fresh_search_through_random_games(players, options, seed):
    """Random choices reach Trading Posts turning wild, Guild replacements, Warehouse
    swaps and Cavern cubes; at every step every town's answers are checked."""
    playout = random_playout("tiny-towns", players, seed, options)
    g = tt.setup(playout.players, playout.options, seed)
    checked = 0
    for seat, option in playout.actions:
        g = tt.apply(g, seat, option)
        for p in g.players:
            cards = list(g.cards) + ([p.monument] if p.monument and p.monument_round is None else [])
            assert buildable(g, p) == [c for c in cards if rules.layouts_in_town(g, p, c)], (seat, option)
            fresh = {tuple(c) for c in p.fresh}
            squares = tuple(None if (s := p.town.at(cell)).building is None and s.resource is None
                            else s.resource if s.building is None
                            else WILD if s.building == "trading_post" and cell not in fresh else None
                            for cell in iter_cells())
            assert rules.town_code(p) == match_code(squares)
            for card in MONUMENTS:
                assert rules.any_fits(p, [card]) == searched(squares, card)
            checked += 1
    assert checked


def test_a_town_changed_behind_the_memo_is_searched_again():
    """A test (or anything) may change a square directly: the memo checks the squares."""
    g = tt.setup(2, {"monuments": False, "buildings": "first_game"}, 3)
    p = g.players[0]
    assert buildable(g, p) == []
    p.town[(0, 0)].resource, p.town[(0, 1)].resource = "wood", "stone"
    assert buildable(g, p) == ["well"]
    p.town[(0, 1)].resource = None
    assert buildable(g, p) == []
    p.town[(1, 0)].resource = "stone"
    assert buildable(g, p) == ["well"]


def mutable_parts(value, path="g"):
    """Every list, dict and object reachable from a state, with where it was found."""
    if isinstance(value, (list, dict)):
        yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            yield from mutable_parts(v, f"{path}[{k!r}]")
    elif hasattr(value, "__dict__") or hasattr(value, "__slots__"):
        yield path, value
        names = vars(value) if hasattr(value, "__dict__") else {n: getattr(value, n) for n in value.__slots__}
        for k, v in names.items():
            if k not in ("fit_memo", "shared"):  # the derived memo is shared on purpose
                yield from mutable_parts(v, f"{path}.{k}")


def take_every_square(town):
    """Index every square, as changing it does: the town takes its own copy of each."""
    for cell in iter_cells():
        town[cell]


def test_clone_shares_nothing_mutable():
    playout = random_playout("tiny-towns", 3, 7, {"monuments": True, "cavern": True})
    state, g = playout.state, tt.setup(3, playout.options, 7)
    for seat, option in playout.actions[:120]:  # a game over, and one in its middle
        g = tt.apply(g, seat, option)
    for game in (g, state):
        copy = rules.clone(game)
        for p in copy.players:
            take_every_square(p.town)
        originals = {id(v): path for path, v in mutable_parts(game)}
        shared = [(path, originals[id(v)]) for path, v in mutable_parts(copy)
                  if id(v) in originals and not isinstance(v, (str, int))]
        assert shared == []


def test_a_town_copy_and_its_original_change_apart():
    g = tt.setup(2, {"monuments": False, "buildings": "first_game"}, 1)
    town = g.players[0].town
    town[(0, 0)].resource = "wood"
    copy = town.copy()
    copy[(0, 0)].resource = "brick"
    copy[(1, 1)].stored.append("glass")
    assert town.at((0, 0)).resource == "wood" and town.at((1, 1)).stored == []
    town[(2, 2)].resource = "stone"
    assert copy.at((2, 2)).resource is None
    assert copy.at((0, 0)).resource == "brick"


def test_town_copies_share_squares_until_either_changes_one():
    """Random changes to a town and its copies (copies of copies too) land in that town
    only, whichever squares the others have taken their own copies of."""
    rng = random.Random(5)
    towns = [tt.setup(1, {"monuments": False}, 1).players[0].town]
    expected = [towns[0].to_json()]
    for _ in range(3000):
        k = rng.randrange(len(towns))
        if rng.random() < 0.15 and len(towns) < 12:
            towns.append(towns[k].copy())
            expected.append(towns[k].to_json())
            continue
        cell = (rng.randrange(SIZE), rng.randrange(SIZE))
        square = towns[k][cell]
        if rng.random() < 0.3:
            square.stored.append(rng.choice(RESOURCES))
        else:
            square.resource = rng.choice((None, *RESOURCES))
        expected[k] = towns[k].to_json()
        assert [t.to_json() for t in towns] == expected


def test_dump_shares_nothing_mutable_with_the_state():
    playout = random_playout("tiny-towns", 3, 8, {"monuments": True, "cavern": True})
    state, g = playout.state, tt.setup(3, playout.options, 8)
    for seat, option in playout.actions[:100]:  # a game over, and one in its middle
        g = tt.apply(g, seat, option)
    for game in (g, state):
        originals = {id(v) for _, v in mutable_parts(game)}
        assert [path for path, v in mutable_parts(tt.dump(game), "dump") if id(v) in originals] == []


def test_options_listed_by_the_bot_are_reused_only_for_that_game_and_seat_and_once():
    """``apply`` checks a choice against the bot's list (``rules.listed_ids``) only for the
    very game and seat it was listed for, and only once."""
    g = with_towns(tt.setup(2, {"monuments": False, "buildings": "first_game"}, 4),
                   "W . . . / . . . . / . . . . / . . . .", EMPTY)
    g = tt.apply(g, g.master_builder, "name:wood")
    assert "place:0,0" in rules.listed_ids(g, 1)
    taken = rules.clone(g)
    taken.players[1].town[(0, 0)].resource = "brick"
    with pytest.raises(IllegalAction):  # another game object: its own options
        tt.apply(taken, 1, "place:0,0")
    rules.listed_ids(g, 1)
    with pytest.raises(IllegalAction):  # another seat: its own options
        tt.apply(g, 0, "place:0,0")
    rules.listed_ids(g, 1)
    assert tt.apply(g, 1, "place:0,0").pending[1]["cell"] == [0, 0]
    g.players[1].town[(0, 0)].resource = "brick"
    with pytest.raises(IllegalAction):  # the list was used up by the first apply
        tt.apply(g, 1, "place:0,0")


@pytest.mark.parametrize("players, options, seed", [
    (1, {"monuments": True, "cavern": True}, 2),
    (2, {"monuments": True, "cavern": True}, 10),
    (3, {"monuments": True, "town_hall": True}, 12),
    (4, {"monuments": True}, 3),
    (5, {"monuments": True, "cavern": True}, 5),
    (6, {"monuments": True, "town_hall": True}, 6),
    (6, {"monuments": False, "buildings": "first_game"}, 7),
])
def test_apply_never_changes_the_game_it_was_given(players, options, seed):
    """``apply`` shares the players it does not change with the game it was given
    (``rules.share_players``): every step of random games leaves that game as it was,
    and the copy of a player a step changes shares nothing mutable with the original
    but the lists the rules only ever replace whole (``rules.REPLACED_WHOLE``)."""
    replaced_whole = tuple(f"p.{name}" for name in rules.REPLACED_WHOLE)
    playout = random_playout("tiny-towns", players, seed, options)
    g = tt.setup(playout.players, playout.options, seed)
    for seat, option in playout.actions:
        before = tt.dump(g)
        after = tt.apply(g, seat, option)
        assert tt.dump(g) == before, (seat, option)
        originals = {id(v) for p in g.players for _, v in mutable_parts(p)}
        for p in after.players:
            if not any(p is q for q in g.players):
                take_every_square(p.town)
                assert [path for path, v in mutable_parts(p, "p") if id(v) in originals
                        and not path.startswith(replaced_whole)] == [], (seat, option)
        g = after
    assert tt.result(g) is not None


@pytest.mark.parametrize("players, options, seed", [
    (1, {"monuments": True}, 3),  # solo: the deck and the face-up cards change every round
    (3, {"monuments": False, "town_hall": True, "cavern": True}, 4),  # Town Hall reshuffles
    (6, {"monuments": True}, 1),
])
def test_no_later_step_changes_an_earlier_game(players, options, seed):
    """A game shares with its copies every list the rules replace whole (the players'
    ``REPLACED_WHOLE``, the cards' and the placements' lists) and the players a step does
    not change: through a whole game, every game met stays as it was when it was made."""
    playout = bot_playout("tiny-towns", players, seed, options)
    g = tt.setup(playout.players, playout.options, seed)
    kept = [(g, tt.dump(g))]
    for seat, option in playout.actions:
        g = tt.apply(g, seat, option)
        kept.append((g, tt.dump(g)))
    assert tt.result(g) is not None
    changed = [step for step, (game, dumped) in enumerate(kept) if tt.dump(game) != dumped]
    assert changed == []


def cards_a_placed_cube_may_complete(code, square):
    """What ``FitMemo.moved_to`` reads from the placed-cube tables (``_placed_cube_layouts``)
    after a cube (or a wild square) on ``square``: the cards it may now complete, in
    ``ALL_CARDS`` order; each card's bits are its own."""
    squares = code.to_bytes(SIZE * SIZE, "little")
    possible, owners = rules._placed_cube_layouts(squares, square)
    found = {}
    for n, owner in enumerate(owners):
        if possible >> n & 1:
            card, card_bits, _ = owner
            assert card_bits >> n & 1 and all(o[0] == card for k, o in enumerate(owners) if card_bits >> k & 1)
            found[card] = True
    return [card for card in ALL_CARDS if card in found]


def cards_completed_through(code, square):
    """The same, from scratch: the cards with a layout through the square whose every
    square matches (so it wants there what the square holds; all wild or not)."""
    return [card for card in ALL_CARDS
            if any(square in wanted and all(code >> 8 * n & RESOURCE_BITS[want] for n, want in wanted.items())
                   for wanted in layouts_by_square(card))]


@functools.cache
def layouts_by_square(card):
    """Each layout of the card as {square (reading order): the resource it wants}."""
    return [{r * SIZE + c: want for (r, c), want in layout} for layout in layouts(card)]


@pytest.mark.parametrize("players, options, seeds", [
    (2, {"monuments": True}, range(4)),
    (4, {"monuments": False}, range(3)),
    (6, {"monuments": True, "cavern": True}, range(2)),
    (3, {"monuments": False, "buildings": "first_game", "town_hall": True}, range(3)),
])
def test_the_placed_cube_tables_agree_with_searching_every_layout(players, options, seeds):
    """Through seeded bot games (every town at every fourth step), a cube of a random
    resource or a wild square put on a random empty square: the cards the tables say it
    may complete are those a search of every layout through that square finds complete."""
    rng = random.Random(players)
    checked = completed = 0
    for seed in seeds:
        playout = bot_playout("tiny-towns", players, seed, options)
        g = tt.setup(playout.players, playout.options, seed)
        for step, (seat, option) in enumerate(playout.actions):
            g = tt.apply(g, seat, option)
            if step % 4:
                continue
            for p in g.players:
                code, empty = rules.town_code(p), p.town.empty_cells()
                for r, c in rng.sample(empty, min(2, len(empty))):
                    square = r * SIZE + c
                    placed = code | rng.choice((*RESOURCE_BITS.values(), WILD_BITS)) << 8 * square
                    expected = cards_completed_through(placed, square)
                    assert cards_a_placed_cube_may_complete(placed, square) == expected, (seed, step, square)
                    checked += 1
                    completed += bool(expected)
    assert checked and completed
