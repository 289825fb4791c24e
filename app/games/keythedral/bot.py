"""A Keythedral bot that makes progress, for tests and benchmarks.

It plays through the listed options only. Its plan: acquire a building tile whenever it
can; otherwise aim at the cheapest buyable tile (the fewest cubes still missing) and
work toward it: send workers to the fields of the colours it lacks, trade or buy craft
cubes with what the target does not need, pay with that spare first, and turn a cottage
into a house with spare stone and timber. It takes a new law now and then and plays the
laws it holds, bids a little, and never "cancel"s unless nothing else is offered.
With two players a full game ends in about a dozen rounds.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from app.games.rng import Rng

from .content import BASIC, CRAFT, CUBES, FIELDS, HOUSE_COST, TILES
from .rules import (ACTIONS, AUCTION, ORDER, SETUP, WORKERS, Game, buyable_tiles, gap_fields,
                    listed, tile_cost, worker_fields)

Seat = int


def choose(state: Game, seat: Seat, rng: Rng) -> str:
    """One option id for the seat; ``rng`` breaks ties and makes the rare whims. The caller
    applies it to ``state`` as it is (``rules.listed``: the options are listed once)."""
    offered = [o.id for o in listed(state, seat)]
    if not offered:
        raise ValueError(f"seat {seat} has nothing to choose")
    onward = [o for o in offered if o != "cancel"] or offered
    pick = plan(state, seat, onward, rng)
    return pick if pick in onward else rng.choice(onward)


def plan(g: Game, seat: Seat, onward: list[str], rng: Rng) -> str | None:
    """The preferred option, or None to choose at random among ``onward``."""
    aim = Aim(g, seat)
    kind = g.pending["kind"] if g.pending else None
    if kind == "pay":
        return spare_first(aim, [o for o in onward if o.startswith("pay:")])
    if kind == "get":
        return needed_first(aim, [o for o in onward if o.startswith("get:")], rng)
    if kind == "new_law":
        return next((o for o in onward if o.startswith("play:")), "keep")
    if kind is not None:
        return None
    if g.phase == SETUP:
        return roomy_gap(g, onward, rng)
    if g.phase == ORDER:
        return busy_number(g, seat, onward, rng)
    if g.phase == WORKERS:
        return needed_first(aim, onward, rng, prefix="field:")
    if g.phase == ACTIONS:
        return action(aim, onward, rng)
    if g.phase == AUCTION:
        return auction(g, seat, onward, rng)
    return "collect" if "collect" in onward else None


# --- What the bot is aiming at ---

# What a missing cube weighs: a craft cube counts its price in basic cubes.
WEIGHT = {c: CUBES[c].price if c in CRAFT else 1 for c in CUBES}


# Each tile's printed cost as (colour, count), colours in the order the cost lists them.
PRINTED_NEED = {t: tuple(Counter(tile.cost).items()) for t, tile in TILES.items()}


def need(g: Game, tile: str) -> tuple[tuple[str, int], ...] | list[tuple[str, int]]:
    """``tile_cost`` counted by colour (Building Tax cubes included), in the cost's order."""
    return list(Counter(tile_cost(g, tile)).items()) if tile in g.surcharges else PRINTED_NEED[tile]


def lacking(g: Game, tile: str, cubes: dict[str, int]) -> dict[str, int]:
    """The tile's cubes the holder of ``cubes`` lacks (a plain dict, in the cost's order)."""
    return {c: n - cubes.get(c, 0) for c, n in need(g, tile) if n > cubes.get(c, 0)}


class once:  # noqa: N801 - used as a decorator, like the property it stands for
    """A property worked out on first use and then kept: ``functools.cached_property``
    without the lock it takes in Python 3.11, which cost more than the work it kept."""

    def __init__(self, work: Callable[[Any], Any]) -> None:
        self.work, self.name = work, work.__name__
        self.__doc__ = work.__doc__

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.work(obj)
        return value


