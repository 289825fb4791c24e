"""Keyper content: goods, keyples, country boards and their folds, building tiles, fairs,
boats and the shipping track.

Each item says where it comes from: ``"published"`` (a count or fact of the seed's
component list, see /work/shared/games/keyper.md) or ``"authored"`` (written for Keydom
because no public source gives it; ``docs/titles/keyper.md`` lists them). A group that
owns the physical game can replace an authored table with their printed one; ``_check``
at the bottom keeps every table consistent with the seed's counts and refuses to import
otherwise.

The tables are written in a small text form so they are easy to read and correct:

- a cost or a requirement is a list of goods, e.g. ``"logs clay 2wheat raw"``; ``raw``,
  ``finished`` and ``gem`` are the white (any-type) goods of the seed's FAQ;
- a building side's effects are clauses joined by ``|``:
  ``house:sheep,goat:2`` (houses up to 2 sheep or goats), ``act:clay>brick`` (one action:
  pay what is left of ``>``, gain what is right; ``ship2`` is two shipping points,
  ``animal`` an animal of a type the building houses, ``refine`` turns a raw material
  into its finished good), ``score:3`` (3 points), ``per:brick:1`` (1 point for each brick,
  counted at most 4 times; ``housed`` counts the animals on this building,
  ``keyple:black`` black keyples).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

PUBLISHED = "published"
AUTHORED = "authored"

# --- Goods (seed, Components) ---

RAW = ("clay", "logs", "rock")
FINISHED = ("brick", "wood", "stone")
WHEAT = "wheat"
GEMS = ("emerald", "gold", "ruby", "sapphire")
ANIMALS = ("deer", "boar", "goat", "chicken", "horse", "cow", "pig", "sheep")  # tiebreak order
GOODS = RAW + FINISHED + (WHEAT,) + GEMS
STOCK = GOODS + ANIMALS  # everything a player can hold, in a fixed order
SUPPLY: dict[str, int] = {**{g: 16 for g in RAW + FINISHED + GEMS}, WHEAT: 20, **{a: 12 for a in ANIMALS}}
REFINED = {"clay": "brick", "logs": "wood", "rock": "stone"}  # a raw material's finished good
WHITE = {"raw": RAW, "finished": FINISHED, "gem": GEMS}  # white goods stand for any of these
WHEAT_STANDS_FOR = ("raw", "finished")  # FAQ: wheat may pay a white raw or finished good
GOOD_NAMES = {g: g for g in STOCK} | {"boar": "wild boar", "raw": "any raw material",
                                       "finished": "any finished good", "gem": "any gem"}

# --- Keyples (seed, Components: 4 of each trade colour and 8 white) ---

COLOURS = ("blue", "orange", "green", "brown", "black", "grey")
WHITE_KEYPLE = "white"
KEYPLE_COLOURS = COLOURS + (WHITE_KEYPLE,)
KEYPLE_COUNTS = {**{c: 4 for c in COLOURS}, WHITE_KEYPLE: 8}
START_KEYPLES = COLOURS + (WHITE_KEYPLE, WHITE_KEYPLE)  # each player's first team
KEYPLE_NAMES = {"blue": "light-blue (boat)", "orange": "orange (clay)", "green": "light-green (farmer)",
                "brown": "brown (forest)", "black": "black (miner)", "grey": "grey (quarry)",
                "white": "white (generalist)"}
TEAM_SIZE = {2: 9, 3: 8, 4: 8}  # more than this go onto the keyp tile at the end of a season
PLAYER_COLOURS = ("red", "yellow", "green", "blue")  # player pieces (galactus.it review)
START_GOODS = {"brick": 1, "wood": 1, "stone": 1}

# Authored: what a keyple laid down on the keyp tile gives when its keyper is played.
KEYP_TILE_GAIN = {"orange": "clay", "brown": "logs", "grey": "rock", "green": "wheat",
                  "black": "gem", "blue": "ship1", "white": "wheat"}

SEASONS = ("spring", "summer", "autumn", "winter")
SEASON_ICONS = {"spring": "green leaf", "summer": "flower", "autumn": "brown leaf", "winter": "snowflake"}

# --- Country boards (authored fields; 4 boards, 14 folds each, published) ---
# A board is four 2x2 quarters of a 4x4 grid. The top-right quarter holds the keyp field
# (row 0, column 3) with the season icon, the river (row 1, columns 2-3, one space) and
# one field (row 0, column 2) whose face changes with the season shown. The top-left and
# bottom-left quarters are flaps with two faces each; the bottom-right quarter is fixed.
# A fold = (season, top-left face, bottom-left face): spring has two folds, the other
# seasons four each, 14 in all. Spring setup shows fold (spring, 0, 0).

# Field kinds: a good (gain it), an animal (gain one), or an action.
ACTION_FIELDS = ("tile", "build", "discount", "upgrade", "fair")
FIELD_COLOUR: dict[str, str | None] = {
    "clay": "orange", "logs": "brown", "rock": "grey", "wheat": "green",
    **{a: "green" for a in ANIMALS}, **{g: "black" for g in GEMS},
    **{k: None for k in ACTION_FIELDS}, "river": "blue",
}
FIELD_NAMES = {"tile": "take a country tile", "build": "build", "discount": "build at a discount",
               "upgrade": "upgrade a building", "fair": "take a winter fair tile", "river": "river (boats)",
               "keyp": "keyp field"} | {g: GOOD_NAMES[g] for g in GOODS + ANIMALS}
RIVER_CELLS = ((1, 2), (1, 3))
KEYP_CELL = (0, 3)
SEASON_CELL = (0, 2)
QUARTER_CELLS = {"tl": ((0, 0), (0, 1), (1, 0), (1, 1)), "bl": ((2, 0), (2, 1), (3, 0), (3, 1)),
                 "br": ((2, 2), (2, 3), (3, 2), (3, 3))}


@dataclass(frozen=True)
class Board:
    id: int
    season_field: dict[str, str]  # season -> the field beside the keyp field
    tl: tuple[str, str]  # the two faces of the top-left flap, four fields each
    bl: tuple[str, str]
    br: str  # the fixed quarter
    source: str = AUTHORED


BOARDS: dict[int, Board] = {b.id: b for b in [
    Board(1, {"spring": "tile", "summer": "fair", "autumn": "upgrade", "winter": "discount"},
          ("clay wheat tile sheep", "logs gold tile cow"),
          ("emerald logs chicken rock", "upgrade clay ruby wheat"),
          "build rock pig clay"),
    Board(2, {"spring": "discount", "summer": "tile", "autumn": "fair", "winter": "upgrade"},
          ("logs tile goat clay", "tile rock horse wheat"),
          ("rock ruby wheat logs", "clay sapphire build deer"),
          "build wheat boar logs"),
    Board(3, {"spring": "upgrade", "summer": "discount", "autumn": "tile", "winter": "fair"},
          ("tile rock cow sapphire", "clay tile wheat emerald"),
          ("clay horse logs wheat", "discount logs sheep rock"),
          "build clay gold rock"),
    Board(4, {"spring": "build", "summer": "fair", "autumn": "discount", "winter": "tile"},
          ("wheat tile clay pig", "rock goat tile logs"),
          ("logs deer rock gold", "chicken wheat ruby clay"),
          "build clay boar wheat"),
]}


def folds(board_id: int, season: str) -> list[str]:
    """The folds of a board that show ``season``'s icon, as ids "season-tl-bl"."""
    faces = [(0, 0), (1, 1)] if season == "spring" else [(0, 0), (0, 1), (1, 0), (1, 1)]
    return [f"{season}-{tl}-{bl}" for tl, bl in faces]


