"""Key Harvest rules: the game flow, in the order of the rulebook's headings.

A game is a pure function of (options, seed, choices). ``Game`` holds plain JSON-ready
values, is copied before every change, and is dumped and loaded as it is. Every decision
is one of the options listed by ``options``.

The flow is a queue of steps (``Game.queue``). A step either runs by itself (drawing a
tile to refill the registry, resolving an event) or waits for one seat's choice (a space
for a worker, a counter to take, a bid). Whoever's step is at the front of the queue is
the one to act; with an empty queue it is the turn player, choosing an action or ending
the turn. Whether a step waits or runs by itself depends only on public things (boards,
supply, registry, stores), never on the counters behind a screen, so whose turn it is
never gives a screen away. A bid being made is the one private step: its counters stay
behind the screen (and out of the public view) until "confirm".

Seat ``s + 1`` sits on the left of seat ``s``: play goes clockwise, 0, 1, 2, ...
The log writes a seat as ``{seat0}``, ``{seat1}``…; the table puts the player's name
there. It never names counters behind a screen.

Readings of the seed where it is unclear (docs/titles/key-harvest.md weighs them):

- Harvest takes one whole group: the fields connected to each other (workers do not
  connect); every unharvested field in it turns over, one counter each.
- Playing a worker that replaces a lower one: the new worker's power works; the replaced
  worker goes home without a second use (FAQ: only a field tile landing on a worker lets
  it be re-placed and used again).
- A displaced worker may be re-placed on an empty space only.
- The "?" check comes right after an event lands on the seventh space, before that event
  is resolved. Events the check sends back while a refill is still drawing are set aside
  until the refill ends, so one refill never draws the same event twice.
- If a refill leaves the registry empty and the bag holds no more field tiles, no new
  field can ever come: the end begins as if the tenth event had been placed.
"""

from __future__ import annotations

from threading import get_ident
from collections import Counter
from dataclasses import dataclass, field, fields as dataclass_fields
from functools import lru_cache, reduce
from itertools import compress
from operator import or_
from typing import Any, Callable, NamedTuple

from app.games.gamelog import GameLog
from app.games.protocol import IllegalAction, Option, Result, SeatScore, check_choice, winners_by_score
from app.games.plainstate import dump_game, load_game
from app.games.rng import Rng

from .content import (AUTOMATIC, BELL, CHECK_SPACE, CHECK_TILES, CROP_KINDS, CROPS, EVENT_SPACES, EVENTS,
                      EVENTS_REMOVED, FARMHANDS, FIELDS, NEIGHBOURS, PLAYER_COLOURS, REGISTRY_SPACES,
                      START_DRAWS, START_PAIRS, STORE_SIZE, TOWNSFOLK, WORKERS, Crop, Effect, Ref,
                      describe_event, is_event)

Seat = int
Job = dict[str, Any]  # one step of the queue

# Phases
START = "start"  # the drawn colour's owner names the start player
PLAY = "play"
OVER = "over"

# The four actions of a turn (the turn option card's letters)
HARVEST, WORKER, TRANSFER, REGISTRY = "harvest", "worker", "transfer", "registry"
ACTION_NAMES = {HARVEST: "a) harvest crops", WORKER: "b) play or remove a worker",
                TRANSFER: "c) transfer tiles from a store", REGISTRY: "d) place tiles from the registry"}
ACTIONS_PER_TURN = 2


@dataclass
class Player:
    """One seat: its country board, store, and the counters behind its screen."""

    seat: Seat
    colour: Crop
    counters: dict[Crop, int] = field(default_factory=lambda: {c: 0 for c in CROPS})  # secret
    fields: dict[Ref, bool] = field(default_factory=dict)  # field tile on the board -> harvested
    workers: dict[Ref, str] = field(default_factory=dict)  # space -> worker id
    store: list[dict[str, Any]] = field(default_factory=list)  # {"tile": ref, "bid": {crop: n}}


@dataclass
class Game:
    players: list[Player]
    options: dict[str, Any]
    rng: str  # Rng.state: holds the game secret, never in a view
    phase: str = START
    turn: Seat = 0
    used: list[str] = field(default_factory=list)  # actions taken this turn
    turns: int = 0  # turns finished
    supply: dict[Crop, int] = field(default_factory=dict)
    start_bag: list[Crop] = field(default_factory=list)  # colours doubled/single/tripled at start (public)
    start_chooser: Seat = 0
    bag: list[str] = field(default_factory=list)  # field tiles and events, in (secret) drawing order
    removed: list[str] = field(default_factory=list)  # events removed unseen at setup (secret)
    registry: list[Ref | None] = field(default_factory=list)
    track: list[str] = field(default_factory=list)  # events on the event track, space 1 first
    set_aside: list[str] = field(default_factory=list)  # events going back to the bag after this one
    held: list[str] = field(default_factory=list)  # events the "?" check sent back, kept out until the refill ends
    ignored: list[str] = field(default_factory=list)  # events drawn in the final turns
    resolving: str | None = None  # the event being resolved
    fallow: list[Ref] = field(default_factory=list)
    town: list[str] = field(default_factory=list)  # townsfolk on the town board
    ending: bool = False  # the tenth event is placed: final turns after this turn
    final_turns: int | None = None  # turns still to play once the final turns began
    checks: int = 0  # "?" checks made (for the log and tests)
    queue: list[Job] = field(default_factory=list)
    log: GameLog = field(default_factory=GameLog)


# --- Small words ---

# A seat in a log line, "{seat0}" (the table puts the player's name there); a table's lookup,
# as log lines name seats often.
seat_ref: Callable[[Seat], str] = [f"{{seat{seat}}}" for seat in range(len(PLAYER_COLOURS))].__getitem__


def seat_label(seat: Seat) -> str:
    """A seat in an option's label (labels are not filled in with names, log lines are)."""
    return f"Seat {seat + 1}"


def crop_name(crop: Crop) -> str:
    return CROP_NAMES[crop]


CROP_NAMES = {c: kind.name for c, kind in CROP_KINDS.items()}


def counters_text(counts: dict[Crop, int]) -> str:
    """"2 hops and 1 wheat" in crop order; "nothing" for none."""
    return counts_text(tuple(counts.items()))


@lru_cache(maxsize=1024)  # bids and harvests: a few hundred different counts at most
def counts_text(items: tuple[tuple[Crop, int], ...]) -> str:
    counts = dict(items)
    parts = [f"{n} {CROP_NAMES[c]}" for c in CROPS if (n := counts.get(c, 0))]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


TILE_TEXTS = {ref: f"{ref} ({CROP_KINDS[tile.crop].name})" for ref, tile in FIELDS.items()}
tile_text: Callable[[Ref], str] = TILE_TEXTS.__getitem__  # "A1 (wheat)": a field tile in words


def worker_text(worker_id: str) -> str:
    w = WORKERS[worker_id]
    return f"the {w.name} ({w.value})"


def clockwise(g: Game, first: Seat) -> list[Seat]:
    return CLOCKWISE[len(g.players)][first]


# The seats clockwise from each seat, by the number of players (not to be changed).
CLOCKWISE = {n: [[(first + k) % n for k in range(n)] for first in range(n)] for n in range(1, len(PLAYER_COLOURS) + 1)}


def counter_total(p: Player) -> int:
    return sum(p.counters.values())


# --- Country boards: groups, workers, tiles on a board ---

# Boards kept by each cache of a board's reading. A board is asked about again within its own
# game only (seldom in another), so a few hundred are plenty; a larger cache only makes the
# garbage collector run more often and walk more (about a tenth of a long run of playouts).
BOARDS_KEPT = 512


def groups(p: Player) -> list[list[Ref]]:
    """The connected groups of field tiles on a board (workers do not connect them),
    largest first, each sorted; ties in size ordered by their first reference."""
    return [list(grp) for grp in board_groups(frozenset(p.fields))]


@lru_cache(maxsize=BOARDS_KEPT)
def board_groups(tiles: frozenset[Ref]) -> tuple[tuple[Ref, ...], ...]:
    """``groups`` for a set of field tiles; kept, since a board changes far less often than
    its groups are asked for (options, the bot, the view, scoring). Walked on bit masks: a
    group grows by the neighbours of its newest tiles at once."""
    left = 0
    for ref in tiles:
        left |= BIT[ref]
    out = []
    while left:
        group = newest = left & -left
        while newest:
            reach = 0
            while newest:
                low = newest & -newest
                reach |= AROUND_AT[low]
                newest ^= low
            newest = reach & left & ~group
            group |= newest
        left ^= group
        refs = []
        while group:
            low = group & -group
            refs.append(SPACE_AT[low])
            group ^= low
        refs.sort()
        out.append(tuple(refs))
    return tuple(sorted(out, key=lambda grp: (-len(grp), grp[0])))


def tiles_on_board(p: Player) -> int:
    """Field tiles and worker tiles: what the "?" check counts."""
    return len(p.fields) + len(p.workers)


def fields_next_to(p: Player, ref: Ref) -> list[Ref]:
    return [n for n in NEIGHBOURS[ref] if n in p.fields]


OpenSpace = tuple[Ref, int, str | None]  # (space, field tiles it touches, worker already there)
BoardKey = tuple[frozenset[Ref], frozenset[tuple[Ref, str]]]  # a board's field tiles and (space, worker) pairs
NEAR: dict[Ref, frozenset[Ref]] = {ref: frozenset(near) for ref, near in NEIGHBOURS.items()}
BIT: dict[Ref, int] = {ref: 1 << i for i, ref in enumerate(NEIGHBOURS)}  # a space as one bit of a board mask
AROUND: dict[Ref, int] = {ref: sum(BIT[n] for n in near) for ref, near in NEIGHBOURS.items()}  # its neighbours


def board_key(p: Player) -> BoardKey:
    """What decides where workers may stand: the field tiles and the workers on the board."""
    return frozenset(p.fields), frozenset(p.workers.items())


def open_spaces(p: Player) -> tuple[OpenSpace, ...]:
    """Spaces a worker could stand on, as (space, field tiles it touches, worker already
    there): no field tile on it, no worker next to it, and at least one field tile next to
    it (every worker needs one)."""
    return board_spaces(board_key(p))


# The spaces of a board are kept (a board changes far less often than they are asked for:
# the options list every worker that has a space, and the bot prices every play).
@lru_cache(maxsize=BOARDS_KEPT)
def board_spaces(board: BoardKey) -> tuple[OpenSpace, ...]:
    tiles, workers = board
    filled = sum(map(BIT.__getitem__, tiles))  # one bit a tile: the sum is the union (worked in C)
    reach = reduce(or_, map(AROUND.__getitem__, tiles), 0)
    blocked = filled
    for ref, _ in workers:
        blocked |= AROUND[ref]  # a space next to a worker
    there = dict(workers)
    out = []
    free = reach & ~blocked
    while free:  # lowest bit first: the board's order
        low = free & -free
        ref = SPACE_AT[low]
        out.append((ref, (AROUND[ref] & filled).bit_count(), there.get(ref)))
        free ^= low
    return tuple(out)


