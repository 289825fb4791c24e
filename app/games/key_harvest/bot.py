"""A small Key Harvest bot, for tests and benchmarks.

It plays through the listed options only, toward the goal: claim the tiles in its own
store (free: the bid is already paid), buy an opponent's tile that joins its groups when
it can match the bid, put registry tiles that touch its fields into its store with a bid
of one or two counters of its most plentiful crop, harvest its biggest ripe group, and
play the worker whose power (plus a share of its end points) it prices highest, on the
space where its power does most (``power_worth``; a strong one before the registry). It
takes counters of the crop it holds fewest of (crop majorities), takes the tile that joins
its groups most, clears and drops what joins least, swaps stores only for a better one,
and never "cancel"s unless nothing else is offered.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress, repeat
from operator import itemgetter, not_
from typing import Any

from app.games.rng import Rng

from .content import CROPS, FIELDS, NEIGHBOURS, STORE_SIZE, WORKERS, Effect
from .rules import (AROUND, BIT, BOARDS_KEPT, NEAR, PLAY_OPTIONS, REGISTRY_IDS, TAKE_IDS, TRANSFER, BoardKey, Choice,
                    Game, MoreListing, Player, TurnListing, board_groups, board_key, board_spaces, can_bid, can_take,
                    listed, listed_bid, listed_more, listed_turn, transferable)

Seat = int


def touching(p: Player, ref: str) -> int:
    """How many of the seat's field tiles a tile at ``ref`` would join."""
    return len(p.fields.keys() & NEAR[ref])


def field_bits(p: Player) -> int:
    """The seat's field tiles as the bits of a board mask: ``touching(p, ref)`` is then
    ``(AROUND[ref] & bits).bit_count()``, for a caller asking about many tiles."""
    return sum(map(BIT.__getitem__, p.fields))  # one bit a tile: the sum is the union


def ripe_bits(p: Player) -> int:
    """The seat's unharvested field tiles as the bits of a board mask (worked in C)."""
    fields = p.fields
    return sum(compress(map(BIT.__getitem__, fields), map(not_, fields.values())))


def tile_of(g: Game, option_id: str) -> str:
    """The field tile a "take:" or "registry:" option is about."""
    kind, rest = option_id.split(":", 1)
    if kind == "registry":
        return g.registry[int(rest)]  # type: ignore[return-value]
    owner, slot = rest.split(":")
    return g.players[int(owner)].store[int(slot)]["tile"]


def choose(state: Game, seat: Seat, rng: Rng) -> str:
    """One option id for the seat, drawn from ``rng``."""
    if not state.queue:  # the turn itself: its options worked out kind by kind, as asked
        turn = listed_turn(state, seat)
        if turn is not None:
            return turn_choice(state, state.players[seat], turn, rng)
    else:
        step = state.queue[0]["do"]
        if step == "bid" and listed_bid(state, seat) is not None:  # read from the bid, not listed
            return bid_choice(state, state.players[seat])
        if step == "more":  # read from the game, not listed
            more = listed_more(state, seat)
            if more is not None:
                return more_choice(state, state.players[seat], more, rng)
    offered = listed(state, seat)
    if not offered:
        raise ValueError(f"seat {seat} has nothing to choose")
    p = state.players[seat]
    step = state.queue[0]["do"]  # a seat with something to choose off its turn has a step first in the queue
    if step == "power":  # the frequent kinds of target read straight from the listing
        pick = power_step_choice(p, offered)
        if pick is not None:
            return pick
    elif step == "gain":
        return fewest_held(p, offered)
    elif step == "place":  # spaces first, then "cancel" or "home"
        spaces = [o.id for o in offered if o.kind == "space"]
        if spaces:
            return space_choice(state, p, spaces)
    onward: list[str] = []  # the ids but "cancel" (ids are unique), and all of them by kind, in one pass
    kinds: dict[str, list[str]] = {}
    for o in offered:
        option_id = o.id
        if option_id != "cancel":
            onward.append(option_id)
        same = kinds.get(o.kind)
        if same is None:
            kinds[o.kind] = [option_id]
        else:
            same.append(option_id)
    return step_choice(state, p, onward or ["cancel"], kinds, rng)