@functools.cache
def layout(board_id: int, fold: str) -> dict[tuple[int, int], str]:
    """The 16 cells of a folded board: (row, col) -> field kind ("keyp", "river" or a field)."""
    season, tl, bl = fold.split("-")
    b = BOARDS[board_id]
    cells: dict[tuple[int, int], str] = {KEYP_CELL: "keyp", SEASON_CELL: b.season_field[season]}
    for rc in RIVER_CELLS:
        cells[rc] = "river"
    for quarter, words in (("tl", b.tl[int(tl)]), ("bl", b.bl[int(bl)]), ("br", b.br)):
        for rc, kind in zip(QUARTER_CELLS[quarter], words.split()):
            cells[rc] = kind
    return cells


@functools.cache
def fields_of(board_id: int, fold: str) -> dict[str, str]:
    """The spaces a keyple can go to: "r,c" -> kind, the river as "river"."""
    out = {f"{r},{c}": kind for (r, c), kind in sorted(layout(board_id, fold).items())
           if kind not in ("keyp", "river")}
    out["river"] = "river"
    return out


# --- Costs, requirements and effects in the text form ---

def goods(text: str) -> dict[str, int]:
    """"2wheat logs raw" -> {"wheat": 2, "logs": 1, "raw": 1}."""
    out: Counter[str] = Counter()
    for word in text.split():
        n = 1
        if word[0].isdigit():
            n, word = int(word[0]), word[1:]
        out[word] += n
    return dict(out)


