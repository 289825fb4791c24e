"""Tiny Towns content: resources, the 25 building cards and the 15 monument cards.

Every card here is published content (see ``docs/titles/tiny-towns.md`` for sources).
Patterns are written as printed on the card, top row first, rows separated by ``/``;
``.`` is a square that is not part of the shape. Letters: W wood, H wheat, B brick,
G glass, S stone. Rules refer to cards by id and never embed card text.
"""

from __future__ import annotations

from dataclasses import dataclass

Resource = str  # one of RESOURCES
RESOURCES: tuple[Resource, ...] = ("wood", "wheat", "brick", "glass", "stone")
RESOURCE_LETTER = {"W": "wood", "H": "wheat", "B": "brick", "G": "glass", "S": "stone"}
LETTER_OF = {v: k for k, v in RESOURCE_LETTER.items()}

# Building colours (the wooden piece and the icon on the card). Card text refers to other
# buildings by colour; only one card per colour is in a game, so colour == type in play.
COLOURS: tuple[str, ...] = ("blue", "red", "gray", "orange", "green", "yellow", "black")
MONUMENT = "monument"


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    colour: str  # one of COLOURS, or MONUMENT
    pattern: str  # rows separated by "/", "." = not part of the shape
    text: str  # the effect in our own words, for the card on screen
    source: str = "published"

    @property
    def shape(self) -> tuple[tuple[int, int, Resource], ...]:
        """(row, col, resource) for every square of the printed pattern."""
        return tuple(
            (r, c, RESOURCE_LETTER[ch])
            for r, row in enumerate(self.pattern.split("/"))
            for c, ch in enumerate(row)
            if ch != "."
        )

    @property
    def is_monument(self) -> bool:
        return self.colour == MONUMENT


def _b(id: str, name: str, colour: str, pattern: str, text: str) -> Card:
    return Card(id, name, colour, pattern, text)


BUILDINGS: dict[str, Card] = {
    c.id: c
    for c in [
        _b("cottage", "Cottage", "blue", ".H/BG", "3 VP if this building is fed."),
        # --- red: feeders (never score VP themselves) ---
        _b("farm", "Farm", "red", "HH/WW", "Feeds 4 Cottages anywhere in your town."),
        _b("granary", "Granary", "red", "HH/WB", "Feeds all Cottages in the 8 squares surrounding it."),
        _b("greenhouse", "Greenhouse", "red", "HG/WW", "Feeds one contiguous group of Cottages anywhere in your town."),
        _b("orchard", "Orchard", "red", "SH/HW", "Feeds all Cottages in the same row and column as it."),
        # --- gray ---
        _b("fountain", "Fountain", "gray", "WS", "2 VP if adjacent to a gray building."),
        _b("millstone", "Millstone", "gray", "WS", "2 VP if adjacent to a red or yellow building."),
        _b("shed", "Shed", "gray", "WS", "1 VP. May be built on any empty square in your town."),
        _b("well", "Well", "gray", "WS", "1 VP for each adjacent Cottage."),
        # --- orange ---
        _b("abbey", "Abbey", "orange", "..G/BSS", "3 VP if not adjacent to a black, green or yellow building."),
        _b("chapel", "Chapel", "orange", "..G/SGS", "1 VP for each fed Cottage."),
        _b("cloister", "Cloister", "orange", "..G/WBS", "1 VP for each orange building in a corner of your town."),
        _b("temple", "Temple", "orange", "..G/BBS", "4 VP if adjacent to 2 or more fed Cottages."),
        # --- green ---
        _b("almshouse", "Almshouse", "green", "SSG", "VP by number of Almshouses: 1→−1, 2→5, 3→−3, 4→15, 5→−5, 6→26."),
        _b("feast_hall", "Feast Hall", "green", "WWG", "2 VP; 3 VP if you have more Feast Halls than the player on your right."),
        _b("inn", "Inn", "green", "HSG", "3 VP if not in a row or column with another green building."),
        _b("tavern", "Tavern", "green", "BBG", "VP by number of Taverns: 1→2, 2→5, 3→9, 4→14, 5→20."),
        # --- yellow ---
        _b("bakery", "Bakery", "yellow", ".H./BGB", "3 VP if adjacent to a red or black building."),
        _b("market", "Market", "yellow", ".W./SGS", "1 VP for each yellow building in its row or its column (your choice)."),
        _b("tailor", "Tailor", "yellow", ".H./SGS", "1 VP, +1 VP for each yellow building in the 4 centre squares of your town."),
        _b("theater", "Theater", "yellow", ".S./WGW", "1 VP for each other unique building type in its row and column."),
        # --- black ---
        _b("bank", "Bank", "black", "HH./WGB", "4 VP. Place a resource on it that is not on another black building; as Master Builder you may not name it."),
        _b("factory", "Factory", "black", "W.../BSSB", "Place a resource on it. When another player names it, you may place a different resource instead."),
        _b("trading_post", "Trading Post", "black", "SW./SWB", "1 VP. Counts as a wild resource in later constructions (it stays)."),
        _b("warehouse", "Warehouse", "black", "HWH/B.B", "−1 VP per resource on it. When another player names a resource, you may store it here (up to 3) or swap it for a stored one."),
    ]
}