def turn_choice(g: Game, p: Player, turn: TurnListing, rng: Rng) -> str:
    """Own store first, then a good purchase, a strong worker, the registry, a ripe group,
    a worker worth playing. (``turn``: the turn's options, each kind listed when asked.)"""
    own = turn.own_takes()
    if own:
        return own[0]
    if sum(p.counters.values()) >= 6 and can_take(g, TRANSFER):  # enough to buy with
        # the "take" options' tiles (``transferable``, in their order): the first that joins most, two or more
        filled, buy, most = field_bits(p), None, 1
        for owner, slot, entry in transferable(g, p):
            joined = (AROUND[entry["tile"]] & filled).bit_count()
            if joined > most:
                buy, most = TAKE_IDS[owner][slot], joined
        if buy:
            return buy
    registry = turn.of("registry")
    # With the registry to fall back on, only a strong play matters.
    best_play, worth = best_worker(g, p, turn, STRONG if registry else None)
    if best_play and worth >= STRONG:
        return best_play
    if registry:  # the tile joining most fields; the first slot on a tie (the ids are the filled slots' in order)
        filled, best_slot, most = field_bits(p), None, -1
        for o, ref in zip(REGISTRY_IDS, g.registry):
            if ref:
                joined = (AROUND[ref] & filled).bit_count()
                if joined > most:
                    best_slot, most = o, joined
        return best_slot
    harvests = turn.of("harvest")
    if harvests:
        ripe_in = ripe_by_group(frozenset(p.fields.items()))
        ripe = {o: ripe_in[o[8:]] for o in harvests}
    if harvests and (max(ripe.values()) >= 2 or sum(p.counters.values()) < 3):
        return max(harvests, key=lambda o: ripe[o])
    if best_play and worth >= WORTH_A_PLAY and rng.randrange(3):
        return best_play
    if harvests:
        return max(harvests, key=lambda o: ripe[o])
    return "end"


@lru_cache(maxsize=BOARDS_KEPT)
def ripe_by_group(fields: frozenset[tuple[str, bool]]) -> dict[str, int]:
    """A board's unharvested fields per group, by the group's first reference (``fields``:
    each field tile and whether it is harvested). Kept; not to be changed."""
    harvested = dict(fields)
    return {grp[0]: sum(not harvested[r] for r in grp) for grp in board_groups(frozenset(harvested))}


def bid_choice(g: Game, p: Player) -> str:
    """Bid one counter of the most plentiful crop (the first in crop order on a tie); two
    when it has plenty. (The options, as ``rules.bid_options`` lists them: a counter of each
    crop with one left behind the screen, in crop order; "confirm" once a counter is in.)"""
    bid, counters = g.queue[0]["bid"], p.counters
    if not bid:  # the first counter: the crop held most
        best = max(CROPS, key=counters.__getitem__)  # the first of the most held
        return ADD_IDS[best] if counters[best] > 0 else "cancel"
    if sum(bid.values()) >= 2 or sum(counters.values()) < 6:
        return "confirm"
    best, most = None, 0
    for crop in CROPS:
        left = counters[crop] - bid.get(crop, 0)
        if left > most:
            best, most = crop, left
    return ADD_IDS[best] if best else "confirm"


ADD_IDS = {c: f"add:{c}" for c in CROPS}


def more_choice(g: Game, p: Player, more: MoreListing, rng: Rng) -> str:
    """The second tile: the first from its own store (free) or from the registry that touches
    its fields; else no second tile. (``step_choice``'s rule for this step, read from the
    game: ``more_choices`` lists a transfer's takes, its own store first, or the registry's
    filled slots, then "done".)"""
    own = more.own_takes()
    if own:
        return own[0]
    if not more.transfer and can_bid(p):
        filled = field_bits(p)
        for o, ref in zip(REGISTRY_IDS, g.registry):
            if ref and AROUND[ref] & filled:  # the tile touches a field
                return o
    if more.can_take_any():
        return "done"
    return rng.choice(["done"])  # nothing else listed: the step's last resort, a draw kept so later draws stay


def power_step_choice(p: Player, offered: list[Choice]) -> str | None:
    """A power's step with settle, reap or renew targets (one kind a step, then "done" for a
    bell), as ``step_choice`` chooses there, without sorting the ids by kind: the tile that
    joins most fields (the last id on a tie), or the first field. None for any other kind."""
    kind = offered[0].kind
    if kind == "settle":
        filled, best, most = field_bits(p), "", -1
        for o in offered:
            if o.kind == "settle":
                joined = (AROUND[o.id[7:]] & filled).bit_count()  # "settle:<ref>"
                if joined > most or joined == most and o.id > best:
                    best, most = o.id, joined
        return best
    if kind == "reap" or kind == "renew":
        return offered[0].id
    if kind == "gain":
        return fewest_held(p, offered)
    return None


def fewest_held(p: Player, offered: list[Choice]) -> str:
    """The "gain" choice of the crop the seat holds fewest of, the first in crop order on a
    tie (``step_choice``'s rule for counters to take, read straight from the listing)."""
    counters, best, least = p.counters, "", None
    for o in offered:
        if o.kind == "gain":
            crop = o.id[5:]  # "gain:<crop>"
            key = (counters[crop], CROP_ORDER[crop])
            if least is None or key < least:
                best, least = o.id, key
    return best


CROP_ORDER = {c: i for i, c in enumerate(CROPS)}


def space_choice(g: Game, p: Player, spaces: list[str]) -> str:
    """The space where the worker's power does most (``power_worth``), then where it touches
    most fields, then the last id: the largest of those keys, each space priced once."""
    worker = g.queue[0]["worker"]
    effects = WORKERS[worker].effects
    board, tiles = board_price(g, p, effects), {}
    filled, ripe = field_bits(p), ripe_bits(p)
    best, most = "", None
    for o in spaces:
        space = o[6:]  # "space:<ref>"
        near = AROUND[space] & filled
        around = surroundings_of(near, near & ripe)  # its first: the fields it touches
        key = (space_price(worker, around) + board + settle_price(g, p, effects, space, tiles), around[0], o)
        if most is None or key > most:
            best, most = o, key
    return best


