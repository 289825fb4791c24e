"""Key Flow content: resources, skills, the 6 home cards and the 186 season cards.

Each design says where it comes from: ``"published"`` (a fact found in the seed or the
research notes, /work/shared/games/key-flow.md) or ``"authored"`` (written for Keydom because
no public source lists the card; see ``docs/titles/key-flow.md``). A group that owns the
physical game can replace a table with their printed cards: ``_check`` at the bottom keeps
every table consistent with the seed's component list and refuses to import otherwise.

Cards are written in a small text vocabulary, parsed once at import:

- an **action** is a list of effects separated by spaces, for example
  ``"transport:2 upgrade:1 gold:1"``:
  ``iron:n`` / ``wood:n`` / ``stone:n`` / ``gold:n`` gain resources; ``any:n`` n resources of
  one kind the player chooses (iron, wood or stone); ``skill:n`` n random skill tiles from the
  face-down pile; ``anvil:n`` / ``pick:n`` / ``saw:n`` that double-sided skill tile;
  ``token:n`` keyple tokens; ``transport:n`` cart points; ``upgrade:n`` upgrade actions;
  ``convert:S>gain,gain`` pay one skill tile (``S`` = a skill or ``any``) for the gains after
  ``>`` (e.g. ``convert:saw>wood:2,gold:1``).
- a **cost** is ``"iron+stone+anvil"``: resources that must sit on the card, skill tiles
  from the player's supply (gold may stand in for iron, wood or stone).
- a **keyple card** is ``"r2LDs"``: colour letter (``r``ed, ``y``ellow, ``b``lue, ``g``reen),
  keyples 1–3, arrows (``L`` left neighbour, ``D`` own village, ``R`` right neighbour) and an
  optional animal (``s``heep, ``p``ig, ``c``ow).
- a **winter scoring rule** is ``"cow+token=5"``: the slots of one set and the points per
  set; ``|`` separates alternatives the player may choose from (Scholar).

Rules refer to cards by id (``sp01``…, ``home1``…) and never embed card text.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

PUBLISHED = "published"
AUTHORED = "authored"

RESOURCES = ("iron", "wood", "stone", "gold")
BASIC = ("iron", "wood", "stone")  # what gold may stand in for
SKILLS = ("anvil", "pick", "saw")
ANIMALS = ("sheep", "pig", "cow")
COLOURS = ("red", "yellow", "blue", "green")
SEASONS = ("spring", "summer", "autumn", "winter")
MARKINGS = ("K", "3+", "4+", "5+", "6+")
ROAD, RIVER = "road", "river"

# Component counts from the seed's list (section 2).
SUPPLY = {"tokens": 51, "upgrade_tiles": 45, "single_skills": 15, "double_skills": 3}
SEASON_CARDS = {"spring": 36, "summer": 42, "autumn": 48, "winter": 60}
HOME_CARDS = STORE_CARDS = 6

# Setup and deals by player count (seed, Setup and Phase 1).
K_REMOVED = {2: 6, 3: 6, 4: 4, 5: 2, 6: 0}
SPRING_HAND = {2: 8, 3: 6, 4: 6, 5: 6, 6: 6}
WINTER_K_HAND = {2: 7, 3: 5, 4: 5, 5: 5, 6: 5}
DEAL = {"summer": {2: 9, 3: 7, 4: 7, 5: 7, 6: 7}, "autumn": {2: 10, 3: 8, 4: 8, 5: 8, 6: 8},
        "winter": {2: 12, 3: 9, 4: 9, 5: 9, 6: 9}}
PASS_LEFT = {"spring": True, "summer": False, "autumn": True, "winter": False}

# How many cards of each marking each season holds. Derived from the deal sizes: a game of
# n players (3–6) deals exactly the K cards left plus the numbered cards up to n+ (research
# notes, section 2.2); 2 players use the 3-player deck.
MARKING_COUNTS = {
    "spring": {"K": 12, "3+": 12, "4+": 4, "5+": 4, "6+": 4},
    "summer": {"K": 12, "3+": 15, "4+": 5, "5+": 5, "6+": 5},
    "autumn": {"K": 12, "3+": 18, "4+": 6, "5+": 6, "6+": 6},
    "winter": {"K": 30, "3+": 15, "4+": 5, "5+": 5, "6+": 5},
}


# --- Effects, costs, panels ---

@dataclass(frozen=True)
class Effect:
    kind: str  # gain | any | skill | token | transport | upgrade | convert
    amount: int = 0
    what: str = ""  # the resource or skill (gain/skill), the skill paid (convert)
    gains: tuple["Effect", ...] = ()  # what a conversion gives

    @property
    def own_village_only(self) -> bool:
        """Transport and upgrades act only in the activating player's own village (seed, 5)."""
        return self.kind in ("transport", "upgrade")