@dataclass(frozen=True)
class Act:
    pay: dict[str, int]
    gain: dict[str, int]  # goods, "ship" (points on the shipping track), "animal", "refine"


@dataclass(frozen=True)
class Side:
    name: str
    cost: dict[str, int]  # build cost (front) or upgrade cost (back)
    houses: tuple[str, ...] = ()
    capacity: int = 0
    acts: tuple[Act, ...] = ()
    points: int = 0
    per: tuple[tuple[str, int], ...] = ()  # (thing, points each), counted at most 4 times


def side(name: str, cost: str, effects: str) -> Side:
    houses: tuple[str, ...] = ()
    capacity = points = 0
    acts: list[Act] = []
    per: list[tuple[str, int]] = []
    for clause in filter(None, (c.strip() for c in effects.split("|"))):
        kind, _, rest = clause.partition(":")
        if kind == "house":
            kinds, _, n = rest.partition(":")
            houses, capacity = tuple(kinds.split(",")), int(n)
        elif kind == "act":
            pay, _, gain = rest.partition(">") if ">" in rest else ("", "", rest)
            gained = goods(gain.replace("+", " "))
            acts.append(Act(goods(pay.replace("+", " ")), {("ship" if k.startswith("ship") else k):
                                                            (int(k[4:]) if k.startswith("ship") else n)
                                                            for k, n in gained.items()}))
        elif kind == "score":
            points += int(rest)
        elif kind == "per":
            thing, _, n = rest.rpartition(":")
            per.append((thing, int(n)))
        else:
            raise ValueError(f"unknown effect {clause!r}")
    return Side(name, goods(cost), houses, capacity, tuple(acts), points, tuple(per))


@dataclass(frozen=True)
class Building:
    id: str
    area: str  # "farm" | "village"
    season: str  # "home" for the home tiles, else the country tile's season (spring = leaf icon)
    front: Side
    back: Side
    source: str = AUTHORED


def building(bid: str, area: str, season: str, name: str, cost: str, effects: str,
             back_name: str, upgrade: str, back_effects: str) -> Building:
    return Building(bid, area, season, side(name, cost, effects), side(back_name, upgrade, back_effects))


# Home tiles: the same 12 for every player (published: 6 farm + 6 village; faces authored).
HOME: dict[str, Building] = {b.id: b for b in [
    building("h1", "farm", "home", "Henhouse", "logs", "house:chicken,goat:2 | act:animal",
             "Poultry yard", "wood", "house:chicken,goat:3 | act:animal | per:housed:1"),
    building("h2", "farm", "home", "Pigsty", "clay logs", "house:pig,boar:2 | act:animal",
             "Piggery", "brick", "house:pig,boar:3 | act:animal | per:housed:1"),
    building("h3", "farm", "home", "Sheep pen", "logs rock", "house:sheep,goat:2 | act:animal",
             "Sheepfold", "stone", "house:sheep,goat:3 | act:animal | per:housed:1"),
    building("h4", "farm", "home", "Cowshed", "clay rock", "house:cow,deer:2 | act:animal",
             "Byre", "wood brick", "house:cow,deer:4 | act:animal | per:housed:1"),
    building("h5", "farm", "home", "Paddock", "2logs", "house:horse,sheep:2 | act:animal",
             "Stud", "wood stone", "house:horse,sheep:4 | act:animal | per:housed:1"),
    building("h6", "farm", "home", "Game park", "logs clay rock", "house:deer,boar:3 | act:animal",
             "Chase", "finished", "house:deer,boar:4 | act:animal | per:housed:1 | score:1"),
    building("h7", "village", "home", "Brickworks", "clay", "act:clay>brick",
             "Kiln", "brick", "act:clay>2brick"),
    building("h8", "village", "home", "Sawmill", "logs", "act:logs>wood",
             "Timber yard", "wood", "act:logs>2wood"),
    building("h9", "village", "home", "Stonemason", "rock", "act:rock>stone",
             "Masons' lodge", "stone", "act:rock>2stone"),
    building("h10", "village", "home", "Granary", "logs clay", "act:wheat | per:wheat:1",
             "Mill", "wood brick", "act:2wheat | per:wheat:1 | score:1"),
    building("h11", "village", "home", "Jetty", "logs rock", "act:finished>ship3",
             "Harbour", "wood stone", "act:finished>ship4 | score:1"),
    building("h12", "village", "home", "Workshop", "clay rock", "act:refine",
             "Guildhall", "2finished", "act:refine | act:refine | per:finished:1"),
]}

