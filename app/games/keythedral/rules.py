"""Keythedral rules: the game flow, in the order of the rulebook's headings.

A game is a pure function of (options, seed, choices). ``Game`` holds everything as plain
JSON-ready values (string keys, lists), is copied before every change, and is dumped and
loaded as it is. Every decision is one of the options listed by ``options``; a move with
several parts (pay for a craft cube cube by cube, pick a fence's place) is a short
sequence of them, with "cancel" while nothing has changed yet.

Geometry. Fields are grid squares ``(x, y)`` written ``"x,y"``; the gaps where four
octagonal fields meet hold the Keythedral and the cottages and are grid corners ``(i, j)``,
also written ``"i,j"``. Gap ``(i, j)`` touches the fields ``(i-1, j-1)``, ``(i, j-1)``,
``(i-1, j)`` and ``(i, j)``. The Keythedral stands on gap ``0,0``. A fence stands between
one gap and one of its fields. Seat ``s + 1`` sits on the left of seat ``s`` (clockwise).

The log writes a seat as ``{seat0}``, ``{seat1}``…; the table puts the player's name there.
It never names hidden things: law cards until played, or the colours of cubes going from one
screen to another. Cubes paid into the store are seen going in (the store is public by
colour, as at a real table); bids are spoken aloud.

Decisions on points the rules leave open (each is stated again where it is coded, and
listed in docs/titles/keythedral.md):

- The start player is drawn at random. A new field may go in any empty square that shares
  an edge with a field or touches an occupied gap.
- Placing a worker is compulsory when a field is free; when the free fields are no more
  than the workers to place, they are placed without asking.
- Work order markers go round clockwise from the start player (2 players: 1, 3, 5 and
  2, 4). The last marker, having one number left, is placed without asking unless its
  placer holds a law card (and so may want to play one first).
- Taking a new law card stops only its taker for the rest of Phase 3 (the taker may first
  play the card at once if it is a Phase 3 card); the others go on, a second law may be
  taken, and the phase ends when everyone still able to act has passed in succession.
  Empty law places are refilled at the end of the phase. New law cards are face down: the
  taker draws blind from a slot.
- Craft cubes are bought with basic resources only. Trading may give back the colour paid.
- A fully fenced cottage or house is re-placed by its owner on an empty gap touching a
  field, where at least one of its fields is unfenced.
- Law cards of Phases 1, 2 and 5 are played when their holder makes a choice in that
  phase (a work order marker, collecting, a bid). Every player who holds any law card is
  asked before collecting, so a question never reveals which card anyone holds.
- The auction: the marker passes left to the holder; the player on the holder's left opens
  and bidding goes clockwise, each bidder raising or passing for the rest of the auction
  (each cube counts 1; the amounts are public). The holder may match the last bid or let
  it go. The winner pays the bid to the previous holder: a winning bidder pays the holder,
  a matching holder pays the player who passed them the marker. The winner (or the holder,
  if nobody bid) names the next start player. The payer picks the cubes one by one, asked
  even with a single colour (only payer and payee see which cubes); a bidder who cannot
  raise, or a holder who cannot match, is skipped only when holding no law card.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, combinations
from typing import Any, Callable

from app.games.gamelog import GameLog
from app.games.protocol import IllegalAction, ListedOnce, Option, Result, SeatScore, check_choice, winners_by_score
from app.games.plainstate import dump_game, load_game, plain
from app.games.rng import Rng

from .content import (BASIC, COLOURS, COTTAGES_EACH, CRAFT, CUBES, FENCE_COST, FENCES_EACH,
                      FIELD_TYPES, FIELDS, HOUSE_COST, LAW_PRICE, LAWS, NEW_LAW_SLOTS,
                      ROW_SIZES, ROW_VALUES, START_FIELDS, TILES, TRADE_GIVE, UNFENCE_COST,
                      Colour)

Seat = int
Key = str  # "x,y": a field square or a gap
KEYTHEDRAL: Key = "0,0"
START_CELLS: tuple[Key, ...] = ("-1,-1", "0,-1", "-1,0", "0,0")  # quarry, wood, wood, quarry
NUMBERS = (1, 2, 3, 4, 5)  # cottage numbers = work order spaces
COLOUR_ORDER = {c: i for i, c in enumerate(COLOURS)}  # cubes are listed in this order

# Phases of a round (and the set-up before the first).
SETUP = "setup"
ORDER = "order"        # Phase 1: a work order marker is placed...
WORKERS = "workers"    # ...and the matching cottages send their workers
COLLECT = "collect"    # Phase 2
ACTIONS = "actions"    # Phase 3 (Phase 4 is automatic)
AUCTION = "auction"    # Phase 5
OVER = "over"

STEP_NAMES = {
    SETUP: "Set-up: lay the landscape",
    ORDER: "Phase 1: place work order markers",
    WORKERS: "Phase 1: place workers",
    COLLECT: "Phase 2: collect resource cubes",
    ACTIONS: "Phase 3: take actions",
    AUCTION: "Phase 5: change start player",
    OVER: "Game over",
}
PHASE_NUMBER = {ORDER: 1, WORKERS: 1, COLLECT: 2, ACTIONS: 3, AUCTION: 5}


@dataclass
class Player:
    """One seat and what sits behind its screen."""

    seat: Seat
    cubes: dict[Colour, int] = field(default_factory=lambda: {c: 0 for c in COLOURS})
    tiles: list[str] = field(default_factory=list)  # building tiles acquired (secret)
    laws: list[str] = field(default_factory=list)  # law cards held (secret until played)
    fences: int = FENCES_EACH  # fence markers not yet built
    received: dict[str, Any] | None = None  # the last auction payment to this seat (secret colours)


@dataclass
class Game:
    players: list[Player]
    options: dict[str, Any]
    rng: str  # Rng.state: holds the game secret, never in a view
    phase: str = SETUP
    round: int = 0
    start: Seat = 0  # holder of the start player marker
    # the landscape
    fields: dict[Key, str] = field(default_factory=dict)  # square -> field id
    cottages: dict[str, dict[str, Any]] = field(default_factory=dict)  # "s-n" -> owner, number, gap, house
    fences: list[dict[str, Any]] = field(default_factory=list)  # id, owner, gap, cell
    next_fence: int = 1
    workers: dict[Key, Seat] = field(default_factory=dict)  # square -> seat, this round
    bag: list[str] = field(default_factory=list)  # field tiles still to draw (secret order)
    drawn: str | None = None  # the field tile being placed in set-up
    setup_turn: int = 0
    # the Keythedral mat
    rows: dict[str, list[str]] = field(default_factory=dict)  # "4" -> tile ids left, slot order
    face_up: list[int] = field(default_factory=list)  # row values turned face up
    discounts: dict[str, int] = field(default_factory=dict)  # tile -> cubes off (Guild Discount)
    surcharges: dict[str, list[Colour]] = field(default_factory=dict)  # tile -> cubes added
    markers: dict[str, int] = field(default_factory=dict)  # cottage number -> work order marker
    marker: int = 1  # the next work order marker to place
    decree: Seat | None = None  # Royal Decree: places every remaining marker
    activation: dict[str, Any] | None = None  # number, queue of seats, workers left
    # Keytown and the store
    store: dict[Colour, int] = field(default_factory=dict)  # basic cubes in the box
    craft: dict[Colour, int] = field(default_factory=dict)  # craft cubes on the Keytown mat
    spent: dict[Colour, int] = field(default_factory=dict)  # spent craft cubes beside the mat
    law_deck: list[str] = field(default_factory=list)
    law_slots: list[str | None] = field(default_factory=list)  # the face-down new laws
    played: list[str] = field(default_factory=list)  # law cards played, in order
    # the round in progress
    collect_queue: list[Seat] = field(default_factory=list)
    actor: Seat = 0
    passes: int = 0  # passes in succession
    extra: int = 0  # Foreman: more actions for the actor
    stopped: list[Seat] = field(default_factory=list)  # took a new law: no more actions this phase
    auction: dict[str, Any] | None = None
    effects: dict[str, list[Any]] = field(default_factory=dict)  # laws in force this phase
    pending: dict[str, Any] | None = None  # a choice with several steps, in progress
    log: GameLog = field(default_factory=GameLog)  # recent lines; the table keeps the rest


# --- Small words ---

def seat_ref(seat: Seat) -> str:
    return f"{{seat{seat}}}"


def cube_name(colour: Colour) -> str:
    return CUBES[colour].name


def cubes_text(counts: dict[Colour, int] | Counter) -> str:
    """"2 timber and 1 stone" in colour order; "nothing" for none."""
    parts = [f"{n} {cube_name(c)}" for c in COLOURS if (n := counts.get(c, 0))]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def cost_text(cost: list[Colour] | tuple[Colour, ...]) -> str:
    return _cost_text(tuple(cost))


@lru_cache(maxsize=1 << 12)  # costs are a few cubes of eight colours: few distinct ones
def _cost_text(cost: tuple[Colour, ...]) -> str:
    return cubes_text(Counter(cost))


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def key(x: int, y: int) -> Key:
    return f"{x},{y}"


@lru_cache(maxsize=1 << 12)  # the board is small and its keys come back all the time
def xy(k: Key) -> tuple[int, int]:
    a, b = k.split(",")
    return int(a), int(b)


@lru_cache(maxsize=1 << 12)
def reading(k: Key) -> tuple[int, int]:
    """Sort key: reading order, row by row."""
    x, y = xy(k)
    return y, x


def cottage_id(seat: Seat, number: int) -> str:
    return f"{seat}-{number}"


def turn_order(g: Game, first: Seat) -> list[Seat]:
    n = len(g.players)
    return [(first + k) % n for k in range(n)]


def is_strategic(g: Game) -> bool:
    return bool(g.options.get("strategic"))


# --- Geometry: fields, gaps, fences ---

@lru_cache(maxsize=1 << 12)
def gap_cells(gap: Key) -> tuple[Key, ...]:
    """The four squares meeting at a gap (the fields a cottage there may use)."""
    i, j = xy(gap)
    return key(i - 1, j - 1), key(i, j - 1), key(i - 1, j), key(i, j)


@lru_cache(maxsize=1 << 12)
def cell_gaps(cell: Key) -> tuple[Key, ...]:
    x, y = xy(cell)
    return key(x, y), key(x + 1, y), key(x, y + 1), key(x + 1, y + 1)


@lru_cache(maxsize=1 << 12)
def cell_neighbours(cell: Key) -> tuple[Key, ...]:
    """The four squares sharing an edge with this one."""
    x, y = xy(cell)
    return key(x + 1, y), key(x - 1, y), key(x, y + 1), key(x, y - 1)


def gap_fields(g: Game, gap: Key) -> list[Key]:
    return [c for c in gap_cells(gap) if c in g.fields]


def occupied_gaps(g: Game) -> dict[Key, str]:
    """Gap -> "K" for the Keythedral or the cottage id standing there."""
    out = {KEYTHEDRAL: "K"}
    for cid, cot in g.cottages.items():
        if cot["gap"] is not None:
            out[cot["gap"]] = cid
    return out


def is_fenced(g: Game, gap: Key, cell: Key) -> bool:
    return any(f["gap"] == gap and f["cell"] == cell for f in g.fences)


def open_fields(g: Game, gap: Key) -> list[Key]:
    """The fields next to a gap that no fence shuts off from it."""
    return [c for c in gap_fields(g, gap) if not is_fenced(g, gap, c)]


def is_fully_fenced(g: Game, gap: Key) -> bool:
    return bool(gap_fields(g, gap)) and not open_fields(g, gap)


def empty_gaps(g: Game) -> list[Key]:
    """Unoccupied gaps touching at least one field, in reading order."""
    taken = occupied_gaps(g)
    found = set(chain.from_iterable(map(cell_gaps, g.fields)))
    found.difference_update(taken)
    return sorted(found, key=reading)


def field_places(g: Game) -> list[Key]:
    """Set-up: empty squares sharing an edge with a field, or touching an occupied gap."""
    near = set(chain.from_iterable(map(cell_neighbours, g.fields)))
    near.update(chain.from_iterable(map(gap_cells, occupied_gaps(g))))
    near.difference_update(g.fields)
    return sorted(near, key=reading)


def cottage_places(g: Game) -> list[Key]:
    """Where a cottage may be (re-)placed: an empty gap touching a field not fenced off
    from it (a gap whose every field is fenced would leave it fully fenced at once)."""
    return [gp for gp in empty_gaps(g) if open_fields(g, gp)]


def fence_slots(g: Game) -> list[tuple[Key, Key]]:
    """(gap, field) pairs next to a cottage or house with no fence yet."""
    fenced = {(f["gap"], f["cell"]) for f in g.fences}
    out = []
    for cot in g.cottages.values():
        gap = cot["gap"]
        if gap is None:
            continue
        out += [(gap, c) for c in gap_cells(gap) if c in g.fields and (gap, c) not in fenced]
    return sorted(out, key=lambda s: reading(s[0]) + reading(s[1]))


def has_fence_slot(g: Game) -> bool:
    """Whether ``fence_slots`` is not empty, without listing and sorting them."""
    fenced = {(f["gap"], f["cell"]) for f in g.fences}
    return any(c in g.fields and (gap, c) not in fenced
               for cot in g.cottages.values() if (gap := cot["gap"]) is not None for c in gap_cells(gap))


def cell_of_field(g: Game, field_id: str) -> Key:
    return next(c for c, f in g.fields.items() if f == field_id)


def field_name(field_id: str) -> str:
    return FIELD_TYPES[FIELDS[field_id].type].name


# --- Cubes: holding, paying, the store ---

def basic_count(p: Player) -> int:
    return sum(p.cubes[c] for c in BASIC)


def cube_count(p: Player) -> int:
    return sum(p.cubes.values())


def can_pay(p: Player, cost: list[Colour] | tuple[Colour, ...]) -> bool:
    cubes = p.cubes
    for c, n in counted(tuple(cost)):
        if cubes[c] < n:
            return False
    return True


@lru_cache(maxsize=1 << 12)
def counted(cost: tuple[Colour, ...]) -> tuple[tuple[Colour, int], ...]:
    """A cost as (colour, how many), colours in the order the cost first lists them."""
    return tuple(Counter(cost).items())


def return_cube(g: Game, colour: Colour, n: int = 1) -> None:
    """Paid cubes: basic ones go back to the store, craft ones beside the Keytown mat."""
    if colour in BASIC:
        g.store[colour] += n
    else:
        g.spent[colour] += n


def pay(g: Game, p: Player, cost: list[Colour] | tuple[Colour, ...] | Counter, to: Player | None = None) -> None:
    counts = Counter(cost)
    for colour, n in counts.items():
        if p.cubes[colour] < n:
            raise IllegalAction(f"You do not have {plural(n, cube_name(colour) + ' cube')}.")
    for colour, n in counts.items():
        p.cubes[colour] -= n
        if to is None:
            return_cube(g, colour, n)
        else:
            to.cubes[colour] += n


def craft_available(g: Game, colour: Colour) -> bool:
    return g.craft[colour] + g.spent[colour] > 0


def take_craft(g: Game, p: Player, colour: Colour) -> None:
    """From the Keytown mat; once it has none, a spent cube from beside the mat."""
    if g.craft[colour]:
        g.craft[colour] -= 1
    else:
        g.spent[colour] -= 1
    p.cubes[colour] += 1


# --- Setup ---

def setup(players: int, options: dict[str, Any], seed: int) -> Game:
    """Shuffle the rows, the law cards and the field bag; lay the four start fields; the
    start player is drawn at random; then the landscape is laid in play."""
    if not 2 <= players <= 5:
        raise IllegalAction("Keythedral is for 2–5 players.")
    rng = Rng(seed)
    g = Game(players=[Player(s) for s in range(players)], options=dict(options), rng="")
    sizes = ROW_SIZES[options.get("length", "full")]
    for value in ROW_VALUES:
        pile = rng.shuffled(sorted(t for t, tile in TILES.items() if tile.value == value))
        g.rows[str(value)] = pile[:sizes[value]]  # the rest leave the game unseen
    g.face_up = list(ROW_VALUES) if is_strategic(g) else []
    g.law_deck = rng.shuffled(sorted(LAWS))
    g.law_slots = [g.law_deck.pop(0) for _ in range(NEW_LAW_SLOTS)]
    g.store = {c: CUBES[c].supply for c in BASIC}
    g.craft = {c: CUBES[c].supply for c in CRAFT}
    g.spent = {c: 0 for c in CRAFT}
    g.fields = dict(zip(START_CELLS, START_FIELDS))
    g.bag = rng.shuffled(sorted(f for f, tile in FIELDS.items() if 2 <= tile.number <= players))
    g.start = rng.randrange(players)
    g.rng = rng.state
    for s in range(players):
        for n in NUMBERS[:COTTAGES_EACH]:
            g.cottages[cottage_id(s, n)] = {"owner": s, "number": n, "gap": None, "house": False}
    g.log.append(f"{seat_ref(g.start)} is the start player.")
    begin_setup_turn(g)
    return g


def setup_seat(g: Game) -> Seat:
    return (g.start + g.setup_turn) % len(g.players)


def begin_setup_turn(g: Game) -> None:
    """Draw a field tile from the bag for the next player in turn."""
    g.drawn = g.bag.pop(0)


def setup_options(g: Game, p: Player) -> list[Option]:
    if g.drawn is not None:
        return [cell_option(c, g.drawn) for c in field_places(g)]
    return [cottage_gap_option(gp) for gp in empty_gaps(g)]


# Options are frozen and the same few come back all game: each is made once (hot ones only).

@lru_cache(maxsize=1 << 12)
def cell_option(cell: Key, field_id: str) -> Option:
    return Option(f"cell:{cell}", f"Place the {field_name(field_id)} here", "field", f"cell:{cell}")


@lru_cache(maxsize=1 << 12)
def cottage_gap_option(gap: Key) -> Option:
    return Option(f"gap:{gap}", "Place a cottage here", "cottage", f"gap:{gap}")


def place_field(g: Game, p: Player, option_id: str) -> None:
    """Set-up: the drawn field goes next to the landscape."""
    cell = option_id.removeprefix("cell:")
    g.fields[cell] = g.drawn  # type: ignore[assignment]
    g.log.append(f"{seat_ref(p.seat)} lays a {field_name(g.drawn)} field.")  # type: ignore[arg-type]
    g.drawn = None


def unplaced_numbers(g: Game, seat: Seat) -> list[int]:
    return [n for n in NUMBERS if g.cottages[cottage_id(seat, n)]["gap"] is None]


def choose_cottage_gap(g: Game, p: Player, option_id: str) -> None:
    """Set-up: a cottage (any number still in hand) goes diagonally next to any field."""
    gap = option_id.removeprefix("gap:")
    numbers = unplaced_numbers(g, p.seat)
    if len(numbers) == 1:
        place_cottage(g, p, gap, numbers[0])
    else:
        g.pending = {"kind": "number", "seat": p.seat, "gap": gap}


def place_cottage(g: Game, p: Player, gap: Key, number: int) -> None:
    own_cottage(g, cottage_id(p.seat, number))["gap"] = gap
    g.log.append(f"{seat_ref(p.seat)} places cottage {number}.")
    g.pending = None
    g.setup_turn += 1
    if g.setup_turn < COTTAGES_EACH * len(g.players):
        begin_setup_turn(g)
        return
    g.face_up = sorted(set(g.face_up) | {ROW_VALUES[0]})
    g.log.append("The landscape is complete. The 4 row of building tiles turns face up.")
    begin_round(g)


# --- Phase 1: Place worker counters ---

def begin_round(g: Game) -> None:
    g.round += 1
    g.phase = ORDER
    g.markers, g.marker, g.decree, g.effects = {}, 1, None, {}
    g.log.append(f"Round {g.round} begins; {seat_ref(g.start)} is the start player.")
    await_marker(g)


def marker_placer(g: Game) -> Seat:
    """Markers go round clockwise from the start player (some players place several),
    unless a Royal Decree gave every remaining marker to one player."""
    if g.decree is not None:
        return g.decree
    return (g.start + g.marker - 1) % len(g.players)


def free_numbers(g: Game) -> list[int]:
    return [n for n in NUMBERS if str(n) not in g.markers]


def holds_law(g: Game, seat: Seat) -> bool:
    return bool(g.players[seat].laws)


def await_marker(g: Game) -> None:
    """The next marker; the last one (one number left) is placed without asking unless
    its placer holds a law card and so may want to play one first."""
    if g.marker > len(NUMBERS):
        begin_collect(g)
        return
    g.phase = ORDER
    free = free_numbers(g)
    if len(free) == 1 and not holds_law(g, marker_placer(g)):
        place_marker(g, marker_placer(g), free[0])


def order_options(g: Game, p: Player) -> list[Option]:
    out = [order_option(g.marker, n) for n in free_numbers(g)]
    return out + law_play_options(g, p)


@lru_cache(maxsize=None)
def order_option(marker: int, number: int) -> Option:
    return Option(f"order:{number}", f"Place work order marker {marker} on cottage number {number}",
                  "order", f"order:{number}")


def choose_order(g: Game, p: Player, option_id: str) -> None:
    place_marker(g, p.seat, int(option_id.removeprefix("order:")))


def place_marker(g: Game, seat: Seat, number: int) -> None:
    """The marker activates every cottage and house with that number, start player first."""
    g.markers[str(number)] = g.marker
    g.log.append(f"{seat_ref(seat)} places work order marker {g.marker} on number {number}.")
    g.activation = {"number": number, "queue": turn_order(g, g.start), "left": None}
    g.phase = WORKERS
    run_activation(g)


def workers_sent(g: Game, seat: Seat, number: int) -> int:
    """A cottage sends one worker, a house two (Labour Levy: cottages too)."""
    cot = g.cottages[cottage_id(seat, number)]
    if cot["gap"] is None:
        return 0
    return 2 if cot["house"] or seat in g.effects.get("levy", []) else 1


def worker_fields(g: Game, seat: Seat, number: int) -> list[Key]:
    """Empty fields next to the cottage, not fenced off from it (Right of Way ignores
    fences)."""
    gap = g.cottages[cottage_id(seat, number)]["gap"]
    if gap is None:
        return []
    if not g.fences or seat in g.effects.get("right_of_way", []):
        reachable = gap_fields(g, gap)
    else:
        reachable = open_fields(g, gap)
    return [c for c in reachable if c not in g.workers]


def run_activation(g: Game) -> None:
    """Send workers seat by seat; ask only when there is a real choice of field. A house
    whose fields are all taken but one places one worker; the other stays home."""
    act = g.activation
    assert act is not None
    number = act["number"]
    while act["queue"]:
        seat = act["queue"][0]
        if act["left"] is None:
            act["left"] = workers_sent(g, seat, number)
        free = worker_fields(g, seat, number)
        if act["left"] and len(free) > act["left"]:
            return  # a choice for this seat
        for cell in free[:act["left"]]:
            put_worker(g, seat, cell)
        idle = act["left"] - len(free[:act["left"]])
        if idle:
            g.log.append(f"{seat_ref(seat)} has no free field for "
                         f"{'a worker' if idle == 1 else 'two workers'} from number {number}.")
        act["queue"].pop(0)
        act["left"] = None
    g.activation = None
    g.marker += 1
    await_marker(g)


def put_worker(g: Game, seat: Seat, cell: Key) -> None:
    g.workers[cell] = seat
    g.log.append(f"{seat_ref(seat)} sends a worker to a {field_name(g.fields[cell])}.")


def worker_options(g: Game, p: Player) -> list[Option]:
    number = g.activation["number"]  # type: ignore[index]
    return [worker_option(g.fields[c]) for c in worker_fields(g, p.seat, number)]


@lru_cache(maxsize=None)
def worker_option(field_id: str) -> Option:
    return Option(f"field:{field_id}", f"Send a worker to this {field_name(field_id)}", "worker", f"field:{field_id}")


def choose_worker_field(g: Game, p: Player, option_id: str) -> None:
    put_worker(g, p.seat, cell_of_field(g, option_id.removeprefix("field:")))
    g.activation["left"] -= 1  # type: ignore[index]
    if not g.activation["left"]:  # type: ignore[index]
        g.activation["queue"].pop(0)  # type: ignore[index]
        g.activation["left"] = None  # type: ignore[index]
    run_activation(g)


# --- Phase 2: Collect resource cubes ---

def begin_collect(g: Game) -> None:
    g.phase = COLLECT
    g.effects = {}
    g.collect_queue = turn_order(g, g.start)
    g.log.append("Phase 2: the workers bring in cubes from the store, start player first.")
    run_collect(g)


def run_collect(g: Game) -> None:
    """Start player first. A player holding law cards is asked first (they may play a
    Phase 2 card); everyone else collects at once."""
    while g.collect_queue:
        seat = g.collect_queue[0]
        if holds_law(g, seat):
            return
        collect(g, seat)
    begin_actions(g)


def collect_options(g: Game, p: Player) -> list[Option]:
    return [Option("collect", "Collect your cubes", "collect")] + law_play_options(g, p)


def choose_collect(g: Game, p: Player, option_id: str) -> None:
    collect(g, p.seat)
    run_collect(g)


def collect(g: Game, seat: Seat) -> None:
    """One cube per worker of its field's colour from the store; nothing when the store
    has run out of it. Bumper Harvest and Granary Rights add one; Blight stops a type."""
    gained: Counter = Counter()
    short = False
    for cell, owner in g.workers.items():
        if owner != seat:
            continue
        colour = FIELDS[g.fields[cell]].colour
        if colour in g.effects.get("blight", []):
            continue
        want = 1 + g.effects.get("bumper", []).count(colour) + g.effects.get("granary", []).count(seat)
        got = min(want, g.store[colour])
        short |= got < want
        g.store[colour] -= got
        g.players[seat].cubes[colour] += got
        gained[colour] += got
    g.collect_queue.remove(seat)
    note = " (the store ran short)" if short else ""
    g.log.append(f"{seat_ref(seat)} collects {cubes_text(gained)}{note}.")


# --- Phase 3: Take actions ---

def begin_actions(g: Game) -> None:
    g.phase = ACTIONS
    g.effects = {k: v for k, v in g.effects.items() if k not in ("bumper", "blight", "granary")}
    g.actor, g.passes, g.extra, g.stopped = g.start, 0, 0, []
    g.log.append("Phase 3: actions, starting with the start player.")


def action_options(g: Game, p: Player) -> list[Option]:
    """Everything the actor can afford now, in a fixed order."""
    out = [tile_option(t, tuple(tile_cost(g, t))) for t in buyable_tiles(g) if tile_variants(g, p, t)]
    if can_pay(p, HOUSE_COST):
        out += [house_option(p.seat, n) for n in cottage_numbers(g, p.seat)]
    if p.fences and can_pay(p, FENCE_COST) and has_fence_slot(g):
        out.append(FENCE_OPTION)
    if g.fences and can_pay(p, UNFENCE_COST):
        out.append(UNFENCE_OPTION)
    basics = basic_count(p)
    out += [CRAFT_OPTIONS[c] for c in CRAFT if craft_available(g, c) and basics >= CUBES[c].price]
    price = trade_price(g, p.seat)
    if basics >= price:
        out.append(trade_option(price))
    if cube_count(p) >= LAW_PRICE:
        out += [law_slot_option(i) for i, card in enumerate(g.law_slots) if card is not None]
    return out + law_play_options(g, p) + [PASS_OPTION]


@lru_cache(maxsize=1 << 12)
def tile_option(tile: str, cost: tuple[Colour, ...]) -> Option:
    return Option(f"tile:{tile}", f"Acquire this building tile ({cost_text(cost)})", "tile", f"tile:{tile}")


@lru_cache(maxsize=None)
def house_option(seat: Seat, number: int) -> Option:
    return Option(f"house:{number}", f"Turn cottage {number} into a house (1 stone, 1 timber)",
                  "house", f"cottage:{cottage_id(seat, number)}")


@lru_cache(maxsize=None)
def trade_option(price: int) -> Option:
    return Option("trade", f"Trade {price} basic cubes for 1", "trade")


@lru_cache(maxsize=None)
def law_slot_option(slot: int) -> Option:
    return Option(f"law:{slot}", "Take this new law card (1 cube)", "law", f"newlaw:{slot}")


def a_cube(colour: Colour) -> str:
    name = cube_name(colour)
    return ("an " if name[0] in "aeiou" else "a ") + name


FENCE_OPTION = Option("fence", "Build a fence (1 timber)", "fence")
UNFENCE_OPTION = Option("unfence", "Remove a fence (2 wine)", "fence")
CRAFT_OPTIONS = {c: Option(f"craft:{c}", f"Buy {a_cube(c)} cube ({CUBES[c].price} basic cubes)", "craft", f"craft:{c}")
                 for c in CRAFT}
PASS_OPTION = Option("pass", "Pass", "pass")


def able_to_act(g: Game) -> list[Seat]:
    """Everyone who has not taken a new law card this phase, clockwise from the start player."""
    return [s for s in turn_order(g, g.start) if s not in g.stopped]


def finish_action(g: Game, seat: Seat) -> None:
    """After any action but a pass: Foreman keeps the same player; otherwise the next
    player clockwise who is still able to act. Nobody left able to act ends the phase."""
    g.passes = 0
    if g.phase == OVER:
        return
    if g.extra and seat not in g.stopped:
        g.extra -= 1
        return
    g.extra = 0
    pass_turn(g, seat)


def pass_turn(g: Game, seat: Seat) -> None:
    """The turn goes clockwise to the next player still able to act."""
    able = [s for s in turn_order(g, (seat + 1) % len(g.players)) if s not in g.stopped]
    if able:
        g.actor = able[0]
    else:
        end_actions(g)


def choose_pass(g: Game, p: Player, option_id: str) -> None:
    """A player who passes may act again later. Phase 3 ends when every player still
    able to act has passed in succession."""
    g.passes += 1
    g.extra = 0
    g.log.append(f"{seat_ref(p.seat)} passes.")
    if g.passes >= len(able_to_act(g)):
        end_actions(g)
    else:
        pass_turn(g, p.seat)


# --- Action A: Acquire a building tile ---

def open_row(g: Game) -> int | None:
    """The lowest row with tiles left: the only one that may be bought from."""
    rows = g.rows
    return next((v for v, k in ROW_KEYS if rows[k]), None)


ROW_KEYS = tuple((v, str(v)) for v in ROW_VALUES)  # row value and its key in ``Game.rows``


def buyable_tiles(g: Game) -> list[str]:
    row = open_row(g)
    return list(g.rows[str(row)]) if row is not None and row in g.face_up else []


def face_up_tiles(g: Game) -> list[str]:
    return [t for v in ROW_VALUES if v in g.face_up for t in g.rows[str(v)]]


def tile_cost(g: Game, tile: str) -> list[Colour]:
    """Printed cost plus Building Tax cubes (Guild Discounts are taken off by the buyer)."""
    return list(TILES[tile].cost) + list(g.surcharges.get(tile, []))


def tile_variants(g: Game, p: Player, tile: str) -> list[tuple[Colour, ...]]:
    """Every cost the buyer could pay: with a Guild Discount they choose which cubes come
    off. Only the ones they can afford."""
    cost = in_colour_order(tuple(tile_cost(g, tile)))
    off = min(g.discounts.get(tile, 0), len(cost))
    if not off:  # the usual case: the one cost as it stands
        return [cost] if can_pay(p, cost) else []
    variants = {tuple(c for k, c in enumerate(cost) if k not in drop)
                for drop in combinations(range(len(cost)), off)}
    return sorted((v for v in variants if can_pay(p, v)), key=lambda v: [COLOUR_ORDER[c] for c in v])


@lru_cache(maxsize=1 << 12)
def in_colour_order(cost: tuple[Colour, ...]) -> tuple[Colour, ...]:
    return tuple(sorted(cost, key=COLOUR_ORDER.__getitem__))


def choose_tile(g: Game, p: Player, option_id: str) -> None:
    tile = option_id.removeprefix("tile:")
    variants = tile_variants(g, p, tile)
    if len(variants) == 1:
        acquire(g, p, tile, variants[0])
    else:
        g.pending = {"kind": "drop", "seat": p.seat, "tile": tile, "dropped": []}


def drop_options(g: Game, p: Player) -> list[Option]:
    pend = g.pending
    cost = Counter(tile_cost(g, pend["tile"]))
    left = cost - Counter(pend["dropped"])
    out = []
    for colour in COLOURS:
        if left[colour] and any_variant(g, p, pend["tile"], pend["dropped"] + [colour]):
            out.append(Option(f"drop:{colour}", f"Leave out one {cube_name(colour)} (Guild Discount)",
                              "drop", f"cube:{colour}"))
    return out + [cancel_option()]


def any_variant(g: Game, p: Player, tile: str, dropped: list[Colour]) -> bool:
    """Some affordable way of taking the discount leaves out at least these cubes."""
    cost = Counter(tile_cost(g, tile))
    return any(Counter(dropped) <= cost - Counter(v) for v in tile_variants(g, p, tile))


def choose_drop(g: Game, p: Player, option_id: str) -> None:
    pend = g.pending
    pend["dropped"].append(option_id.removeprefix("drop:"))
    tile = pend["tile"]
    off = min(g.discounts.get(tile, 0), len(tile_cost(g, tile)))
    if len(pend["dropped"]) == off:
        g.pending = None
        cost = list((Counter(tile_cost(g, tile)) - Counter(pend["dropped"])).elements())
        acquire(g, p, tile, tuple(cost))


def acquire(g: Game, p: Player, tile: str, cost: tuple[Colour, ...]) -> None:
    """Pay the exact cost into the store and keep the tile behind the screen. When a row
    is emptied the next one turns face up; the last tile ends the game at once."""
    value = TILES[tile].value
    pay(g, p, cost)
    g.rows[str(value)].remove(tile)
    g.discounts.pop(tile, None)
    g.surcharges.pop(tile, None)
    p.tiles.append(tile)
    g.log.append(f"{seat_ref(p.seat)} acquires a building tile from the {value} row.")
    if open_row(g) is None:
        g.phase = OVER
        g.pending = None
        g.log.append("The last building tile is gone: the Keythedral is complete and the game ends.")
        return
    if not g.rows[str(value)]:
        nxt = open_row(g)
        if nxt not in g.face_up:
            g.face_up = sorted(set(g.face_up) | {nxt})  # type: ignore[arg-type]
            g.log.append(f"The {value} row is complete; the {nxt} row turns face up.")
        else:
            g.log.append(f"The {value} row is complete; the {nxt} row may now be bought.")
    finish_action(g, p.seat)


# --- Action B: Convert a cottage into a house ---

def cottage_numbers(g: Game, seat: Seat) -> list[int]:
    """The seat's cottages still light side up, on the landscape."""
    return [n for n in NUMBERS if not g.cottages[cottage_id(seat, n)]["house"]
            and g.cottages[cottage_id(seat, n)]["gap"] is not None]


