"""Tiny Towns end-of-game scoring: every building card, every monument, empty squares.

Pure: reads a ``Town`` and a few facts from the table, returns a ``TownScore``.

At game end every resource cube still on the board is removed, so a square holding only
a cube scores as an empty square (−1). Cubes stored on buildings stay: each one on a
Warehouse costs 1 VP; on a Bank, a Factory or a Cottage (Statue of the Bondmaker) they
score nothing.

Judgement calls, where the rulebook and the cards are silent:

- Barrett Castle counts as 2 Cottages everywhere a building counts Cottages (Well,
  Chapel, Temple, Theater as the Cottage type, Greenhouse groups, the "most Cottages"
  tiebreak) and takes 2 of a Farm's 4 feeds.
- The owner chooses which Cottages each Farm feeds and which group each Greenhouse feeds;
  scoring picks the choice with the highest total (then the most fed Cottages).
- The Grand Mausoleum's 3 VP for each unfed Cottage go on the monument's own line; the
  Cottage line holds only fed Cottages.
- Silva Forum groups are made of building cards only: monuments join no group.
- The Sky Baths and the Archive count building types, never monuments (Barrett Castle
  counts as the Cottage type).
- Feast Halls with no player on the right (solo) score 2 VP each.
- The Starloom scores 0 while the town's completion place is unknown (not yet complete).
- A built Shrine of the Elder Tree without ``shrine_value``, or The Sky Baths without
  ``game_types``, is a caller's mistake and raises ValueError rather than guessing.
- Card text naming a colour ("a gray building", "red or yellow") is checked by colour, so
  it holds whichever card of that colour is in the game; a monument has no such colour.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Callable, Iterator

from .content import ALL_CARDS, BUILDINGS, MONUMENTS
from .town import CENTRE, CORNERS, SIZE, Cell, Town, neighbours, surrounding

# How many Cottages a feedable building counts as (Barrett Castle: 2).
COTTAGE_WORTH: dict[str, int] = {"cottage": 1, "barrett_castle": 2}
FARM_FEEDS = 4
# The rule: at the end the cubes are removed, and each square without a building is −1.
EMPTY_SQUARES = "Squares without a building (cubes removed)"

ALMSHOUSE_POINTS = (0, -1, 5, -3, 15, -5, 26)  # by number of Almshouses, 6+ → 26
TAVERN_POINTS = (0, 2, 5, 9, 14, 20)  # by number of Taverns, 5+ → 20
SHRINE_POINTS = (0, 1, 2, 3, 4, 5, 8)  # by buildings when built, 6+ → 8
STARLOOM_POINTS = {1: 6, 2: 3, 3: 2}  # by completion place, 4th+ → 0


@dataclass(frozen=True)
class TownScore:
    lines: dict[str, int]  # label (card or monument name, "Empty squares") -> points
    total: int
    fed_cottages: int  # fed Cottages under the best feeding (a fed Barrett Castle is 2)
    cottages: int  # Cottages on the board, for the tiebreak (Barrett Castle is 2)
    empty_squares: int
    fed: frozenset[Cell] = field(default=frozenset(), compare=False)  # the fed squares of that feeding


@dataclass(frozen=True)
class _Scoring:
    """A town ready to score: who stands where, which squares are fed, and table facts."""

    at: dict[Cell, str]  # building or monument id per built square
    stored: dict[Cell, int]  # cubes stored on each building
    fed: frozenset[Cell]
    right_feast_halls: int | None
    completion_place: int | None
    shrine_value: int | None
    game_types: tuple[str, ...]

    def count(self, card_id: str) -> int:
        return sum(1 for b in self.at.values() if b == card_id)

    def colour(self, cell: Cell) -> str | None:
        b = self.at.get(cell)
        return ALL_CARDS[b].colour if b else None


def score_town(
    town: Town,
    *,
    right_feast_halls: int | None = None,
    completion_place: int | None = None,
    shrine_value: int | None = None,
    game_types: tuple[str, ...] = (),
) -> TownScore:
    """Score a finished town: each building type, each monument, then empty squares.

    ``right_feast_halls`` is the Feast Hall count of the player on the right (the other
    player in a 2-player game; None in solo). ``completion_place`` is 1 for the first to
    complete (ties share a place). ``shrine_value`` is the VP fixed when the Shrine of the
    Elder Tree was built. ``game_types`` are this game's 7 building card ids.
    """
    s = _scoring(town, right_feast_halls, completion_place, shrine_value, game_types)
    s = replace(s, fed=_best_feeding(s))
    empty = SIZE * SIZE - len(s.at)
    lines = {ALL_CARDS[card_id].name: _points(s, card_id) for card_id in _types_present(s)}
    lines[EMPTY_SQUARES] = 0 if "cathedral" in s.at.values() else -empty
    return TownScore(
        lines=lines,
        total=sum(lines.values()),
        fed_cottages=_fed_cottages(s),
        cottages=sum(COTTAGE_WORTH.get(b, 0) for b in s.at.values()),
        empty_squares=empty,
        fed=s.fed,
    )


def best_feeding(town: Town) -> frozenset[Cell]:
    """The squares of the Cottages (and Barrett Castle) fed under the best feeding."""
    return _best_feeding(_scoring(town, None, None, None, ()))


def shrine_points(buildings: int) -> int:
    """VP the Shrine of the Elder Tree fixes when built, by buildings in town (itself included).

    >>> [shrine_points(n) for n in (1, 5, 6, 9)]
    [1, 5, 8, 8]
    """
    return SHRINE_POINTS[min(buildings, 6)]


def _scoring(town: Town, right_feast_halls: int | None, completion_place: int | None,
             shrine_value: int | None, game_types: tuple[str, ...]) -> _Scoring:
    at = {cell: b for cell, b in town.buildings()}
    stored = {cell: len(town.at(cell).stored) for cell in at}  # read only: no copy of a shared square
    return _Scoring(at, stored, frozenset(), right_feast_halls, completion_place,
                    shrine_value, game_types)


def _types_present(s: _Scoring) -> list[str]:
    """Building and monument ids in the town, in card order (Cottage first, monuments last)."""
    present = set(s.at.values())
    return [card_id for card_id in ALL_CARDS if card_id in present]


def _points(s: _Scoring, card_id: str) -> int:
    """The scorepad line of one building type (all copies) or one monument."""
    if card_id in TOGETHER:
        return TOGETHER[card_id](s, s.count(card_id))
    return sum(EACH[card_id](s, cell) for cell, b in s.at.items() if b == card_id)


# --- Helpers: what a building sees ---

def _type_of(building_id: str) -> str:
    """The building type for "type" counts: Barrett Castle is a Cottage, a monument itself."""
    return "cottage" if building_id == "barrett_castle" else building_id


def _lines_through(cell: Cell) -> tuple[list[Cell], list[Cell]]:
    """The other squares of a square's row, and of its column."""
    r, c = cell
    return ([(r, x) for x in range(SIZE) if x != c], [(y, c) for y in range(SIZE) if y != r])