# Country tiles (published: 48 = 12 farm + 36 village, 21 with the spring leaf; faces authored).
COUNTRY: dict[str, Building] = {b.id: b for b in [
    # farm, spring (5)
    building("c1", "farm", "spring", "Dovecote", "wood clay", "house:chicken:3 | per:housed:1",
             "Aviary", "brick", "house:chicken,goat:4 | act:animal | per:housed:1"),
    building("c2", "farm", "spring", "Goat shed", "clay wood logs", "house:goat,sheep:3 | act:animal",
             "Dairy", "stone", "house:goat,sheep:4 | act:animal | per:housed:1 | score:1"),
    building("c3", "farm", "spring", "Stables", "wood stone logs", "house:horse:3 | act:animal | per:housed:1",
             "Riding school", "brick gem", "house:horse,cow:4 | act:animal | per:housed:2"),
    building("c4", "farm", "spring", "Pig farm", "brick logs clay", "house:pig:3 | act:animal | per:housed:1",
             "Smokehouse", "wood wheat", "house:pig,boar:4 | act:animal | per:housed:1 | per:wheat:1"),
    building("c5", "farm", "spring", "Deer park", "stone rock 2logs", "house:deer:3 | act:animal | per:housed:1",
             "Royal forest", "gem", "house:deer,boar:4 | per:housed:2"),
    # farm, later seasons (7)
    building("c6", "farm", "summer", "Cattle ranch", "2wood clay", "house:cow,horse:4 | act:animal | per:housed:1",
             "Cattle market", "gold", "house:cow,horse:4 | act:animal | per:housed:2"),
    building("c7", "farm", "summer", "Boar hunt", "stone brick", "house:boar,deer:3 | per:housed:2",
             "Hunting lodge", "wood", "house:boar,deer:4 | per:housed:2 | score:1"),
    building("c8", "farm", "autumn", "Sheep station", "2brick logs", "house:sheep:4 | act:animal | per:housed:1",
             "Wool market", "emerald", "house:sheep,goat:4 | act:animal | per:housed:2"),
    building("c9", "farm", "autumn", "Menagerie", "wood brick", "house:deer,boar,horse,cow:4 | per:housed:1",
             "Zoo", "2gem", "house:deer,boar,horse,cow,pig:4 | per:housed:2 | score:2"),
    building("c10", "farm", "winter", "Barn", "2stone", "house:cow,pig,sheep:4 | act:animal | per:housed:1",
             "Great barn", "brick wood", "house:cow,pig,sheep,goat:4 | act:animal | per:housed:2"),
    building("c11", "farm", "winter", "Poultry farm", "brick clay wheat", "house:chicken:4 | act:animal | per:chicken:1",
             "Egg market", "wheat gem", "house:chicken,goat:4 | act:animal | per:housed:2"),
    building("c12", "farm", "summer", "Meadow", "wheat logs", "house:goat,sheep,horse:2 | act:animal",
             "Water meadow", "stone", "house:goat,sheep,horse:3 | act:animal | per:housed:1 | score:1"),
    # village, spring (16)
    building("c13", "village", "spring", "Drainage", "2stone", "per:stone:1 | per:brick:1",
             "Sewers", "stone brick", "per:stone:1 | per:brick:1 | score:2"),
    building("c14", "village", "spring", "Pavements", "stone rock", "per:stone:1 | score:1",
             "Paved square", "2stone", "per:stone:2 | score:1"),
    building("c15", "village", "spring", "Thatcher", "wheat logs clay", "act:wheat | per:wheat:1",
             "Thatched row", "wood", "act:2wheat | per:wheat:1 | score:1"),
    building("c16", "village", "spring", "Clay pit", "logs", "act:clay", "Brickfield", "brick",
             "act:2clay"),
    building("c17", "village", "spring", "Woodcutter", "clay", "act:logs", "Forester", "wood",
             "act:2logs"),
    building("c18", "village", "spring", "Quarry", "logs", "act:rock", "Deep quarry", "stone",
             "act:2rock"),
    building("c19", "village", "spring", "Gem cutter", "stone clay", "act:rock+rock>gem",
             "Jeweller", "gem", "act:rock>gem | per:gem:1"),
    building("c20", "village", "spring", "Bakery", "logs clay", "act:wheat>ship3 | score:1",
             "Pâtisserie", "wood", "act:wheat>ship4 | score:1"),
    building("c21", "village", "spring", "Carpenter", "wood clay", "per:wood:1 | score:1",
             "Joinery", "wood brick", "per:wood:2 | score:1"),
    building("c22", "village", "spring", "Potter", "brick clay", "per:brick:1",
             "Pottery", "brick stone", "per:brick:2 | score:1"),
    building("c23", "village", "spring", "Inn", "wood brick clay", "score:3",
             "Coaching inn", "stone gem", "score:6"),
    building("c24", "village", "spring", "Chapel", "stone brick wood", "score:2 | per:keyple:white:1",
             "Church", "stone wood", "score:4 | per:keyple:white:1"),
    building("c25", "village", "spring", "Mine", "wood stone", "act:ruby | act:sapphire",
             "Deep mine", "2finished", "act:2ruby | act:2sapphire"),
    building("c26", "village", "spring", "Trading post", "logs clay", "act:raw>ship2 | per:raw:1",
             "Warehouse", "brick wood", "act:raw>ship3 | per:raw:1 | score:1"),
    building("c27", "village", "spring", "Well", "rock clay", "act:wheat", "Fountain", "stone",
             "act:wheat | score:2"),
    building("c28", "village", "spring", "Goldsmith", "brick stone wood", "act:gold | per:gold:1",
             "Treasury", "gem", "act:gold | per:gold:2"),
    # village, later seasons (20)
    building("c29", "village", "summer", "Market hall", "2wood brick", "per:finished:1 | score:1",
             "Exchange", "gem", "per:finished:1 | per:gem:1 | score:2"),
    building("c30", "village", "summer", "Lumber camp", "2brick logs", "act:2logs | per:keyple:brown:2",
             "Timber guild", "wood", "act:2logs | per:keyple:brown:2 | score:1"),
    building("c31", "village", "summer", "Brick kiln", "2stone", "act:clay>2brick | per:keyple:orange:2",
             "Tile works", "brick", "act:clay>2brick | per:keyple:orange:2 | score:1"),
    building("c32", "village", "summer", "Stone yard", "2wood", "act:rock>2stone | per:keyple:grey:2",
             "Stone guild", "stone", "act:rock>2stone | per:keyple:grey:2 | score:1"),
    building("c33", "village", "summer", "Emerald mine", "wood stone", "act:emerald | per:emerald:1",
             "Emerald vault", "gem", "act:emerald | per:emerald:2"),
    building("c34", "village", "summer", "Boatyard", "3wood", "act:finished>ship4 | per:keyple:blue:2",
             "Shipwright", "brick", "act:finished>ship4 | per:keyple:blue:2 | score:2"),
    building("c35", "village", "summer", "Farmers' hall", "brick stone", "per:keyple:green:2 | per:wheat:1",
             "Grange", "wood", "per:keyple:green:2 | per:wheat:1 | score:2"),
    building("c36", "village", "autumn", "Miners' guild", "2stone brick", "per:keyple:black:3 | act:gem",
             "Assay office", "gold", "per:keyple:black:3 | act:gem | score:1"),
    building("c37", "village", "autumn", "Town hall", "brick stone finished", "score:5",
             "Castle keep", "2gem", "score:9"),
    building("c38", "village", "autumn", "Sapphire mine", "brick wood", "act:sapphire | per:sapphire:1",
             "Sapphire vault", "gem", "act:sapphire | per:sapphire:2"),
    building("c39", "village", "autumn", "Ruby mine", "stone wood", "act:ruby | per:ruby:1",
             "Ruby vault", "gem", "act:ruby | per:ruby:2"),
    building("c40", "village", "autumn", "Tannery", "wood clay", "per:cow:1 | per:deer:1",
             "Leather works", "brick", "per:cow:2 | per:deer:1 | score:1"),
    building("c41", "village", "autumn", "Weaver", "brick logs", "per:sheep:1 | per:goat:1",
             "Cloth hall", "stone", "per:sheep:2 | per:goat:1 | score:1"),
    building("c42", "village", "winter", "Butcher", "stone logs", "per:pig:1 | per:boar:1",
             "Charcuterie", "wood", "per:pig:2 | per:boar:1 | score:1"),
    building("c43", "village", "winter", "Crown jeweller", "3finished wheat", "per:gem:1",
             "Regalia", "2gem", "per:gem:1 | score:3"),
    building("c44", "village", "winter", "Hostelry", "2finished 2wheat rock", "per:horse:1 | per:chicken:1 | score:1",
             "Post house", "finished", "per:horse:2 | per:chicken:1 | score:2"),
    building("c45", "village", "winter", "Cathedral", "2stone 2brick", "score:7",
             "Great cathedral", "2gem", "score:11"),
    building("c46", "village", "winter", "Custom house", "wood stone", "act:gem>ship5 | score:1",
             "Port authority", "gold", "act:gem>ship6 | score:2"),
    building("c47", "village", "autumn", "Almshouse", "wood wheat clay", "per:keyple:any:1 | score:1",
             "Hospital", "stone brick", "per:keyple:any:1 | score:2"),
    building("c48", "village", "winter", "Guild of keyples", "2finished 2wheat", "per:keyple:any:1 | score:1",
             "Grand guild", "2gem", "per:keyple:any:1 | score:3"),
]}
BUILDINGS: dict[str, Building] = {**HOME, **COUNTRY}
FARM_PLOTS = 4  # authored: plots on the player board
VILLAGE_PLOTS = 6