class Aim:
    """The seat's aim for one decision, each part worked out once: the state does not
    change while the bot chooses, and the plan asks for the same parts several times."""

    def __init__(self, g: Game, seat: Seat) -> None:
        self.g, self.seat = g, seat
        self.cubes = g.players[seat].cubes

    @once
    def target(self) -> str | None:
        """The buyable tile with the fewest cubes missing (a craft cube counts its price)."""
        g, cubes = self.g, self.cubes
        best: tuple[int, str] | None = None
        for tile in buyable_tiles(g):  # min() by (shortfall, tile), written out: it runs often
            total = 0
            for c, n in (PRINTED_NEED[tile] if tile not in g.surcharges else need(g, tile)):
                held = cubes.get(c, 0)
                if n > held:
                    total += (n - held) * WEIGHT[c]
            if best is None or (total, tile) < best:
                best = (total, tile)
        return best[1] if best else None

    @once
    def missing(self) -> dict[str, int]:
        """What the target still lacks (nothing without a target)."""
        return lacking(self.g, self.target, self.cubes) if self.target else {}

    @once
    def spare(self) -> dict[str, int]:
        """Cubes the target does not need."""
        held = {c: n for c, n in self.cubes.items() if n}
        if not self.target:
            return held
        cost = dict(need(self.g, self.target))
        return {c: n - cost.get(c, 0) for c, n in held.items() if n > cost.get(c, 0)}

    @once
    def wanted(self) -> dict[str, int]:
        """Basic colours the target still lacks (any basic cube helps toward a craft cube)."""
        return {c: n for c, n in self.missing.items() if c in BASIC}


def target(g: Game, seat: Seat) -> str | None:
    return Aim(g, seat).target


def missing(g: Game, seat: Seat, tile: str) -> Counter:
    return Counter(lacking(g, tile, g.players[seat].cubes))


def shortfall(g: Game, seat: Seat, tile: str) -> int:
    return sum(n * WEIGHT[c] for c, n in missing(g, seat, tile).items())


def spare(g: Game, seat: Seat) -> Counter:
    return Counter(Aim(g, seat).spare)


def wanted(g: Game, seat: Seat) -> Counter:
    return Counter(Aim(g, seat).wanted)


# --- Choices ---

def spare_first(aim: Aim, pays: list[str]) -> str | None:
    """Pay with spare basic cubes first, the most plentiful first; craft cubes last."""
    if not pays:
        return None
    extra, cubes = aim.spare, aim.cubes
    return max(pays, key=lambda o: (extra.get(o[4:], 0) > 0, o[4:] in BASIC, cubes[o[4:]], o))


def needed_first(aim: Aim, choices: list[str], rng: Rng, prefix: str = "get:") -> str | None:
    picks = [o for o in choices if o.startswith(prefix)]
    if not picks:
        return None
    want = aim.wanted

    def colour(option: str) -> str:
        name = option.removeprefix(prefix)
        return FIELDS[name].colour if prefix == "field:" else name
    hits = [o for o in picks if want.get(colour(o))]
    return rng.choice(hits) if hits else None


def roomy_gap(g: Game, onward: list[str], rng: Rng) -> str | None:
    """Set-up: a cottage where most fields meet; fields anywhere."""
    gaps = [o for o in onward if o.startswith("gap:")]
    if not gaps:
        return None
    room = {o: len(gap_fields(g, o[4:])) for o in gaps}
    most = max(room.values())
    return rng.choice([o for o in gaps if room[o] == most])


def busy_number(g: Game, seat: Seat, onward: list[str], rng: Rng) -> str | None:
    """A work order number whose cottage of this seat has free fields."""
    orders = [o for o in onward if o.startswith("order:")]
    useful = [o for o in orders if worker_fields(g, seat, int(o[6:]))]
    return rng.choice(useful or orders) if orders else None