def choose_house(g: Game, p: Player, option_id: str) -> None:
    pay(g, p, HOUSE_COST)
    make_house(g, p, int(option_id.removeprefix("house:")))
    finish_action(g, p.seat)


def own_cottage(g: Game, cid: str) -> dict[str, Any]:
    """Cottage ``cid`` for this game alone to change: copies of a game share their cottages
    (``clone``; they change a few times a game and every action copies the game), so the
    one that changes is copied first, with the dict that holds it."""
    cot = g.cottages[cid].copy()
    g.cottages = {**g.cottages, cid: cot}
    return cot


def make_house(g: Game, p: Player, number: int) -> None:
    own_cottage(g, cottage_id(p.seat, number))["house"] = True
    g.log.append(f"{seat_ref(p.seat)} turns cottage {number} into a house.")


# --- Action C: Build or remove a fence ---

def choose_fence(g: Game, p: Player, option_id: str) -> None:
    g.pending = {"kind": "slot", "seat": p.seat}


def slot_options(g: Game, p: Player) -> list[Option]:
    out = []
    for gap, cell in fence_slots(g):
        owner = occupied_gaps(g)[gap]
        out.append(Option(f"fence:{gap}/{cell}",
                          f"Fence cottage {g.cottages[owner]['number']} of "
                          f"player {g.cottages[owner]['owner'] + 1} off this {field_name(g.fields[cell])}",
                          "fence", f"slot:{gap}/{cell}"))
    return out + [cancel_option()]