@dataclass(frozen=True)
class Cost:
    resources: tuple[tuple[str, int], ...] = ()
    skills: tuple[tuple[str, int], ...] = ()

    def total(self) -> int:
        return sum(n for _, n in self.resources) + sum(n for _, n in self.skills)


@dataclass(frozen=True)
class Panel:
    points: int
    action: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Variant:
    """One way a winter card scores: a set of slots and the points per completed set."""
    slots: tuple[str, ...]
    points: int
    label: str


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    season: str  # spring..winter, or "home"
    marking: str  # K, 3+..6+, or "home"
    kind: str  # building | keyple | boat | store | scorer
    row: str | None = None  # road / river (None for keyple cards)
    panels: tuple[Panel, ...] = ()
    costs: tuple[Cost, ...] = ()  # costs[i]: cover panel i to show panel i+1
    reward: tuple[Effect, ...] = ()  # the round-ended panel: gained once when played
    animals: tuple[str, ...] = ()
    colour: str | None = None  # keyple cards
    keyples: int = 0
    arrows: str = ""  # subset of "LDR"
    animal: str | None = None  # a keyple card's animal
    power: str | None = None  # boats
    accepts: tuple[str, ...] = ()  # stores: resources they take
    store_points: int = 0
    scoring: tuple[Variant, ...] = ()  # winter scoring cards
    boat: bool = False  # counts as a boat for scoring (boats, Sea Breese)
    text: str = ""  # a one-line description for pages
    source: str = AUTHORED

    @property
    def activatable(self) -> bool:
        return self.row == ROAD and any(p.action for p in self.panels)


# --- Parsing the small vocabulary ---

def parse_effects(text: str) -> tuple[Effect, ...]:
    out = []
    for token in text.split():
        kind, _, rest = token.partition(":")
        if kind == "convert":
            paid, _, gains = rest.partition(">")
            assert paid in SKILLS + ("any",), token
            out.append(Effect("convert", 1, paid, tuple(e for g in gains.split(",") for e in parse_effects(g))))
        elif kind in RESOURCES:
            out.append(Effect("gain", int(rest), kind))
        elif kind == "any":
            out.append(Effect("any", int(rest)))
        elif kind == "skill":
            out.append(Effect("skill", int(rest), "random"))
        elif kind in SKILLS:
            out.append(Effect("skill", int(rest), kind))
        elif kind in ("token", "transport", "upgrade"):
            out.append(Effect(kind, int(rest)))
        else:
            raise ValueError(f"unknown effect {token!r}")
    return tuple(out)


def parse_cost(text: str) -> Cost:
    parts = Counter(text.split("+")) if text else Counter()
    assert set(parts) <= set(RESOURCES + SKILLS), text
    return Cost(tuple((r, parts[r]) for r in RESOURCES if parts[r]), tuple((s, parts[s]) for s in SKILLS if parts[s]))


def slot_text(word: str) -> str:
    """A slot word in a card's text: "keyple:red" reads "red keyple card"."""
    if word.startswith("keyple:"):
        return f"{word[7:]} keyple card"
    return {"keyple": "keyple card", "cart": "transport card", "skill": "skill tile", "token": "keyple token"}.get(
        word, word)


def parse_scoring(text: str) -> tuple[Variant, ...]:
    out = []
    for alt in text.split("|"):
        slots, _, points = alt.partition("=")
        words = slots.split("+")
        counted = Counter(words)
        label = " + ".join(f"{n} × {slot_text(w)}" if n > 1 else slot_text(w) for w, n in counted.items())
        out.append(Variant(tuple(words), int(points), label))
    return tuple(out)