# --- Fairs (published: 6 spring, 6 summer, 6 autumn, 8 double-sided winter; faces authored) ---

@dataclass(frozen=True)
class Fair:
    id: str
    season: str
    needs: dict[str, int]
    points: int
    back_needs: dict[str, int] | None = None  # a winter fair's 6-point side
    back_points: int = 0
    source: str = AUTHORED


def fair(fid: str, season: str, needs: str, points: int, back: str | None = None, back_points: int = 0) -> Fair:
    return Fair(fid, season, goods(needs), points, goods(back) if back else None, back_points)


FAIRS: dict[str, Fair] = {f.id: f for f in [
    fair("sp1", "spring", "2wheat chicken", 3), fair("sp2", "spring", "brick sheep", 3),
    fair("sp3", "spring", "wood goat", 3), fair("sp4", "spring", "stone pig", 3),
    fair("sp5", "spring", "2wheat raw", 3), fair("sp6", "spring", "emerald 2rock", 3),
    fair("su1", "summer", "sheep brick wheat", 5), fair("su2", "summer", "2wood clay", 5),
    fair("su3", "summer", "2sheep wheat", 5), fair("su4", "summer", "ruby gold wheat", 5),
    fair("su5", "summer", "wood 2raw", 5), fair("su6", "summer", "2finished wheat", 5),
    fair("au1", "autumn", "chicken stone wheat", 7), fair("au2", "autumn", "2horse gem", 7),
    fair("au3", "autumn", "pig wheat finished", 7), fair("au4", "autumn", "sapphire emerald finished", 7),
    fair("au5", "autumn", "stone wheat finished", 7), fair("au6", "autumn", "3finished", 7),
    fair("wi1", "winter", "2brick wheat", 4, "2brick 2wheat gold", 6),
    fair("wi2", "winter", "wood sheep wheat", 4, "2wood sheep wheat ruby", 6),
    fair("wi3", "winter", "2stone wheat", 4, "2stone 2wheat emerald", 6),
    fair("wi4", "winter", "chicken wheat clay", 4, "2chicken 2wheat clay", 6),
    fair("wi5", "winter", "chicken raw wheat", 4, "pig chicken 2raw wheat", 6),
    fair("wi6", "winter", "2ruby sapphire", 4, "2ruby 2sapphire finished", 6),
    fair("wi7", "winter", "goat finished wheat", 4, "goat boar 2finished wheat", 6),
    fair("wi8", "winter", "3wheat", 4, "4wheat gem", 6),
]}
# Which winter-fair side may be held at the end of which season (seed FAQ).
WINTER_SIDES = {"summer": ("4",), "autumn": ("4", "6"), "winter": ("6",)}
WINTER_FAIRS_FROM = "summer"  # authored: the winter fairs are laid out face up from summer on