def step_choice(g: Game, p: Player, onward: list[str], kinds: dict[str, list[str]], rng: Rng) -> str:
    """Inside a step: the fewest-held crop when taking counters; the first target of a
    power or event; a space where the worker touches most fields; a second tile when it
    is free or joins a group. (``kinds``: the option ids by kind, in listed order.)"""
    gains = kinds.get("gain")
    if gains:
        return min(gains, key=lambda o: (p.counters[o[5:]], CROPS.index(o[5:])))
    spaces = kinds.get("space")
    if spaces:
        return space_choice(g, p, spaces)
    power = power_choice(g, p, onward, kinds)
    if power:
        return power
    mine = f"take:{p.seat}:"
    second = next((o for o in onward if o.startswith(mine) or
                   (o.startswith("registry:") and touching(p, tile_of(g, o)))), None)
    if second:
        return second
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



# --- The strong level: greedy on an estimate of the final score, from the seat's view ---
#
# ``choose_from_view`` reads only what the seat's page gets: every country board, store and
# the registry (public), its own counters (private) and its options. Each candidate is
# worth what it adds to the seat's score as the game counts it — the largest group a point
# a tile, the second largest two, workers at their value — plus a little for counters
# (bids and crop majorities) and for what it takes from the best other player. Workers are
# valued from their data (value, power, amount, bell or scroll), never by name, so
# re-authored workers are played as they are. It takes its own store's tiles first (free),
# bids more for a tile the others want too, and ends the turn when nothing gains.

COUNTER = 0.4  # what one counter behind the screen is worth, in points
SCARCE = 3  # with fewer counters than this, each is worth twice as much (a bid needs one)


def score_of(sizes: list[int]) -> int:
    top = sorted(sizes, reverse=True) + [0, 0]
    return top[0] + 2 * top[1]


def group_sizes(fields: set[str]) -> list[int]:
    seen: set[str] = set()
    sizes = []
    for start in fields:
        if start in seen:
            continue
        seen.add(start)
        todo, size = [start], 0
        while todo:
            ref = todo.pop()
            size += 1
            for n in NEIGHBOURS[ref]:
                if n in fields and n not in seen:
                    seen.add(n)
                    todo.append(n)
        sizes.append(size)
    return sizes


class Board:
    """One seat's country board as its public view shows it."""

    def __init__(self, entry: dict) -> None:
        self.seat: int = entry["seat"]
        self.fields: dict[str, bool] = {s["ref"]: bool(s["tile"]["harvested"]) for s in entry["board"] if s["tile"]}
        self.workers: dict[str, dict] = {s["ref"]: s["worker"] for s in entry["board"] if s["worker"]}
        self.store: list[dict] = entry["store"]
        self.score = score_of(group_sizes(set(self.fields)))

    def gain(self, ref: str) -> float:
        """Points a field tile at ``ref`` adds to this board (a worker there is displaced)."""
        if ref in self.fields:
            return 0.0
        after = score_of(group_sizes(set(self.fields) | {ref})) - self.score
        touching = sum(n in self.fields for n in NEIGHBOURS[ref])
        lost = (self.workers[ref].get("value", 0) * 0.5) if ref in self.workers else 0
        return after + 0.15 * touching + 0.1 - lost


def choose_from_view(view: dict, offered: list[dict], rng: Rng) -> str:
    ids = [o["id"] for o in offered]
    if not ids:
        raise ValueError("nothing to choose")
    onward = [o for o in ids if o != "cancel"] or ids
    pick = Harvester(view, offered).choose(onward, rng)
    return pick if pick in onward else rng.choice(onward)