SPACE_AT: dict[int, Ref] = {bit: ref for ref, bit in BIT.items()}
AROUND_AT: dict[int, int] = {bit: AROUND[ref] for ref, bit in BIT.items()}  # a space's neighbours, by its bit


def worker_spaces(p: Player, worker_id: str, replace: bool = True, board: BoardKey | None = None) -> list[Ref]:
    """Where a worker may go on this board: touching at least as many field tiles as its
    number, not touching another worker, on an empty space or (``replace``) on the space
    of a lower-numbered worker. (``board``: the board's key, when the caller has it.)"""
    return list(spaces_for_value(board or board_key(p), WORKERS[worker_id].value, replace))


@lru_cache(maxsize=BOARDS_KEPT)
def spaces_for_value(board: BoardKey, value: int, replace: bool) -> tuple[Ref, ...]:
    return tuple(ref for ref, touching, there in board_spaces(board)
                 if touching >= value and (there is None or replace and WORKERS[there].value < value))


def workers_at_home(g: Game, p: Player) -> list[str]:
    """The seat's playable workers: its farmhands in its supply, then the townsfolk on the
    town board."""
    if not p.workers:
        return [*FARMHANDS_OF[p.colour], *g.town]
    on_board = p.workers.values()
    return [w for w in FARMHANDS_OF[p.colour] if w not in on_board] + g.town


FARMHANDS_OF: dict[Crop, tuple[str, ...]] = {
    colour: tuple(w for w, hand in FARMHANDS.items() if hand.colour == colour) for colour in PLAYER_COLOURS}


def send_home(g: Game, worker_id: str) -> None:
    """A farmhand goes back to its owner's supply (it is simply off the board); a
    townsfolk goes back to the town board."""
    if WORKERS[worker_id].is_townsfolk and worker_id not in g.town:
        g.town.append(worker_id)
        g.town.sort(key=list(TOWNSFOLK).index)


def seat_of_colour(g: Game, colour: Crop) -> Seat:
    return next(p.seat for p in g.players if p.colour == colour)


# --- Counters: taking from the supply ---

def hand_over(g: Game, p: Player, crop: Crop, n: int = 1) -> None:
    """Counters from the supply to behind the seat's screen."""
    g.supply[crop] -= n
    p.counters[crop] += n


def take_counter(g: Game, p: Player, crop: Crop, why: str) -> str | None:
    """One counter of ``crop`` from the supply; if that crop has run out, the seat takes
    any counter there is (a choice, queued next). Returns what was taken, for the log."""
    if g.supply[crop] > 0:
        hand_over(g, p, crop)
        return crop
    if sum(g.supply.values()):
        queue_next(g, {"do": "gain", "seat": p.seat, "left": 1, "crop": None, "why": why})
    return None


def available_crops(g: Game) -> list[Crop]:
    return [c for c in CROPS if g.supply[c] > 0]


# --- Setup ---

def setup(players: int, options: dict[str, Any], seed: int) -> Game:
    """Boards and start pairs, the secret starting counters, the registry, the bag with its
    events, and the draw for who names the start player."""
    if not 2 <= players <= 4:
        raise IllegalAction("Key Harvest is for 2–4 players.")
    rng = Rng(seed)
    g = Game(players=[Player(s, PLAYER_COLOURS[s]) for s in range(players)], options=dict(options), rng="")
    g.town = list(TOWNSFOLK)
    g.supply = {c: CROP_KINDS[c].counters for c in CROPS}
    g.log.append(f"A game of Key Harvest for {players} players. Each player draws "
                 f"{START_DRAWS[players].each} crop counters in secret.")
    deal_start_pairs(g, rng)
    deal_start_counters(g, rng)
    fill_bag(g, rng)
    g.start_chooser = rng.randrange(players)  # the colour drawn from the bag
    g.rng = rng.state
    g.log.append(f"{seat_ref(g.start_chooser)}'s colour is drawn: {seat_ref(g.start_chooser)} "
                 "names the start player.")
    g.queue = [{"do": "start", "seat": g.start_chooser}]
    return g


def deal_start_pairs(g: Game, rng: Rng) -> None:
    """One tile of each coloured pair goes in the bag; each player draws one and takes its
    partner, and places both at their references. Undrawn pairs join the other tiles."""
    pairs = rng.shuffled(list(START_PAIRS))
    for p, pair in zip(g.players, pairs):
        for ref in pair.refs:
            p.fields[ref] = False
        g.log.append(f"{seat_ref(p.seat)} draws the {pair.ink} start pair: {', '.join(map(tile_text, pair.refs))}.")


def deal_start_counters(g: Game, rng: Rng) -> None:
    """The starting bag of counters by player count; each player draws three in secret.
    With two players each takes one of the doubled colour and two of the rest."""
    draw = START_DRAWS[len(g.players)]
    special = sorted(rng.shuffled(list(CROPS))[:draw.special], key=CROPS.index)
    g.start_bag = special
    bag = [c for c in CROPS for _ in range(draw.special_count if c in special else draw.others)]
    for c in bag:
        g.supply[c] -= 1
    if len(g.players) == 2:
        doubled = special[0]
        rest = rng.shuffled([c for c in CROPS if c != doubled])
        hands = [[doubled, *rest[:2]], [doubled, *rest[2:]]]
    else:
        bag = rng.shuffled(bag)
        hands = [bag[i * draw.each:(i + 1) * draw.each] for i in range(len(g.players))]
    for p, hand in zip(g.players, hands):
        for c in hand:
            p.counters[c] += 1


def fill_bag(g: Game, rng: Rng) -> None:
    """The field tiles not on a board go in the bag; six are drawn for the registry; then
    the events go in (all 14 with two players, 12 otherwise, two removed unseen)."""
    placed = {ref for p in g.players for ref in p.fields}
    fields = rng.shuffled([ref for ref in FIELDS if ref not in placed])
    g.registry = fields[:REGISTRY_SPACES]
    events = rng.shuffled(list(EVENTS))
    cut = EVENTS_REMOVED[len(g.players)]
    g.removed = sorted(events[:cut])
    g.bag = rng.shuffled(fields[REGISTRY_SPACES:] + events[cut:])


def start_options(g: Game, p: Player) -> list[Option]:
    return [Option(f"start:{s}", f"{seat_label(s)} starts" if s != p.seat else "I start", "start",
                   f"seat:{s}") for s in range(len(g.players))]


def choose_start(g: Game, p: Player, option_id: str) -> None:
    g.queue.pop(0)
    g.turn = int(option_id.removeprefix("start:"))
    g.phase = PLAY
    g.log.append(f"{seat_ref(p.seat)} starts." if g.turn == p.seat
                 else f"{seat_ref(p.seat)} names {seat_ref(g.turn)} start player.")
    begin_turn(g)


# --- Gameplay flow: a turn of up to two different actions ---

def begin_turn(g: Game) -> None:
    g.used = []
    g.log.append(f"{seat_ref(g.turn)}'s turn." + (f" ({plural(g.final_turns, 'final turn')} left)"
                                                   if g.final_turns is not None else ""))


def can_take(g: Game, action: str) -> bool:
    """Each action at most once a turn, two in all; no transfer after placing from the registry."""
    if action in g.used or len(g.used) >= ACTIONS_PER_TURN:
        return False
    return not (action == TRANSFER and REGISTRY in g.used)


def use_action(g: Game, action: str) -> None:
    if action not in g.used:
        g.used.append(action)


def turn_options(g: Game, p: Player) -> list[Option]:
    out: list[Option] = []
    if can_take(g, HARVEST):
        out += harvest_options(p)
    if can_take(g, WORKER):
        out += play_options(g, p) + remove_options(p)
    if can_take(g, TRANSFER):
        out += transfer_options(g, p)
    if can_take(g, REGISTRY):
        out += registry_options(g, p)
    return out + [END_OPTION]


END_OPTION = Option("end", "End your turn (pass the bag)", "end")


def choose_end(g: Game, p: Player, option_id: str) -> None:
    end_turn(g)


def end_turn(g: Game) -> None:
    """Pass the bag to the left. After the turn in which the tenth event was placed, every
    player takes two more turns; the drawer's second one is the last."""
    g.turns += 1
    g.used = []
    if g.final_turns is not None:
        g.final_turns -= 1
    elif g.ending:
        g.final_turns = ACTIONS_PER_TURN * len(g.players)
        g.log.append(f"Everyone now takes two more turns ({plural(g.final_turns, 'turn')}).")
    if g.final_turns == 0:
        g.phase = OVER
        g.log.append("The final turns are over.")
        return
    g.turn = (g.turn + 1) % len(g.players)
    begin_turn(g)


# --- Action A: Harvest crops ---

def harvest_options(p: Player) -> list[Option]:
    """Each group with an unharvested field in it."""
    return list(board_harvests(p.seat, frozenset(p.fields.items())))


@lru_cache(maxsize=BOARDS_KEPT)  # kept per board, field sides included
def board_harvests(seat: Seat, fields: frozenset[tuple[Ref, bool]]) -> tuple[Option, ...]:
    harvested = dict(fields)
    out = []
    for grp in board_groups(frozenset(harvested)):
        ripe = tuple(r for r in grp if not harvested[r])
        if ripe:
            out.append(harvest_option(seat, grp, ripe))
    return tuple(out)


@lru_cache(maxsize=4096)
def harvest_option(seat: Seat, grp: tuple[Ref, ...], ripe: tuple[Ref, ...]) -> Option:
    return Option(f"harvest:{grp[0]}", f"Harvest {', '.join(ripe)} ({plural(len(ripe), 'counter')})",
                  "harvest", f"group:{seat}:{','.join(grp)}")


def choose_harvest(g: Game, p: Player, option_id: str) -> None:
    """Every unharvested field of the chosen group turns over; one counter of its crop each
    (any counter when that crop has run out)."""
    first = option_id.removeprefix("harvest:")
    grp = next(grp for grp in board_groups(frozenset(p.fields)) if grp[0] == first)
    use_action(g, HARVEST)
    harvest_fields(g, p, [r for r in grp if not p.fields[r]], "harvest")