# Slot words of a winter scoring rule, and what each accepts (before boats' powers):
# a resource (gold stands in for iron/wood/stone), a skill, "skill" (any), "token",
# an animal or "animal" (icons on village cards and keyple cards showing one), a keyple
# card by colour or "keyple" (any), "boat", "cart" (a village card whose live panel
# transports).
SLOT_WORDS = set(RESOURCES) | set(SKILLS) | {"skill", "token", "animal", "keyple", "boat", "cart"} \
    | set(ANIMALS) | {f"keyple:{c}" for c in COLOURS}

COLOUR_LETTERS = {"r": "red", "y": "yellow", "b": "blue", "g": "green"}
ANIMAL_LETTERS = {"s": "sheep", "p": "pig", "c": "cow"}


# --- Home cards (6; authored: only their role is known) ---
# Every home transports and upgrades for its owner and gives a neighbour who uses it a
# small gain (the seed lets 2-player arrows reach the opponent's home).

_HOMES = [
    ("Brookside", "gold:1"), ("Hillcrest", "token:1"), ("Oakhollow", "wood:1"),
    ("Stonebridge", "stone:1"), ("Ironford", "iron:1"), ("Keyhaven", "skill:1"),
]


def _homes() -> dict[str, Card]:
    out = {}
    for i, (name, gift) in enumerate(_HOMES, start=1):
        out[f"home{i}"] = Card(
            f"home{i}", name, "home", "home", "building", ROAD,
            panels=(Panel(0, parse_effects(f"{gift} transport:2 upgrade:1")),
                    Panel(4, parse_effects(f"{gift} transport:3 upgrade:2"))),
            costs=(parse_cost("iron+wood+stone"),),
            text=f"Home: {gift.replace(':', ' ')} (for anyone), transport and upgrade (owner only)")
    return out


# --- Season designs ---
# (name, row, panels [(points, action)], costs, reward, animals, markings of the copies)
# kind "building" unless stated by the tables further down.

@dataclass(frozen=True)
class Design:
    name: str
    row: str
    panels: tuple[tuple[int, str], ...]
    costs: tuple[str, ...]
    copies: tuple[str, ...]  # the marking of each copy
    reward: str = ""
    animals: str = ""  # space-separated
    source: str = AUTHORED