def _next_to_colour(s: _Scoring, cell: Cell, colours: set[str]) -> bool:
    return any(s.colour(n) in colours for n in neighbours(cell))


def _cottages_next_to(s: _Scoring, cell: Cell, *, fed_only: bool) -> int:
    """Cottages adjacent to a square (Barrett Castle counts 2), optionally only fed ones."""
    return sum(COTTAGE_WORTH.get(s.at.get(n, ""), 0) for n in neighbours(cell)
               if not fed_only or n in s.fed)


def _fed_cottages(s: _Scoring) -> int:
    return sum(COTTAGE_WORTH[s.at[cell]] for cell in s.fed)


# --- Feeding Cottages ---

def _best_feeding(s: _Scoring) -> frozenset[Cell]:
    """The fed squares the owner would choose: the highest total, then the most fed Cottages."""
    worth = {cell: COTTAGE_WORTH[b] for cell, b in s.at.items() if b in COTTAGE_WORTH}
    if not worth:
        return frozenset()
    matters = [(EACH[b], cell) for cell, b in s.at.items() if b in FEEDING_MATTERS]

    def value(fed: frozenset[Cell]) -> tuple[int, int]:
        fed_s = replace(s, fed=fed)
        return sum(rule(fed_s, cell) for rule, cell in matters), sum(worth[c] for c in fed)

    return max(_iter_feedings(s, worth), key=value)