def harvest_fields(g: Game, p: Player, refs: list[Ref], why: str) -> None:
    got: dict[Crop, int] = {}  # counters taken, by crop
    short = 0
    for ref in refs:
        p.fields[ref] = True
        crop = FIELDS[ref].crop
        if g.supply[crop] > 0:
            hand_over(g, p, crop)
            got[crop] = got.get(crop, 0) + 1
        else:
            short += 1
    text = f"{seat_ref(p.seat)} harvests {', '.join(refs)} and takes {counters_text(got)}"
    if short and sum(g.supply.values()):
        queue_next(g, {"do": "gain", "seat": p.seat, "left": short, "crop": None, "why": why})
        text += f"; {plural(short, 'crop')} ran out, so {plural(short, 'counter')} of any crop"
    elif short:
        text += f"; the supply is empty, {plural(short, 'counter')} short"
    g.log.append(text + ".")


# --- Taking a counter of one's choice (gifts, shortfalls, the gain power) ---

def gain_options(g: Game, p: Player) -> list[Option]:
    job = g.queue[0]
    return [Option(f"gain:{c}", f"Take {crop_name(c)} ({job['left']} to take)", "gain", f"supply:{c}")
            for c in gain_crops(g, job)]


def gain_crops(g: Game, job: Job) -> list[Crop]:
    """The crop the step names while the supply has it, else any crop the supply has."""
    return [job["crop"]] if job.get("crop") and g.supply[job["crop"]] else available_crops(g)


def choose_gain(g: Game, p: Player, option_id: str) -> None:
    crop = option_id.removeprefix("gain:")
    job = g.queue[0]
    hand_over(g, p, crop)
    job["left"] -= 1
    g.log.append(f"{seat_ref(p.seat)} takes {crop_name(crop)} from the supply.")
    if job["left"] <= 0:
        g.queue.pop(0)


def gain_is_settled(g: Game, job: Job) -> bool:
    """A gain needs no question when nothing is left to take, the supply is empty, or the
    one crop named is there to take (then it is taken)."""
    if job["left"] <= 0 or not sum(g.supply.values()):
        return True
    crop = job.get("crop")
    p = changing(g, job["seat"])
    if crop and g.supply[crop] > 0:
        hand_over(g, p, crop)
        job["left"] -= 1
        g.log.append(f"{seat_ref(p.seat)} takes {crop_name(crop)} from the supply.")
        return job["left"] <= 0
    if len(available_crops(g)) == 1:
        only = available_crops(g)[0]
        take = min(job["left"], g.supply[only])
        hand_over(g, p, only, take)
        job["left"] -= take
        g.log.append(f"{seat_ref(p.seat)} takes {plural(take, crop_name(only) + ' counter')} from the supply.")
        return job["left"] <= 0 or not sum(g.supply.values())
    return False


# --- Action B: Play or remove a worker tile ---

def play_options(g: Game, p: Player) -> list[Option]:
    playable = playable_values(board_key(p))
    return [PLAY_OPTIONS[w] for w in workers_at_home(g, p) if playable & VALUE_BIT[w]]


PLAY_OPTIONS = {w: Option(f"play:{w}", f"Play {worker_text(w)}", "play", f"worker:{w}") for w in WORKERS}
VALUE_BIT = {w: 1 << worker.value for w, worker in WORKERS.items()}  # a worker's bit in ``playable_values``


@lru_cache(maxsize=BOARDS_KEPT)
def playable_values(board: BoardKey) -> int:
    """The worker values that have a space on this board (replacing a lower worker counts),
    as the bits of a number: bit 3 set when a worker of value 3 can be played."""
    reach = 0
    for _, touching, there in board_spaces(board):
        above = WORKERS[there].value if there else 0
        if touching > above:
            reach |= (2 << touching) - (2 << above)  # bits above + 1 to touching
    return reach


def remove_options(p: Player) -> list[Option]:
    return [remove_option(p.seat, ref, w) for ref, w in sorted(p.workers.items())]


@lru_cache(maxsize=4096)
def remove_option(seat: Seat, ref: Ref, worker_id: str) -> Option:
    return Option(f"remove:{ref}", f"Remove {worker_text(worker_id)} from {ref}", "remove", f"space:{seat}:{ref}")


def choose_play(g: Game, p: Player, option_id: str) -> None:
    worker_id = option_id.removeprefix("play:")
    g.queue.insert(0, {"do": "place", "seat": p.seat, "worker": worker_id, "why": "play"})


def place_options(g: Game, p: Player) -> list[Option]:
    job = g.queue[0]
    worker_id = job["worker"]
    replacing = job["why"] == "play"
    out = []
    for ref in worker_spaces(p, worker_id, replace=replacing):
        there = p.workers.get(ref)
        label = f"Put {worker_text(worker_id)} on {ref}" + (f", replacing {worker_text(there)}" if there else "")
        out.append(Option(f"space:{ref}", label, "space", f"space:{p.seat}:{ref}"))
    if replacing:
        return out + [cancel_option()]
    return out + [Option("home", f"Send {worker_text(worker_id)} home instead", "home", f"worker:{worker_id}")]


def choose_space(g: Game, p: Player, option_id: str) -> None:
    """Put the worker down (replacing a lower one, who goes home without using its power
    again), then its power works: a bell's if its player wants, a scroll's always."""
    job = g.queue[0]
    ref = option_id.removeprefix("space:")
    worker_id = job["worker"]
    if job["why"] == "play":
        use_action(g, WORKER)
    replaced = p.workers.get(ref)
    if replaced:
        send_home(g, replaced)
    if worker_id in g.town:
        g.town.remove(worker_id)
    p.workers[ref] = worker_id
    verb = "plays" if job["why"] == "play" else "re-places"
    g.log.append(f"{seat_ref(p.seat)} {verb} {worker_text(worker_id)} on {ref}"
                 + (f"; {worker_text(replaced)} goes home." if replaced else "."))
    start_power(g, p, worker_id, ref)  # queued around this step, which then leaves
    g.queue.remove(job)


def choose_home(g: Game, p: Player, option_id: str) -> None:
    job = g.queue.pop(0)
    send_home(g, job["worker"])
    g.log.append(f"{seat_ref(p.seat)} sends {worker_text(job['worker'])} home.")


def choose_remove(g: Game, p: Player, option_id: str) -> None:
    ref = option_id.removeprefix("remove:")
    worker_id = p.workers.pop(ref)
    use_action(g, WORKER)
    send_home(g, worker_id)
    g.log.append(f"{seat_ref(p.seat)} removes {worker_text(worker_id)} from {ref}.")


# --- Worker powers ---
#
# A worker's power is its list of effects (content.py), each one step of the queue, done in
# order: ``{"do": "power", "seat", "worker", "space", "effect": index, "left": amount,
# "optional": bell}``. A step whose effect has nothing to reach is skipped; what it can
# reach is public (boards, supply, registry, stores, fallow fields), so a skip never shows
# a screen. An automatic effect (tally, plough, scorch) is done when its step comes up.
# A bell's steps may each be stopped; a scroll's must be done in full.

def effect_of(job: Job) -> Effect:
    return WORKERS[job["worker"]].effects[job["effect"]]


def start_power(g: Game, p: Player, worker_id: str, ref: Ref) -> None:
    """Queue the worker's effects, in order, as the next steps."""
    w = WORKERS[worker_id]
    g.queue[0:0] = [{"do": "power", "seat": p.seat, "worker": worker_id, "space": ref, "effect": i,
                     "left": e.amount, "optional": w.mark == BELL} for i, e in enumerate(w.effects)]


def power_is_settled(g: Game, job: Job) -> bool:
    """An automatic effect is done now; a chosen one is over when used up or out of reach."""
    p = g.players[job["seat"]]
    if WORKERS[job["worker"]].effects[job["effect"]].kind in AUTOMATIC:  # effect_of(job)
        automatic_effect(g, changing(g, p.seat), job)
        return True
    return job["left"] <= 0 or not power_in_reach(g, p, job)


def power_in_reach(g: Game, p: Player, job: Job) -> bool:
    """Whether ``power_targets`` would list anything, found without listing it (the queue
    asks this after every step of a power)."""
    effect = WORKERS[job["worker"]].effects[job["effect"]]  # effect_of(job)
    kind = effect.kind
    if kind == "gain":
        return any(g.supply[c] > 0 for c in CROPS)
    if kind in ("reap", "renew", "clear"):
        fields = p.fields
        for ref in NEIGHBOURS[job["space"]]:
            if ref in fields and (kind == "clear" or fields[ref] == (kind == "renew")):
                return True  # reap: a ripe field; renew: a harvested one; clear: any
        return False
    if kind == "settle":
        workers, sources = p.workers, effect.sources
        if "fallow" in sources and any(t not in workers for t in g.fallow):
            return True
        if "registry" in sources and any(t and t not in workers for t in g.registry):
            return True
        return "store" in sources and any(e["tile"] not in workers for q in g.players if q is not p
                                          for e in q.store)
    if kind == "cart":  # a full store lists its tiles to drop, else the registry's
        return any(g.registry) and sum(g.supply.values()) > 0
    if kind == "swap":  # every other seat, once any store holds a tile
        return any(q.store for q in g.players)
    raise ValueError(kind)


def automatic_effect(g: Game, p: Player, job: Job) -> None:
    effect, name = effect_of(job), WORKERS[job["worker"]].name
    near = fields_next_to(p, job["space"])
    if effect.kind == "tally":
        crops = sorted({FIELDS[f].crop for f in near}, key=CROPS.index)
        got = [c for c in crops for _ in range(effect.amount) if take_counter(g, p, c, "tally")]
        g.log.append(f"{name}: {seat_ref(p.seat)} takes {counters_text(Counter(got))}.")
    elif effect.kind == "plough":
        for ref in near:
            p.fields[ref] = not p.fields[ref]
        up = [r for r in near if not p.fields[r]]
        down = [r for r in near if p.fields[r]]
        g.log.append(f"{name}: {seat_ref(p.seat)}'s fields next to {job['space']} turn over"
                     + (f"; {', '.join(up)} back up" if up else "") + (f"; {', '.join(down)} down" if down else "") + ".")
    else:  # scorch
        turned = [r for r in near if not p.fields[r]]
        for ref in turned:
            p.fields[ref] = True
        g.log.append(f"{name}: {', '.join(turned)} turn{'s' if len(turned) == 1 else ''} to the harvested side."
                     if turned else f"{name}: every field next to {job['space']} is already harvested.")


def settle_sources(g: Game, p: Player, sources: tuple[str, ...]) -> list[tuple[Ref, str]]:
    """Field tiles the seat could take onto its board, with their option target: fallow
    tiles, registry tiles, other players' store tiles; never one whose space holds one of
    the seat's workers."""
    out: list[tuple[Ref, str]] = []
    if "fallow" in sources:
        out += [(t, f"fallow:{t}") for t in g.fallow]
    if "registry" in sources:
        out += [(t, f"registry:{i}") for i, t in enumerate(g.registry) if t]
    if "store" in sources:
        out += [(e["tile"], f"store:{q.seat}:{i}") for q in g.players if q is not p for i, e in enumerate(q.store)]
    return [(t, target) for t, target in out if t not in p.workers]