BUILDINGS: dict[str, list[Design]] = {
    "spring": [
        Design("Gold Mine", ROAD, ((1, "gold:1"), (4, "gold:2")), ("iron+stone",), ("K", "4+"), source=PUBLISHED),
        Design("Keymine", ROAD, ((1, "iron:1"), (3, "iron:2 gold:1")), ("anvil",), ("K", "3+")),
        Design("Quarry", ROAD, ((1, "stone:1"), (3, "stone:2 gold:1")), ("pick",), ("K", "3+")),
        Design("Woodcutter", ROAD, ((1, "wood:1"), (3, "wood:2 gold:1")), ("saw",), ("K", "3+")),
        Design("Workshop", ROAD, ((1, "any:1 gold:1"), (4, "any:2 gold:1")), ("iron+wood",), ("3+", "5+"),
               source=PUBLISHED),
        Design("Alehouse", ROAD, ((1, "token:1"), (4, "token:2")), ("iron+wood+stone",), ("K", "6+"),
               source=PUBLISHED),
        Design("Apprentice Hall", ROAD, ((1, "skill:1"), (4, "skill:2")), ("wood+stone",), ("K", "3+")),
        Design("Sheep Meadow", RIVER, ((1, ""), (4, "")), ("wood",), ("K", "5+"), reward="wood:1",
               animals="sheep"),
        Design("Pig Farm", RIVER, ((1, ""), (4, "")), ("stone",), ("4+",), reward="stone:1", animals="pig"),
        Design("Cow Field", RIVER, ((1, ""), (4, "")), ("iron",), ("3+",), reward="iron:1", animals="cow"),
        Design("Fishery", RIVER, ((2, ""), (6, "")), ("wood+stone",), ("6+",), reward="gold:1"),
    ],
    "summer": [
        Design("Brewer", ROAD, ((2, "convert:any>token:2"), (5, "convert:any>token:3")), ("iron+wood",),
               ("K", "5+"), source=PUBLISHED),
        Design("Carpenter", ROAD, ((2, "convert:saw>wood:2,gold:1"), (5, "convert:saw>wood:3,gold:2")),
               ("stone+wood",), ("3+",), source=PUBLISHED),
        Design("Mason", ROAD, ((2, "convert:pick>stone:2,gold:1"), (5, "convert:pick>stone:3,gold:2")),
               ("iron+wood",), ("3+",)),
        Design("Smelter", ROAD, ((2, "convert:anvil>iron:2,gold:1"), (5, "convert:anvil>iron:3,gold:2")),
               ("stone+wood",), ("5+",)),
        Design("Hiring Fair", ROAD, ((2, "convert:any>skill:2"), (5, "convert:any>skill:3")), ("wood+stone",),
               ("3+",), source=PUBLISHED),
        Design("Stable", ROAD, ((2, "transport:3"), (5, "transport:4 upgrade:1")), ("wood+iron",), ("K", "3+")),
        Design("Builder", ROAD, ((2, "upgrade:1"), (6, "upgrade:2")), ("stone+iron+saw",), ("K", "4+")),
        Design("Cartwright", ROAD, ((1, "transport:2 gold:1"), (4, "transport:3 gold:1")), ("wood+wood",),
               ("3+", "6+")),
        Design("Trading Post", ROAD, ((1, "gold:1 any:1"), (4, "gold:2 any:1")), ("iron+stone",), ("6+",)),
        Design("Paddock", RIVER, ((2, ""), (5, "")), ("wood+stone",), ("K", "4+"), reward="skill:1",
               animals="sheep pig"),
        Design("Dairy Farm", RIVER, ((2, ""), (5, "")), ("iron+wood",), ("3+",), reward="iron:1",
               animals="cow cow"),
    ],
    "autumn": [
        Design("Keythedral", ROAD, ((5, ""), (12, ""), (20, "")),
               ("iron+wood+stone", "iron+wood+stone+anvil+pick+saw"), ("K", "3+"), source=PUBLISHED),
        Design("Sawmill", ROAD, ((2, "wood:1 gold:1"), (5, "wood:2 gold:1")), ("wood+wood+gold",), ("3+", "4+"),
               source=PUBLISHED),
        Design("Guildhall", ROAD, ((3, "transport:1 upgrade:1"), (7, "transport:2 upgrade:2")),
               ("iron+stone+wood+anvil",), ("K", "5+")),
        Design("Harbour", ROAD, ((2, "transport:4"), (6, "transport:6")), ("wood+wood+stone",), ("3+", "5+")),
        Design("Tavern", ROAD, ((2, "token:2"), (5, "token:3")), ("iron+wood+pick",), ("3+", "6+")),
        Design("Goldsmith", ROAD, ((2, "convert:any>gold:3"), (5, "convert:any>gold:4")), ("iron+gold",),
               ("3+", "6+")),
        Design("Manor", ROAD, ((3, "any:1 token:1"), (8, "any:2 token:1")), ("stone+stone+iron+anvil",), ("3+",)),
        Design("Mill", RIVER, ((3, ""), (7, "")), ("wood+stone+saw",), ("3+",), reward="skill:1"),
        Design("Farmstead", RIVER, ((2, ""), (5, "")), ("wood+iron",), ("3+",), reward="gold:1",
               animals="sheep cow"),
        Design("Piggery", RIVER, ((2, ""), (5, "")), ("stone+pick",), ("4+",), reward="stone:1", animals="pig pig"),
    ],
}

# Boats (summer, river row, not activated; seed names all five and their powers).
BOATS = [
    ("Brainwave", "brainwave", "K", "Your 1- and 2-keyple cards may go to any adjacent village, whatever their arrows."),
    ("Keyflower", "keyflower", "K", "When upgrading, any resource may stand in for any other."),
    ("Flipper", "flipper", "3+", "Gain 1 gold whenever you flip an upgrade tile to its point side."),
    ("Keymelequin", "keymelequin", "3+", "Score green keyple cards as yellow or yellow as green."),
    ("Mansfield Ark", "mansfield", "4+", "Score pigs as sheep or sheep as pigs."),
]
BOAT_POINTS = 1  # authored: each boat's own panel

# Autumn location stores (seed names four; what they take and pay is authored).
STORES = [
    ("Blacksmith", ("iron",), 3, ("K", "3+")),
    ("Stone Yard", ("stone",), 3, ("K", "4+")),
    ("Timber Yard", ("wood",), 3, ("K", "5+")),
    ("Barn", ("iron", "wood", "stone"), 3, ("K", "6+")),
]