def action(aim: Aim, onward: list[str], rng: Rng) -> str | None:
    tiles = [o for o in onward if o.startswith("tile:")]
    if tiles:
        return rng.choice(tiles)
    plays = [o for o in onward if o.startswith("play:")]
    if plays and rng.randrange(2):
        return rng.choice(plays)
    goal = aim.target
    extra = aim.spare
    spare_basic = sum(extra.get(c, 0) for c in BASIC)
    if goal is not None:
        for colour in aim.missing:
            if colour in CRAFT and f"craft:{colour}" in onward and spare_basic >= CUBES[colour].price:
                return f"craft:{colour}"
        if aim.wanted and "trade" in onward and spare_basic >= 2:
            return "trade"
    houses = [o for o in onward if o.startswith("house:")]
    if houses and all(extra.get(c) for c in HOUSE_COST):
        return rng.choice(houses)
    laws = [o for o in onward if o.startswith("law:")]
    if laws and sum(extra.values()) and not rng.randrange(8):
        return rng.choice(laws)
    return "pass"


def auction(g: Game, seat: Seat, onward: list[str], rng: Rng) -> str | None:
    """Bid the least now and then; a holder takes the payment; the winner starts."""
    if f"start:{seat}" in onward:
        return f"start:{seat}"
    if "decline" in onward:
        return "decline"
    bids = [o for o in onward if o.startswith("bid:")]
    if bids and not rng.randrange(4):
        return bids[0]
    return "pass" if "pass" in onward else None


# --- The strong level: the same aim, from the seat's view alone ---
#
# ``choose_from_view`` reads only what the seat's page gets: the public board (landscape,
# mat, work order, auction), its own screen (cubes, tiles, the choice it is in) and its
# options. It buys the tile that leaves it closest to the next one, sends workers to the
# colours it lacks and to the fields the other players would take, puts the early work
# order markers where its own cottages have most to gain over theirs, turns cottages with
# many open fields into houses in the first rounds (two workers each round after), buys
# craft cubes and trades only toward the tile it aims at, never spends a cube on a law
# card, and lets the start marker go when it is paid for it.

HOUSE_ROUNDS = 4  # a house bought later than this round no longer pays for its two cubes


def choose_from_view(view: dict, offered: list[dict], rng: Rng) -> str:
    ids = [o["id"] for o in offered]
    if not ids:
        raise ValueError("nothing to choose")
    onward = [o for o in ids if o != "cancel"] or ids
    pick = SeeView(view).choose(onward, rng)
    return pick if pick in onward else rng.choice(onward)


def gap_cells_of(gap: tuple[int, int]) -> list[tuple[int, int]]:
    i, j = gap
    return [(i - 1, j - 1), (i, j - 1), (i - 1, j), (i, j)]


def parse_xy(text: str) -> tuple[int, int]:
    x, y = text.split(",")
    return int(x), int(y)