class Harvester:
    def __init__(self, view: dict, offered: list[dict]) -> None:
        self.pub = view["public"]
        self.own = view.get("private") or {}
        self.seat: int = view["seat"]
        self.targets = {o["id"]: o.get("target") for o in offered}
        self.boards = [Board(p) for p in self.pub["players"]]
        self.me = self.boards[self.seat]
        self.others = [b for b in self.boards if b.seat != self.seat]
        self.counters: dict[str, int] = {c: n for c, n in (self.own.get("counters") or {}).items()}
        self.pending = self.pub.get("pending") or {}
        self.placed = {ref for b in self.boards for ref in b.fields} | {f["tile"] for f in self.pub.get("fallow", [])}

    # --- worth of things ---

    def held(self) -> int:
        return sum(self.counters.values())

    def counter_worth(self, n: int = 1) -> float:
        return n * COUNTER * (2 if self.held() < SCARCE else 1)

    def denial(self, ref: str) -> float:
        return max((b.gain(ref) for b in self.others), default=0.0)

    def tile_of(self, option_id: str) -> str | None:
        kind, rest = option_id.split(":", 1)
        if kind == "registry":
            entry = self.pub["registry"][int(rest)]
            return entry["tile"] if entry else None
        if kind == "take":
            owner, slot = rest.split(":")
            return self.boards[int(owner)].store[int(slot)]["tile"]
        return rest

    def worth(self, o: str) -> float:
        """What one choice at the turn level (or a second tile) is worth, in points."""
        if o.startswith("take:"):
            owner, slot = (int(x) for x in o[5:].split(":"))
            ref = self.boards[owner].store[slot]["tile"]
            if owner == self.seat:
                return self.me.gain(ref) + 1.0  # free, and safe from being bought
            bid = sum(self.boards[owner].store[slot]["bid"].values())
            return (self.me.gain(ref) + self.boards[owner].gain(ref) - self.counter_worth(bid)
                    - 2 * bid * COUNTER * 0.5)
        if o.startswith("registry:"):
            ref = self.tile_of(o)
            if ref is None:
                return -1.0
            return 0.8 * self.me.gain(ref) + 0.3 * self.denial(ref) - self.counter_worth(1) - 0.2
        if o.startswith("harvest:"):
            ripe = self.ripe_in(o)
            return self.counter_worth(ripe) - 0.3
        if o.startswith("play:"):
            return self.play_worth(o[5:])
        return 0.0

    def ripe_in(self, option_id: str) -> int:
        target = self.targets.get(option_id) or ""
        refs = target.split(":")[-1].split(",") if target.startswith("group:") else [option_id[8:]]
        return sum(1 for r in refs if r in self.me.fields and not self.me.fields[r])

    def worker(self, worker_id: str) -> Any:
        return WORKERS.get(worker_id)

    def power_worth(self, worker_id: str, ref: str | None) -> float:
        """The worker's power, effect by effect, from its data: a list of effects (kind,
        amount, per, sources), or a single power with an amount."""
        w = self.worker(worker_id)
        if w is None:
            return 0.0
        effects = getattr(w, "effects", None)
        if effects is None:
            effects = [(getattr(w, "power", ""), getattr(w, "amount", 1), 1)]
        else:
            effects = [(getattr(e, "kind", ""), getattr(e, "amount", 1), getattr(e, "per", 1)) for e in effects]
        total = sum(self.effect_worth(kind, amount, per, ref) for kind, amount, per in effects)
        if getattr(w, "mark", "") != "scroll":
            total = max(total, 0.0)  # a bell's power is optional: it is left unused when it hurts
        return total

    def effect_worth(self, kind: str, amount: int, per: int, ref: str | None) -> float:
        near = [n for n in NEIGHBOURS[ref] if n in self.me.fields] if ref else []
        ripe = sum(1 for n in near if not self.me.fields[n]) if ref else 1
        dry = sum(1 for n in near if self.me.fields[n]) if ref else 1
        counter = self.counter_worth(1)
        fallow = [f["tile"] for f in self.pub.get("fallow", [])]
        registry = [e["tile"] for e in self.pub.get("registry", []) if e]
        best_tile = max((self.me.gain(t) for t in fallow + registry), default=0.0)
        if kind == "gain":
            return amount * counter
        if kind == "reap":
            return min(amount, ripe) * per * counter
        if kind == "renew":
            return min(amount, dry) * 0.25
        if kind == "tally":
            return amount * len({FIELDS[n].crop for n in near}) * counter if ref else 2 * counter
        if kind in ("settle", "cart"):
            return min(amount, 2) * max(best_tile, 0.0) * (1.0 if kind == "settle" else 0.7)
        if kind == "swap":
            mine = sum(self.me.gain(e["tile"]) for e in self.me.store)
            theirs = max((sum(self.me.gain(e["tile"]) for e in b.store) for b in self.others), default=0.0)
            return theirs - mine
        if kind == "plough":
            return 0.25 * dry - counter * ripe
        if kind == "scorch":
            return -counter * ripe
        if kind == "clear":
            return -min(amount, len(near)) * 1.5
        return 0.2 * amount

    def spaces_for(self, value: int) -> list[tuple[str, str | None]]:
        """(space, worker there) where a worker of this value may go on my board."""
        out = []
        for ref, near in NEIGHBOURS.items():
            if ref in self.me.fields:
                continue
            if any(n in self.me.workers for n in near):
                continue
            if sum(n in self.me.fields for n in near) < value:
                continue
            there = self.me.workers.get(ref)
            if there is not None and there.get("value", 0) >= value:
                continue
            out.append((ref, there["id"] if there else None))
        return out

    def space_worth(self, worker_id: str, ref: str) -> float:
        w = self.worker(worker_id)
        value = getattr(w, "value", 0)
        there = self.me.workers.get(ref)
        worth = value + self.power_worth(worker_id, ref) - (there.get("value", 0) if there else 0)
        if ref not in self.placed:
            worth -= 0.3  # its field tile may still come and push the worker off
        return worth

    def play_worth(self, worker_id: str) -> float:
        w = self.worker(worker_id)
        if w is None:
            return 0.5
        spaces = self.spaces_for(getattr(w, "value", 0))
        if not spaces:
            return -1.0
        return max(self.space_worth(worker_id, ref) for ref, _ in spaces)

    # --- choosing ---

    def choose(self, onward: list[str], rng: Rng) -> str | None:
        bid = self.own.get("bid")
        if bid:
            return self.bid(bid, onward)
        do = self.pending.get("do") if self.pending.get("seat") == self.seat else None
        if do is None:
            return self.turn(onward)
        if do == "more":
            return self.more(onward)
        if do == "start":
            return f"start:{self.seat}"
        if do == "gain":
            return self.gain([o for o in onward if o.startswith("gain:")])
        if do == "place":
            return self.place(onward)
        if do == "power":
            return self.power(onward)
        return self.event(do, onward, rng)

    def turn(self, onward: list[str]) -> str:
        scored = {o: self.worth(o) for o in onward if o not in ("end",) and not o.startswith("remove:")}
        if not scored:
            return "end"
        best = max(scored, key=lambda o: (scored[o], o))
        if scored[best] <= 0.05:
            if self.pub.get("actions_used"):
                return "end"
            # Nothing gains, but a turn of nothing stalls the game (only the registry draws
            # the events that end it): move a tile on, or harvest for the next bid.
            onward_moves = [o for o in scored if o.startswith(("registry:", "take:", "harvest:"))]
            return max(onward_moves, key=lambda o: (scored[o], o)) if onward_moves else "end"
        if best.startswith("registry:"):  # no transfer after the registry: take what is worth it first
            takes = [o for o in scored if o.startswith("take:") and scored[o] > 0.5]
            if takes:
                return max(takes, key=lambda o: scored[o])
        return best

    def more(self, onward: list[str]) -> str:
        scored = {o: self.worth(o) for o in onward if o.startswith(("take:", "registry:"))}
        best = max(scored, key=lambda o: (scored[o], o), default=None)
        if best is None or scored[best] <= 0.3:
            return "done" if "done" in onward else onward[0]
        return best

    def bid(self, bid: dict, onward: list[str]) -> str:
        """One counter, two for a tile the others want as much; the plentiful crops first."""
        placed = sum(bid["counters"].values())
        ref = bid.get("tile")
        wanted = self.denial(ref) if ref else 0.0
        goal = 2 if wanted >= 2 and self.held() >= 5 else 1
        adds = [o for o in onward if o.startswith("add:")]
        if "confirm" in onward and (placed >= goal or not adds):
            return "confirm"
        if not adds:
            return "confirm" if "confirm" in onward else onward[0]
        have = bid["counters"]
        return max(adds, key=lambda o: (self.counters.get(o[4:], 0) - have.get(o[4:], 0), o))

    def gain(self, gains: list[str]) -> str | None:
        """The crop I hold fewest of (bids must be matched counter for counter; majorities)."""
        return min(gains, key=lambda o: (self.counters.get(o[5:], 0), o), default=None)

    def place(self, onward: list[str]) -> str | None:
        worker_id = self.pending.get("worker")
        spaces = [o for o in onward if o.startswith("space:")]
        if not spaces:
            return "home" if "home" in onward else None
        return max(spaces, key=lambda o: (self.space_worth(worker_id, o[6:]), o))

    def power(self, onward: list[str]) -> str | None:
        """Each target by what it does to my board, store or screen; unknown kinds by their
        target."""
        def value(o: str) -> float:
            if o == "done":
                return 0.05
            kind, _, rest = o.partition(":")
            target = self.targets.get(o) or ""
            if kind in ("gain", "tally"):
                return self.counter_worth(1) + 0.01 * (5 - self.counters.get(rest, 0))
            if kind == "reap":
                return self.counter_worth(1) if self.me.fields.get(rest) is False else 0.0
            if kind == "renew":
                return 0.3 if self.me.fields.get(rest) else 0.0
            if kind in ("settle", "resettle"):
                return self.me.gain(rest) + 0.3 * self.denial(rest)
            if kind == "cart":
                return 0.8 * self.me.gain(rest) + 0.3 * self.denial(rest)
            if kind == "clear":  # the field whose loss costs least
                return -self.loss(rest)
            if kind == "drop":  # the store tile worth least
                return -self.me.gain(rest)
            if kind == "swap" and rest.isdigit() and int(rest) < len(self.boards):
                theirs = sum(self.me.gain(e["tile"]) for e in self.boards[int(rest)].store)
                return theirs - sum(self.me.gain(e["tile"]) for e in self.me.store)
            if target.startswith("supply:"):
                return self.counter_worth(1)
            if target.startswith("fallow:"):
                return self.me.gain(target.split(":")[-1])
            return 0.1
        return max(onward, key=lambda o: (value(o), o))

    def loss(self, ref: str) -> float:
        if ref not in self.me.fields:
            return 0.0
        return float(self.me.score - score_of(group_sizes(set(self.me.fields) - {ref})))

    def event(self, do: str, onward: list[str], rng: Rng) -> str | None:
        if do == "hail":  # turn down the field that loses least: one in my smallest groups
            hail = [o for o in onward if o.startswith("hail:")]
            if hail:
                return hail[0]
        if do == "bloom":
            blooms = [o for o in onward if o.startswith("bloom:")]
            return blooms[0] if blooms else "done"
        if do == "resettle":
            settles = {o: self.me.gain(o.split(":", 1)[1]) for o in onward if o.startswith("resettle:")}
            best = max(settles, key=lambda o: settles[o], default=None)
            return best if best is not None and settles[best] > 0 else "done"
        return None


