"""A small Key Harvest bot, for tests and benchmarks.

It plays through the listed options only, toward the goal: claim the tiles in its own
store (free: the bid is already paid), buy an opponent's tile that joins its groups when
it can match the bid, put registry tiles that touch its fields into its store with a bid
of one or two counters of its most plentiful crop, harvest its biggest ripe group, and
play the strongest worker it can. It takes counters of the crop it holds fewest of (crop
majorities), and never "cancel"s unless nothing else is offered.
"""

from __future__ import annotations

from app.games.rng import Rng

from .content import CROPS, NEIGHBOURS, WORKERS
from .rules import Game, Player, groups, options

Seat = int


def touching(p: Player, ref: str) -> int:
    """How many of the seat's field tiles a tile at ``ref`` would join."""
    return sum(n in p.fields for n in NEIGHBOURS[ref])


def tile_of(g: Game, option_id: str) -> str:
    """The field tile a "take:" or "registry:" option is about."""
    kind, rest = option_id.split(":", 1)
    if kind == "registry":
        return g.registry[int(rest)]  # type: ignore[return-value]
    owner, slot = rest.split(":")
    return g.players[int(owner)].store[int(slot)]["tile"]


def choose(state: Game, seat: Seat, rng: Rng) -> str:
    """One option id for the seat, drawn from ``rng``."""
    offered = [o.id for o in options(state, seat)]
    if not offered:
        raise ValueError(f"seat {seat} has nothing to choose")
    onward = [o for o in offered if o != "cancel"] or offered
    p = state.players[seat]
    step = state.queue[0]["do"] if state.queue else None
    if step == "bid":
        return bid_choice(state, p, onward)
    if step is None:
        return turn_choice(state, p, onward, rng)
    return step_choice(state, p, onward, rng)


def turn_choice(g: Game, p: Player, onward: list[str], rng: Rng) -> str:
    """Own store first, then a good purchase, then the registry, a ripe group, a worker."""
    own = [o for o in onward if o.startswith(f"take:{p.seat}:")]
    if own:
        return own[0]
    buys = [o for o in onward if o.startswith("take:") and touching(p, tile_of(g, o)) >= 2]
    if buys and sum(p.counters.values()) >= 6:
        return max(buys, key=lambda o: touching(p, tile_of(g, o)))
    registry = [o for o in onward if o.startswith("registry:")]
    if registry:
        return max(registry, key=lambda o: (touching(p, tile_of(g, o)), -int(o.split(":")[1])))
    harvests = [o for o in onward if o.startswith("harvest:")]
    ripe = {o: sum(not p.fields[r] for r in group_of(p, o)) for o in harvests}
    if harvests and (max(ripe.values()) >= 2 or sum(p.counters.values()) < 3):
        return max(harvests, key=lambda o: ripe[o])
    plays = [o for o in onward if o.startswith("play:")]
    if plays and rng.randrange(3):
        return max(plays, key=lambda o: WORKERS[o.removeprefix("play:")].value)
    if harvests:
        return max(harvests, key=lambda o: ripe[o])
    return "end"


def group_of(p: Player, option_id: str) -> list[str]:
    first = option_id.removeprefix("harvest:")
    return next(grp for grp in groups(p) if grp[0] == first)


def bid_choice(g: Game, p: Player, onward: list[str]) -> str:
    """Bid one counter of the most plentiful crop; two when it has plenty."""
    bid = g.queue[0]["bid"]
    placed = sum(bid.values())
    if "confirm" in onward and (placed >= 2 or sum(p.counters.values()) < 6):
        return "confirm"
    adds = [o for o in onward if o.startswith("add:")]
    if not adds:
        return "confirm" if "confirm" in onward else onward[0]
    return max(adds, key=lambda o: (p.counters[o[4:]] - bid.get(o[4:], 0), -CROPS.index(o[4:])))


def step_choice(g: Game, p: Player, onward: list[str], rng: Rng) -> str:
    """Inside a step: the fewest-held crop when taking counters; the first target of a
    power or event; a space where the worker touches most fields; a second tile when it
    is free or joins a group."""
    gains = [o for o in onward if o.startswith("gain:")]
    if gains:
        return min(gains, key=lambda o: (p.counters[o[5:]], CROPS.index(o[5:])))
    spaces = [o for o in onward if o.startswith("space:")]
    if spaces:
        return max(spaces, key=lambda o: (touching(p, o.removeprefix("space:")), o))
    second = [o for o in onward if o.startswith(f"take:{p.seat}:") or
              (o.startswith("registry:") and touching(p, tile_of(g, o)))]
    if second:
        return second[0]
    if any(o.startswith(("take:", "registry:")) for o in onward) and "done" in onward:
        return "done"
    hail = [o for o in onward if o.startswith("hail:")]
    if hail:
        return hail[0]
    useful = [o for o in onward if o.startswith(("reap:", "renew:", "settle:", "resettle:", "bloom:", "start:"))]
    if useful:
        if onward[0].startswith("start:"):
            return f"start:{p.seat}"
        return useful[0]
    return rng.choice(onward)