# --- Boats (published: 6 boats, 4 a season; goods on each seasonal face authored) ---


@dataclass(frozen=True)
class Boat:
    id: str
    name: str
    faces: dict[str, tuple[str, ...]]  # season -> the goods the boatman trades
    source: str = AUTHORED


def boat(bid: str, name: str, spring: str, summer: str, autumn: str, winter: str) -> Boat:
    return Boat(bid, name, {s: tuple(t.split()) for s, t in zip(SEASONS, (spring, summer, autumn, winter))})


BOATS: dict[str, Boat] = {b.id: b for b in [
    boat("b1", "Barge", "clay wheat", "clay brick emerald", "clay brick", "brick stone ruby"),
    boat("b2", "Log raft", "logs wheat", "logs wood ruby", "wood stone sapphire", "wood brick gold"),
    boat("b3", "Stone lighter", "rock stone wheat", "rock stone gold", "stone brick emerald", "stone wheat"),
    boat("b4", "Grain boat", "wheat clay logs", "wheat rock sapphire", "wheat brick ruby", "wheat wood emerald"),
    boat("b5", "Jewel galley", "emerald ruby rock", "clay logs", "ruby emerald logs", "gold sapphire wheat"),
    boat("b6", "Pedlar", "brick wood stone", "wood wheat", "brick stone wheat", "clay logs rock"),
]}
BOATS_PER_SEASON = 4
SHIP_STEP = 2  # shipping points for one good sold (seed)
SHIPPING_TRACK = 40  # authored: the dock's track ends at 40 points