# --- Worker powers: pricing a play, and answering a power's steps ---

STRONG = 4.0  # a play priced this high comes before the registry
WORTH_A_PLAY = 1.0
POINTS_SHARE = 0.5  # a worker's end points, priced in counters (it may not stay to the end)


def power_worth(g: Game, p: Player, worker_id: str, space: str,
                tiles: dict[tuple[str, ...], list[tuple[str, float]]] | None = None,
                board: float | None = None) -> float:
    """What the worker's power would bring on that space, in counter-equivalents (a
    counter 1, a tile on the board 2 plus 0.5 for each field it joins, a ripe field 0.5,
    a store tile 1.5), from public things and the bot's own board. (Every price is a
    multiple of 0.5, so sums come out the same in any order.)"""
    effects = WORKERS[worker_id].effects
    if board is None:  # the same on every space: a caller pricing several works it out once
        board = board_price(g, p, effects)
    return space_price(worker_id, surroundings(p.fields, space)) + board + settle_price(g, p, effects, space, tiles)


def surroundings(fields: dict[str, bool], space: str) -> tuple[int, int, int]:
    """A board's fields next to a space: how many, how many ripe, how many crops among them."""
    near = [n for n in NEIGHBOURS[space] if n in fields]
    return len(near), sum(not fields[n] for n in near), len({FIELDS[n].crop for n in near})