def choose_slot(g: Game, p: Player, option_id: str) -> None:
    gap, cell = option_id.removeprefix("fence:").split("/")
    law = g.pending.get("law")
    if law is None:
        pay(g, p, FENCE_COST)
    g.pending = None
    if law is not None:
        discard_law(g, p, law)
    build_fence(g, p, gap, cell)


def build_fence(g: Game, p: Player, gap: Key, cell: Key) -> None:
    """One of the player's three fences between a cottage or house and a field. A fully
    fenced cottage or house is re-placed at once by its owner."""
    p.fences -= 1
    g.fences.append({"id": g.next_fence, "owner": p.seat, "gap": gap, "cell": cell})
    g.next_fence += 1
    cid = occupied_gaps(g)[gap]
    cot = g.cottages[cid]
    what = "house" if cot["house"] else "cottage"
    g.log.append(f"{seat_ref(p.seat)} builds a fence between {seat_ref(cot['owner'])}'s "
                 f"{what} {cot['number']} and a {field_name(g.fields[cell])}.")
    if is_fully_fenced(g, gap):
        g.log.append(f"{seat_ref(cot['owner'])}'s {what} {cot['number']} is fully fenced and must move.")
        g.pending = {"kind": "reposition", "seat": cot["owner"], "cottage": cid, "actor": p.seat}
        return
    finish_action(g, p.seat)