# Keyple cards by season and marking (authored distribution; see the module docstring).
KEYPLES: dict[str, dict[str, tuple[str, ...]]] = {
    "spring": {
        "K": ("r1D", "b1D", "g2D", "r2LD", "b2DR"),
        "3+": ("y2LD", "r1Ds", "b1Dp", "y3LDR", "g1Dc", "r2R"),
        "4+": ("b2LDs", "y1D"),
        "5+": ("g2LDR", "r1Dp"),
        "6+": ("y2DRc", "b3LDR"),
    },
    "summer": {
        "K": ("r2D", "y2D", "b2D", "g1D", "r1LDc", "y1DRp"),
        "3+": ("b2LDR", "g2R", "r3LD", "y1Dc", "b1Ds", "g1LDp", "r2DRc"),
        "4+": ("y2Ls", "b1D"),
        "5+": ("r1D", "g3LDR", "y2DRp"),
        "6+": ("b2LDc", "r2D", "y1LD"),
    },
    "autumn": {
        "K": ("r2D", "y2D", "b2D", "g2D", "r3LDR", "b1Ds"),
        "3+": ("y1Dp", "g1Dc", "r2LDs", "b2DRp", "y3LDR", "g2L", "r1D", "b1DR", "y2Dc"),
        "4+": ("r2Rp", "g1Ds", "b3LD"),
        "5+": ("y2LD", "r1Dc", "g2DRs"),
        "6+": ("b2D", "y1Dp", "r3DR"),
    },
    "winter": {
        "3+": ("r2D", "y2D", "b2D", "g2D", "r1Ds", "y1Dp", "b1Dc", "g3LDR", "r2LDp", "b2DRs"),
        "4+": ("y3LDR", "g1Dc", "r2DR"),
        "5+": ("b2L", "y1Ds", "g2DRp"),
        "6+": ("r1Dc", "b3LDR", "y2LDs", "g1D"),
    },
}

# Winter scoring cards: (name, row, base points, rule, boat, copies, source). The K copies
# are the winter K cards dealt at setup; the numbered ones are shuffled into the winter deck.
SCORERS = [
    ("Dairy", RIVER, 3, "cow+token=5", False, ("K", "K", "6+"), PUBLISHED),
    ("Farmyard", ROAD, 3, "animal=1", False, ("K", "K", "3+", "5+"), PUBLISHED),
    ("Craftsmen's Guild", ROAD, 2, "keyple:red+keyple:yellow+keyple:blue=3", False, ("K", "K"), PUBLISHED),
    ("Jeweller", ROAD, 0, "gold=2", False, ("K", "K", "3+"), PUBLISHED),
    ("Scholar", ROAD, 3, "anvil=3|pick=3|saw=3", False, ("K", "K", "3+"), PUBLISHED),
    ("Sea Breese", RIVER, 0, "boat=4", True, ("K", "K"), PUBLISHED),
    ("Mercers' Guild", ROAD, 0, "iron+wood+stone=3", False, ("K", "K", "3+"), AUTHORED),
    ("Key Market", ROAD, 1, "keyple:green=2", False, ("K", "K", "5+"), AUTHORED),
    ("Village Hall", ROAD, 0, "keyple:red=2|keyple:yellow=2|keyple:blue=2|keyple:green=2", False, ("K", "K"),
     AUTHORED),
    ("Scribes", RIVER, 0, "anvil+pick+saw=7", False, ("K", "K"), AUTHORED),
    ("Stockyard", RIVER, 0, "sheep+pig+cow=6", False, ("K", "K", "4+"), AUTHORED),
    ("Wainwright", ROAD, 0, "cart=4", False, ("K", "K", "4+"), AUTHORED),
    ("Taproom", RIVER, 2, "token=3", False, ("K", "K", "3+"), AUTHORED),
    ("Apothecary", RIVER, 0, "keyple+keyple+keyple+keyple+keyple=6", False, ("K", "K"), AUTHORED),
    ("Stonemason", ROAD, 0, "stone+stone+stone=3", False, ("K", "K"), AUTHORED),
]