@lru_cache(maxsize=None)  # a worker and a space's surroundings: a few thousand pairs at most
def space_price(worker_id: str, around: tuple[int, int, int]) -> float:
    """The part of a power's price that the fields next to its space decide."""
    near, ripe, crops = around
    bare = near - ripe
    worth = 0.0
    for e in WORKERS[worker_id].effects:
        if e.kind == "reap":
            worth += min(e.amount, ripe) * (e.per - 0.5)
        elif e.kind == "renew":
            worth += 0.5 * min(e.amount, bare)
        elif e.kind == "tally":
            worth += e.amount * crops
        elif e.kind == "plough":
            worth += 0.5 * (bare - ripe)
        elif e.kind == "scorch":
            worth -= 0.5 * ripe
        elif e.kind == "clear":
            worth -= 2.0 * min(e.amount, near)
    return worth


@lru_cache(maxsize=4096)  # the same few sets of surroundings come back on many boards
def best_space_price(worker_id: str, arounds: frozenset[tuple[int, int, int]]) -> float | None:
    """The most ``space_price`` gives the worker among these surroundings (None for none)."""
    return max(map(space_price, repeat(worker_id), arounds), default=None)


def board_price(g: Game, p: Player, effects: tuple[Effect, ...]) -> float:
    """The part of a power's price that is the same on every space (a settle effect's aside)."""
    worth = 0.0
    for e in effects:
        if e.kind == "gain":
            worth += min(e.amount, sum(g.supply.values()))
        elif e.kind == "cart":
            worth += 1.5 if any(g.registry) and len(p.store) < STORE_SIZE else 0.0
        elif e.kind == "swap":
            worth += max((1.5 * (len(q.store) - len(p.store)) for q in g.players if q is not p), default=0.0)
    return worth


# Workers with an effect ``board_price`` prices (for the others it is 0.0).
BOARD_PRICED = frozenset(w.id for w in WORKERS.values() if any(e.kind in ("gain", "cart", "swap") for e in w.effects))
SETTLES = frozenset(w.id for w in WORKERS.values() if any(e.kind == "settle" for e in w.effects))


def settle_price(g: Game, p: Player, effects: tuple[Effect, ...], space: str | None,
                 tiles: dict[tuple[str, ...], list[tuple[str, float]]] | None) -> float:
    """The settle effects' price on a space: the dearest tiles but the space's own."""
    worth = 0.0
    for e in effects:
        if e.kind == "settle":
            taken, dearest = 0, 0.0
            for t, v in settle_prices(g, p, e.sources, tiles):
                if t != space:
                    if taken == e.amount:
                        break
                    taken += 1
                    dearest += v
            worth += dearest
    return worth