def reposition_options(g: Game, p: Player) -> list[Option]:
    return [Option(f"gap:{gp}", "Move it here", "reposition", f"gap:{gp}") for gp in cottage_places(g)]


def choose_reposition(g: Game, p: Player, option_id: str) -> None:
    """The cottage keeps its side (a house stays a house); the fences stay where they are."""
    pend = g.pending
    cot = own_cottage(g, pend["cottage"])
    cot["gap"] = option_id.removeprefix("gap:")
    g.pending = None
    g.log.append(f"{seat_ref(p.seat)} moves {'house' if cot['house'] else 'cottage'} {cot['number']} "
                 "to a new place.")
    finish_action(g, pend["actor"])


def choose_unfence(g: Game, p: Player, option_id: str) -> None:
    g.pending = {"kind": "unfence", "seat": p.seat}


def unfence_options(g: Game, p: Player) -> list[Option]:
    return [Option(f"remove:{f['id']}", f"Remove this fence of player {f['owner'] + 1}",
                   "unfence", f"fence:{f['id']}") for f in g.fences] + [cancel_option()]


def choose_remove(g: Game, p: Player, option_id: str) -> None:
    """Any player's fence; it leaves the game for good."""
    fence_id = int(option_id.removeprefix("remove:"))
    law = g.pending.get("law")
    if law is None:
        pay(g, p, UNFENCE_COST)
    else:
        discard_law(g, p, law)
    g.pending = None
    fence = next(f for f in g.fences if f["id"] == fence_id)
    g.fences.remove(fence)
    g.log.append(f"{seat_ref(p.seat)} removes a fence of {seat_ref(fence['owner'])}; it leaves the game.")
    finish_action(g, p.seat)