def settle_tiles(g: Game, p: Player, sources: tuple[str, ...]) -> list[Ref]:
    """``settle_sources``' tiles alone, in its order (for a listing without targets)."""
    workers = p.workers
    out = []
    if "fallow" in sources:
        out += [t for t in g.fallow if t not in workers]
    if "registry" in sources:
        out += [t for t in g.registry if t and t not in workers]
    if "store" in sources:
        for q in g.players:
            if q is not p:
                out += [e["tile"] for e in q.store if e["tile"] not in workers]
    return out


def power_targets(g: Game, p: Player, job: Job) -> list[tuple[str, str | None]]:
    """What the effect can still reach, as (option id, target), all public. (Whether a
    step is settled asks only this; ``power_label`` words an option for the list.)"""
    effect = effect_of(job)
    kind = effect.kind
    if kind == "gain":
        return [(f"gain:{c}", f"supply:{c}") for c in available_crops(g)]
    if kind in ("reap", "renew", "clear"):
        near = sorted(fields_next_to(p, job["space"]))
        if kind == "reap":
            near = [r for r in near if not p.fields[r]]
        elif kind == "renew":
            near = [r for r in near if p.fields[r]]
        return [(f"{kind}:{r}", f"space:{p.seat}:{r}") for r in near]
    if kind == "settle":
        return [(f"settle:{t}", target) for t, target in settle_sources(g, p, effect.sources)]
    if kind == "cart":
        if not any(g.registry) or not sum(g.supply.values()):
            return []
        if len(p.store) >= STORE_SIZE:
            return [(f"drop:{e['tile']}", f"store:{p.seat}:{i}") for i, e in enumerate(p.store)]
        return [(f"cart:{t}", f"registry:{i}") for i, t in enumerate(g.registry) if t]
    if kind == "swap":
        if not any(q.store for q in g.players):
            return []
        return [(f"swap:{q.seat}", None) for q in g.players if q is not p]
    raise ValueError(kind)


def power_label(g: Game, p: Player, option_id: str, target: str | None) -> str:
    """The words of one of ``power_targets``' options (after the worker's name)."""
    kind, rest = option_id.split(":", 1)
    if kind == "gain":
        return f"take {crop_name(rest)} from the supply"
    if kind == "reap":
        return f"harvest {tile_text(rest)}"
    if kind == "renew":
        return f"turn {tile_text(rest)} back up"
    if kind == "clear":
        return f"send {tile_text(rest)} to the fallow fields"
    if kind == "settle":
        return f"take {tile_text(rest)} from {source_text(g, target)} onto your board"  # type: ignore[arg-type]
    if kind == "drop":
        entry = p.store[int(target.rsplit(":", 1)[1])]  # type: ignore[union-attr]
        return (f"first send {tile_text(entry['tile'])} from your store to the fallow fields (its bid of "
                f"{counters_text(entry['bid'])} to the supply)")
    if kind == "cart":
        return f"carry {tile_text(rest)} into your store (bid: 1 {crop_name(cart_bid(g, rest))} from the supply)"
    q = g.players[int(rest)]  # swap
    return f"swap stores with {seat_label(q.seat)} (you get {store_text(q)}; they get {store_text(p)})"


def source_text(g: Game, target: str) -> str:
    where, _, rest = target.partition(":")
    if where == "store":
        owner, slot = map(int, rest.split(":"))
        return f"{seat_label(owner)}'s store, with its bid of {counters_text(g.players[owner].store[slot]['bid'])}"
    return {"fallow": "the fallow fields", "registry": "the registry"}[where]


def store_text(p: Player) -> str:
    if not p.store:
        return "an empty store"
    return " and ".join(f"{tile_text(e['tile'])} with a bid of {counters_text(e['bid'])}" for e in p.store)


def cart_bid(g: Game, ref: Ref) -> Crop:
    """The Carter's bid: one counter of the tile's crop, or the first crop the supply has."""
    crop = FIELDS[ref].crop
    return crop if g.supply[crop] else available_crops(g)[0]


DONE_WORDS = {"gain": "take no more counters", "reap": "harvest no more", "renew": "turn no more up",
              "settle": "take no tile", "cart": "carry nothing", "swap": "keep your store", "clear": "clear nothing"}


def power_options(g: Game, p: Player) -> list[Option]:
    job = g.queue[0]
    name, kind = WORKERS[job["worker"]].name, effect_of(job).kind
    out = []
    for oid, target in power_targets(g, p, job):
        if kind in STEADY_POWERS or kind == "settle" and not target.startswith("store:"):  # type: ignore[union-attr]
            out.append(steady_power_option(name, oid, target))
        else:
            out.append(power_option(name, oid, target, power_label(g, p, oid, target)))
    if job["optional"]:
        out.append(power_done_option(name, kind))
    return out


# Effects whose options are worded from their target alone (as is a settle effect's, but for
# a tile from a store, whose bid is named): kept without wording them again.
STEADY_POWERS = frozenset({"gain", "reap", "renew", "clear"})


@lru_cache(maxsize=4096)
def steady_power_option(name: str, oid: str, target: str | None) -> Option:
    return power_option(name, oid, target, power_label(None, None, oid, target))  # type: ignore[arg-type]  # reads no game


@lru_cache(maxsize=4096)
def power_option(name: str, oid: str, target: str | None, label: str) -> Option:
    return Option(oid, f"{name}: {label[0].upper()}{label[1:]}", oid.split(":", 1)[0], target)


@lru_cache(maxsize=None)  # a worker's name and an effect's kind
def power_done_option(name: str, kind: str) -> Option:
    return Option("done", f"{name}: {DONE_WORDS[kind]}", "done")


def choose_power(g: Game, p: Player, option_id: str) -> None:
    job = g.queue[0]
    kind, target = option_id.split(":", 1)
    worker = WORKERS[job["worker"]]
    effect, name = worker.effects[job["effect"]], worker.name  # effect_of(job)
    if kind == "gain":
        hand_over(g, p, target)
        g.log.append(f"{name}: {seat_ref(p.seat)} takes {crop_name(target)} from the supply.")
    elif kind == "reap":
        harvest_fields(g, p, [target], "reap")
        for _ in range(effect.per - 1):
            if take_counter(g, p, FIELDS[target].crop, "reap"):
                g.log.append(f"{name}: {seat_ref(p.seat)} takes one more {crop_name(FIELDS[target].crop)}.")
    elif kind == "renew":
        p.fields[target] = False
        g.log.append(f"{name}: {seat_ref(p.seat)} turns {tile_text(target)} back up.")
    elif kind == "clear":
        del p.fields[target]
        g.fallow.append(target)
        g.log.append(f"{name}: {seat_ref(p.seat)} sends {tile_text(target)} to the fallow fields.")
    elif kind == "settle":
        take_onto_board(g, p, target, name)
    elif kind == "drop":
        entry = next(e for e in p.store if e["tile"] == target)
        p.store.remove(entry)
        for c, n in entry["bid"].items():
            g.supply[c] += n
        g.fallow.append(target)
        g.log.append(f"{name}: {seat_ref(p.seat)}'s store is full; {tile_text(target)} goes to the fallow fields "
                     f"and its bid of {counters_text(entry['bid'])} to the supply.")
        return  # the carrying itself is still to come
    elif kind == "cart":
        slot = g.registry.index(target)
        crop = cart_bid(g, target)
        g.supply[crop] -= 1
        g.registry[slot] = None
        p.store.append({"tile": target, "bid": {crop: 1}})
        g.log.append(f"{name}: {seat_ref(p.seat)} carries {tile_text(target)} from the registry into their store, "
                     f"with a bid of 1 {crop_name(crop)} from the supply.")
        queue_next(g, {"do": "refill", "slot": slot, "seat": p.seat}, first=True)
    else:  # swap
        other = changing(g, int(target))
        p.store, other.store = other.store, p.store
        g.log.append(f"{name}: {seat_ref(p.seat)} and {seat_ref(other.seat)} swap stores, tiles and bids.")
    job["left"] -= 1
    if job["left"] <= 0:
        g.queue.remove(job)


def take_onto_board(g: Game, p: Player, ref: Ref, why: str) -> None:
    """A field tile onto the seat's board from the fallow fields, the registry (refilled at
    once) or another player's store (its bid comes behind the seat's screen)."""
    if ref in g.fallow:
        settle_tile(g, p, ref, why)
        return
    if ref in g.registry:
        slot = g.registry.index(ref)
        g.registry[slot] = None
        p.fields[ref] = False
        g.log.append(f"{why}: {seat_ref(p.seat)} takes {tile_text(ref)} from the registry onto their board.")
        queue_next(g, {"do": "refill", "slot": slot, "seat": p.seat}, first=True)
        return
    owner = changing(g, next(q.seat for q in g.players if any(e["tile"] == ref for e in q.store)))
    entry = next(e for e in owner.store if e["tile"] == ref)
    owner.store.remove(entry)
    for c, n in entry["bid"].items():
        p.counters[c] += n
    p.fields[ref] = False
    g.log.append(f"{why}: {seat_ref(p.seat)} takes {tile_text(ref)} from {seat_ref(owner.seat)}'s store onto their "
                 f"board, and its bid of {counters_text(entry['bid'])} behind their screen.")


def settle_targets(p: Player, fallow: list[Ref]) -> list[Ref]:
    """Fallow tiles that can go onto this board: their space holds no worker."""
    return [t for t in fallow if t not in p.workers]


def settle_tile(g: Game, p: Player, ref: Ref, why: str) -> None:
    g.fallow.remove(ref)
    p.fields[ref] = False
    g.log.append(f"{why}: {seat_ref(p.seat)} takes {tile_text(ref)} from the fallow fields onto their board.")


def choose_done(g: Game, p: Player, option_id: str) -> None:
    job = g.queue.pop(0)
    if job["do"] == "more":
        return
    if job["do"] == "power":
        g.log.append(f"{WORKERS[job['worker']].name}: {seat_ref(p.seat)} chooses to {DONE_WORDS[effect_of(job).kind]}.")


# --- Action C: Transfer field tiles from stores to your country board ---

def can_pay(p: Player, bid: dict[Crop, int]) -> bool:
    counters = p.counters
    for c, n in bid.items():
        if counters[c] < n:
            return False
    return True


def transfer_options(g: Game, p: Player) -> list[Option]:
    """Your own store's tiles (their bid goes to the supply), and an opponent's whose bid you
    can match exactly, counter for counter."""
    seat = p.seat
    return [transfer_option(owner == seat, owner, slot, entry["tile"], tuple(entry["bid"].items()))
            for owner, slot, entry in transferable(g, p)]