def _iter_feedings(s: _Scoring, worth: dict[Cell, int]) -> Iterator[frozenset[Cell]]:
    """Every feeding worth comparing, once each: Granaries and Orchards feed fixed squares,
    then each choice of groups for the Greenhouses and of Cottages for the Farms."""
    fixed = _fed_by_granaries_and_orchards(s, worth)
    feeds = FARM_FEEDS * s.count("farm")
    by_temple = {n for cell, b in s.at.items() if b == "temple" for n in neighbours(cell)}
    seen: set[frozenset[Cell]] = set()
    for by_greenhouses in _iter_greenhouse_choices(s, worth, fixed):
        for fed in _iter_farm_choices(worth, fixed | by_greenhouses, feeds, by_temple):
            if fed not in seen:  # different choices often end up feeding the same squares
                seen.add(fed)
                yield fed


def _fed_by_granaries_and_orchards(s: _Scoring, worth: dict[Cell, int]) -> frozenset[Cell]:
    """Granary: the 8 surrounding squares. Orchard: its whole row and column."""
    fed: set[Cell] = set()
    for cell, b in s.at.items():
        if b == "granary":
            fed.update(surrounding(cell))
        elif b == "orchard":
            row, column = _lines_through(cell)
            fed.update(row + column)
    return frozenset(fed & worth.keys())


def _iter_greenhouse_choices(s: _Scoring, worth: dict[Cell, int],
                             fed: frozenset[Cell]) -> Iterator[frozenset[Cell]]:
    """Each Greenhouse feeds one whole group; feeding more is never worse, so try every
    way of giving the Greenhouses different groups that are not already all fed."""
    groups = [g for g in _cottage_groups(worth) if not g <= fed]
    for chosen in combinations(groups, min(s.count("greenhouse"), len(groups))):
        yield frozenset().union(*chosen)


def _cottage_groups(worth: dict[Cell, int]) -> list[frozenset[Cell]]:
    """Orthogonally connected groups of Cottages (Barrett Castle joins as a Cottage)."""
    groups, seen = [], set()
    for start in worth:
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            for n in neighbours(todo.pop()):
                if n in worth and n not in group:
                    group.add(n)
                    todo.append(n)
        seen |= group
        groups.append(frozenset(group))
    return groups


def _iter_farm_choices(worth: dict[Cell, int], fed: frozenset[Cell], feeds: int,
                       by_temple: set[Cell]) -> Iterator[frozenset[Cell]]:
    """Ways the Farms can spend their feeds on hungry Cottages (Barrett Castle costs 2).

    Feeding a Cottage beside a Temple is never worse than feeding one elsewhere (the same
    Cottage and Chapel points, and maybe the Temple's), so after deciding on the Castle
    the feeds go to Cottages beside Temples first (each such choice tried), then to the
    rest, which are all alike.
    """
    hungry = [cell for cell in worth if cell not in fed]
    if feeds == 0 or sum(worth[c] for c in hungry) <= feeds:
        yield fed | frozenset(hungry if feeds else ())
        return
    castles = [c for c in hungry if worth[c] > 1]
    templed = [c for c in hungry if worth[c] == 1 and c in by_temple]
    plain = [c for c in hungry if worth[c] == 1 and c not in by_temple]
    for k in range(len(castles) + 1):
        for with_castles in combinations(castles, k):
            left = feeds - sum(worth[c] for c in with_castles)
            if left < 0:
                continue
            n = min(left, len(templed))
            for chosen in combinations(templed, n):
                yield fed | frozenset(with_castles + chosen) | frozenset(plain[:left - n])


# The only cards whose points depend on which Cottages are fed.
FEEDING_MATTERS = ("cottage", "chapel", "temple", "barrett_castle", "grand_mausoleum")


# --- Building: Cottage (blue) ---

def _cottage(s: _Scoring, cell: Cell) -> int:
    """3 VP if fed, otherwise 0."""
    return 3 if cell in s.fed else 0


# --- Building: red (Farm, Granary, Greenhouse, Orchard) ---

def _red(s: _Scoring, cell: Cell) -> int:
    """Red buildings feed Cottages and never score VP themselves."""
    return 0


# --- Building: gray ---

def _fountain(s: _Scoring, cell: Cell) -> int:
    """2 VP if adjacent to another gray building."""
    return 2 if _next_to_colour(s, cell, {"gray"}) else 0


def _millstone(s: _Scoring, cell: Cell) -> int:
    """2 VP if adjacent to a red or a yellow building (still 2 with several)."""
    return 2 if _next_to_colour(s, cell, {"red", "yellow"}) else 0


