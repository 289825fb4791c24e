"""Keythedral content: cubes, field tiles, building tiles, row sizes and the 20 law cards.

Each item says where it comes from: ``"published"`` (a fact of the 2004 edition's
component list) or ``"authored"`` (written for Keydom because no public source gives
it; see ``docs/titles/keythedral.md``). A group that owns the physical game can replace
an authored table with their printed one; ``_check`` at the bottom keeps every table
consistent with the component list, and refuses to import otherwise.

Rules refer to content by id and never embed card text.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

Colour = str  # a cube colour: one of BASIC or CRAFT
PUBLISHED = "published"
AUTHORED = "authored"


# --- Cubes ---

@dataclass(frozen=True)
class Cube:
    colour: Colour
    name: str  # what the cube stands for in the game's words
    supply: int  # cubes of this colour in the box
    points: int  # worth at the end of the game
    price: int = 0  # craft cubes: basic resources paid to the craftsman
    source: str = PUBLISHED


BASIC: tuple[Colour, ...] = ("brown", "black", "green", "blue", "red")
CRAFT: tuple[Colour, ...] = ("white", "purple", "yellow")
COLOURS: tuple[Colour, ...] = BASIC + CRAFT

CUBES: dict[Colour, Cube] = {c.colour: c for c in [
    Cube("brown", "timber", 20, 1),
    Cube("black", "stone", 20, 1),
    Cube("green", "food", 15, 1),
    Cube("blue", "water", 15, 1),
    Cube("red", "wine", 15, 1),
    Cube("white", "ironwork", 10, 2, price=2),
    Cube("purple", "stained glass", 10, 3, price=3),
    Cube("yellow", "gold", 10, 4, price=4),
]}

# --- Fields ---

@dataclass(frozen=True)
class FieldType:
    id: str
    name: str  # the landscape
    colour: Colour  # the cube a worker here collects
    letter: str  # for the text notation


FIELD_TYPES: dict[str, FieldType] = {t.id: t for t in [
    FieldType("quarry", "quarry", "black", "Q"),
    FieldType("wood", "wood", "brown", "W"),
    FieldType("lake", "lake", "blue", "L"),
    FieldType("farm", "farm", "green", "F"),
    FieldType("vineyard", "vineyard", "red", "V"),
]}
TYPE_OF_LETTER = {t.letter: t.id for t in FIELD_TYPES.values()}


@dataclass(frozen=True)
class Field:
    id: str
    type: str  # a FIELD_TYPES id
    number: int  # on the back: used only with at least this many players
    source: str = PUBLISHED

    @property
    def colour(self) -> Colour:
        return FIELD_TYPES[self.type].colour


def _fields(number: int, source: str, **count: int) -> list[Field]:
    """Field tiles with one back number, ids like "W2b" (letter, number, copy)."""
    out = []
    for type_id, n in count.items():
        letter = FIELD_TYPES[type_id].letter
        for k in range(n):
            suffix = "abcdefghij"[k] if n > 1 else ""
            out.append(Field(f"{letter}{number}{suffix}", type_id, number, source))
    return out


# The four "1" fields are published (two quarries, two woods around the Keythedral);
# how the other 25 split by back number is authored (one each of 3, 4 and 5; the rest 2).
FIELDS: dict[str, Field] = {f.id: f for f in [
    *_fields(1, PUBLISHED, quarry=2, wood=2),
    *_fields(2, AUTHORED, quarry=1, wood=3, lake=2, farm=2, vineyard=2),
    *_fields(3, AUTHORED, quarry=1, wood=1, lake=1, farm=1, vineyard=1),
    *_fields(4, AUTHORED, quarry=1, wood=1, lake=1, farm=1, vineyard=1),
    *_fields(5, AUTHORED, quarry=1, wood=1, lake=1, farm=1, vineyard=1),
]}
START_FIELDS: tuple[str, ...] = ("Q1a", "W1a", "W1b", "Q1b")  # read with START_CELLS

# --- Building tiles and the Keythedral mat ---

@dataclass(frozen=True)
class BuildingTile:
    id: str
    value: int  # the seat value on the back
    cost: tuple[Colour, ...]  # cubes shown on the front
    source: str = AUTHORED


ROW_VALUES: tuple[int, ...] = (4, 6, 8, 10, 12)
TILES_PER_VALUE: dict[int, int] = {4: 6, 6: 8, 8: 8, 10: 6, 12: 6}

# Costs are authored (no public list of the tile fronts exists). They follow every known
# fact: 2-4 cubes; the 4 row costs two of the commonest resources (stone, timber); stone
# only in the 4 and 6 rows, timber up to the 8 row, food and water throughout; craft
# cubes from the 8 row on, and every 12 tile needs at least one.
_COSTS: dict[int, list[str]] = {
    4: ["black black", "brown brown", "black brown", "black brown", "black black",
        "brown brown"],
    6: ["black brown green", "black brown blue", "black black green", "brown brown blue",
        "black green blue", "brown green blue", "black brown red", "black blue blue"],
    8: ["brown green blue red", "brown brown green red", "green blue white", "brown red white",
        "brown blue white", "green red white", "brown green blue blue", "blue red white"],
    10: ["green blue purple", "green red purple", "blue red white white", "green blue red white",
         "red red purple", "green white white"],
    12: ["green blue yellow", "blue red yellow", "green purple white", "red purple purple",
         "green red purple white", "blue white yellow"],
}
TILES: dict[str, BuildingTile] = {
    f"{value}{'abcdefgh'[k]}": BuildingTile(f"{value}{'abcdefgh'[k]}", value, tuple(cost.split()))
    for value, costs in _COSTS.items() for k, cost in enumerate(costs)
}

# Tiles laid per row: the full game uses grey and orange spaces, the short game only the
# grey ones. Authored (sources disagree; see the docs): full 22, short 15.
ROW_SIZES: dict[str, dict[int, int]] = {
    "full": {4: 5, 6: 5, 8: 5, 10: 4, 12: 3},
    "short": {4: 4, 6: 3, 8: 3, 10: 3, 12: 2},
}
ROW_SIZES_SOURCE = AUTHORED

# --- Actions' costs (published) ---

HOUSE_COST: tuple[Colour, ...] = ("black", "brown")
FENCE_COST: tuple[Colour, ...] = ("brown",)
UNFENCE_COST: tuple[Colour, ...] = ("red", "red")
TRADE_GIVE = 2
LAW_PRICE = 1
FENCES_EACH = 3
COTTAGES_EACH = 5
WORKERS_EACH = 10
NEW_LAW_SLOTS = 2

# --- Law cards ---

@dataclass(frozen=True)
class LawCard:
    id: str
    name: str
    phase: int  # the only phase in which it may be played
    effect: str  # an effect type in rules.LAW_EFFECTS
    text: str  # the card in our own words, for the screen
    amount: int = 0  # the effect's number, where it has one
    source: str = AUTHORED
    fragment: str = ""  # the recovered rule fragment it is built on, if any


def _law(number: int, name: str, phase: int, effect: str, text: str, amount: int = 0,
         fragment: str = "") -> LawCard:
    return LawCard(f"L{number:02d}", name, phase, effect, text, amount, AUTHORED, fragment)


# The 20 cards are authored: only their count and a few effects are known (fragments A-F
# in shared/games/keythedral.md §2.2). Phases 1, 2 and 5 cards are played when their
# holder makes a choice in that phase (placing a work order marker, collecting, bidding);
# phase 3 cards are an action.
LAWS: dict[str, LawCard] = {c.id: c for c in [
    _law(1, "Royal Decree", 1, "all_markers",
         "Play when you place a work order marker: you place it and every remaining work "
         "order marker this round.", fragment="A"),
    _law(2, "Labour Levy", 1, "levy",
         "For the rest of this phase each of your cottages sends two workers, like a house."),
    _law(3, "Right of Way", 1, "right_of_way",
         "For the rest of this phase your workers may cross fences."),
    _law(4, "Bumper Harvest", 2, "bumper",
         "Choose a field type. For the rest of this phase every worker on that type collects "
         "one extra cube.", amount=1, fragment="B"),
    _law(5, "Bumper Harvest", 2, "bumper",
         "Choose a field type. For the rest of this phase every worker on that type collects "
         "one extra cube.", amount=1, fragment="B"),
    _law(6, "Blight", 2, "blight",
         "Choose a field type. For the rest of this phase nobody collects cubes from it; cubes "
         "already collected are kept.", fragment="C"),
    _law(7, "Granary Rights", 2, "granary",
         "This phase each of your workers collects one extra cube.", amount=1),
    _law(8, "Guild Discount", 3, "discount",
         "Choose a face-up building tile: it costs one cube less, of its buyer's choice, until "
         "someone acquires it.", amount=1, fragment="D"),
    _law(9, "Guild Discount", 3, "discount",
         "Choose a face-up building tile: it costs one cube less, of its buyer's choice, until "
         "someone acquires it.", amount=1, fragment="D"),
    _law(10, "Building Tax", 3, "surcharge",
         "Choose a face-up building tile and one cube colour in its cost: it costs one more "
         "cube of that colour until someone acquires it.", amount=1, fragment="E"),
    _law(11, "Honest Trader", 3, "honest_trader",
         "For the rest of this phase the trader gives you one basic cube for one.", fragment="F"),
    _law(12, "Master Mason", 3, "free_house",
         "Turn one of your cottages into a house for free."),
    _law(13, "Fence Breaker", 3, "free_unfence",
         "Remove any fence for free."),
    _law(14, "Enclosure Act", 3, "free_fence",
         "Build one of your fences for free."),
    _law(15, "Smith's Gift", 3, "gift",
         "Take one ironwork (white) cube for free.", amount=1),
    _law(16, "Royal Grant", 3, "grant",
         "Take two basic cubes of your choice from the store.", amount=2),
    _law(17, "Foreman", 3, "extra_actions",
         "Take two more actions in a row after this one.", amount=2),
    _law(18, "Surveyor", 3, "survey",
         "Move one of your cottages or houses to another empty place next to a field."),
    _law(19, "Royal Favour", 5, "favour",
         "Play when you bid: you win the start player auction at once and pay nothing."),
    _law(20, "Patronage", 5, "patronage",
         "Play when you bid: this auction your bid counts two more than the cubes you pay.",
         amount=2),
]}
LAW_PHASES = (1, 2, 3, 5)


def _check() -> None:
    """Validate the tables against the seed's component list, once, at import."""
    supply = {c: CUBES[c].supply for c in COLOURS}
    assert supply == {"brown": 20, "black": 20, "green": 15, "blue": 15, "red": 15,
                      "white": 10, "purple": 10, "yellow": 10}, "85 resource and 30 craft cubes"
    assert [CUBES[c].price for c in CRAFT] == [2, 3, 4] == [CUBES[c].points for c in CRAFT]
    # 29 fields: 6 grey, 8 brown, 5 blue, 5 green, 5 red; backs 1x4, 2x10, 3/4/5 x5
    assert len(FIELDS) == 29, "29 field tiles"
    assert Counter(f.type for f in FIELDS.values()) == {
        "quarry": 6, "wood": 8, "lake": 5, "farm": 5, "vineyard": 5}
    assert Counter(f.number for f in FIELDS.values()) == {1: 4, 2: 10, 3: 5, 4: 5, 5: 5}
    assert sorted(FIELDS[f].type for f in START_FIELDS) == ["quarry", "quarry", "wood", "wood"]
    assert all(FIELDS[f].number == 1 for f in START_FIELDS)
    # 34 building tiles: 6x4, 8x6, 8x8, 6x10, 6x12, each costing 2-4 cubes
    assert len(TILES) == 34, "34 building tiles"
    assert Counter(t.value for t in TILES.values()) == TILES_PER_VALUE
    for tile in TILES.values():
        assert 2 <= len(tile.cost) <= 4, f"tile {tile.id} costs {len(tile.cost)} cubes"
        assert set(tile.cost) <= set(COLOURS), f"tile {tile.id}: unknown colour"
        if tile.value == ROW_VALUES[0]:
            assert len(tile.cost) == 2 and set(tile.cost) <= {"black", "brown"}, \
                f"first-row tile {tile.id} must cost two common resources"
        if tile.value == ROW_VALUES[-1]:
            assert set(tile.cost) & set(CRAFT), f"top-row tile {tile.id} needs a craft cube"
    for game, sizes in ROW_SIZES.items():
        assert tuple(sizes) == ROW_VALUES, game
        assert all(1 <= sizes[v] <= TILES_PER_VALUE[v] for v in ROW_VALUES), game
    assert ROW_SIZES["short"][4] <= ROW_SIZES["full"][4]
    assert sum(ROW_SIZES["short"].values()) < sum(ROW_SIZES["full"].values())
    # 20 law cards, each for one playable phase, effects known to the rules
    assert len(LAWS) == 20, "20 law cards"
    assert all(c.phase in LAW_PHASES for c in LAWS.values())


_check()