def transferable(g: Game, p: Player) -> list[tuple[Seat, int, dict[str, Any]]]:
    """``transfer_options``' store tiles, as (owner, slot, entry), clockwise from the seat."""
    out = []
    for owner in clockwise(g, p.seat):
        store = g.players[owner].store
        if not store:
            continue
        own = owner == p.seat
        for slot, entry in enumerate(store):
            if own or can_pay(p, entry["bid"]):
                out.append((owner, slot, entry))
    return out


@lru_cache(maxsize=4096)
def transfer_option(own: bool, owner: Seat, slot: int, ref: Ref, bid: tuple[tuple[Crop, int], ...]) -> Option:
    price = "its bid goes to the supply" if own else f"pay {seat_label(owner)} {counters_text(dict(bid))}"
    return Option(f"take:{owner}:{slot}", f"Transfer {tile_text(ref)} to your board ({price})",
                  "take", f"store:{owner}:{slot}")


def choose_take(g: Game, p: Player, option_id: str) -> None:
    """Move the tile onto its space, unharvested side up. A worker on that space comes off
    and may be re-placed at once (its power then works again); otherwise it goes home."""
    owner_s, slot_s = option_id.removeprefix("take:").split(":")
    owner = changing(g, int(owner_s))
    entry = owner.store.pop(int(slot_s))
    if g.queue and g.queue[0]["do"] == "more":
        g.queue.pop(0)
    else:
        queue_next(g, {"do": "more", "seat": p.seat, "action": TRANSFER}, first=True)
    use_action(g, TRANSFER)
    bid = entry["bid"]
    if owner is p:
        for c, n in bid.items():
            g.supply[c] += n
        paid = f"its bid of {counters_text(bid)} goes to the supply"
    else:
        for c, n in bid.items():
            p.counters[c] -= n
            owner.counters[c] += 2 * n
        paid = f"paying {seat_ref(owner.seat)} {counters_text(bid)}, who takes that and the bid behind their screen"
    ref = entry["tile"]
    source = "their own store" if owner is p else f"{seat_ref(owner.seat)}'s store"
    g.log.append(f"{seat_ref(p.seat)} transfers {tile_text(ref)} from {source} to their board, {paid}.")
    displaced = p.workers.pop(ref, None)
    p.fields[ref] = False
    if displaced:
        displace(g, p, displaced, ref)


def displace(g: Game, p: Player, worker_id: str, ref: Ref) -> None:
    if worker_spaces(p, worker_id, replace=False):
        g.log.append(f"The tile lands on {worker_text(worker_id)}, who may be re-placed at once.")
        queue_next(g, {"do": "place", "seat": p.seat, "worker": worker_id, "why": "displaced"}, first=True)
    else:
        send_home(g, worker_id)
        g.log.append(f"The tile lands on {worker_text(worker_id)}, who has nowhere to go and goes home.")


def more_options(g: Game, p: Player) -> list[Option]:
    """The second tile of a transfer or of a registry placement, or stop."""
    job = g.queue[0]
    more = transfer_options(g, p) if job["action"] == TRANSFER else registry_options(g, p)
    return more + [NO_SECOND_TILE]


NO_SECOND_TILE = Option("done", "No second tile", "done")


def more_is_settled(g: Game, job: Job) -> bool:
    """Skip the question when no second tile can be had for public reasons only: stores all
    empty, or (registry) a full store or an empty registry."""
    p = g.players[job["seat"]]
    if job["action"] == TRANSFER:
        return not any(q.store for q in g.players)
    return len(p.store) >= STORE_SIZE or not any(g.registry)


# --- Action D: Place tiles from the registry into your store ---

def registry_options(g: Game, p: Player) -> list[Option]:
    """A registry tile, if your store has room and you have a counter to bid."""
    if not can_bid(p):
        return []
    return [REGISTRY_OPTIONS[i][ref] for i, ref in enumerate(g.registry) if ref]


def can_bid(p: Player) -> bool:
    """Room in the store and a counter to bid: a registry tile may be chosen."""
    return len(p.store) < STORE_SIZE and sum(p.counters.values()) > 0  # counter_total(p), without the call


# Every registry space's option for every tile, made once (6 spaces, 56 tiles).
REGISTRY_OPTIONS: list[dict[Ref, Option]] = [
    {ref: Option(f"registry:{slot}", f"Put {tile_text(ref)} into your store and bid for it", "registry",
                 f"registry:{slot}") for ref in FIELDS} for slot in range(REGISTRY_SPACES)]


def choose_registry(g: Game, p: Player, option_id: str) -> None:
    back = g.queue.pop(0) if g.queue and g.queue[0]["do"] == "more" else None
    g.queue.insert(0, {"do": "bid", "seat": p.seat, "slot": int(option_id.removeprefix("registry:")),
                       "bid": {}, "back": back})


def bid_options(g: Game, p: Player) -> list[Option]:
    """Add counters from behind your screen one at a time; confirm with at least one."""
    job = g.queue[0]
    bid = job["bid"]
    out = [ADD_OPTIONS[c] for c in CROPS if p.counters[c] - bid.get(c, 0) > 0]
    if bid:
        out.append(confirm_option(tuple(bid.items()), g.registry[job["slot"]]))
    return out + [CANCEL_OPTION]


ADD_OPTIONS = {c: Option(f"add:{c}", f"Add {crop_name(c)} to the bid", "add", f"counter:{c}") for c in CROPS}


@lru_cache(maxsize=4096)
def confirm_option(bid: tuple[tuple[Crop, int], ...], ref: Ref) -> Option:
    return Option("confirm", f"Bid {counters_text(dict(bid))} for {tile_text(ref)}", "confirm")


def choose_add(g: Game, p: Player, option_id: str) -> None:
    bid = g.queue[0]["bid"]
    crop = option_id.removeprefix("add:")
    bid[crop] = bid.get(crop, 0) + 1


def choose_confirm(g: Game, p: Player, option_id: str) -> None:
    """The tile goes into the store with its bid beside it (permanent), and the registry is
    refilled at once; then a second tile may follow."""
    job = g.queue.pop(0)
    slot = job["slot"]
    placed = job["bid"]
    bid = placed.copy() if len(placed) == 1 else {c: placed[c] for c in CROPS if c in placed}  # in crop order
    for c, n in bid.items():
        p.counters[c] -= n
    ref = g.registry[slot]
    g.registry[slot] = None
    p.store.append({"tile": ref, "bid": bid})
    first = job["back"] is None
    use_action(g, REGISTRY)
    g.log.append(f"{seat_ref(p.seat)} puts {tile_text(ref)} into their store with a bid of {counters_text(bid)}.")
    steps: list[Job] = [{"do": "refill", "slot": slot, "seat": p.seat}]
    if first:
        steps.append({"do": "more", "seat": p.seat, "action": REGISTRY})
    g.queue[0:0] = steps


# --- Refilling the registry, drawing from the bag ---

def refill(g: Game, job: Job) -> None:
    """Draw until a field tile fills the space. An event drawn is resolved first (then the
    drawing goes on); during an event it is set aside, in the final turns ignored. An empty
    bag leaves the space empty. (A space an event has filled meanwhile needs no more.)"""
    drawing(g)
    while g.bag and g.registry[job["slot"]] is None:
        tile = g.bag.pop(0)
        if not is_event(tile):
            g.registry[job["slot"]] = tile
            g.log.append(f"{tile_text(tile)} is drawn for the registry.")
            break
        if g.ending:
            g.ignored.append(tile)
            g.log.append(f"The event {EVENTS[tile].name} is drawn and ignored: these are the final turns.")
        elif g.resolving:
            g.set_aside.append(tile)
            g.log.append(f"The event {EVENTS[tile].name} is drawn during an event and set aside.")
        else:
            g.queue[0:0] = [{"do": "event", "id": tile, "drawer": job["seat"]}, dict(job)]
            return
    if g.registry[job["slot"]] is None:
        g.log.append("The bag is empty: the registry space stays empty.")
    if g.held and not g.resolving:  # the drawing that placed the "?" event is over
        back, g.held = g.held, []
        return_to_bag(g, back)
    check_registry_exhausted(g)


def check_registry_exhausted(g: Game) -> None:
    """(Authored) an empty registry with no field tile left in the bag can never fill
    again: the end begins as if the tenth event had been placed."""
    if not g.ending and not any(g.registry) and not any(not is_event(t) for t in g.bag):
        g.ending = True
        g.log.append("No field tiles are left to draw: the game ends after this turn and two more each.")


def return_to_bag(g: Game, tiles: list[str]) -> None:
    """Tiles go back into the bag at random places (the bag is shaken)."""
    drawing(g)
    rng = Rng(g.rng)
    for t in tiles:
        g.bag.insert(rng.randrange(len(g.bag) + 1), t)
    g.rng = rng.state


# --- Event tiles ---

def place_event(g: Game, job: Job) -> None:
    """The event goes on the next space of the track; landing on "?" makes the check of
    seven tiles; then it is resolved for every player, clockwise from the drawer."""
    drawing(g)
    event = EVENTS[job["id"]]
    g.track.append(event.id)
    g.log.append(f"Event {len(g.track)}: {event.name} is drawn by {seat_ref(job['drawer'])}. {describe_event(event)}")
    if len(g.track) == CHECK_SPACE:
        seven_tile_check(g)
    if len(g.track) == EVENT_SPACES:
        g.ending = True
        g.log.append(f"That is the tenth event: {seat_ref(g.turn)} finishes the turn, then everyone takes two more.")
    g.resolving = event.id
    g.queue[0:0] = event_steps(g, event.id, job["drawer"]) + [{"do": "event_done"}]


def seven_tile_check(g: Game) -> None:
    """The "?" space: if anyone has fewer than seven tiles (fields and workers) on their
    board, the events on spaces 1 and 2 go back into the bag and the rest move down two."""
    drawing(g)
    g.checks += 1
    short = [p.seat for p in g.players if tiles_on_board(p) < CHECK_TILES]
    if not short:
        g.log.append("The \"?\" check: everyone has seven tiles or more; the track stays.")
        return
    back, g.track = g.track[:2], g.track[2:]
    g.held.extend(back)  # into the bag once this refill is over, so it cannot draw them again
    g.log.append(f"The \"?\" check: {', '.join(seat_ref(s) for s in short)} "
                 f"{'has' if len(short) == 1 else 'have'} fewer than seven tiles; "
                 f"{' and '.join(EVENTS[e].name for e in back)} go back into the bag and the track moves down.")