def settle_prices(g: Game, p: Player, sources: tuple[str, ...],
                  cache: dict[tuple[str, ...], list[tuple[str, float]]] | None) -> list[tuple[str, float]]:
    """The tiles a settle effect could take (``rules.settle_sources``, in its order), dearest
    first, with their price: 2, 0.5 for each field it joins, and a store tile's bid (the
    counters it brings), read straight from the game."""
    if cache is not None and sources in cache:
        return cache[sources]
    filled = field_bits(p)  # a tile's fields joined are its neighbours among them
    workers = p.workers  # a tile whose space holds one of the seat's workers cannot come
    priced: list[tuple[str, float]] = []
    if "fallow" in sources:
        for t in g.fallow:
            if t not in workers:
                priced.append((t, 2 + 0.5 * (AROUND[t] & filled).bit_count() + 0.0))
    if "registry" in sources:
        for t in g.registry:
            if t and t not in workers:
                priced.append((t, 2 + 0.5 * (AROUND[t] & filled).bit_count() + 0.0))
    if "store" in sources:
        for q in g.players:
            if q is not p:
                for e in q.store:
                    t = e["tile"]
                    if t not in workers:
                        priced.append((t, 2 + 0.5 * (AROUND[t] & filled).bit_count() + float(sum(e["bid"].values()))))
    priced.sort(key=PRICE_OF, reverse=True)  # dearest first; equal prices keep their order
    if cache is not None:
        cache[sources] = priced
    return priced


PRICE_OF = itemgetter(1)  # of a (tile, price) pair


def best_worker(g: Game, p: Player, turn: TurnListing, at_least: float | None = None) -> tuple[str | None, float]:
    """The play priced highest (its power at its best space, plus a share of its points), as
    its option id. Each worker at home is priced on the board's spots for its value; one with
    none is not playable and left out, as ``play_options`` leaves it out, so the plays need
    not be listed (``TurnListing.has`` lists them if one is chosen). With ``at_least``, a
    worker whose ceiling is below that is left out (the caller would not take it anyway), and
    a board with no other worker is not read at all."""
    best, worth = None, float("-inf")
    spots = tiles = None
    floor = float("-inf") if at_least is None else at_least
    for worker_id in turn.at_home():
        value, top, points, board_priced, settles = PRICING[worker_id]
        if top < floor:
            continue
        if spots is None:
            spots = board_spots(ripe_bits(p), board_key(p))
        spaces = spots.by_value[value] if value >= spots.lowest else spots.for_value(value)  # sorted out already?
        if not spaces:  # no space for its value: not playable
            continue
        board = board_price(g, p, WORKERS[worker_id].effects) if board_priced else 0.0
        if settles:
            if tiles is None:
                tiles = {}
            here = settle_best(g, p, worker_id, spaces, tiles)
        elif CEILING[worker_id] + board + points < floor:
            continue
        else:  # spaces with the same surroundings price the same
            here = best_space_price(worker_id, spots.surroundings(value))
        here += board + points
        if here > worth:
            best, worth = worker_id, here
    return (PLAY_OPTIONS[best].id if best else None), worth


def settle_best(g: Game, p: Player, worker_id: str, spaces: list[tuple[str, tuple[int, int, int]]],
                tiles: dict[tuple[str, ...], list[tuple[str, float]]]) -> float | None:
    """A settle worker's best price over its spaces (``spaces``: with their surroundings). The
    settle price is the same on every space but those of the dearest tiles a settle effect
    would take (a tile cannot come onto the space its worker stands on, so there the next
    dearest comes instead): worked out once for all the others, and on its own for those."""
    effects = WORKERS[worker_id].effects
    shared = settle_price(g, p, effects, None, tiles)  # no tile left out
    dearest = set()
    for e in effects:
        if e.kind == "settle":
            for t, _ in settle_prices(g, p, e.sources, tiles)[:e.amount]:
                dearest.add(t)
    best = None
    for space, around in spaces:
        price = space_price(worker_id, around) + (
            settle_price(g, p, effects, space, tiles) if space in dearest else shared)
        if best is None or price > best:
            best = price
    return best


def ceiling(worker_id: str) -> float:
    """The most ``space_price`` can give the worker on any space it may take (touching at
    least its value in field tiles): what ``best_worker`` can skip a play by. (Prices are
    multiples of 0.5, so the sums compared are exact.)"""
    most = max(len(near) for near in NEAR.values())
    return max(space_price(worker_id, (near, ripe, crops)) for near in range(WORKERS[worker_id].value, most + 1)
               for ripe in range(near + 1) for crops in range(1, min(near, len(CROPS)) + 1))