class SeeView:
    """The bot's reading of one view."""

    def __init__(self, view: dict) -> None:
        self.view = view
        self.pub = view["public"]
        self.own = view.get("private") or {}
        self.seat: int = view["seat"]
        self.cubes: Counter = Counter({c: n for c, n in (self.own.get("cubes") or {}).items() if n})
        land = self.pub["landscape"]
        self.fields = {tuple(f["cell"]): f for f in land["fields"]}
        self.field_by_id = {f["id"]: f for f in land["fields"]}
        self.cottages = land["cottages"]
        self.fenced = {(tuple(f["gap"]), tuple(f["cell"])) for f in land["fences"]}
        self.round: int = self.pub.get("round") or 1
        self.pending = self.own.get("pending") or {}

    # --- reading the board ---

    def open_cells(self, gap: tuple[int, int]) -> list[tuple[int, int]]:
        return [c for c in gap_cells_of(gap) if c in self.fields and (gap, c) not in self.fenced]

    def free_cells(self, gap: tuple[int, int]) -> list[tuple[int, int]]:
        return [c for c in self.open_cells(gap) if self.fields[c]["worker"] is None]

    def candidates(self) -> list[dict]:
        """The tiles worth aiming at: the buyable row, else every face-up tile."""
        rows = self.pub["mat"]
        buyable = [t for r in rows if r["buyable"] for t in r["tiles"] if t.get("id")]
        if buyable:
            return buyable
        return [t for r in rows if r["face_up"] for t in r["tiles"] if t.get("id")]

    def missing(self, tile: dict, held: Counter | None = None) -> Counter:
        return Counter(tile["cost"]) - (self.cubes if held is None else held)

    def shortfall(self, tile: dict, held: Counter | None = None) -> int:
        gap = self.missing(tile, held)
        off = tile.get("discount", 0)
        costs = sorted((CUBES[c].price if c in CRAFT else 1 for c, n in gap.items() for _ in range(n)), reverse=True)
        return sum(costs[off:])

    def target(self, held: Counter | None = None, skip: str | None = None) -> dict | None:
        tiles = [t for t in self.candidates() if t["id"] != skip]
        if not tiles:
            return None
        return min(tiles, key=lambda t: (self.shortfall(t, held), len(t["cost"]), t["id"]))

    def spare(self) -> Counter:
        goal = self.target()
        return self.cubes - Counter(goal["cost"]) if goal else Counter(self.cubes)

    def wanted(self) -> Counter:
        goal = self.target()
        if goal is None:
            return Counter()
        want = Counter({c: n for c, n in self.missing(goal).items() if c in BASIC})
        if not want and any(c in CRAFT for c in self.missing(goal)):
            want = Counter({c: 1 for c in BASIC})  # basics for the craftsman
        return want

    # --- choosing ---

    def choose(self, onward: list[str], rng: Rng) -> str | None:
        kind = self.pending.get("kind")
        phase = self.pub["phase"]
        if kind == "pay":
            return self.pay([o for o in onward if o.startswith("pay:")])
        if kind == "get":
            return self.get([o for o in onward if o.startswith("get:")])
        if kind == "new_law":
            return "keep" if "keep" in onward else None
        if kind == "number":
            return self.number(onward, rng)
        if kind:
            return None  # a law's own choices: any will do
        if phase == SETUP:
            if any(o.startswith("cell:") for o in onward):
                return self.lay_field(onward, rng)
            return self.place_cottage(onward, rng)
        if phase == ORDER:
            return self.order(onward, rng)
        if phase == WORKERS:
            return self.worker(onward, rng)
        if phase == ACTIONS:
            return self.action(onward, rng)
        if phase == AUCTION:
            return self.auction(onward)
        return "collect" if "collect" in onward else None

    def my_gaps(self) -> list[tuple[int, int]]:
        return [tuple(c["gap"]) for c in self.cottages if c["owner"] == self.seat]

    def their_gaps(self) -> list[tuple[int, int]]:
        return [tuple(c["gap"]) for c in self.cottages if c["owner"] != self.seat]

    def lay_field(self, onward: list[str], rng: Rng) -> str:
        """Next to my cottages, away from theirs."""
        mine, theirs = self.my_gaps(), self.their_gaps()

        def worth(o: str) -> tuple:
            cell = parse_xy(o[5:])
            return (sum(cell in gap_cells_of(g) for g in mine) - sum(cell in gap_cells_of(g) for g in theirs),
                    rng.randrange(1000))
        return max((o for o in onward if o.startswith("cell:")), key=worth)

    def place_cottage(self, onward: list[str], rng: Rng) -> str | None:
        """Where most fields meet, least shared with the other players' cottages."""
        gaps = [o for o in onward if o.startswith("gap:")]
        if not gaps:
            return None
        theirs = self.their_gaps()

        def worth(o: str) -> tuple:
            gap = parse_xy(o[4:])
            cells = [c for c in gap_cells_of(gap) if c in self.fields]
            shared = sum(1 for c in cells for g in theirs if c in gap_cells_of(g))
            return (len(cells), -shared, rng.randrange(1000))
        return max(gaps, key=worth)

    def number(self, onward: list[str], rng: Rng) -> str | None:
        numbers = [o for o in onward if o.startswith("number:")]
        return rng.choice(numbers) if numbers else None

    def workers_at(self, owner_filter, number: int) -> float:
        """Workers the matching cottages of a number could send now (a house two)."""
        total = 0.0
        for c in self.cottages:
            if c["number"] == number and owner_filter(c["owner"]):
                total += min(len(self.free_cells(tuple(c["gap"]))), 2 if c["house"] else 1)
        return total

    def order(self, onward: list[str], rng: Rng) -> str | None:
        """Early markers where my cottages gain most over theirs (every number works in the
        end; the order decides who gets the contested fields)."""
        orders = [o for o in onward if o.startswith("order:")]
        if not orders:
            return None

        def worth(o: str) -> tuple:
            n = int(o[6:])
            return (self.workers_at(lambda s: s == self.seat, n) - self.workers_at(lambda s: s != self.seat, n),
                    rng.randrange(1000))
        return max(orders, key=worth)

    def worker(self, onward: list[str], rng: Rng) -> str | None:
        fields = [o for o in onward if o.startswith("field:")]
        if not fields:
            return None
        want = self.wanted()
        theirs = self.their_gaps()

        def worth(o: str) -> tuple:
            f = self.field_by_id[o[6:]]
            cell = tuple(f["cell"])
            contested = sum(cell in gap_cells_of(g) for g in theirs)
            return (want[f["colour"]] > 0, contested, -self.cubes[f["colour"]], rng.randrange(1000))
        return max(fields, key=worth)

    def action(self, onward: list[str], rng: Rng) -> str | None:
        tiles = [o for o in onward if o.startswith("tile:")]
        if tiles:
            return self.best_tile(tiles)
        goal = self.target()
        extra = self.spare()
        spare_basic = sum(extra[c] for c in BASIC)
        houses = [o for o in onward if o.startswith("house:")]
        if houses and self.round <= HOUSE_ROUNDS:
            best = max(houses, key=lambda o: self.house_gain(int(o[6:])))
            if self.house_gain(int(best[6:])) >= 2:
                return best
        if goal is not None:
            for colour in self.missing(goal):
                if colour in CRAFT and f"craft:{colour}" in onward and spare_basic >= CUBES[colour].price:
                    return f"craft:{colour}"
            if self.wanted() and "trade" in onward and spare_basic >= 2 and self.shortfall(goal) <= 2:
                return "trade"
        return "pass" if "pass" in onward else None

    def house_gain(self, number: int) -> int:
        cot = next((c for c in self.cottages if c["owner"] == self.seat and c["number"] == number), None)
        if cot is None or cot["house"]:
            return 0
        return len(self.open_cells(tuple(cot["gap"])))

    def best_tile(self, tiles: list[str]) -> str:
        """The tile whose price costs least and leaves me nearest the next one."""
        by_id = {t["id"]: t for r in self.pub["mat"] for t in r["tiles"] if t.get("id")}

        def worth(o: str) -> tuple:
            tile = by_id.get(o[5:])
            if tile is None:
                return (0, 0)
            after = self.cubes - Counter(tile["cost"])
            points = sum(CUBES[c].points * n for c, n in (Counter(tile["cost"]) & self.cubes).items())
            nxt = self.target(after, skip=tile["id"])
            return (-points, -(self.shortfall(nxt, after) if nxt else 0))
        return max(tiles, key=worth)

    def pay(self, pays: list[str]) -> str | None:
        """Spare basic cubes first, the most plentiful first; craft cubes last."""
        extra = self.spare()
        return max(pays, key=lambda o: (extra[o[4:]] > 0, o[4:] in BASIC, self.cubes[o[4:]], o), default=None)

    def get(self, gets: list[str]) -> str | None:
        want = self.wanted()
        return max(gets, key=lambda o: (want[o[4:]], -self.cubes[o[4:]], o), default=None)

    def auction(self, onward: list[str]) -> str | None:
        """Start myself; take the payment rather than match; bid only when the next
        round's first pick of tiles is worth a cube (a tile within reach)."""
        start = f"start:{self.seat}"
        if start in onward:
            return start
        if "decline" in onward:
            return "decline"
        bids = [o for o in onward if o.startswith("bid:")]
        goal = self.target()
        if bids and goal is not None and self.shortfall(goal) <= 1 and sum(self.cubes.values()) >= 4:
            return min(bids, key=lambda o: int(o[4:]) if o[4:].isdigit() else 99)
        return "pass" if "pass" in onward else None