MONUMENTS: dict[str, Card] = {
    c.id: c
    for c in [
        Card("archive", "Archive of the Second Age", MONUMENT, "HH/BG", "1 VP for each unique building type in your town (monuments excluded)."),
        Card("architects_guild", "Architect's Guild", MONUMENT, "..G/.HS/WB.", "1 VP. When built, replace up to 2 buildings in your town with buildings of any other type."),
        Card("barrett_castle", "Barrett Castle", MONUMENT, "H..S/WGGB", "5 VP if fed. Counts as 2 Cottages."),
        Card("cathedral", "Cathedral of Caterina", MONUMENT, ".H/SG", "2 VP. Empty squares in your town are worth 0 VP instead of −1."),
        Card("fort_ironweed", "Fort Ironweed", MONUMENT, "H.B/SWS", "7 VP. Unless you are the last player in the game, you can no longer take turns as Master Builder."),
        Card("grand_mausoleum", "Grand Mausoleum of the Rodina", MONUMENT, "WW/BS", "Your unfed Cottages are worth 3 VP."),
        Card("grove_university", "Grove University", MONUMENT, ".B./SGS", "3 VP. When built, immediately place a building on an empty square in your town."),
        Card("mandras_palace", "Mandras Palace", MONUMENT, "HG/BW", "2 VP for each unique building type adjacent to it."),
        Card("obelisk", "Obelisk of the Crescent", MONUMENT, "H../BGB", "You may place each building you construct on any empty square in your town."),
        Card("opaleyes_watch", "Opaleye's Watch", MONUMENT, "W.../BGHH/S...", "When built, place 3 different buildings on this card. When a player beside you builds one of them, move it to an empty square in your town."),
        Card("shrine", "Shrine of the Elder Tree", MONUMENT, "BHS/WGW", "VP by the number of buildings in your town when built: 1→1, 2→2, 3→3, 4→4, 5→5, 6+→8."),
        Card("silva_forum", "Silva Forum", MONUMENT, "..H./BBSW", "1 VP, +1 VP for each building in your largest contiguous group of buildings of the same type."),
        Card("sky_baths", "The Sky Baths", MONUMENT, ".H./SGW/B.B", "2 VP for each building type your town does not have."),
        Card("starloom", "The Starloom", MONUMENT, "GG/WH", "VP by the order you complete your town: 1st→6, 2nd→3, 3rd→2, others→0."),
        Card("bondmaker", "Statue of the Bondmaker", MONUMENT, "WSSG/H...", "When another player names a resource, you may place it on a Cottage square (one per Cottage); it cannot be used to build."),
    ]
}

ALL_CARDS: dict[str, Card] = {**BUILDINGS, **MONUMENTS}

# The six piles by card back, four cards each; the Cottage is always in play.
PILES: dict[str, tuple[str, ...]] = {
    "red": ("farm", "granary", "greenhouse", "orchard"),
    "gray": ("fountain", "millstone", "shed", "well"),
    "orange": ("abbey", "chapel", "cloister", "temple"),
    "green": ("almshouse", "feast_hall", "inn", "tavern"),
    "yellow": ("bakery", "market", "tailor", "theater"),
    "black": ("bank", "factory", "trading_post", "warehouse"),
}
FIRST_GAME: tuple[str, ...] = ("cottage", "farm", "well", "chapel", "tavern", "theater", "factory")

# Solo play removes these cards (rulebook, solo variant).
SOLO_REMOVED: frozenset[str] = frozenset({"bank", "inn", "fort_ironweed", "opaleyes_watch"})

# Town Hall and solo use 15 resource cards, three of each resource.
RESOURCE_CARDS: tuple[Resource, ...] = tuple(r for r in RESOURCES for _ in range(3))

# Solo rating by final score (rulebook, solo variant): (minimum score, title).
SOLO_RATINGS: tuple[tuple[int, str], ...] = (
    (38, "Master Architect"),
    (32, "Town Planner"),
    (25, "Engineer"),
    (18, "Carpenter"),
    (10, "Builder's Apprentice"),
    (-99, "Aspiring Architect"),
)


def _check() -> None:
    """Validate the tables against the component list once, at import."""
    assert len(BUILDINGS) == 25, "25 building cards"
    assert len(MONUMENTS) == 15, "15 monument cards"
    assert sum(len(p) for p in PILES.values()) == 24 and all(len(p) == 4 for p in PILES.values())
    for colour, pile in PILES.items():
        assert all(BUILDINGS[i].colour == colour for i in pile), colour
    assert set(FIRST_GAME) <= set(BUILDINGS)
    for card in ALL_CARDS.values():
        rows = card.pattern.split("/")
        assert len({len(r) for r in rows}) == 1, f"{card.id}: ragged pattern"
        assert all(ch == "." or ch in RESOURCE_LETTER for r in rows for ch in r), card.id
    cells = {"cottage": 3, "farm": 4, "fountain": 2, "abbey": 4, "almshouse": 3, "bakery": 4,
             "bank": 5, "factory": 5, "trading_post": 5, "warehouse": 5, "barrett_castle": 6,
             "opaleyes_watch": 6, "sky_baths": 6, "architects_guild": 5, "cathedral": 3}
    for card_id, n in cells.items():
        assert len(ALL_CARDS[card_id].shape) == n, f"{card_id}: expected {n} squares"
    assert len(RESOURCE_CARDS) == 15


_check()