# --- Paying cube by cube (craft cubes, trading, law cards, the auction) ---

def start_payment(g: Game, p: Player, need: int, allow: str, purpose: dict[str, Any],
                  cancel: bool = True, count_only: bool = False) -> None:
    """``count_only``: settle unasked only when the number of cubes decides it (paying
    every cube), for payments where being asked or not is seen by the table."""
    g.pending = {"kind": "pay", "seat": p.seat, "need": need, "paid": {}, "allow": allow,
                 "purpose": purpose, "cancel": cancel, "count_only": count_only}
    settle_if_forced(g, p)


def payable(g: Game, p: Player) -> dict[Colour, int]:
    pend = g.pending
    colours = BASIC if pend["allow"] == "basic" else COLOURS
    return {c: p.cubes[c] - pend["paid"].get(c, 0) for c in colours if p.cubes[c] - pend["paid"].get(c, 0) > 0}


def settle_if_forced(g: Game, p: Player) -> None:
    """Fill the payment without asking when there is no real choice left: one colour
    only, or every payable cube is needed."""
    pend = g.pending
    left = pend["need"] - sum(pend["paid"].values())
    avail = payable(g, p)
    one_colour = len(avail) == 1 and not pend.get("count_only")
    if left > 0 and (one_colour or sum(avail.values()) == left):
        for c, n in avail.items():
            take = min(n, left)
            pend["paid"][c] = pend["paid"].get(c, 0) + take
            left -= take
    if left <= 0:
        g.pending = None
        finish_payment(g, p, Counter(pend["paid"]), pend["purpose"])


def pay_options(g: Game, p: Player) -> list[Option]:
    pend = g.pending
    left = pend["need"] - sum(pend["paid"].values())
    out = [pay_option(c, left) for c in payable(g, p)]
    return out + ([cancel_option()] if pend["cancel"] else [])


@lru_cache(maxsize=1 << 12)
def pay_option(colour: Colour, left: int) -> Option:
    return Option(f"pay:{colour}", f"Pay {a_cube(colour)} cube ({left} still to pay)", "pay", f"cube:{colour}")


def choose_pay(g: Game, p: Player, option_id: str) -> None:
    colour = option_id.removeprefix("pay:")
    g.pending["paid"][colour] = g.pending["paid"].get(colour, 0) + 1
    settle_if_forced(g, p)


def finish_payment(g: Game, p: Player, paid: Counter, purpose: dict[str, Any]) -> None:
    what = purpose["for"]
    if what == "craft":
        buy_craft(g, p, paid, purpose["colour"])
    elif what == "trade":
        g.pending = {"kind": "get", "seat": p.seat, "count": 1, "got": [], "paid": dict(paid),
                     "for": "trade"}
    elif what == "law":
        take_law(g, p, paid, purpose["slot"])
    elif what == "auction":
        pay_auction(g, p, paid)


# --- Action D: Purchase a craft cube ---

def choose_craft(g: Game, p: Player, option_id: str) -> None:
    colour = option_id.removeprefix("craft:")
    start_payment(g, p, CUBES[colour].price, "basic", {"for": "craft", "colour": colour})


def buy_craft(g: Game, p: Player, paid: Counter, colour: Colour) -> None:
    """Basic cubes to the store; the craft cube from the mat, or a spent one if the mat
    has none left."""
    reused = g.craft[colour] == 0
    pay(g, p, paid)
    take_craft(g, p, colour)
    g.log.append(f"{seat_ref(p.seat)} buys {a_cube(colour)} cube"
                 f"{' (a spent one: the mat had none left)' if reused else ''}.")
    finish_action(g, p.seat)


# --- Action E: Trade with the resource supply ---

def trade_price(g: Game, seat: Seat) -> int:
    """Two basic cubes for one (Honest Trader: one for one)."""
    return 1 if seat in g.effects.get("honest", []) else TRADE_GIVE


def choose_trade(g: Game, p: Player, option_id: str) -> None:
    start_payment(g, p, trade_price(g, p.seat), "basic", {"for": "trade"})


def get_options(g: Game, p: Player) -> list[Option]:
    """Basic cubes the store can give (a trade's paid cubes count as back in the store)."""
    pend = g.pending
    paid, got = pend.get("paid", {}), pend["got"]
    verb = "Take" if pend["for"] == "grant" else "Get"
    out = [get_option(verb, c) for c in BASIC if g.store.get(c, 0) + paid.get(c, 0) - got.count(c) > 0]
    return out + [cancel_option()]


@lru_cache(maxsize=None)
def get_option(verb: str, colour: Colour) -> Option:
    return Option(f"get:{colour}", f"{verb} {a_cube(colour)} cube", "get", f"store:{colour}")


def choose_get(g: Game, p: Player, option_id: str) -> None:
    pend = g.pending
    pend["got"].append(option_id.removeprefix("get:"))
    got = Counter(pend["got"])
    left = min(pend["count"], len(pend["got"]) + sum(n - got[c] for c, n in g.store.items() if n > got[c]))
    if len(pend["got"]) < left:
        return
    g.pending = None
    if pend["for"] == "trade":
        pay(g, p, Counter(pend["paid"]))
        for c in pend["got"]:
            g.store[c] -= 1
            p.cubes[c] += 1
        g.log.append(f"{seat_ref(p.seat)} trades {plural(sum(pend['paid'].values()), 'basic cube')} "
                     f"for {cubes_text(Counter(pend['got']))}.")
        finish_action(g, p.seat)
    else:  # Royal Grant
        discard_law(g, p, pend["law"])
        for c in pend["got"]:
            g.store[c] -= 1
            p.cubes[c] += 1
        g.log.append(f"{seat_ref(p.seat)} takes {cubes_text(Counter(pend['got']))} from the store.")
        finish_action(g, p.seat)


# --- Action F: Take a new law card ---

def choose_law_slot(g: Game, p: Player, option_id: str) -> None:
    start_payment(g, p, LAW_PRICE, "any", {"for": "law", "slot": int(option_id.removeprefix("law:"))})


def take_law(g: Game, p: Player, paid: Counter, slot: int) -> None:
    """The card is face down: only its taker learns it. Its taker can take no further
    actions this phase (they may play it at once, if it is a Phase 3 card); the others go
    on. The empty space is refilled at the end of the phase."""
    pay(g, p, paid)
    card = g.law_slots[slot]
    g.law_slots[slot] = None
    p.laws.append(card)  # type: ignore[arg-type]
    g.stopped.append(p.seat)
    g.log.append(f"{seat_ref(p.seat)} takes a new law card and can take no more actions this phase.")
    g.pending = {"kind": "new_law", "seat": p.seat, "card": card}


