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

from app.games.rng import Rng

from .content import BASIC, CRAFT, CUBES, FIELDS, HOUSE_COST
from .rules import (ACTIONS, AUCTION, ORDER, SETUP, WORKERS, Game, buyable_tiles, gap_fields,
                    options, tile_cost, worker_fields)

Seat = int


def choose(state: Game, seat: Seat, rng: Rng) -> str:
    """One option id for the seat; ``rng`` breaks ties and makes the rare whims."""
    offered = [o.id for o in options(state, seat)]
    if not offered:
        raise ValueError(f"seat {seat} has nothing to choose")
    onward = [o for o in offered if o != "cancel"] or offered
    pick = plan(state, seat, onward, rng)
    return pick if pick in onward else rng.choice(onward)


def plan(g: Game, seat: Seat, onward: list[str], rng: Rng) -> str | None:
    """The preferred option, or None to choose at random among ``onward``."""
    kind = g.pending["kind"] if g.pending else None
    if kind == "pay":
        return spare_first(g, seat, [o for o in onward if o.startswith("pay:")])
    if kind == "get":
        return needed_first(g, seat, [o for o in onward if o.startswith("get:")], rng)
    if kind == "new_law":
        return next((o for o in onward if o.startswith("play:")), "keep")
    if kind is not None:
        return None
    if g.phase == SETUP:
        return roomy_gap(g, onward, rng)
    if g.phase == ORDER:
        return busy_number(g, seat, onward, rng)
    if g.phase == WORKERS:
        return needed_first(g, seat, onward, rng, prefix="field:")
    if g.phase == ACTIONS:
        return action(g, seat, onward, rng)
    if g.phase == AUCTION:
        return auction(g, seat, onward, rng)
    return "collect" if "collect" in onward else None


# --- What the bot is aiming at ---

def target(g: Game, seat: Seat) -> str | None:
    """The buyable tile with the fewest cubes missing (a craft cube counts its price)."""
    tiles = buyable_tiles(g)
    if not tiles:
        return None
    return min(tiles, key=lambda t: (shortfall(g, seat, t), t))


def missing(g: Game, seat: Seat, tile: str) -> Counter:
    return Counter(tile_cost(g, tile)) - Counter(g.players[seat].cubes)


def shortfall(g: Game, seat: Seat, tile: str) -> int:
    return sum(n * (CUBES[c].price if c in CRAFT else 1) for c, n in missing(g, seat, tile).items())


def spare(g: Game, seat: Seat) -> Counter:
    """Cubes the target does not need."""
    goal = target(g, seat)
    held = Counter({c: n for c, n in g.players[seat].cubes.items() if n})
    return held - Counter(tile_cost(g, goal)) if goal else held


def wanted(g: Game, seat: Seat) -> Counter:
    """Basic colours the target still lacks (any basic cube helps toward a craft cube)."""
    goal = target(g, seat)
    return Counter({c: n for c, n in missing(g, seat, goal).items() if c in BASIC}) if goal else Counter()


# --- Choices ---

def spare_first(g: Game, seat: Seat, pays: list[str]) -> str | None:
    """Pay with spare basic cubes first, the most plentiful first; craft cubes last."""
    extra, cubes = spare(g, seat), g.players[seat].cubes
    return max(pays, key=lambda o: (extra[o[4:]] > 0, o[4:] in BASIC, cubes[o[4:]], o), default=None)


def needed_first(g: Game, seat: Seat, choices: list[str], rng: Rng, prefix: str = "get:") -> str | None:
    want = wanted(g, seat)

    def colour(option: str) -> str:
        name = option.removeprefix(prefix)
        return FIELDS[name].colour if prefix == "field:" else name
    hits = [o for o in choices if o.startswith(prefix) and want[colour(o)]]
    return rng.choice(hits) if hits else None


def roomy_gap(g: Game, onward: list[str], rng: Rng) -> str | None:
    """Set-up: a cottage where most fields meet; fields anywhere."""
    gaps = [o for o in onward if o.startswith("gap:")]
    if not gaps:
        return None
    most = max(len(gap_fields(g, o[4:])) for o in gaps)
    return rng.choice([o for o in gaps if len(gap_fields(g, o[4:])) == most])


def busy_number(g: Game, seat: Seat, onward: list[str], rng: Rng) -> str | None:
    """A work order number whose cottage of this seat has free fields."""
    orders = [o for o in onward if o.startswith("order:")]
    useful = [o for o in orders if worker_fields(g, seat, int(o[6:]))]
    return rng.choice(useful or orders) if orders else None


def action(g: Game, seat: Seat, onward: list[str], rng: Rng) -> str | None:
    tiles = [o for o in onward if o.startswith("tile:")]
    if tiles:
        return rng.choice(tiles)
    plays = [o for o in onward if o.startswith("play:")]
    if plays and rng.randrange(2):
        return rng.choice(plays)
    goal = target(g, seat)
    extra = spare(g, seat)
    spare_basic = sum(extra[c] for c in BASIC)
    if goal is not None:
        for colour in missing(g, seat, goal):
            if colour in CRAFT and f"craft:{colour}" in onward and spare_basic >= CUBES[colour].price:
                return f"craft:{colour}"
        if wanted(g, seat) and "trade" in onward and spare_basic >= 2:
            return "trade"
    houses = [o for o in onward if o.startswith("house:")]
    if houses and all(extra[c] for c in HOUSE_COST):
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