def describe_side(s: Side) -> str:
    parts = []
    if s.houses:
        parts.append(f"houses {s.capacity} {'/'.join(GOOD_NAMES[a] for a in s.houses)}")
    for a in s.acts:
        parts.append("action: " + act_text(a))
    if s.points:
        parts.append(f"{s.points} point{'s' if s.points > 1 else ''}")
    for thing, n in s.per:
        parts.append(f"{n} per {thing_name(thing)} (max 4)")
    return "; ".join(parts) or "no effect"


def act_text(a: Act) -> str:
    gain = ", ".join(
        "an animal it houses" if k == "animal" else "refine a raw material" if k == "refine"
        else f"{n} shipping points" if k == "ship" else f"{n} {GOOD_NAMES[k]}" for k, n in a.gain.items())
    return f"{cost_text(a.pay)} → {gain}" if a.pay else f"gain {gain}"


def cost_text(cost: dict[str, int]) -> str:
    return ", ".join(f"{n} {GOOD_NAMES[k]}" for k, n in cost.items()) or "nothing"


def thing_name(thing: str) -> str:
    if thing == "housed":
        return "animal housed here"
    if thing == "keyple:any":
        return "keyple"
    if thing.startswith("keyple:"):
        return f"{thing[7:]} keyple"
    return GOOD_NAMES.get(thing, thing)