def new_law_options(g: Game, p: Player) -> list[Option]:
    card = g.pending["card"]
    play = [o for o in law_play_options(g, p) if o.id == f"play:{card}"]
    return play + [Option("keep", "Keep the card for later", "keep")]


def choose_keep(g: Game, p: Player, option_id: str) -> None:
    g.pending = None
    finish_action(g, p.seat)


# --- Action G: Pass (above, with finish_action) ---

# --- Law cards: playing them ---

def law_play_options(g: Game, p: Player) -> list[Option]:
    """Cards the player may play now: in their phase, when they would have an effect."""
    phase = PHASE_NUMBER.get(g.phase)
    out = []
    for card_id in p.laws:
        card = LAWS[card_id]
        if card.phase == phase and LAW_EFFECTS[card.effect].can(g, p, card_id):
            out.append(play_option(card_id))
    return out


@lru_cache(maxsize=None)
def play_option(card_id: str) -> Option:
    return Option(f"play:{card_id}", f"Play {LAWS[card_id].name}", "play", f"law:{card_id}")


def choose_play(g: Game, p: Player, option_id: str) -> None:
    card_id = option_id.removeprefix("play:")
    back = g.pending
    g.pending = None
    LAW_EFFECTS[LAWS[card_id].effect].play(g, p, card_id)
    if g.pending is not None and g.pending.get("law") == card_id:
        g.pending["back"] = back  # a choice to make; "cancel" returns to where it was


def discard_law(g: Game, p: Player, card_id: str) -> None:
    """A played card is read out and leaves the game."""
    p.laws.remove(card_id)
    g.played.append(card_id)
    card = LAWS[card_id]
    g.log.append(f"{seat_ref(p.seat)} plays the law {card.name}: {card.text}")


def after_law(g: Game, p: Player) -> None:
    """Carry on with the phase in which a card without further choices was played."""
    if g.phase == ORDER:
        await_marker(g)
    elif g.phase == COLLECT:
        run_collect(g)
    elif g.phase == ACTIONS:
        finish_action(g, p.seat)


@dataclass(frozen=True)
class LawEffect:
    can: Callable[[Game, Player, str], bool]
    play: Callable[[Game, Player, str], None]


def _instant(effect: Callable[[Game, Player, str], None]) -> Callable[[Game, Player, str], None]:
    def play(g: Game, p: Player, card_id: str) -> None:
        discard_law(g, p, card_id)
        effect(g, p, card_id)
        after_law(g, p)
    return play


def _flag(name: str, value: Callable[[Game, Player, str], Any] = lambda g, p, c: p.seat):
    def effect(g: Game, p: Player, card_id: str) -> None:
        g.effects.setdefault(name, []).append(value(g, p, card_id))
    return effect


def _choose(kind: str, **extra: Any) -> Callable[[Game, Player, str], None]:
    """A card whose effect needs a choice first; it is discarded once the choice is made."""
    def play(g: Game, p: Player, card_id: str) -> None:
        g.pending = {"kind": kind, "seat": p.seat, "law": card_id, **copy.deepcopy(extra)}
    return play


def _decree(g: Game, p: Player, card_id: str) -> None:
    g.decree = p.seat


def _gift(g: Game, p: Player, card_id: str) -> None:
    take_craft(g, p, "white")
    g.log.append(f"{seat_ref(p.seat)} takes an ironwork cube.")


def _foreman(g: Game, p: Player, card_id: str) -> None:
    g.extra += LAWS[card_id].amount


def _favour(g: Game, p: Player, card_id: str) -> None:
    """On the player's turn in the auction (bidding, or the holder deciding to match):
    the marker is theirs and nobody pays."""
    discard_law(g, p, card_id)
    a = g.auction
    a["step"], a["winner"], a["amount"] = "start", p.seat, 0
    g.log.append(f"{seat_ref(p.seat)} wins the start player marker without paying.")


def _patronage(g: Game, p: Player, card_id: str) -> None:
    """Played before bidding; the bidder then bids as usual."""
    discard_law(g, p, card_id)
    g.auction["bonus"][str(p.seat)] = LAWS[card_id].amount


def _phase_open(g: Game, p: Player, c: str) -> bool:
    """Cards that help later actions this phase are no use to a player who took a new law."""
    return p.seat not in g.stopped


LAW_EFFECTS: dict[str, LawEffect] = {
    # Phase 1
    "all_markers": LawEffect(lambda g, p, c: g.decree is None and g.marker < len(NUMBERS),
                             _instant(_decree)),
    "levy": LawEffect(lambda g, p, c: bool(cottage_numbers(g, p.seat)) and p.seat not in g.effects.get("levy", []),
                      _instant(_flag("levy"))),
    "right_of_way": LawEffect(lambda g, p, c: bool(g.fences) and p.seat not in g.effects.get("right_of_way", []),
                              _instant(_flag("right_of_way"))),
    # Phase 2
    "bumper": LawEffect(lambda g, p, c: True, _choose("type")),
    "blight": LawEffect(lambda g, p, c: True, _choose("type")),
    "granary": LawEffect(lambda g, p, c: p.seat in g.workers.values() and p.seat not in g.effects.get("granary", []),
                         _instant(_flag("granary"))),
    # Phase 3
    "discount": LawEffect(lambda g, p, c: bool(face_up_tiles(g)), _choose("mark")),
    "surcharge": LawEffect(lambda g, p, c: bool(face_up_tiles(g)), _choose("mark")),
    "honest_trader": LawEffect(lambda g, p, c: _phase_open(g, p, c) and p.seat not in g.effects.get("honest", []),
                               _instant(_flag("honest"))),
    "free_house": LawEffect(lambda g, p, c: bool(cottage_numbers(g, p.seat)), _choose("mason")),
    "free_unfence": LawEffect(lambda g, p, c: bool(g.fences), _choose("unfence")),
    "free_fence": LawEffect(lambda g, p, c: p.fences > 0 and has_fence_slot(g), _choose("slot")),
    "gift": LawEffect(lambda g, p, c: craft_available(g, "white"), _instant(_gift)),
    "grant": LawEffect(lambda g, p, c: sum(g.store.values()) > 0,
                       _choose("get", count=2, got=[], **{"for": "grant"})),
    "extra_actions": LawEffect(_phase_open, _instant(_foreman)),
    "survey": LawEffect(lambda g, p, c: bool(cottage_places(g)) and any(
        g.cottages[cottage_id(p.seat, n)]["gap"] for n in NUMBERS), _choose("survey")),
    # Phase 5
    "favour": LawEffect(lambda g, p, c: g.auction is not None and g.auction["step"] in ("bid", "match"),
                        _favour),
    "patronage": LawEffect(lambda g, p, c: g.auction is not None and g.auction["step"] == "bid"
                           and str(p.seat) not in g.auction["bonus"], _patronage),
}
assert {c.effect for c in LAWS.values()} <= set(LAW_EFFECTS), "every law card needs its effect"


# --- Law cards: their choices ---

def type_options(g: Game, p: Player) -> list[Option]:
    verb = "Bumper harvest on" if LAWS[g.pending["law"]].effect == "bumper" else "Blight on"
    return [Option(f"type:{t}", f"{verb} {ft.name} fields", "type", None)
            for t, ft in FIELD_TYPES.items()] + [cancel_option()]


def choose_type(g: Game, p: Player, option_id: str) -> None:
    card_id = g.pending["law"]
    ftype = FIELD_TYPES[option_id.removeprefix("type:")]
    effect = LAWS[card_id].effect
    g.pending = None
    discard_law(g, p, card_id)
    g.effects.setdefault(effect, []).append(ftype.colour)
    g.log.append(f"For the rest of this phase, workers on {ftype.name} fields collect "
                 f"{'one extra cube' if effect == 'bumper' else 'nothing'}.")
    run_collect(g)


def mark_options(g: Game, p: Player) -> list[Option]:
    verb = "Discount" if LAWS[g.pending["law"]].effect == "discount" else "Tax"
    if "tile" in g.pending:  # Building Tax: the colour to add
        tile = g.pending["tile"]
        return [Option(f"add:{c}", f"Add one {cube_name(c)} to its cost", "tax", f"cube:{c}")
                for c in COLOURS if c in TILES[tile].cost] + [cancel_option()]
    return [Option(f"mark:{t}", f"{verb} this tile", "mark", f"tile:{t}")
            for t in face_up_tiles(g)] + [cancel_option()]


def choose_mark(g: Game, p: Player, option_id: str) -> None:
    tile = option_id.removeprefix("mark:")
    card_id = g.pending["law"]
    if LAWS[card_id].effect == "surcharge":
        g.pending["tile"] = tile
        return
    g.pending = None
    discard_law(g, p, card_id)
    g.discounts[tile] = g.discounts.get(tile, 0) + LAWS[card_id].amount
    g.log.append(f"A {TILES[tile].value} tile now costs one cube less.")
    finish_action(g, p.seat)


def choose_add(g: Game, p: Player, option_id: str) -> None:
    tile, card_id = g.pending["tile"], g.pending["law"]
    colour = option_id.removeprefix("add:")
    g.pending = None
    discard_law(g, p, card_id)
    g.surcharges.setdefault(tile, []).append(colour)
    g.log.append(f"A {TILES[tile].value} tile now costs one more {cube_name(colour)}.")
    finish_action(g, p.seat)