def _keyple_card(cid: str, code: str, season: str, marking: str) -> Card:
    colour = COLOUR_LETTERS[code[0]]
    keyples = int(code[1])
    arrows = "".join(ch for ch in code[2:] if ch in "LDR")
    animal = ANIMAL_LETTERS.get(code[-1]) if code[-1] in ANIMAL_LETTERS else None
    word = {"L": "left", "D": "down", "R": "right"}
    text = f"{keyples} {colour} keyple{'s' if keyples > 1 else ''}, arrows {', '.join(word[a] for a in arrows)}"
    return Card(cid, f"{colour.capitalize()} keyple{'s' if keyples > 1 else ''} ×{keyples}", season, marking,
                "keyple", colour=colour, keyples=keyples, arrows=arrows, animal=animal,
                text=text + (f", {animal}" if animal else ""))


# actions are few and never change; by id(), the action kept beside its words (hashing a
# tuple of effects costs more than the lookup saves, and a kept object's id is not reused)
_described: dict[int, tuple[tuple[Effect, ...], str]] = {}


def describe_action(action: tuple[Effect, ...]) -> str:
    known = _described.get(id(action))
    if known is None or known[0] is not action:
        known = _described[id(action)] = (action, ", ".join(describe_effect(e) for e in action))
    return known[1]


def describe_effect(e: Effect) -> str:
    if e.kind == "gain":
        return f"{e.amount} {e.what}"
    if e.kind == "any":
        return f"{e.amount} iron, wood or stone (one kind)"
    if e.kind == "skill":
        return f"{e.amount} {'random skill tile' if e.what == 'random' else e.what}{'s' if e.amount > 1 else ''}"
    if e.kind == "token":
        return f"{e.amount} keyple token{'s' if e.amount > 1 else ''}"
    if e.kind == "transport":
        return f"transport {e.amount}"
    if e.kind == "upgrade":
        return f"{e.amount} upgrade{'s' if e.amount > 1 else ''}"
    paid = "any skill tile" if e.what == "any" else f"a {e.what}"
    return f"pay {paid} for {' and '.join(describe_effect(g) for g in e.gains)}"


def _season_cards() -> dict[str, Card]:
    out: dict[str, Card] = {}
    for season in SEASONS:
        made: list[Card] = []

        def nid() -> str:
            return f"{season[:2]}{len(made) + 1:02d}"
        for d in BUILDINGS.get(season, []):
            panels = tuple(Panel(p, parse_effects(a)) for p, a in d.panels)
            for marking in d.copies:
                made.append(Card(nid(), d.name, season, marking, "building", d.row, panels,
                                 tuple(parse_cost(c) for c in d.costs), parse_effects(d.reward),
                                 tuple(d.animals.split()), source=d.source,
                                 text="; ".join(describe_action(p.action) for p in panels if p.action)))
        if season == "summer":
            for name, power, marking, text in BOATS:
                made.append(Card(nid(), name, season, marking, "boat", RIVER, (Panel(BOAT_POINTS),), power=power,
                                 boat=True, text=text, source=PUBLISHED))
        if season == "autumn":
            for name, accepts, points, markings in STORES:
                for marking in markings:
                    made.append(Card(nid(), name, season, marking, "store", RIVER, (Panel(0),), accepts=accepts,
                                     store_points=points, source=PUBLISHED,
                                     text=f"{points} per {' / '.join(accepts)} transported here"))
        if season == "winter":
            for name, row, base, rule, boat, copies, source in SCORERS:
                scoring = parse_scoring(rule)
                for marking in copies:
                    made.append(Card(nid(), name, season, marking, "scorer", row, (Panel(base),), scoring=scoring,
                                     boat=boat, source=source,
                                     text=" or ".join(f"{v.points} per {v.label}" for v in scoring)
                                     + (f"; {base} points" if base else "")))
        for marking, codes in KEYPLES[season].items():
            for code in codes:
                made.append(_keyple_card(nid(), code, season, marking))
        out.update({c.id: c for c in made})
    return out


HOMES: dict[str, Card] = _homes()
SEASON_DECKS: dict[str, Card] = _season_cards()
CARDS: dict[str, Card] = {**HOMES, **SEASON_DECKS}


def card(cid: str) -> Card:
    return CARDS[cid]