def event_steps(g: Game, event_id: str, drawer: Seat) -> list[Job]:
    """Resolve an event: what happens to everyone at once is done here; a choice for each
    player is queued, clockwise from the drawer."""
    event = EVENTS[event_id]
    kind = event.kind
    if kind in ("blight", "rain"):
        turn_crop(g, event.crop, harvested=(kind == "blight"))
        return []
    if kind == "recall":
        recall(g, event.workers)
        return []
    if kind == "bailiffs":
        bailiffs(g)
        return []
    if kind == "enclosure":
        g.fallow.extend(r for r in g.registry if r)
        g.registry = [None] * REGISTRY_SPACES
        g.log.append("The registry's tiles go to the fallow fields.")
        return [{"do": "refill", "slot": i, "seat": drawer} for i in range(REGISTRY_SPACES)]
    if kind == "gift":
        return [{"do": "gain", "seat": s, "left": 1, "crop": event.crop, "why": "gift"} for s in clockwise(g, drawer)]
    return [{"do": kind, "seat": s} for s in clockwise(g, drawer)]  # resettle, hail, bloom


def turn_crop(g: Game, crop: Crop, harvested: bool) -> None:
    """Blight (to the harvested side) or rain (back up) for every field of a crop."""
    for p in [changing(g, q.seat) for q in g.players]:
        for ref in p.fields:
            if FIELDS[ref].crop == crop:
                p.fields[ref] = harvested
    side = "harvested side" if harvested else "crop side"
    g.log.append(f"Every {crop_name(crop)} field turns to its {side}.")


def recall(g: Game, which: str) -> None:
    for p in [changing(g, q.seat) for q in g.players]:
        for ref, w in sorted(p.workers.items()):
            worker = WORKERS[w]
            if (which == "ones" and not worker.is_townsfolk and worker.value == 1) or \
                    (which == "townsfolk" and worker.is_townsfolk):
                del p.workers[ref]
                send_home(g, w)
    g.log.append("Every farmhand of value 1 goes home." if which == "ones"
                 else "Every townsfolk goes back to the town board.")


def bailiffs(g: Game) -> None:
    for p in [changing(g, q.seat) for q in g.players]:
        for entry in p.store:
            g.fallow.append(entry["tile"])
            for c, n in entry["bid"].items():
                p.counters[c] += n
        p.store = []
    g.log.append("Every store's tiles go to the fallow fields; the bids go back behind their owners' screens.")


def event_options(g: Game, p: Player) -> list[Option]:
    """Resettle (may take a fallow tile), hail (must turn an unharvested field down),
    bloom (may turn a harvested field up)."""
    kind = g.queue[0]["do"]
    targets = event_targets(g, p, kind)
    word = {"resettle": "Take {} from the fallow fields", "hail": "Hail on {}", "bloom": "Turn {} back up"}[kind]
    out = [Option(f"{kind}:{t}", word.format(tile_text(t)), kind,
                  f"fallow:{t}" if kind == "resettle" else f"space:{p.seat}:{t}") for t in targets]
    if kind != "hail":
        out.append(Option("done", "Pass", "done"))
    return out


def event_targets(g: Game, p: Player, kind: str) -> list[Ref]:
    if kind == "resettle":
        return settle_targets(p, g.fallow)
    want_harvested = kind == "bloom"
    return [r for r in sorted(p.fields) if p.fields[r] == want_harvested]


def choose_event(g: Game, p: Player, option_id: str) -> None:
    kind, ref = option_id.split(":", 1)
    g.queue.pop(0)
    if kind == "resettle":
        settle_tile(g, p, ref, EVENTS[g.resolving].name if g.resolving else "Resettlement")
    else:
        p.fields[ref] = kind == "hail"
        side = "harvested" if kind == "hail" else "crop"
        g.log.append(f"{seat_ref(p.seat)} turns {tile_text(ref)} to its {side} side.")


def event_done(g: Game) -> None:
    """Events set aside while this one was resolved go back into the bag."""
    drawing(g)
    g.resolving = None
    if g.set_aside:
        back, g.set_aside = g.set_aside, []
        return_to_bag(g, back)
        g.log.append(f"{plural(len(back), 'set-aside event')} go{'es' if len(back) == 1 else ''} back into the bag.")


# --- Scoring and the end of the game ---

def score_lines(p: Player, majorities: dict[Crop, Seat | None]) -> dict[str, int]:
    """Workers at their value; the largest group 1 a tile; the second largest (a separate
    group) 2 a tile; 1 for each crop where this player alone has the most counters."""
    sizes = [len(grp) for grp in groups(p)] + [0, 0]
    lines = {"Workers": sum(WORKERS[w].value for w in p.workers.values()),
             "Largest group": sizes[0], "Second largest group": 2 * sizes[1]}
    for c in CROPS:
        lines[f"Most {crop_name(c)}"] = int(majorities[c] == p.seat)
    return lines


def crop_majorities(g: Game) -> dict[Crop, Seat | None]:
    """The single player with the most counters of each crop behind the screen; None on a tie
    (or when nobody has any)."""
    out: dict[Crop, Seat | None] = {}
    for c in CROPS:
        best = max(p.counters[c] for p in g.players)
        holders = [p.seat for p in g.players if p.counters[c] == best]
        out[c] = holders[0] if best > 0 and len(holders) == 1 else None
    return out


def scores(g: Game) -> list[SeatScore]:
    majorities = crop_majorities(g)
    out = []
    for p in g.players:
        lines = score_lines(p, majorities)
        out.append(SeatScore(p.seat, sum(lines.values()), lines, (len(p.fields), counter_total(p)),
                             note=f"{plural(len(p.fields), 'field tile')}; behind the screen: "
                                  f"{counters_text(p.counters)}"))
    return out


def result(g: Game) -> Result | None:
    """Most points wins; ties go to the most field tiles, then the most counters; still
    tied, the tied players share the win (the seed says: play again)."""
    if g.phase != OVER:
        return None
    seat_scores = scores(g)
    return Result(seat_scores, winners_by_score(seat_scores),
                  "The tenth event was placed and everyone has had two more turns.")


# --- Cancelling a choice in progress ---

def cancel_option() -> Option:
    return CANCEL_OPTION


CANCEL_OPTION = Option("cancel", "Cancel", "cancel")


def choose_cancel(g: Game, p: Player, option_id: str) -> None:
    job = g.queue.pop(0)
    if job.get("back"):
        g.queue.insert(0, job["back"])


# --- The queue: steps that run by themselves, and who acts ---

def queue_next(g: Game, job: Job, first: bool = False) -> None:
    """Queue a step to come right after the current one (or before it, with ``first``),
    and before whatever waits behind it."""
    g.queue.insert(0 if first or not g.queue else 1, job)


def step_is_settled(g: Game, job: Job) -> bool:
    """Run a step that needs no question; True when it is finished. Each test here uses
    public things only, so it never shows what is behind a screen."""
    kind = job["do"]
    if kind == "gain":
        return gain_is_settled(g, job)
    if kind == "power":
        return power_is_settled(g, job)
    if kind in ("resettle", "hail", "bloom"):
        return not event_targets(g, g.players[job["seat"]], kind)
    if kind == "more":
        return more_is_settled(g, job)
    return False


def run_queue(g: Game) -> None:
    """Run every step that needs no question; stop at the first that waits for a seat.
    With the queue empty and two actions taken, the turn ends by itself."""
    while True:
        if g.phase == OVER:
            g.queue = []
            return
        if not g.queue:
            if g.phase == PLAY and len(g.used) >= ACTIONS_PER_TURN:
                end_turn(g)
                continue
            return
        job = g.queue[0]
        kind = job["do"]
        if kind == "refill":
            g.queue.pop(0)
            refill(g, job)
        elif kind == "event":
            g.queue.pop(0)
            place_event(g, job)
        elif kind == "event_done":
            g.queue.pop(0)
            event_done(g)
        elif step_is_settled(g, job):
            g.queue.remove(job)
        else:
            return


# --- The protocol: who acts, what they may choose, applying a choice ---

def to_act(g: Game) -> frozenset[Seat]:
    if g.phase == OVER:
        return frozenset()
    return ONLY[g.queue[0]["seat"] if g.queue else g.turn]


ONLY = [frozenset({seat}) for seat in range(len(PLAYER_COLOURS))]  # who acts: always one seat


QUEUE_OPTIONS: dict[str, Callable[[Game, Player], list[Option]]] = {
    "start": start_options, "gain": gain_options, "place": place_options, "power": power_options,
    "more": more_options, "bid": bid_options, "resettle": event_options, "hail": event_options,
    "bloom": event_options,
}
CHOICES: dict[str, Callable[[Game, Player, str], None]] = {
    "start": choose_start, "end": choose_end, "harvest": choose_harvest, "gain": lambda g, p, o: (
        choose_power if g.queue[0]["do"] == "power" else choose_gain)(g, p, o),
    "play": choose_play, "space": choose_space, "home": choose_home, "remove": choose_remove,
    "reap": choose_power, "renew": choose_power, "settle": choose_power, "cart": choose_power,
    "drop": choose_power, "swap": choose_power, "clear": choose_power, "done": choose_done,
    "take": choose_take, "registry": choose_registry, "add": choose_add, "confirm": choose_confirm,
    "resettle": choose_event, "hail": choose_event, "bloom": choose_event, "cancel": choose_cancel,
}


def options(g: Game, seat: Seat) -> list[Option]:
    """Every legal choice for the seat now, in a stable order."""
    if g.phase == OVER or seat not in to_act(g):
        return []
    p = g.players[seat]
    return QUEUE_OPTIONS[g.queue[0]["do"]](g, p) if g.queue else turn_options(g, p)


class _Listed:
    """What the bot listed last, for the next ``apply`` on that game (as protocol.ListedOnce,
    read here directly: a choice found in the kept list needs no other check, since a game
    that is over, or a seat not to act, lists nothing). Taken at most once.

    One slot for every thread, stamped with the thread that listed (as ``ListedOnce``): a
    thread that finds another's listing (or none) checks afresh, so sharing it is safe, and
    cheaper per decision than a ``threading.local``."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        # (thread, game, seat, listing)
        self.last: tuple[int, Game, Seat, list[Option] | list[Choice] | TurnListing | BidListing | MoreListing] | None
        self.last = None


_LISTED = _Listed()


def listed(g: Game, seat: Seat) -> list[Option] | list[Choice]:
    """``options``, for a caller that next applies one of them to this very game (the bot).
    A step whose options are worded one by one (a worker's spaces, a power's targets, a
    counter to take, an event's choice, a bid's counters) is listed as ``Choice``s: the same ids and kinds in
    the same order, from the same rules, without the words nobody reads."""
    if g.phase == OVER or seat not in to_act(g):
        out: list[Option] | list[Choice] = []
    elif not g.queue:
        out = turn_options(g, g.players[seat])
    else:  # ``options``' own listing, its checks made just above
        step = g.queue[0]["do"]
        out = (STEP_CHOICES.get(step) or QUEUE_OPTIONS[step])(g, g.players[seat])
    _LISTED.last = (get_ident(), g, seat, out)
    return out


class Choice(NamedTuple):
    """An option's id and kind without its label or target: all the bot reads of one."""

    id: str
    kind: str