def mason_options(g: Game, p: Player) -> list[Option]:
    return [Option(f"house:{n}", f"Turn cottage {n} into a house (free)", "house",
                   f"cottage:{cottage_id(p.seat, n)}") for n in cottage_numbers(g, p.seat)] + [cancel_option()]


def choose_mason(g: Game, p: Player, option_id: str) -> None:
    card_id = g.pending["law"]
    g.pending = None
    discard_law(g, p, card_id)
    make_house(g, p, int(option_id.removeprefix("house:")))
    finish_action(g, p.seat)


def survey_options(g: Game, p: Player) -> list[Option]:
    pend = g.pending
    if "cottage" in pend:
        here = g.cottages[pend["cottage"]]["gap"]
        return [Option(f"gap:{gp}", "Move it here", "survey", f"gap:{gp}")
                for gp in cottage_places(g) if gp != here] + [cancel_option()]
    return [Option(f"move:{n}", f"Move {'house' if g.cottages[cottage_id(p.seat, n)]['house'] else 'cottage'} {n}",
                   "survey", f"cottage:{cottage_id(p.seat, n)}")
            for n in NUMBERS if g.cottages[cottage_id(p.seat, n)]["gap"] is not None] + [cancel_option()]


def choose_survey(g: Game, p: Player, option_id: str) -> None:
    pend = g.pending
    if option_id.startswith("move:"):
        pend["cottage"] = cottage_id(p.seat, int(option_id.removeprefix("move:")))
        return
    cot = own_cottage(g, pend["cottage"])
    g.pending = None
    discard_law(g, p, pend["law"])
    cot["gap"] = option_id.removeprefix("gap:")
    g.log.append(f"{seat_ref(p.seat)} moves {'house' if cot['house'] else 'cottage'} {cot['number']} "
                 "to a new place.")
    finish_action(g, p.seat)


# --- Phase 4: Retrieve worker counters and prepare ---

def end_actions(g: Game) -> None:
    """Workers go home, the markers leave the mat, empty new-law slots are refilled from
    the deck while it lasts; then Phase 5."""
    g.workers = {}
    g.markers = {}
    g.effects = {}
    g.stopped, g.extra, g.passes = [], 0, 0
    for i, card in enumerate(g.law_slots):
        if card is None and g.law_deck:
            g.law_slots[i] = g.law_deck.pop(0)
    left = sum(1 for c in g.law_slots if c is not None)
    g.log.append(f"Phase 4: workers return home; {plural(left, 'new law card')} on offer"
                 f"{'' if g.law_deck else ' (the law deck is empty)'}.")
    begin_auction(g)


# --- Phase 5: Change start player ---

def begin_auction(g: Game) -> None:
    """The start player passes the marker to the player on their left, its holder; the
    player on the holder's left opens the bidding."""
    g.phase = AUCTION
    previous = g.start
    holder = (previous + 1) % len(g.players)
    g.start = holder
    for p in g.players:
        p.received = None
    g.auction = {"holder": holder, "previous": previous, "step": "bid",
                 "turn": (holder + 1) % len(g.players), "out": [], "leader": None, "bid": 0,
                 "worth": 0, "bonus": {}, "winner": None, "amount": 0, "payer": None, "payee": None}
    g.log.append(f"Phase 5: {seat_ref(previous)} passes the start player marker to {seat_ref(holder)}; "
                 f"{seat_ref(g.auction['turn'])} opens the bidding.")
    await_bid(g)


def auction_to_act(g: Game) -> frozenset[Seat]:
    """The bidder whose turn it is, then the holder (match or not), then the winner (who
    pays, then names the start player)."""
    a = g.auction
    return frozenset({{"bid": a["turn"], "match": a["holder"]}.get(a["step"], a["winner"])})


def auction_options(g: Game, p: Player) -> list[Option]:
    step = g.auction["step"]
    if step == "bid":
        return bid_options(g, p)
    if step == "match":
        return match_options(g, p)
    return [Option(f"start:{s}", f"Player {s + 1} starts next round", "start", f"seat:{s}")
            for s in range(len(g.players))]


def bidders(g: Game) -> list[Seat]:
    """Everyone but the holder, clockwise from the holder's left."""
    holder = g.auction["holder"]
    return [s for s in turn_order(g, holder) if s != holder]


def still_bidding(g: Game) -> list[Seat]:
    """Bidders who have not passed: a pass is for the rest of the auction."""
    return [s for s in bidders(g) if s not in g.auction["out"]]


def bonus(g: Game, seat: Seat) -> int:
    """What Patronage adds to every bid of this seat in this auction."""
    return g.auction["bonus"].get(str(seat), 0)


def can_raise(g: Game, seat: Seat) -> bool:
    return cube_count(g.players[seat]) + bonus(g, seat) > g.auction["worth"]


def next_bidder(g: Game, seat: Seat) -> Seat:
    return next(s for s in turn_order(g, (seat + 1) % len(g.players)) if s in still_bidding(g))


def await_bid(g: Game) -> None:
    """Bidding goes clockwise; each bidder raises or passes. A bidder who cannot raise
    and holds no law card passes without being asked (cubes and cards are counted in
    public, so skipping them tells nobody anything). The bidding ends when everyone else
    has passed after the last bid, or everyone has passed."""
    a = g.auction
    while True:
        active = still_bidding(g)
        if not active or active == [a["leader"]]:
            end_bidding(g)
            return
        if a["turn"] not in active or a["turn"] == a["leader"]:
            a["turn"] = next_bidder(g, a["turn"])
            continue
        if can_raise(g, a["turn"]) or holds_law(g, a["turn"]):
            return  # a choice for this bidder
        a["out"].append(a["turn"])
        g.log.append(f"{seat_ref(a['turn'])} cannot raise the bid of {a['worth']} and passes."
                     if a["leader"] is not None else f"{seat_ref(a['turn'])} has no cubes to bid and passes.")


def bid_options(g: Game, p: Player) -> list[Option]:
    """Every raise the bidder can pay for (each cube counts 1), or pass."""
    extra = bonus(g, p.seat)
    lowest = max(0, g.auction["worth"] + 1 - extra)
    out = [Option(f"bid:{n}", bid_label(n, extra), "bid", f"bid:{n}")
           for n in range(lowest, cube_count(p) + 1)]
    return out + [Option("pass", "Pass (you are out of this auction)", "bid", "bid:pass")] + law_play_options(g, p)


def bid_label(n: int, extra: int) -> str:
    counts = f" (counts {n + extra})" if extra else ""
    return f"Bid {plural(n, 'cube')}{counts}"


def choose_bid(g: Game, p: Player, option_id: str) -> None:
    """Bids are spoken aloud: everyone hears the amount."""
    a = g.auction
    a["leader"], a["bid"] = p.seat, int(option_id.removeprefix("bid:"))
    a["worth"] = a["bid"] + bonus(g, p.seat)
    counts = f" (it counts {a['worth']} with Patronage)" if bonus(g, p.seat) else ""
    g.log.append(f"{seat_ref(p.seat)} bids {plural(a['bid'], 'cube')}{counts}.")
    a["turn"] = next_bidder(g, p.seat)
    await_bid(g)


def choose_auction_pass(g: Game, p: Player, option_id: str) -> None:
    a = g.auction
    a["out"].append(p.seat)
    g.log.append(f"{seat_ref(p.seat)} passes and is out of the auction.")
    if still_bidding(g):
        a["turn"] = next_bidder(g, p.seat)
    await_bid(g)


def end_bidding(g: Game) -> None:
    """Nobody bid: the holder keeps the marker for nothing. Otherwise the holder may match
    the last bid; one who has too few cubes and no law card to play lets it go unasked."""
    a = g.auction
    holder = a["holder"]
    if a["leader"] is None:
        a["step"], a["winner"] = "start", holder
        g.log.append(f"Nobody bid: {seat_ref(holder)} keeps the marker.")
        return
    a["step"] = "match"
    g.log.append(f"The bid of {a['worth']} by {seat_ref(a['leader'])} stands; "
                 f"{seat_ref(holder)} may match it.")
    if cube_count(g.players[holder]) < a["worth"] and not holds_law(g, holder):
        g.log.append(f"{seat_ref(holder)} has too few cubes to match.")
        let_it_go(g)


def match_options(g: Game, p: Player) -> list[Option]:
    a = g.auction
    out = []
    if cube_count(p) >= a["worth"]:
        out.append(Option("match", f"Match the bid: pay {plural(a['worth'], 'cube')} to player "
                                   f"{a['previous'] + 1} and keep the marker", "match"))
    out.append(Option("decline", f"Let it go: player {a['leader'] + 1} pays you "
                                 f"{plural(a['bid'], 'cube')}", "decline"))
    return out + law_play_options(g, p)


def choose_match(g: Game, p: Player, option_id: str) -> None:
    """The holder keeps the marker by paying the bid to the previous holder, the player
    who passed it on."""
    a = g.auction
    g.log.append(f"{seat_ref(p.seat)} matches the bid of {a['worth']} and keeps the marker.")
    a["winner"], a["payer"], a["payee"], a["amount"] = p.seat, p.seat, a["previous"], a["worth"]
    begin_auction_payment(g)


def choose_decline(g: Game, p: Player, option_id: str) -> None:
    let_it_go(g)