def _shed(s: _Scoring, cell: Cell) -> int:
    """1 VP."""
    return 1


def _well(s: _Scoring, cell: Cell) -> int:
    """1 VP per adjacent Cottage, fed or not."""
    return _cottages_next_to(s, cell, fed_only=False)


# --- Building: orange ---

def _abbey(s: _Scoring, cell: Cell) -> int:
    """3 VP unless adjacent to a black, green or yellow building."""
    return 0 if _next_to_colour(s, cell, {"black", "green", "yellow"}) else 3


def _chapel(s: _Scoring, cell: Cell) -> int:
    """1 VP per fed Cottage in the town; every Chapel scores this in full."""
    return _fed_cottages(s)


def _cloister(s: _Scoring, cell: Cell) -> int:
    """1 VP per orange building in a corner, wherever this Cloister stands."""
    return sum(1 for corner in CORNERS if s.colour(corner) == "orange")


def _temple(s: _Scoring, cell: Cell) -> int:
    """4 VP if adjacent to 2 or more fed Cottages (diagonals do not count)."""
    return 4 if _cottages_next_to(s, cell, fed_only=True) >= 2 else 0


# --- Building: green ---

def _almshouses(s: _Scoring, count: int) -> int:
    """Scored once for all Almshouses: 1→−1, 2→5, 3→−3, 4→15, 5→−5, 6 or more→26."""
    return ALMSHOUSE_POINTS[min(count, 6)]


def _feast_halls(s: _Scoring, count: int) -> int:
    """2 VP each, 3 each with more Feast Halls than the player on the right (ties: 2)."""
    more = s.right_feast_halls is not None and count > s.right_feast_halls
    return count * (3 if more else 2)


def _inn(s: _Scoring, cell: Cell) -> int:
    """3 VP if no other green building shares its row or column."""
    row, column = _lines_through(cell)
    return 0 if any(s.colour(c) == "green" for c in row + column) else 3


def _taverns(s: _Scoring, count: int) -> int:
    """Scored once for all Taverns: 1→2, 2→5, 3→9, 4→14, 5 or more→20."""
    return TAVERN_POINTS[min(count, 5)]


# --- Building: yellow ---

def _bakery(s: _Scoring, cell: Cell) -> int:
    """3 VP if adjacent to a red or a black building."""
    return 3 if _next_to_colour(s, cell, {"red", "black"}) else 0


def _market(s: _Scoring, cell: Cell) -> int:
    """1 VP per yellow building (itself included) in its row or its column, the better one."""
    row, column = _lines_through(cell)
    return 1 + max(sum(1 for c in line if s.colour(c) == "yellow") for line in (row, column))


def _tailor(s: _Scoring, cell: Cell) -> int:
    """1 VP, +1 per yellow building in the 4 centre squares (this one too, if central)."""
    return 1 + sum(1 for c in CENTRE if s.colour(c) == "yellow")


def _theater(s: _Scoring, cell: Cell) -> int:
    """1 VP per distinct other type in its row and column; Theaters do not count, each
    monument is its own type, and Barrett Castle is a Cottage."""
    row, column = _lines_through(cell)
    types = {_type_of(s.at[c]) for c in row + column if c in s.at}
    return len(types - {"theater"})


# --- Building: black ---

def _bank(s: _Scoring, cell: Cell) -> int:
    """4 VP (the resource on it scores nothing)."""
    return 4


def _factory(s: _Scoring, cell: Cell) -> int:
    """No VP."""
    return 0


def _trading_post(s: _Scoring, cell: Cell) -> int:
    """1 VP."""
    return 1


def _warehouse(s: _Scoring, cell: Cell) -> int:
    """−1 VP per resource stored on it (those cubes stay at game end)."""
    return -s.stored[cell]


# --- Monuments ---

def _archive(s: _Scoring, cell: Cell) -> int:
    """1 VP per distinct building type in the town; monuments are not building types."""
    return len(_building_types(s))


def _architects_guild(s: _Scoring, cell: Cell) -> int:
    """1 VP (its replacements happened when it was built)."""
    return 1


def _barrett_castle(s: _Scoring, cell: Cell) -> int:
    """5 VP if fed."""
    return 5 if cell in s.fed else 0