def place_choices(g: Game, p: Player) -> list[Choice]:
    """``place_options`` as ``Choice``s."""
    job = g.queue[0]
    replacing = job["why"] == "play"
    out = [SPACE_CHOICES[ref] for ref in worker_spaces(p, job["worker"], replace=replacing)]
    out.append(CANCEL_CHOICE if replacing else HOME_CHOICE)
    return out


def power_choices(g: Game, p: Player) -> list[Choice]:
    """``power_options`` as ``Choice``s."""
    job = g.queue[0]
    effect = WORKERS[job["worker"]].effects[job["effect"]]  # effect_of(job)
    if effect.kind == "settle":  # often a dozen tiles: no targets worded
        out = [SETTLE_CHOICES[t] for t in settle_tiles(g, p, effect.sources)]
    else:
        out = [TARGET_CHOICES[oid] for oid, _ in power_targets(g, p, job)]
    if job["optional"]:
        out.append(DONE_CHOICE)
    return out


def gain_choices(g: Game, p: Player) -> list[Choice]:
    """``gain_options`` as ``Choice``s."""
    return [TARGET_CHOICES[f"gain:{c}"] for c in gain_crops(g, g.queue[0])]


def event_choices(g: Game, p: Player) -> list[Choice]:
    """``event_options`` as ``Choice``s."""
    kind = g.queue[0]["do"]
    out = [TARGET_CHOICES[f"{kind}:{t}"] for t in event_targets(g, p, kind)]
    if kind != "hail":
        out.append(DONE_CHOICE)
    return out


def more_choices(g: Game, p: Player) -> list[Choice]:
    """``more_options`` as ``Choice``s (a transfer's words name the tile and its bid)."""
    if g.queue[0]["action"] == TRANSFER:
        out = [TAKE_CHOICES[owner][slot] for owner, slot, _ in transferable(g, p)]
    elif can_bid(p):
        out = list(compress(REGISTRY_CHOICES, g.registry))  # the filled slots' choices, in slot order
    else:
        out = []
    out.append(DONE_CHOICE)
    return out


REGISTRY_CHOICES = [Choice(f"registry:{slot}", "registry") for slot in range(REGISTRY_SPACES)]  # ids as REGISTRY_IDS


def bid_choices(g: Game, p: Player) -> list[Choice]:
    """``bid_options`` as ``Choice``s (the confirm option's words name the bid and the tile)."""
    bid = g.queue[0]["bid"]
    counters = p.counters
    out = [ADD_CHOICES[c] for c in CROPS if counters[c] - bid.get(c, 0) > 0]
    if bid:
        out.append(CONFIRM_CHOICE)
    out.append(CANCEL_CHOICE)
    return out


CANCEL_CHOICE, HOME_CHOICE, DONE_CHOICE = Choice("cancel", "cancel"), Choice("home", "home"), Choice("done", "done")
CONFIRM_CHOICE = Choice("confirm", "confirm")
ADD_CHOICES = {c: Choice(f"add:{c}", "add") for c in CROPS}
# Every other step's choices, made once: a space for a worker, a seat's store slot, and each
# target of a power or an event by its id ("<kind>:<crop, tile or seat>").
SPACE_CHOICES = {ref: Choice(f"space:{ref}", "space") for ref in NEIGHBOURS}
TAKE_CHOICES = [[Choice(f"take:{owner}:{slot}", "take") for slot in range(STORE_SIZE)]
                for owner in range(len(PLAYER_COLOURS))]
TARGET_CHOICES = {f"{kind}:{thing}": Choice(f"{kind}:{thing}", kind) for kind, things in (
    ("gain", CROPS), *((kind, FIELDS) for kind in ("reap", "renew", "clear", "settle", "drop", "cart", "resettle",
                                                  "hail", "bloom")),
    ("swap", range(len(PLAYER_COLOURS)))) for thing in things}
SETTLE_CHOICES = {ref: TARGET_CHOICES[f"settle:{ref}"] for ref in FIELDS}  # by the tile
STEP_CHOICES: dict[str, Callable[[Game, Player], list[Choice]]] = {
    "place": place_choices, "power": power_choices, "gain": gain_choices, "resettle": event_choices,
    "hail": event_choices, "bloom": event_choices, "bid": bid_choices, "more": more_choices}


class TurnListing:
    """A turn's options for the bot, kind by kind, each worked out the first time it is asked
    (``turn_options`` works out every kind at once): the bot mostly settles on its own store,
    the registry or a strong worker and never needs the rest, the groups to harvest above all.
    ``apply`` takes a choice found among the kinds worked out without another check."""

    __slots__ = ("g", "p", "ids")

    def __init__(self, g: Game, p: Player) -> None:
        self.g, self.p = g, p
        self.ids: dict[str, list[str]] = {"end": ["end"]}

    def of(self, kind: str) -> list[str]:
        """The option ids of one kind ("harvest", "play", "remove", "take" or "registry"), in
        ``turn_options``' order; none when this turn's actions rule that kind out."""
        ids = self.ids.get(kind)
        if ids is None:
            g, p = self.g, self.p
            action, listing = TURN_KINDS[kind]
            ids = self.ids[kind] = listing(g, p) if can_take(g, action) else []
        return ids

    def own_takes(self) -> list[str]:
        """The first "take" ids: the seat's own store, always free to take (``transfer_options``
        lists it first), worked out without the other stores."""
        ids = self.ids.get(OWN_TAKES)
        if ids is None:
            p = self.p
            ids = self.ids[OWN_TAKES] = TAKE_IDS[p.seat][:len(p.store)] if can_take(self.g, TRANSFER) else []
        return ids

    def at_home(self) -> list[str]:
        """The workers a "play" option could name: the seat's workers at home, while this turn
        may still play one (``play_options`` keeps those whose value has a space)."""
        return workers_at_home(self.g, self.p) if can_take(self.g, WORKER) else []

    def has(self, option_id: str) -> bool:
        """Whether the option is legal now: a kind not worked out yet (a play the bot priced
        from ``at_home``) is worked out here, still cheaper than the whole list."""
        kind = option_id.split(":", 1)[0]
        if kind == "take" and option_id in self.ids.get(OWN_TAKES, ()):
            return True
        ids = self.ids.get(kind)
        if ids is None:
            if kind == "play":  # ``play_options``' test for one worker: at home, and a space takes its value
                worker_id = option_id[5:]
                return worker_id in self.at_home() and bool(
                    spaces_for_value(board_key(self.p), WORKERS[worker_id].value, True))  # listed next, at its space
            if kind in TURN_KINDS:
                ids = self.of(kind)
        return ids is not None and option_id in ids


OWN_TAKES = "take from one's own store"  # TurnListing's key for ``own_takes``
TAKE_IDS = [[f"take:{owner}:{slot}" for slot in range(STORE_SIZE)] for owner in range(len(PLAYER_COLOURS))]
REGISTRY_IDS = [f"registry:{slot}" for slot in range(REGISTRY_SPACES)]
# Each kind's option ids, as the listing ``turn_options`` adds for it gives them (the stores'
# and the registry's without their words).
TURN_KINDS: dict[str, tuple[str, Callable[[Game, Player], list[str]]]] = {
    "harvest": (HARVEST, lambda g, p: [o.id for o in harvest_options(p)]),
    "play": (WORKER, lambda g, p: [o.id for o in play_options(g, p)]),
    "remove": (WORKER, lambda g, p: [o.id for o in remove_options(p)]),
    "take": (TRANSFER, lambda g, p: [TAKE_IDS[owner][slot] for owner, slot, _ in transferable(g, p)]),
    "registry": (REGISTRY, lambda g, p: list(compress(REGISTRY_IDS, g.registry)) if can_bid(p) else [])}


class BidListing:
    """A bid's options for the bot, not listed but read from the bid when asked (a bid is one
    decision a counter: a third of all decisions): a counter of any crop the seat still has
    behind its screen, "confirm" once a counter is in, "cancel" (``bid_options``' rule).
    ``apply`` checks the choice with ``has``."""

    __slots__ = ("bid", "counters")

    def __init__(self, g: Game, p: Player) -> None:
        self.bid: dict[Crop, int] = g.queue[0]["bid"]
        self.counters = p.counters

    def has(self, option_id: str) -> bool:
        if option_id == "confirm":
            return bool(self.bid)
        if option_id == "cancel":
            return True
        crop = ADD_CROPS.get(option_id)
        return crop is not None and self.counters[crop] - self.bid.get(crop, 0) > 0


ADD_CROPS = {f"add:{c}": c for c in CROPS}  # an "add" option's crop, by its id


class MoreListing:
    """A second tile's options for the bot, read from the game when asked (``more_choices``'
    rule) instead of listed: the seat's own store first for a transfer (always free to take),
    the registry's filled slots for a placement, and "done". ``apply`` checks the choice with
    ``has``."""

    __slots__ = ("g", "p", "transfer")

    def __init__(self, g: Game, p: Player) -> None:
        self.g, self.p = g, p
        self.transfer = g.queue[0]["action"] == TRANSFER  # else a second registry tile

    def own_takes(self) -> list[str]:
        """The first "take" ids of a transfer: the seat's own store (``transferable`` lists it first)."""
        return TAKE_IDS[self.p.seat][:len(self.p.store)] if self.transfer else []

    def can_take_any(self) -> bool:
        """Whether anything but "done" is listed."""
        if self.transfer:
            return bool(transferable(self.g, self.p))
        return can_bid(self.p) and any(self.g.registry)

    def has(self, option_id: str) -> bool:
        if option_id == "done" or option_id in self.own_takes():
            return True
        return option_id in [c.id for c in more_choices(self.g, self.p)]


def listed_more(g: Game, seat: Seat) -> MoreListing | None:
    """``listed`` for the seat choosing a second tile (a "more" step first in the queue): its
    options read from the game when asked; None at any other moment."""
    if g.phase == OVER or not g.queue:
        return None
    job = g.queue[0]
    if job["do"] != "more" or job["seat"] != seat:
        return None
    out = MoreListing(g, g.players[seat])
    _LISTED.last = (get_ident(), g, seat, out)
    return out


def listed_bid(g: Game, seat: Seat) -> BidListing | None:
    """``listed`` for the seat making a bid (a bid first in the queue): its options read from
    the bid when asked; None at any other moment."""
    if g.phase == OVER or not g.queue:
        return None
    job = g.queue[0]
    if job["do"] != "bid" or job["seat"] != seat:
        return None
    out = BidListing(g, g.players[seat])
    _LISTED.last = (get_ident(), g, seat, out)
    return out