def let_it_go(g: Game) -> None:
    """The last bidder wins and pays the cubes they bid to the holder."""
    a = g.auction
    a["winner"], a["payer"], a["payee"], a["amount"] = a["leader"], a["leader"], a["holder"], a["bid"]
    g.log.append(f"{seat_ref(a['winner'])} wins the start player marker.")
    begin_auction_payment(g)


def begin_auction_payment(g: Game) -> None:
    """Which cubes pay comes from behind the screen: the payer picks them one by one, and
    is asked even when holding one colour only (skipping the question would tell the table
    so); only paying every cube they have goes without asking."""
    a = g.auction
    a["step"] = "pay"
    if a["amount"] == 0:
        a["step"] = "start"
        return
    start_payment(g, g.players[a["payer"]], a["amount"], "any", {"for": "auction"}, cancel=False,
                  count_only=True)


def pay_auction(g: Game, p: Player, paid: Counter) -> None:
    """The winner pays the previous holder. Everyone hears how many cubes; only payer and
    payee see which."""
    a = g.auction
    payee = g.players[a["payee"]]
    pay(g, p, paid, to=payee)
    payee.received = {"from": p.seat, "cubes": {c: paid[c] for c in COLOURS if paid[c]}}
    g.log.append(f"{seat_ref(p.seat)} pays {plural(sum(paid.values()), 'cube')} to {seat_ref(payee.seat)}.")
    a["step"] = "start"


def choose_start(g: Game, p: Player, option_id: str) -> None:
    """The winner names the next start player (themselves too)."""
    g.start = int(option_id.removeprefix("start:"))
    g.auction = None
    g.log.append(f"{seat_ref(p.seat)} makes {seat_ref(g.start)} the start player.")
    begin_round(g)


# --- Scoring and the end of the game ---

def score_lines(p: Player) -> dict[str, int]:
    """Building tiles at their value, then leftover cubes: gold 4, stained glass 3,
    ironwork 2, each basic resource 1."""
    lines = {"Building tiles": sum(TILES[t].value for t in p.tiles)}
    for c in reversed(CRAFT):
        lines[cube_name(c).capitalize()] = p.cubes[c] * CUBES[c].points
    lines["Basic resources"] = basic_count(p)
    return lines


def scores(g: Game) -> list[SeatScore]:
    out = []
    for p in g.players:
        lines = score_lines(p)
        out.append(SeatScore(p.seat, sum(lines.values()), lines, (len(p.tiles),),
                             note=f"{plural(len(p.tiles), 'building tile')}"))
    return out


def result(g: Game) -> Result | None:
    """Most points wins; a tie goes to the most building tiles; still tied, shared."""
    if g.phase != OVER:
        return None
    seat_scores = scores(g)
    return Result(seat_scores, winners_by_score(seat_scores),
                  "The last building tile was acquired: the Keythedral is complete.")


# --- Cancelling a choice in progress ---

CANCEL_OPTION = Option("cancel", "Cancel", "cancel")


def cancel_option() -> Option:
    return CANCEL_OPTION


def choose_cancel(g: Game, p: Player, option_id: str) -> None:
    g.pending = g.pending.get("back")


# --- The protocol: who acts, what they may choose, applying a choice ---

def to_act(g: Game) -> frozenset[Seat]:
    if g.pending is not None:
        return frozenset({g.pending["seat"]})
    if g.phase == SETUP:
        return frozenset({setup_seat(g)})
    if g.phase == ORDER:
        return frozenset({marker_placer(g)})
    if g.phase == WORKERS:
        return frozenset({g.activation["queue"][0]})  # type: ignore[index]
    if g.phase == COLLECT:
        return frozenset({g.collect_queue[0]})
    if g.phase == ACTIONS:
        return frozenset({g.actor})
    if g.phase == AUCTION:
        return auction_to_act(g)
    return frozenset()


PENDING_OPTIONS: dict[str, Callable[[Game, Player], list[Option]]] = {
    "number": lambda g, p: [Option(f"number:{n}", f"Cottage {n}", "number", f"cottage:{cottage_id(p.seat, n)}")
                            for n in unplaced_numbers(g, p.seat)] + [cancel_option()],
    "drop": drop_options, "slot": slot_options, "unfence": unfence_options,
    "reposition": reposition_options, "pay": pay_options, "get": get_options,
    "new_law": new_law_options, "type": type_options, "mark": mark_options,
    "mason": mason_options, "survey": survey_options,
}
PHASE_OPTIONS: dict[str, Callable[[Game, Player], list[Option]]] = {
    SETUP: setup_options, ORDER: order_options, WORKERS: worker_options,
    COLLECT: collect_options, ACTIONS: action_options, AUCTION: auction_options,
}
CHOICES: dict[str, Callable[[Game, Player, str], None]] = {
    "cell": place_field, "gap": lambda g, p, o: (choose_cottage_gap if g.phase == SETUP and not g.pending
                                                 else choose_reposition if g.pending["kind"] == "reposition"
                                                 else choose_survey)(g, p, o),
    "number": lambda g, p, o: place_cottage(g, p, g.pending["gap"], int(o.removeprefix("number:"))),
    "order": choose_order, "field": choose_worker_field, "collect": choose_collect,
    "tile": choose_tile, "drop": choose_drop, "house": lambda g, p, o: (
        choose_mason if g.pending else choose_house)(g, p, o),
    "fence": lambda g, p, o: (choose_slot if ":" in o else choose_fence)(g, p, o),
    "unfence": choose_unfence, "remove": choose_remove, "craft": choose_craft,
    "trade": choose_trade, "pay": choose_pay, "get": choose_get, "law": choose_law_slot,
    "keep": choose_keep, "play": choose_play, "type": choose_type, "mark": choose_mark,
    "add": choose_add, "move": choose_survey, "bid": choose_bid,
    "pass": lambda g, p, o: (choose_auction_pass if g.phase == AUCTION else choose_pass)(g, p, o),
    "match": choose_match, "decline": choose_decline, "start": choose_start,
    "cancel": choose_cancel,
}


def options(g: Game, seat: Seat) -> list[Option]:
    """Every legal choice for the seat now, in a stable order."""
    if g.phase == OVER or seat not in to_act(g):
        return []
    p = g.players[seat]
    if g.pending is not None:
        return PENDING_OPTIONS[g.pending["kind"]](g, p)
    return PHASE_OPTIONS[g.phase](g, p)


# What the bot listed last, for the next ``apply`` on that game (protocol.ListedOnce).
_LISTED = ListedOnce(lambda g, seat: options(g, seat))


def listed(g: Game, seat: Seat) -> list[Option]:
    """``options``, for a caller that next applies one of them to this very game (the bot)."""
    return _LISTED.listed(g, seat)


def apply(g: Game, seat: Seat, option_id: str) -> Game:
    """A new game after the seat's choice; the given game is left untouched."""
    check_choice(seat, len(g.players), g.phase == OVER, to_act(g), _LISTED.offered(g, seat), option_id)
    g = clone(g)
    CHOICES[option_id.split(":", 1)[0]](g, g.players[seat], option_id)
    return g


# --- Saving: plain JSON ---

def dump(g: Game) -> dict[str, Any]:
    return dump_game(g)


def load(raw: dict[str, Any]) -> Game:
    return load_game(Game, Player, raw)


def clone(g: Game) -> Game:
    """An independent copy, made by hand: each part copied as deep as it nests, and the
    objects made without running their ``__init__`` (every attribute is set here). Every
    action copies the game once, and the generic copy was most of a playout's time.
    ``pending`` nests freely (a law's choice keeps the one it interrupted), so it keeps the
    generic copy. The cottages are shared, not copied: a step that changes one copies it
    first (``own_cottage``). tests/games/keythedral/test_properties.py checks nothing else
    mutable is shared, and that no step changes a game it was given."""
    attrs = g.__dict__.copy()  # the plain values (str, int, None) as they are; the rest below
    attrs["players"] = [_made(Player, {
        "seat": p.seat, "cubes": p.cubes.copy(), "tiles": p.tiles.copy(), "laws": p.laws.copy(), "fences": p.fences,
        "received": None if (r := p.received) is None else {"from": r["from"], "cubes": r["cubes"].copy()}})
        for p in g.players]
    attrs["fences"] = [f.copy() for f in g.fences]
    attrs["rows"] = {row: tiles.copy() for row, tiles in g.rows.items()}
    attrs["surcharges"] = {t: c.copy() for t, c in g.surcharges.items()}
    if (a := g.activation) is not None:
        attrs["activation"] = dict(a, queue=a["queue"].copy())
    for name in FLAT_PARTS:  # dicts of plain values, and lists of them
        attrs[name] = attrs[name].copy()
    if (a := g.auction) is not None:
        attrs["auction"] = dict(a, out=a["out"].copy(), bonus=a["bonus"].copy())
    attrs["effects"] = {k: v.copy() for k, v in g.effects.items()}
    if g.pending is not None:
        attrs["pending"] = plain(g.pending)
    attrs["log"] = GameLog(g.log.recent, g.log.total)
    return _made(Game, attrs)


FLAT_PARTS = ("options", "fields", "workers", "bag", "face_up", "discounts", "markers", "store", "craft",
              "spent", "law_deck", "law_slots", "played", "collect_queue", "stopped")


def _made(cls: type, attrs: dict[str, Any]) -> Any:
    """An instance holding exactly ``attrs``, its ``__init__`` not run (a copy sets them all)."""
    obj = object.__new__(cls)
    obj.__dict__ = attrs
    return obj