class Spots:
    """Where workers may stand on one board: for each worker value, the open spaces a worker
    of that value may take (above its worker's, if any, up to the field tiles it touches:
    ``spaces_for_value``'s test) with their ``surroundings``, in the board's order. Sorted out
    the first time a value is asked, for that value and every higher one not yet asked:
    the bot mostly prices only its dearer workers, and most spaces touch too few fields
    for them."""

    __slots__ = ("spaces", "filled", "ripe", "by_value", "lowest", "_surroundings")

    def __init__(self, ripe: int, board: BoardKey) -> None:
        self.spaces = board_spaces(board)
        self.filled = sum(map(BIT.__getitem__, board[0]))  # one bit a tile: the sum is the union (worked in C)
        self.ripe = ripe
        # by_value[value]: (space, surroundings) pairs, for the values from ``lowest`` up
        self.by_value: list[list[tuple[str, tuple[int, int, int]]]] = [[], [], [], [], [], []]  # values 0 to TOP_VALUE
        self.lowest = TOP_VALUE + 1
        self._surroundings: dict[int, frozenset[tuple[int, int, int]]] = {}

    def for_value(self, value: int) -> list[tuple[str, tuple[int, int, int]]]:
        """The spaces a worker of this value may take, with their surroundings."""
        if value < self.lowest:
            self._sort_out(value)
        return self.by_value[value]

    def _sort_out(self, value: int) -> None:
        """Each space to every value from ``value`` up to (not including) ``lowest`` it takes."""
        filled, ripe, by_value, above = self.filled, self.ripe, self.by_value, self.lowest - 1
        for space, touching, there in self.spaces:
            if touching < value:
                continue
            below = VALUE_THERE[there]
            top = touching if touching < above else above
            if below < top:
                near = AROUND[space] & filled
                spot = (space, SURROUNDINGS.get((near, near & ripe)) or surroundings_of(near, near & ripe))
                for v in range(below + 1 if below >= value else value, top + 1):
                    by_value[v].append(spot)
        self.lowest = value

    def surroundings(self, value: int) -> frozenset[tuple[int, int, int]]:
        """The different surroundings among those spaces (what a power without a settle
        effect is priced by)."""
        out = self._surroundings.get(value)
        if out is None:
            out = self._surroundings[value] = frozenset(map(AROUND_OF, self.for_value(value)))
        return out


@lru_cache(maxsize=BOARDS_KEPT)
def board_spots(ripe: int, board: BoardKey) -> Spots:
    """The board's ``Spots`` (``ripe``: its unharvested field tiles as a board mask, from
    ``ripe_bits``). Kept: one reading of a board serves every play the bot prices."""
    return Spots(ripe, board)


WORKER_VALUES = sorted({w.value for w in WORKERS.values()})
VALUE_THERE = {None: 0, **{w.id: w.value for w in WORKERS.values()}}  # the value of the worker on a space, 0 for none
TOP_VALUE = max(WORKER_VALUES)
CEILING = {w: ceiling(w) for w in WORKERS}
# The most a play can be priced at on any board (``board_price`` at its most: a gain's whole
# amount, a cart's 1.5; a swap's and a settle's tiles are left unbounded): a play below
# ``at_least`` even so is left out without reading the game.
TOP_PRICE = {w.id: CEILING[w.id] + POINTS_SHARE * w.value + sum(
    e.amount if e.kind == "gain" else 1.5 if e.kind == "cart" else float("inf") if e.kind in ("swap", "settle")
    else 0.0 for e in w.effects) for w in WORKERS.values()}
assert WORKER_VALUES == list(range(1, TOP_VALUE + 1)) == [1, 2, 3, 4, 5]  # every value has its cases (Spots' lists)
# What ``best_worker`` reads of each worker, in one lookup: its value, ``TOP_PRICE``, its share
# of points, whether ``board_price`` prices it and whether it settles.
PRICING = {w.id: (w.value, TOP_PRICE[w.id], POINTS_SHARE * w.value, w.id in BOARD_PRICED, w.id in SETTLES)
           for w in WORKERS.values()}


def surroundings_of(near: int, ripe: int) -> tuple[int, int, int]:
    """``surroundings`` from the masks of the fields next to a space and the ripe ones
    among them; kept, since the same few patterns come back on every board."""
    around = SURROUNDINGS.get((near, ripe))
    if around is None:
        b, g, o, r, y = CROP_BITS
        around = SURROUNDINGS[near, ripe] = (
            near.bit_count(), ripe.bit_count(),
            bool(near & b) + bool(near & g) + bool(near & o) + bool(near & r) + bool(near & y))
    return around


SURROUNDINGS: dict[tuple[int, int], tuple[int, int, int]] = {}
AROUND_OF = itemgetter(1)  # of a (space, surroundings) pair  # at most 3**6 patterns around each space
CROP_BITS = tuple(sum(BIT[ref] for ref, tile in FIELDS.items() if tile.crop == crop) for crop in CROPS)
assert len(CROP_BITS) == 5  # unrolled in surroundings_of


def power_choice(g: Game, p: Player, onward: list[str], kinds: dict[str, list[str]]) -> str | None:
    """A worker power's step: the best target of its kind, or stop (a bell) when none helps.
    (``kinds``: the option ids by kind, in listed order.)"""

    def of(kind: str) -> list[str]:
        return kinds.get(kind, [])

    if of("settle"):  # often a dozen tiles: the board's fields as bits, read once
        filled = field_bits(p)
        return max(of("settle"), key=lambda o: ((AROUND[o[7:]] & filled).bit_count(), o))  # "settle:<ref>"
    if of("cart"):
        return max(of("cart"), key=lambda o: (touching(p, o[5:]), o))
    if of("drop"):
        return min(of("drop"), key=lambda o: (touching(p, o[5:]), o))
    if of("clear"):  # a harvested field that joins least
        return min(of("clear"), key=lambda o: (not p.fields[o[6:]], touching(p, o[6:]), o))
    if of("swap"):
        best = max(of("swap"), key=lambda o: (len(g.players[int(o[5:])].store), o))
        mine = len(p.store)
        if "done" in onward and len(g.players[int(best[5:])].store) <= mine:
            return "done"
        return best
    return None

