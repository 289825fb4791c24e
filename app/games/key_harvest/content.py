"""Key Harvest content: crops, the country board, field tiles, start pairs, workers, events.

Each item says where it comes from: ``"published"`` (a fact of the published game's
component list, see /work/shared/games/key-harvest.md) or ``"authored"`` (written for
Keydom because no public source gives it; see ``docs/titles/key-harvest.md``). A group
that owns the physical game can replace an authored table with their printed one;
``_check`` at the bottom keeps every table consistent with the seed's component list and
refuses to import otherwise.

Geometry. The 56 spaces form seven columns A–G of eight spaces 1–8 (authored). Hexes are
flat-topped; odd columns (B, D, F) sit half a hex lower. Each space also has an axial
coordinate ``(q, r)``: ``q`` is the column (A = 0), ``r = row - (q - (q & 1)) // 2`` with
``row`` counted from 0. Two spaces touch when their axial coordinates differ by one of
``NEIGHBOUR_STEPS``.

Rules refer to content by id and never embed tile text.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

Crop = str  # a crop counter colour
Ref = str  # a board space / field tile reference, e.g. "B6"
PUBLISHED = "published"
AUTHORED = "authored"


# --- Crops and counters ---

@dataclass(frozen=True)
class CropKind:
    colour: Crop
    name: str  # the crop the colour stands for
    letter: str  # for the text notation and the field table below
    counters: int = 12
    source: str = PUBLISHED


CROPS: tuple[Crop, ...] = ("brown", "green", "orange", "red", "yellow")
CROP_KINDS: dict[Crop, CropKind] = {k.colour: k for k in [
    CropKind("brown", "hops", "B"),
    CropKind("green", "vegetables", "G"),
    CropKind("orange", "cider apples", "O"),
    CropKind("red", "wine", "R"),
    CropKind("yellow", "wheat", "Y"),
]}
CROP_OF_LETTER = {k.letter: k.colour for k in CROP_KINDS.values()}

# Player colours are crop colours: each player drops a counter of their colour in the bag
# to decide who names the start player (seed, Setup). Which four: authored.
PLAYER_COLOURS: tuple[Crop, ...] = ("red", "yellow", "green", "orange")

# The secret starting draw, by player count (seed, "Crop counters at start"). For 2
# players the doubled colour is drawn at random; for 3 the single colour; for 4 the two
# tripled colours. ``pattern`` lists how many counters of each drawn colour go in the bag,
# largest first, the rest of the colours getting ``others`` each.
@dataclass(frozen=True)
class StartDraw:
    players: int
    special: int  # how many colours are drawn to be "special"
    special_count: int  # counters of each special colour in the bag
    others: int  # counters of each other colour
    each: int = 3  # counters each player takes
    source: str = PUBLISHED


START_DRAWS: dict[int, StartDraw] = {d.players: d for d in [
    StartDraw(2, special=1, special_count=2, others=1),
    StartDraw(3, special=1, special_count=1, others=2),
    StartDraw(4, special=2, special_count=3, others=2),
]}


# --- The country board ---

COLUMNS = "ABCDEFG"
ROWS = 8
NEIGHBOUR_STEPS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@dataclass(frozen=True)
class Space:
    ref: Ref
    q: int
    r: int
    source: str = AUTHORED


def _space(column: int, row: int) -> Space:
    return Space(f"{COLUMNS[column]}{row + 1}", column, row - (column - (column & 1)) // 2)


SPACES: dict[Ref, Space] = {s.ref: s for s in (_space(c, r) for c in range(len(COLUMNS)) for r in range(ROWS))}
_AT: dict[tuple[int, int], Ref] = {(s.q, s.r): s.ref for s in SPACES.values()}
NEIGHBOURS: dict[Ref, tuple[Ref, ...]] = {
    s.ref: tuple(_AT[(s.q + dq, s.r + dr)] for dq, dr in NEIGHBOUR_STEPS if (s.q + dq, s.r + dr) in _AT)
    for s in SPACES.values()
}


# --- Field tiles ---

@dataclass(frozen=True)
class FieldTile:
    ref: Ref  # the one space on every country board it belongs to
    crop: Crop
    source: str = AUTHORED


# One line per column, spaces 1..8 top to bottom, one crop letter each (authored: no two
# touching fields grow the same crop, 11 of each crop and 12 wheat).
FIELD_LAYOUT: dict[str, str] = {
    "A": "OYROGYBO",
    "B": "BGBYRGRB",
    "C": "RYRGBOYO",
    "D": "GBOYGRGY",
    "E": "ORGROYBO",
    "F": "YBYBROGB",
    "G": "BORGYGYR",
}
FIELDS: dict[Ref, FieldTile] = {
    f"{column}{i + 1}": FieldTile(f"{column}{i + 1}", CROP_OF_LETTER[letter])
    for column, line in FIELD_LAYOUT.items() for i, letter in enumerate(line)
}


@dataclass(frozen=True)
class StartPair:
    ink: str  # the colour its two references are printed in
    refs: tuple[Ref, Ref]  # the first goes in the bag; the drawer takes the second too
    source: str = AUTHORED


START_PAIRS: tuple[StartPair, ...] = (
    StartPair("blue", ("B2", "C2")),
    StartPair("purple", ("F2", "F3")),
    StartPair("black", ("B6", "B7")),
    StartPair("white", ("E7", "F7")),
)


# --- Workers: farmhands and townsfolk ---

# A worker's power is a short list of effects, done in order (each a rule in rules.py
# under "Worker powers"). "Next to the worker" means the field tiles touching its space.
#   gain    take ``amount`` counters of your choice from the supply
#   reap    harvest up to ``amount`` unharvested fields next to the worker, ``per`` counters
#           of its crop each (any crop when that one has run out)
#   renew   turn up to ``amount`` harvested fields next to the worker back to the crop side
#   tally   take ``amount`` counters of each different crop growing next to the worker
#   settle  take up to ``amount`` field tiles onto your country board, from ``sources``:
#           "fallow" (the fallow fields), "registry" (refilled at once, as after a bid) or
#           "store" (another player's store: that tile's bid comes behind your screen)
#   cart    carry up to ``amount`` tiles from the registry into your store, each with a bid
#           of one counter of its crop from the supply (refilled at once); with a full store,
#           one of your store's tiles goes to the fallow fields first (its bid to the supply)
#   swap    swap your whole store (tiles and bids) with another player's store
#   plough  every field next to the worker turns over: harvested up, unharvested down
#   scorch  every field next to the worker turns to its harvested side (no counters)
#   clear   ``amount`` fields next to the worker (your choice) go to the fallow fields
# Effects whose amount is 6 or more reach every field next to the worker.
EFFECT_KINDS = ("gain", "reap", "renew", "tally", "settle", "cart", "swap", "plough", "scorch", "clear")
AUTOMATIC = ("tally", "plough", "scorch")  # done at once: nothing to choose
SOURCES = ("fallow", "registry", "store")
BELL, SCROLL = "bell", "scroll"  # bell: the power is optional; scroll: it is compulsory
EVERY = 6  # an amount that reaches every neighbour


@dataclass(frozen=True)
class Effect:
    kind: str  # one of EFFECT_KINDS
    amount: int = 1
    per: int = 1  # reap: counters per field harvested
    sources: tuple[str, ...] = ()  # settle: where the tiles may come from


@dataclass(frozen=True)
class Worker:
    id: str
    name: str
    value: int  # points at the end; fields it must touch
    mark: str  # BELL or SCROLL
    effects: tuple[Effect, ...]
    colour: Crop | None = None  # a farmhand's owner colour; None for townsfolk
    source: str = AUTHORED

    @property
    def is_townsfolk(self) -> bool:
        return self.colour is None

    @property
    def power(self) -> str:
        """The kind of its first effect (for readers of the one-effect tables)."""
        return self.effects[0].kind

    @property
    def amount(self) -> int:
        return self.effects[0].amount


def _e(kind: str, amount: int = 1, per: int = 1, sources: str = "") -> Effect:
    return Effect(kind, amount, per, tuple(sources.split()))


# The six farmhands every player has, in their own colour (ids "<colour>-<key>"). Values,
# marks and powers are authored (docs/titles/key-harvest.md: "Workers, re-authored"): a
# dearer worker does more; a scroll's compulsory power carries a cost that sometimes
# outweighs it; the Carter, Steward, Surveyor, Reeve and Lord reach the registry, the
# stores or another player.
FARMHAND_SET: tuple[tuple[str, str, int, str, tuple[Effect, ...]], ...] = (
    ("gleaner", "Gleaner", 1, BELL, (_e("gain", 1),)),
    ("ploughboy", "Ploughboy", 1, SCROLL, (_e("plough"),)),
    ("reaper", "Reaper", 2, BELL, (_e("gain", 1), _e("reap", 2))),
    ("carter", "Carter", 2, SCROLL, (_e("cart", 1),)),
    ("steward", "Steward", 3, BELL, (_e("settle", 1, sources="fallow registry"),)),
    ("drover", "Drover", 3, SCROLL, (_e("reap", EVERY, per=2), _e("clear", 1))),
)
FARMHANDS: dict[str, Worker] = {
    f"{colour}-{key}": Worker(f"{colour}-{key}", name, value, mark, effects, colour)
    for colour in PLAYER_COLOURS for key, name, value, mark, effects in FARMHAND_SET
}
TOWNSFOLK: dict[str, Worker] = {w.id: w for w in [
    Worker("miller", "Miller", 4, BELL, (_e("gain", 3),)),
    Worker("reeve", "Reeve", 4, SCROLL, (_e("gain", 1), _e("swap"))),
    Worker("surveyor", "Surveyor", 4, BELL, (_e("settle", 1, sources="fallow registry store"), _e("gain", 1))),
    Worker("brewer", "Brewer", 5, SCROLL, (_e("tally", 1), _e("gain", 3), _e("scorch"))),
    Worker("lord", "Lord of the Manor", 5, BELL, (_e("settle", 2, sources="fallow registry store"),)),
    Worker("priest", "Priest", 5, BELL, (_e("gain", 4), _e("renew", EVERY))),
]}
WORKERS: dict[str, Worker] = {**FARMHANDS, **TOWNSFOLK}


# --- Event tiles ---

# Effect kinds (each a rule in rules.py under "Event tiles"):
#   blight     every unharvested field of ``crop`` on every board turns to its harvested side
#   rain       every harvested field of ``crop`` on every board turns back to its crop side
#   gift       each player takes one counter of ``crop`` (of their choice when None or gone)
#   recall     every worker of the ``workers`` group goes home ("ones": farmhands of value 1,
#              "townsfolk": every townsfolk)
#   enclosure  the registry's tiles go to the fallow fields and the registry is refilled
#   resettle   each player may take one tile from the fallow fields onto their board
#   hail       each player turns one of their unharvested fields to its harvested side
#   bloom      each player may turn one of their harvested fields back to its crop side
#   bailiffs   every store's tiles go to the fallow fields; bids go back behind the screens
EVENT_KINDS = ("blight", "rain", "gift", "recall", "enclosure", "resettle", "hail", "bloom", "bailiffs")


@dataclass(frozen=True)
class Event:
    id: str
    name: str
    kind: str  # one of EVENT_KINDS
    crop: Crop | None = None
    workers: str | None = None  # recall: "ones" or "townsfolk"
    source: str = AUTHORED


EVENTS: dict[str, Event] = {e.id: e for e in [
    Event("E01", "Hop Blight", "blight", crop="brown"),
    Event("E02", "Late Frost", "blight", crop="orange"),
    Event("E03", "Spring Rain", "rain", crop="green"),
    Event("E04", "Warm Summer", "rain", crop="red"),
    Event("E05", "Market Day", "gift"),
    Event("E06", "Harvest Home", "gift", crop="yellow"),
    Event("E07", "Wassail", "gift", crop="orange"),
    Event("E08", "Hiring Fair", "recall", workers="ones"),
    Event("E09", "Town Meeting", "recall", workers="townsfolk"),
    Event("E10", "Enclosure", "enclosure"),
    Event("E11", "Resettlement", "resettle"),
    Event("E12", "Hailstorm", "hail"),
    Event("E13", "Fertile Year", "bloom"),
    Event("E14", "Bailiffs", "bailiffs"),
]}


# --- The town board ---

REGISTRY_SPACES = 6
EVENT_SPACES = 10
CHECK_SPACE = 7  # the "?" space: the check of seven tiles
CHECK_TILES = 7
STORE_SIZE = 2
EVENTS_REMOVED = {2: 0, 3: 2, 4: 2}  # removed unseen at setup


def is_event(tile: str) -> bool:
    return tile in EVENTS


def _fields(n: int, what: str) -> str:
    if n >= EVERY:
        return f"every {what} field next to this worker"
    return f"up to {n} {what} field{'s' if n > 1 else ''} next to this worker"


SOURCE_WORDS = {"fallow": "the fallow fields", "registry": "the registry", "store": "another player's store"}


def describe_effect(effect: Effect) -> str:
    """One effect in words, from its data (what the tile would say)."""
    n = effect.amount
    if effect.kind == "settle":
        where = [SOURCE_WORDS[s] for s in effect.sources]
        froms = where[0] if len(where) == 1 else ", ".join(where[:-1]) + " or " + where[-1]
        text = f"take {n} field tile{'s' if n > 1 else ''} from {froms} onto your country board"
        return text + (" (a store tile's bid comes behind your screen)" if "store" in effect.sources else "")
    return {
        "gain": f"take {n} crop counter{'s' if n > 1 else ''} of your choice from the supply",
        "reap": f"harvest {_fields(n, 'unharvested')}" + (f", {effect.per} counters of its crop each" if effect.per > 1
                                                          else ""),
        "renew": f"turn {_fields(n, 'harvested')} back to the crop side",
        "tally": (f"take {n} counter{'s' if n > 1 else ''} of each different crop growing next to this worker"),
        "cart": ("carry a tile from the registry into your store, with a bid of one counter of its crop from "
                 "the supply (if your store is full, one of its tiles goes to the fallow fields first, its bid "
                 "to the supply)"),
        "swap": "swap your store (tiles and bids) with another player's store of your choice",
        "plough": "turn every field next to this worker over: harvested ones back up, unharvested ones down",
        "scorch": "every field next to this worker turns to its harvested side, without counters",
        "clear": f"send {n} field tile{'s' if n > 1 else ''} next to this worker to the fallow fields",
    }[effect.kind]


def describe_worker(worker: Worker) -> str:
    """The power in words, from its data (what the tile would say)."""
    parts = [describe_effect(e) for e in worker.effects]
    text = "; then ".join(parts)
    return text[0].upper() + text[1:] + "." + (" (optional)" if worker.mark == BELL else " (compulsory)")


def describe_event(event: Event) -> str:
    crop = CROP_KINDS[event.crop].name if event.crop else ""
    return {
        "blight": f"Every unharvested {crop} field on every board turns to its harvested side.",
        "rain": f"Every harvested {crop} field on every board turns back to its crop side.",
        "gift": (f"Each player takes one {crop} counter from the supply." if event.crop
                 else "Each player takes one crop counter of their choice from the supply."),
        "recall": ("Every farmhand of value 1 goes back to its owner." if event.workers == "ones"
                   else "Every townsfolk goes back to the town board."),
        "enclosure": "The registry's tiles go to the fallow fields; the registry is refilled.",
        "resettle": "Each player may take one tile from the fallow fields onto their board.",
        "hail": "Each player turns one of their unharvested fields to its harvested side.",
        "bloom": "Each player may turn one of their harvested fields back to its crop side.",
        "bailiffs": "Every store's tiles go to the fallow fields; their bids go back behind the screens.",
    }[event.kind]


def content_json() -> dict[str, Any]:
    """The static tables, for the board page and the rules page."""
    return {
        "spaces": [{"ref": s.ref, "q": s.q, "r": s.r} for s in SPACES.values()],
        "workers": {w.id: {"name": w.name, "value": w.value, "mark": w.mark, "colour": w.colour,
                           "text": describe_worker(w)} for w in WORKERS.values()},
        "events": {e.id: {"name": e.name, "text": describe_event(e)} for e in EVENTS.values()},
    }


def _connected(refs: set[Ref]) -> bool:
    seen, todo = set(), [next(iter(refs))]
    while todo:
        ref = todo.pop()
        if ref not in seen:
            seen.add(ref)
            todo.extend(n for n in NEIGHBOURS[ref] if n in refs)
    return seen == refs


def _check() -> None:
    """Validate the tables against the seed's component list, once, at import."""
    assert sum(k.counters for k in CROP_KINDS.values()) == 60 and set(CROP_KINDS) == set(CROPS), \
        "60 crop counters, 12 of each of 5 crops"
    assert len(SPACES) == 56 and len({(s.q, s.r) for s in SPACES.values()}) == 56, "56 hex spaces"
    assert _connected(set(SPACES)), "the country board is one piece"
    assert sum(len(n) == 6 for n in NEIGHBOURS.values()) >= 30, "most spaces have six neighbours"
    assert len(FIELDS) == 56 and set(FIELDS) == set(SPACES), "one field tile per space"
    assert Counter(f.crop for f in FIELDS.values()) == {
        "brown": 11, "green": 11, "orange": 11, "red": 11, "yellow": 12}
    for ref, tile in FIELDS.items():
        assert all(FIELDS[n].crop != tile.crop for n in NEIGHBOURS[ref]), f"{ref}: a neighbour grows the same crop"
    assert len(START_PAIRS) == 4 and len({p.ink for p in START_PAIRS}) == 4, "4 coloured start pairs"
    pair_refs = [r for p in START_PAIRS for r in p.refs]
    assert len(set(pair_refs)) == 8 and set(pair_refs) <= set(FIELDS)
    for pair in START_PAIRS:
        a, b = pair.refs
        assert b in NEIGHBOURS[a], f"start pair {pair.ink} must touch"
        assert FIELDS[a].crop != FIELDS[b].crop
    assert len(PLAYER_COLOURS) == 4 and set(PLAYER_COLOURS) <= set(CROPS)
    assert len(FARMHANDS) == 24, "24 farmhand tiles"
    for colour in PLAYER_COLOURS:
        own = [w for w in FARMHANDS.values() if w.colour == colour]
        assert len(own) == 6 and all(1 <= w.value <= 3 for w in own), "6 farmhands per colour, values 1-3"
    assert len(TOWNSFOLK) == 6 and all(w.value in (4, 5) for w in TOWNSFOLK.values()), "6 townsfolk, 4 or 5"
    for w in WORKERS.values():
        assert w.mark in (BELL, SCROLL) and w.effects, f"{w.id}: a mark and at least one effect"
        for e in w.effects:
            assert e.kind in EFFECT_KINDS and e.amount >= 1 and e.per >= 1, f"{w.id}: {e}"
            assert (e.kind == "settle") == bool(e.sources) and set(e.sources) <= set(SOURCES), f"{w.id}: {e}"
    assert len(EVENTS) == 14 and all(e.kind in EVENT_KINDS for e in EVENTS.values()), "14 event tiles"
    assert all((e.kind in ("blight", "rain")) <= (e.crop is not None) for e in EVENTS.values())
    assert not set(EVENTS) & set(FIELDS), "events and field tiles share the bag: ids must differ"
    for players, draw in START_DRAWS.items():
        bag = draw.special * draw.special_count + (len(CROPS) - draw.special) * draw.others
        assert bag == 3 * players == draw.each * players, f"{players} players: {bag} counters in the start bag"
    assert REGISTRY_SPACES == 6 and EVENT_SPACES == 10 and CHECK_SPACE == 7 and STORE_SIZE == 2


_check()