def _check() -> None:
    """Validate the tables against the seed's component list, once, at import."""
    assert len(HOMES) == HOME_CARDS == 6 and STORE_CARDS == 6
    by_season = Counter(c.season for c in SEASON_DECKS.values())
    assert by_season == SEASON_CARDS and sum(by_season.values()) == 186, by_season
    for season in SEASONS:
        marks = Counter(c.marking for c in SEASON_DECKS.values() if c.season == season)
        assert marks == MARKING_COUNTS[season], (season, marks)
        assert MARKING_COUNTS[season]["K"] == (30 if season == "winter" else 12)
    # Each deal uses exactly the cards of a 3–6 player game (2 players: the 3-player deck).
    for season in ("spring", "summer", "autumn"):
        counts = MARKING_COUNTS[season]
        hand = SPRING_HAND if season == "spring" else DEAL[season]
        for n in range(3, 7):
            deck = counts["K"] - K_REMOVED[n] + sum(counts[f"{m}+"] for m in range(3, n + 1))
            assert deck == n * hand[n], (season, n, deck)
        assert 2 * hand[2] <= counts["K"] - K_REMOVED[2] + counts["3+"], season
    winter = MARKING_COUNTS["winter"]
    for n in range(3, 7):
        deck = n * (WINTER_K_HAND[n] - 1) + sum(winter[f"{m}+"] for m in range(3, n + 1))
        assert deck == n * DEAL["winter"][n], ("winter", n, deck)
    assert 2 * DEAL["winter"][2] <= 2 * (WINTER_K_HAND[2] - 1) + winter["3+"]
    assert all(n * WINTER_K_HAND[n] <= winter["K"] for n in range(2, 7)), "enough winter K cards to deal"
    winter_k = [c for c in SEASON_DECKS.values() if c.season == "winter" and c.marking == "K"]
    assert all(c.kind == "scorer" for c in winter_k), "winter K cards are scoring cards"
    boats = [c for c in SEASON_DECKS.values() if c.kind == "boat"]
    assert sorted(c.power for c in boats) == sorted(b[1] for b in BOATS) and len(boats) == 5
    assert all(c.season == "summer" and c.row == RIVER for c in boats), "boats are summer river cards"
    stores = [c for c in SEASON_DECKS.values() if c.kind == "store"]
    assert {c.name for c in stores} == {"Barn", "Blacksmith", "Stone Yard", "Timber Yard"}
    assert all(c.season == "autumn" and set(c.accepts) <= set(BASIC) for c in stores)
    for c in CARDS.values():
        if c.kind == "keyple":
            assert c.colour in COLOURS and 1 <= c.keyples <= 3 and c.arrows and set(c.arrows) <= set("LDR")
            assert c.animal in (None,) + ANIMALS and c.row is None
            continue
        assert c.row in (ROAD, RIVER), c
        assert c.source in (PUBLISHED, AUTHORED)
        assert len(c.costs) == len(c.panels) - 1, f"{c.name}: one cost between each two panels"
        assert all(cost.total() >= 1 for cost in c.costs), f"{c.name}: upgrades are never free"
        points = [p.points for p in c.panels]
        assert points == sorted(points) and len(set(points)) == len(points), f"{c.name}: upgrading gains points"
        assert all(set(a.kind for a in p.action) <= {"gain", "any", "skill", "token", "transport", "upgrade",
                                                      "convert"} for p in c.panels)
        if c.row == RIVER:
            assert not any(p.action for p in c.panels), f"{c.name}: river cards are never activated"
        assert all(e.kind in ("gain", "skill", "token") for e in c.reward), f"{c.name}: a reward is resources/skills"
        assert set(c.animals) <= set(ANIMALS)
        for v in c.scoring:
            assert set(v.slots) <= SLOT_WORDS and v.points > 0, f"{c.name}: {v}"
    colours = Counter(c.colour for c in CARDS.values() if c.kind == "keyple")
    assert set(colours) == set(COLOURS) and min(colours.values()) >= 15, colours
    named = {c.name for c in CARDS.values()}
    assert {"Gold Mine", "Workshop", "Alehouse", "Brewer", "Carpenter", "Hiring Fair", "Keythedral", "Dairy",
            "Farmyard", "Craftsmen's Guild", "Jeweller", "Scholar", "Sea Breese"} <= named
    keythedral = next(c for c in CARDS.values() if c.name == "Keythedral")
    assert [p.points for p in keythedral.panels] == [5, 12, 20], "the seed's Keythedral scores 5 / 12 / 20"


_check()