def listed_turn(g: Game, seat: Seat) -> TurnListing | None:
    """``listed`` for the turn player at the turn itself (nothing queued): its options kind by
    kind, as asked; None at any other moment."""
    if g.queue or g.phase != PLAY or seat != g.turn:
        return None
    out = TurnListing(g, g.players[seat])
    _LISTED.last = (get_ident(), g, seat, out)
    return out


def apply(g: Game, seat: Seat, option_id: str) -> Game:
    """A new game after the seat's choice; the given game is left untouched."""
    last, _LISTED.last = _LISTED.last, None
    if last is not None and last[1] is g and last[2] == seat and last[0] == get_ident() and isinstance(seat, int):
        kept = last[3]
        if type(kept) is list:
            for o in kept:
                if o.id == option_id:
                    break
            else:
                check_choice(seat, len(g.players), g.phase == OVER, to_act(g), lambda: kept, option_id)
        elif not kept.has(option_id):  # a TurnListing, a BidListing or a MoreListing
            check_choice(seat, len(g.players), g.phase == OVER, to_act(g), lambda: options(g, seat), option_id)
    else:
        check_choice(seat, len(g.players), g.phase == OVER, to_act(g), lambda: options(g, seat), option_id)
    kind = option_id.partition(":")[0]
    if kind in QUEUE_ONLY or kind == "done" and only_a_second_tile_declined(g):  # a game copied but for its queue
        g = queue_step_copy(g, kind == "add")
        CHOICES[kind](g, g.players[seat], option_id)
        return g  # the step now first in the queue (or the turn) waits for a seat: nothing runs by itself
    g = next_game(g)
    CHOICES[kind](g, g.players[seat] if kind in LEAVES_PLAYERS else changing(g, seat), option_id)
    run_queue(g)
    del g._shared
    return g


# Choices that change nothing but the queue, and leave first in it a step that waits for a
# seat: a counter added to a bid (the bid waits for more or "confirm"), a registry tile chosen
# (its bid comes first), a worker chosen to play (its space comes first). They write no log.
QUEUE_ONLY = frozenset({"add", "registry", "play"})


def only_a_second_tile_declined(g: Game) -> bool:
    """Whether "done" now only ends a second tile's step (no log line) with the turn going on
    and nothing else queued: like a choice in QUEUE_ONLY it changes only the queue, and the
    turn player chooses next (``run_queue`` would do nothing)."""
    return len(g.queue) == 1 and g.queue[0]["do"] == "more" and len(g.used) < ACTIONS_PER_TURN


def queue_step_copy(g: Game, bid_changes: bool) -> Game:
    """``next_game`` for a choice in QUEUE_ONLY: everything but the queue is shared with the
    game before (every other ``apply`` copies what it changes, so neither game changes it),
    and the queue's steps too, but for the bid first in it when ``bid_changes``."""
    game = Game.__new__(Game)  # fields set one by one, in order (see ``next_game``)
    game.players = g.players
    game.options = g.options
    game.rng = g.rng
    game.phase = g.phase
    game.turn = g.turn
    game.used = g.used
    game.turns = g.turns
    game.supply = g.supply
    game.start_bag = g.start_bag
    game.start_chooser = g.start_chooser
    game.bag = g.bag
    game.removed = g.removed
    game.registry = g.registry
    game.track = g.track
    game.set_aside = g.set_aside
    game.held = g.held
    game.ignored = g.ignored
    game.resolving = g.resolving
    game.fallow = g.fallow
    game.town = g.town
    game.ending = g.ending
    game.final_turns = g.final_turns
    game.checks = g.checks
    game.queue = g.queue.copy()
    if bid_changes:
        game.queue[0] = _clone_bid(game.queue[0])
    game.log = g.log
    return game


# Choices that change no player (only the queue, the turn or the log): the chooser's player
# stays shared with the game before. Steps run after them copy whom they change themselves.
LEAVES_PLAYERS = frozenset({"add", "play", "registry", "cancel", "start", "end", "done"})


def drawing(g: Game) -> None:
    """Ready the draw pile's lists (bag, event track, events set aside, held or ignored) to
    be changed: within ``apply`` they are shared with the game before until a step draws
    or returns a tile (most steps do neither), so every change to them comes after this."""
    shared = getattr(g, "_shared", None)
    if shared and DRAW_PILE in shared:
        shared.discard(DRAW_PILE)
        g.bag, g.track, g.set_aside, g.held, g.ignored = (
            g.bag.copy(), g.track.copy(), g.set_aside.copy(), g.held.copy(), g.ignored.copy())


DRAW_PILE = "draw pile"  # in ``_shared`` while the draw pile's lists are shared
DRAW_FIELDS = ("bag", "track", "set_aside", "held", "ignored")  # the lists ``drawing`` copies
SETUP_FIELDS = ("start_bag", "removed")  # set at setup, never changed after


def changing(g: Game, seat: Seat) -> Player:
    """The seat's player, to be changed. Within ``apply`` the players are shared with the
    game before until a step changes one (copy on change: most steps change one player or
    none), so every change to a player's counters, fields, workers or store goes through
    here first."""
    try:
        shared = g._shared  # type: ignore[attr-defined]
    except AttributeError:  # outside ``apply``: nothing is shared
        return g.players[seat]
    if seat in shared:
        shared.discard(seat)
        g.players[seat] = _clone_player(g.players[seat], share_entries=True)
    return g.players[seat]


# --- Saving: plain JSON ---

def dump(g: Game) -> dict[str, Any]:
    return dump_game(g)


def load(raw: dict[str, Any]) -> Game:
    return load_game(Game, Player, raw)


def clone(g: Game) -> Game:
    """An independent copy: ``next_game``'s, with what that one shares copied too (the
    players, the options, the setup lists and the draw pile's lists)."""
    game = next_game(g)
    del game._shared  # type: ignore[attr-defined]
    game.players = [_clone_player(p) for p in g.players]
    game.options = g.options.copy()
    for name in (*SETUP_FIELDS, *DRAW_FIELDS):
        setattr(game, name, getattr(g, name).copy())
    return game


def next_game(g: Game) -> Game:
    """The copy ``apply`` makes at every step, field by field: every action copies the game
    once, so this is the playouts' and the server's single largest cost after the options.
    The players are the same objects until ``changing`` copies one, and so are the draw
    pile's lists until ``drawing`` copies them; the copy notes in ``_shared`` what is still
    shared. The options and the setup lists are never changed after setup.

    Every field is set one by one, in the order of the dataclass: CPython then keeps the
    copy's fields in its compact layout, which later reads of them are quicker on (a
    ``__dict__`` assigned whole reads slower). Lists and dicts of immutable values
    (_FLAT_FIELDS) are copied shallow, which is a whole copy."""
    game = Game.__new__(Game)
    game.players = g.players.copy()
    game.options = g.options
    game.rng = g.rng
    game.phase = g.phase
    game.turn = g.turn
    game.used = g.used.copy()
    game.turns = g.turns
    game.supply = g.supply.copy()
    game.start_bag = g.start_bag
    game.start_chooser = g.start_chooser
    game.bag = g.bag
    game.removed = g.removed
    game.registry = g.registry.copy()
    game.track = g.track
    game.set_aside = g.set_aside
    game.held = g.held
    game.ignored = g.ignored
    game.resolving = g.resolving
    game.fallow = g.fallow.copy()
    game.town = g.town.copy()
    game.ending = g.ending
    game.final_turns = g.final_turns
    game.checks = g.checks
    # Most steps are flat dicts; a bid holds its counters and its way back.
    queue = []
    for job in g.queue:
        queue.append(job.copy() if job["do"] != "bid" else _clone_bid(job))
    game.queue = queue
    log = GameLog.__new__(GameLog)  # GameLog(g.log.recent, g.log.total), without the call
    log.recent = g.log.recent.copy()
    log.total = g.log.total
    log.keep = g.log.keep
    game.log = log
    game._shared = SHARED_AT_FIRST[len(g.players)].copy()  # type: ignore[attr-defined]
    return game


# What ``next_game`` shares at first, by the number of players: every seat and the draw pile
# (each game gets its own copy).
SHARED_AT_FIRST = {n: {*range(n), DRAW_PILE} for n in range(1, len(PLAYER_COLOURS) + 1)}


def _clone_player(p: Player, share_entries: bool = False) -> Player:
    """A copy of a player. With ``share_entries`` (``changing`` only) its store's entries are
    shared with the game before: the rules never change an entry in place (a tile and its
    bid come into a store, leave it or move with a swap whole)."""
    player = Player.__new__(Player)  # fields set one by one, in order (see ``next_game``)
    player.seat = p.seat
    player.colour = p.colour
    player.counters = p.counters.copy()
    player.fields = p.fields.copy()
    player.workers = p.workers.copy()
    if share_entries or not p.store:
        player.store = p.store.copy()
    else:
        player.store = [{"tile": e["tile"], "bid": e["bid"].copy()} for e in p.store]
    return player


def _clone_bid(job: Job) -> Job:
    """A bid step of the queue: its counters and the step it goes back to on "cancel" are
    copied too."""
    back = job["back"]
    return {**job, "bid": job["bid"].copy(), "back": back and back.copy()}


# Lists and dicts of immutable values: a shallow copy is a whole copy (``clone`` copies each;
# ``next_game`` shares SETUP_FIELDS for good and DRAW_FIELDS until ``drawing``).
_FLAT_FIELDS = ("used", "supply", "start_bag", "bag", "removed", "registry", "track", "set_aside", "held",
                "ignored", "fallow", "town")
_IMMUTABLE_FIELDS = ("rng", "phase", "turn", "turns", "start_chooser", "resolving", "ending", "final_turns", "checks")
# A new field must be added to ``next_game`` too, or copies would share it (or lack it).
assert {f.name for f in dataclass_fields(Game)} == {*_FLAT_FIELDS, *_IMMUTABLE_FIELDS,
                                                   "options", "queue", "players", "log"}
assert {f.name for f in dataclass_fields(Player)} == {"seat", "colour", "counters", "fields", "workers", "store"}
assert set(_FLAT_FIELDS) == {"used", "supply", "registry", "fallow", "town", *SETUP_FIELDS, *DRAW_FIELDS}  # as ``clone`` copies them
assert list(vars(clone(Game([Player(0, PLAYER_COLOURS[0])], {}, "")))) == [f.name for f in dataclass_fields(Game)]
assert list(vars(next_game(Game([Player(0, PLAYER_COLOURS[0])], {}, "")))) == [f.name for f in dataclass_fields(Game)] + ["_shared"]
assert list(vars(queue_step_copy(Game([Player(0, PLAYER_COLOURS[0])], {}, ""), False))) == [f.name for f in dataclass_fields(Game)]
assert list(vars(_clone_player(Player(0, PLAYER_COLOURS[0])))) == [f.name for f in dataclass_fields(Player)]