def _cathedral(s: _Scoring, cell: Cell) -> int:
    """2 VP (and empty squares score 0, on their own line)."""
    return 2


def _fort_ironweed(s: _Scoring, cell: Cell) -> int:
    """7 VP."""
    return 7


def _grand_mausoleum(s: _Scoring, cell: Cell) -> int:
    """3 VP for each unfed Cottage (fed ones already score 3 on the Cottage line)."""
    return 3 * sum(1 for c, b in s.at.items() if b == "cottage" and c not in s.fed)


def _grove_university(s: _Scoring, cell: Cell) -> int:
    """3 VP."""
    return 3


def _mandras_palace(s: _Scoring, cell: Cell) -> int:
    """2 VP per distinct building type adjacent to it."""
    return 2 * len({_type_of(s.at[n]) for n in neighbours(cell) if n in s.at})


def _no_points(s: _Scoring, cell: Cell) -> int:
    """No VP: the monument's power was used during the game."""
    return 0


def _shrine(s: _Scoring, cell: Cell) -> int:
    """The VP fixed when it was built (by buildings in town then, see ``shrine_points``)."""
    if s.shrine_value is None:
        raise ValueError("the Shrine of the Elder Tree needs shrine_value, fixed when built")
    return s.shrine_value


def _silva_forum(s: _Scoring, cell: Cell) -> int:
    """1 VP, +1 per building in the largest orthogonally connected group of one type."""
    return 1 + max((len(g) for g in _same_type_groups(s)), default=0)


def _sky_baths(s: _Scoring, cell: Cell) -> int:
    """2 VP per building type of this game that the town does not have."""
    if not s.game_types:
        raise ValueError("The Sky Baths needs game_types, the game's building card ids")
    return 2 * len(set(s.game_types) - _building_types(s))


def _starloom(s: _Scoring, cell: Cell) -> int:
    """VP by completion place: 1st 6, 2nd 3, 3rd 2, later 0 (tied players share a place)."""
    return STARLOOM_POINTS.get(s.completion_place or 0, 0)


def _building_types(s: _Scoring) -> set[str]:
    return {_type_of(b) for b in s.at.values() if b in BUILDINGS or b == "barrett_castle"}


def _same_type_groups(s: _Scoring) -> list[set[Cell]]:
    """Orthogonally connected groups of building cards of one type (monuments join none)."""
    groups, seen = [], set()
    for start, kind in s.at.items():
        if start in seen or kind not in BUILDINGS:
            continue
        group, todo = {start}, [start]
        while todo:
            for n in neighbours(todo.pop()):
                if s.at.get(n) == kind and n not in group:
                    group.add(n)
                    todo.append(n)
        seen |= group
        groups.append(group)
    return groups


# --- Scoring tables: every card id has exactly one rule ---

EACH: dict[str, Callable[[_Scoring, Cell], int]] = {
    "cottage": _cottage,
    "farm": _red, "granary": _red, "greenhouse": _red, "orchard": _red,
    "fountain": _fountain, "millstone": _millstone, "shed": _shed, "well": _well,
    "abbey": _abbey, "chapel": _chapel, "cloister": _cloister, "temple": _temple,
    "inn": _inn,
    "bakery": _bakery, "market": _market, "tailor": _tailor, "theater": _theater,
    "bank": _bank, "factory": _factory, "trading_post": _trading_post, "warehouse": _warehouse,
    "archive": _archive, "architects_guild": _architects_guild,
    "barrett_castle": _barrett_castle, "cathedral": _cathedral,
    "fort_ironweed": _fort_ironweed, "grand_mausoleum": _grand_mausoleum,
    "grove_university": _grove_university, "mandras_palace": _mandras_palace,
    "obelisk": _no_points, "opaleyes_watch": _no_points, "bondmaker": _no_points,
    "shrine": _shrine, "silva_forum": _silva_forum, "sky_baths": _sky_baths,
    "starloom": _starloom,
}
# Scored once for all copies together, by how many there are.
TOGETHER: dict[str, Callable[[_Scoring, int], int]] = {
    "almshouse": _almshouses, "feast_hall": _feast_halls, "tavern": _taverns,
}
assert set(EACH) | set(TOGETHER) == set(BUILDINGS) | set(MONUMENTS)
assert not set(EACH) & set(TOGETHER)