def content_json() -> dict[str, Any]:
    """The static tables, for the board page and the rules page."""
    def side_json(s: Side) -> dict[str, Any]:
        return {"name": s.name, "cost": dict(s.cost), "text": describe_side(s)}
    return {
        "buildings": {b.id: {"area": b.area, "season": b.season, "front": side_json(b.front),
                             "back": side_json(b.back)} for b in BUILDINGS.values()},
        "fields": dict(FIELD_NAMES),
        "field_colours": {k: v for k, v in FIELD_COLOUR.items()},
        "keyples": dict(KEYPLE_NAMES),
        "keyp_gain": dict(KEYP_TILE_GAIN),
        "boats": {b.id: {"name": b.name, "faces": {s: list(g) for s, g in b.faces.items()}} for b in BOATS.values()},
        "layouts": {str(b): {f: [[layout(b, f)[(r, c)] for c in range(4)] for r in range(4)]
                             for s in SEASONS for f in folds(b, s)} for b in BOARDS},
        "winter_fairs": {f.id: {"needs": f.needs, "points": f.points, "back_needs": f.back_needs,
                                "back_points": f.back_points} for f in FAIRS.values() if f.season == "winter"},
    }


def _check() -> None:
    """Validate the tables against the seed's component list, once, at import."""
    layout.cache_clear()  # a corrected table is read afresh
    fields_of.cache_clear()
    assert Counter(KEYPLE_COUNTS).total() == 32 and Counter(START_KEYPLES) == {**{c: 1 for c in COLOURS}, "white": 2}
    assert sum(SUPPLY[g] for g in RAW) == 48 and sum(SUPPLY[g] for g in FINISHED) == 48
    assert SUPPLY[WHEAT] == 20 and sum(SUPPLY[g] for g in GEMS) == 64 and sum(SUPPLY[a] for a in ANIMALS) == 96
    assert len(BOARDS) == 4
    for b in BOARDS.values():
        assert set(b.season_field) == set(SEASONS)
        all_folds = [f for s in SEASONS for f in folds(b.id, s)]
        assert len(all_folds) == 14, "each board folds 14 ways"
        for f in all_folds:
            cells = layout(b.id, f)
            assert len(cells) == 16 and sum(k == "keyp" for k in cells.values()) == 1
            assert sum(k == "river" for k in cells.values()) == 2
            kinds = [k for k in cells.values() if k not in ("keyp", "river")]
            assert len(kinds) == 13 and all(k in FIELD_COLOUR for k in kinds), f"board {b.id} {f}: 13 fields"
            assert "tile" in kinds and ("build" in kinds or "discount" in kinds), f"board {b.id} {f}"
    for colour in ("orange", "brown", "grey", "green", "black"):
        assert all(any(FIELD_COLOUR[k] == colour for k in fields_of(b, "spring-0-0").values()) for b in BOARDS), \
            f"every board has a {colour} field in spring"
    assert len(HOME) == 12 and Counter(b.area for b in HOME.values()) == {"farm": 6, "village": 6}
    assert len(COUNTRY) == 48 and Counter(b.area for b in COUNTRY.values()) == {"farm": 12, "village": 36}
    assert sum(b.season == "spring" for b in COUNTRY.values()) == 21, "21 spring country tiles"
    known = set(STOCK) | set(WHITE)
    for b in BUILDINGS.values():
        for s in (b.front, b.back):
            assert set(s.cost) <= known and s.cost, f"{b.id}: cost"
            assert (b.area == "farm") == bool(s.houses), f"{b.id}: farm buildings house animals"
            assert all(a in ANIMALS for a in s.houses) and s.capacity <= 4
            for a in s.acts:
                assert set(a.pay) <= known and set(a.gain) <= known | {"ship", "animal", "refine"}, b.id
            for thing, n in s.per:
                assert n > 0 and (thing in known or thing == "housed" or thing.startswith("keyple:")), b.id
            assert s.acts or s.points or s.per or s.houses, f"{b.id}: every side does something"
    assert len(FAIRS) == 26
    assert Counter(f.season for f in FAIRS.values()) == {"spring": 6, "summer": 6, "autumn": 6, "winter": 8}
    for f in FAIRS.values():
        assert set(f.needs) <= known
        assert (f.season == "winter") == (f.back_needs is not None)
        if f.season == "winter":
            assert f.points == 4 and f.back_points == 6, "winter fairs: 4 and 6 points"
    assert len(BOATS) == 6 and all(set(b.faces) == set(SEASONS) for b in BOATS.values())
    assert all(set(g) <= set(GOODS) for b in BOATS.values() for g in b.faces.values())


_check()
