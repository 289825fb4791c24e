"""Tiny Towns rules: the game flow, in the order of the rulebook's headings.

A game is a pure function of (options, seed, choices). ``Game`` holds everything, is
copied before every change, and turns into plain JSON with ``dump``/``load``. Every
decision is one of the options listed by ``options``; a construction is a short sequence
of them (building, then its squares one by one, then the square it stands on).

Seats appear in the log as "{seat0}", "{seat1}"… (the table writes the names in). Seat
``s + 1`` is on the left of seat ``s``: the hammer passes to the next seat index, and
"the player on your right" (Feast Hall) is the previous seat index.

Decisions on points the rulebook leaves open (each is stated again where it is coded):

- Placement specials (Factory, Warehouse, Statue of the Bondmaker, Cavern) trigger only
  when another player named the resource: never for the Master Builder's own naming or a
  Town Hall free-choice round; always on Town Hall card rounds and solo card picks.
- A Factory swap places the other resource on the board (not on a Warehouse or Cottage).
  Warehouse storing fills the first Warehouse with room in reading order; a swap takes the
  cube from the first Warehouse holding it. Swapping a cube for one of its own kind is not
  offered (it changes nothing).
- The Statue of the Bondmaker works on Cottage buildings, not on Barrett Castle.
- Cavern cubes (at most 2 per game) may be put on any empty square during any later
  construction step, starting with the construction step of the round they were set
  aside in. They score nothing.
- "A building's effects take effect after all players have built that round": a Trading
  Post is wild and the Obelisk lets you place anywhere only from the round after they were
  built; Opaleye's Watch takes buildings from the round after it was built. Effects printed
  as "when built" (Bank and Factory cubes, Architect's Guild, Grove University, Opaleye's
  Watch's cards, Shrine value) resolve at once, before the player does anything else.
- A Bank takes a resource not already on another black building of that town (Factory,
  Warehouse and Bank cubes alike); with none left it takes no cube. As Master Builder (and
  in Town Hall free rounds) a player may not name a resource lying on one of their own
  Banks, unless that forbids all five.
- Architect's Guild replaces buildings (not monuments) with another building type of this
  game; cubes stored on a replaced building go back to the supply; a new Bank or Factory
  takes its cube as usual. Grove University places any building card of this game.
- Opaleye's Watch: exactly 3 different building types of this game, then "watch-done"
  to confirm. Its neighbours are the seats
  on either side, whether or not their towns are complete. Only constructions (not Grove,
  Guild or Watch placements) trigger it; each type on the card moves once. With no empty
  square, the building stays on the card.
- Buildings placed by Grove University, the Guild or the Watch do not count as
  constructed for other players' Watches.
- A town is complete when, at the end of a round's construction, it has no empty square.
  Players completing in the same round share the place; the next place counts everyone
  before (1, 1, 3). A complete player never acts again.
- The hammer passes to the next seat still playing that has not built Fort Ironweed,
  coming back to the current Master Builder if every other remaining player has built it;
  if all remaining players have, it goes to the next one (and the last player always
  names). Every naming counts as a turn as Master Builder (tiebreak), the last player's
  too.
- In a construction step a player is asked only if they can build something, or hold a
  Cavern cube and have an empty square, or some monument they might hold as far as the
  others know (any not yet built) fits their town: whose turn it is is public, so it must
  not depend on which monument they kept. After each building, a player with nothing more
  to do by that same test is done without saying so. A layout is picked one square at a time; "cancel"
  drops the whole construction in progress.
- Town Hall: nobody needs to act as the Mayor: the rules turn the cards over. Rounds
  cycle card, card, free choice (choose a resource in secret, then place it). Each card goes to the discard pile
  after its round; when a card is needed and the deck is empty, the discards are shuffled
  into a new deck and its top 5 set aside face down again.
- Solo: the chosen card goes to the bottom of the deck and the top card replaces it in
  the same slot.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from functools import lru_cache, reduce
from operator import getitem, or_
from typing import Any, Callable, Sequence

from app.games.gamelog import GameLog
from app.games.plainstate import plain
from app.games.protocol import IllegalAction, Option, Result, SeatScore, check_choice, winners_by_score
from app.games.rng import Rng

from .content import (ALL_CARDS, BUILDINGS, FIRST_GAME, MONUMENTS, PILES, RESOURCE_CARDS,
                      RESOURCES, SOLO_RATINGS, SOLO_REMOVED, Resource)
from .scoring import TownScore, score_town, shrine_points
from .town import (ALL_SQUARES, RESOURCE_BITS, SIZE, SQUARE_BITS, WILD, WILD_BIT, WILD_BITS, Cell, Town, cell_name,  # noqa: F401
                   empty_squares, empty_town, iter_cells, square_shift)

Seat = int
Layout = tuple[tuple[Cell, Resource], ...]  # the squares of one way to lay out a card

# Phases of a round (and the monument choice before the first one).
KEEP = "keep"        # every player keeps one of two monuments
NAME = "name"        # the Master Builder names a resource
PICK = "pick"        # solo: the player picks one of three resource cards
PLACE = "place"      # everyone places the resource, in secret until all have chosen
BUILD = "build"      # everyone constructs, as many buildings as they like
WATCH = "watch"      # Opaleye's Watch owners move buildings taken from the card
OVER = "over"

STEP_NAMES = {
    KEEP: "Choose a monument",
    NAME: "Name a resource",
    PICK: "Pick a resource card",
    PLACE: "Place the resource",
    BUILD: "Construct buildings",
    WATCH: "Opaleye's Watch",
    OVER: "Game over",
}

_STORES = frozenset(("factory", "warehouse"))  # buildings that change a placement
WAREHOUSE_ROOM = 3
CAVERN_LIMIT = 2
WATCH_CARDS = 3
TOWN_HALL_SET_ASIDE = 5
SOLO_REVEALED = 3
BLACK_BUILDINGS = frozenset(card_id for card_id, card in BUILDINGS.items() if card.colour == "black")


@dataclass
class Player:
    """One seat: the town and everything the rules remember about that player."""

    seat: Seat
    town: Town = field(default_factory=empty_town)
    dealt: list[str] = field(default_factory=list)  # two monuments to choose from (secret)
    monument: str | None = None  # the kept monument (secret until built)
    monument_round: int | None = None  # round the monument was built, None before
    complete: bool = False
    place: int | None = None  # completion place, ties share
    master_builder_turns: int = 0
    cavern: list[Resource] = field(default_factory=list)  # cubes set aside, not yet placed
    caverns_used: int = 0
    watch: list[str] = field(default_factory=list)  # building types on Opaleye's Watch
    shrine_value: int | None = None
    construction: dict[str, Any] | None = None  # {"card", "picked": [[r, c], ...]}
    effects: list[dict[str, Any]] = field(default_factory=list)  # "when built" choices due
    done: bool = True  # nothing more to do in this construction step
    fresh: list[list[int]] = field(default_factory=list)  # squares built on this round
    built_types: list[str] = field(default_factory=list)  # constructed this round (Watch)


@dataclass
class Game:
    players: list[Player]
    options: dict[str, Any]
    cards: list[str]  # the 7 building cards in play, Cottage first
    rng: str  # Rng.state: holds the game secret, never in a view
    phase: str = KEEP
    round: int = 0
    master_builder: Seat | None = None
    resource: Resource | None = None  # this round's resource, once public
    source: str | None = None  # how it came: "named", "card" (Town Hall), "free", "solo"
    # The lists of cards below and the placements' lists are shared by a game and its
    # copies (``share_players``): after ``setup`` the rules replace them whole and never
    # change them in place (``replaced``, slices, ``[*before, new]``).
    deck: list[Resource] = field(default_factory=list)  # resource cards (secret order)
    discard: list[Resource] = field(default_factory=list)  # Town Hall discards
    revealed: list[Resource] = field(default_factory=list)  # solo: the three face-up cards
    completed: int = 0  # towns complete so far
    log: GameLog = field(default_factory=GameLog)  # recent lines; the table keeps the rest
    # Per seat: this round's placement being chosen, and the one chosen until all have
    # chosen (secret; saved with each player). Kept here, not on the players, so that a
    # placement step copies two short lists instead of the players (three copies of every
    # player a round); their dicts are replaced whole, never changed in place.
    placing: list[dict[str, Any] | None] = field(default_factory=list)
    pending: list[dict[str, Any] | None] = field(default_factory=list)
    # The placers who have not chosen yet (a bit per seat: a placing and no pending), set
    # wherever those two lists are, for ``to_act``. Derived, never saved.
    waiting: int = field(default=0, compare=False, repr=False)
    # The seats whose player is this game's alone (bit per seat); the others may be in
    # other games too (``share_players``), so a change goes to an own copy. Never saved.
    owned: int = field(default=0, compare=False, repr=False)
    # The seat and option ids the bot listed on this very game object (``listed_ids``),
    # for the next ``apply`` to it to check the choice against, once. Never saved or copied.
    listed: tuple[Seat, list[str]] | None = field(default=None, compare=False, repr=False)


# --- Small words ---

def player_name(seat: Seat) -> str:
    """A seat in the log; the table writes the player's name in its place."""
    return _PLAYER_NAMES[seat] if 0 <= seat < len(_PLAYER_NAMES) else "{seat%d}" % seat


_PLAYER_NAMES = tuple("{seat%d}" % seat for seat in range(6))  # made once: every step names someone


def card_name(card_id: str) -> str:
    return ALL_CARDS[card_id].name


def a_card(card_id: str) -> str:
    """A building with its article; monuments by their own name.

    >>> a_card("farm"), a_card("inn"), a_card("starloom")
    ('a Farm', 'an Inn', 'The Starloom')
    """
    name = card_name(card_id)
    if card_id in MONUMENTS:
        return name
    return ("an " if name[0] in "AEIOU" else "a ") + name


def cell_id(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


@lru_cache(maxsize=64)  # 16 squares; asked at every placement and construction step
def parse_cell(text: str) -> Cell:
    r, c = text.split(",")
    return (int(r), int(c))


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th...

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 21)]
    ['1st', '2nd', '3rd', '4th', '11th', '21st']
    """
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def is_solo(g: Game) -> bool:
    return len(g.players) == 1


def is_town_hall(g: Game) -> bool:
    return bool(g.options.get("town_hall"))


def remaining(g: Game) -> list[Player]:
    """Players whose town is not complete yet, in seat order."""
    return [p for p in g.players if not p.complete]


def has_built(p: Player, monument: str) -> bool:
    return p.monument == monument and p.monument_round is not None


def has_settled(g: Game, p: Player, monument: str) -> bool:
    """Built in an earlier round: its lasting effect applies now."""
    return has_built(p, monument) and p.monument_round < g.round  # type: ignore[operator]


def shuffle(g: Game, items: list[Any]) -> None:
    rng = Rng(g.rng)
    rng.shuffle(items)
    g.rng = rng.state


def draw_one(g: Game, items: list[Any]) -> Any:
    rng = Rng(g.rng)
    item = rng.choice(items)
    g.rng = rng.state
    return item


# --- Setup ---

def setup(players: int, options: dict[str, Any], seed: int) -> Game:
    """A fresh game: building cards in play, monuments dealt, first Master Builder seat 0.

    ``options`` are already validated (monuments, buildings, cavern, town_hall).
    """
    if not 1 <= players <= 6:
        raise IllegalAction("Tiny Towns is for 1 to 6 players.")
    if options.get("town_hall") and players == 1:
        raise IllegalAction("The Town Hall variant needs at least 2 players "
                            "(solo play already uses the resource cards).")
    g = Game(players=[Player(s) for s in range(players)], options=dict(options), cards=[],
             rng=Rng(seed).state, placing=[None] * players, pending=[None] * players,
             owned=(1 << players) - 1)
    g.cards = choose_buildings(g)
    g.log.append(f"A game of Tiny Towns for {players} player{'s' if players > 1 else ''}. "
                 f"Buildings: {', '.join(card_name(c) for c in g.cards)}.")
    if is_solo(g) or is_town_hall(g):
        g.deck = list(RESOURCE_CARDS)
        shuffle(g, g.deck)
    if is_town_hall(g):
        set_aside_five(g)
    elif is_solo(g):
        g.revealed = [g.deck.pop(0) for _ in range(SOLO_REVEALED)]
    else:
        g.master_builder = 0
        g.log.append(f"{player_name(0)} holds the Master Builder's hammer.")
    if g.options.get("monuments"):
        deal_monuments(g)
    else:
        start_round(g)
    return g


def choose_buildings(g: Game) -> list[str]:
    """The Cottage plus one random card from each of the six piles (or the first-game set).

    Solo play removes the Bank and the Inn before drawing.
    """
    if g.options.get("buildings") == "first_game":
        return list(FIRST_GAME)
    cards = ["cottage"]
    removed = SOLO_REMOVED if is_solo(g) else frozenset()
    for pile in PILES.values():
        cards.append(draw_one(g, [c for c in pile if c not in removed]))
    return cards


def deal_monuments(g: Game) -> None:
    """Shuffle the monuments and deal two to each player, who keeps one in secret.

    Solo play removes Fort Ironweed and Opaleye's Watch first.
    """
    pool = [m for m in MONUMENTS if not (is_solo(g) and m in SOLO_REMOVED)]
    shuffle(g, pool)
    for p in g.players:
        p.dealt = [pool.pop(0), pool.pop(0)]
    g.phase = KEEP
    g.log.append("Each player is dealt two monuments and keeps one in secret.")


def keep_monument(g: Game, p: Player, monument: str) -> None:
    p.monument = monument
    p.dealt = []
    if all(q.monument for q in g.players):
        g.log.append("Every player has chosen a monument.")
        start_round(g)


# --- Gameplay Flow: the round ---

def start_round(g: Game) -> None:
    """A new round: the resource is named (or drawn, or picked), then placed, then built."""
    g.round += 1
    g.resource = None
    g.source = None
    g.placing = [None] * len(g.players)
    g.pending = [None] * len(g.players)
    g.waiting = 0
    for p in g.players:
        if not is_between_rounds(p):  # a player already so stays shared (not copied)
            p = own_player(g, p.seat)
            p.construction = None
            p.effects = []
            p.done = True
            p.fresh = []
            p.built_types = []
    if is_solo(g):
        g.phase = PICK
    elif is_town_hall(g):
        town_hall_round(g)
    else:
        g.phase = NAME


def is_between_rounds(p: Player) -> bool:
    """Nothing of a round left on the player: as ``start_round`` leaves everyone."""
    return (p.construction is None and p.effects == []
            and p.done is True and p.fresh == [] and p.built_types == [])


# --- Gameplay Flow: 1. Name Resource ---

def nameable(p: Player) -> list[Resource]:
    """Resources this player may name: not one lying on their own Banks (Bank card)."""
    banked = {r for cell in p.town.cells_of("bank") for r in p.town.at(cell).stored}
    return [r for r in RESOURCES if r not in banked] or list(RESOURCES)


def name_options(g: Game, p: Player) -> list[Option]:
    if "bank" not in g.cards:  # no town holds a Bank: every resource (without a look at the town)
        return list(_name_options(RESOURCES))
    return list(_name_options(tuple(nameable(p))))


@lru_cache(maxsize=64)
def _name_options(resources: tuple[Resource, ...]) -> tuple[Option, ...]:
    return tuple(Option(f"name:{r}", f"Name {r}", "name", f"resource:{r}") for r in resources)


def name_resource(g: Game, p: Player, option_id: str) -> None:
    resource = option_id.removeprefix("name:")
    g.resource = resource
    g.source = "named"
    p.master_builder_turns += 1
    g.log.append(f"Round {g.round}: {player_name(p.seat)} names {resource}.")
    begin_placement(g)


# --- Gameplay Flow: 2. Place Resource ---

def begin_placement(g: Game, placers: list[Seat] | None = None) -> None:
    """Everyone still playing places the resource at once; a player with no empty square
    does not place. ``placers`` limits who takes part (Town Hall free rounds)."""
    g.phase = PLACE
    placing = {"resource": g.resource, "switch": None, "take": None}  # one for all: replaced, never changed
    g.placing = [placing if not p.complete and not p.town.is_full() and (placers is None or p.seat in placers)
                 else before for p, before in zip(g.players, g.placing)]
    g.waiting = waiting_seats(g)
    if not any(g.placing):
        begin_construction(g)


def waiting_seats(g: Game) -> int:
    """The placers who have not chosen yet, a bit per seat, from the placements' lists."""
    return sum(1 << seat for seat, (placing, pending) in enumerate(zip(g.placing, g.pending)) if placing and not pending)


def is_named_by_another(g: Game, p: Player) -> bool:
    """Factory, Warehouse, Statue and Cavern work on a resource another player named:
    Town Hall card rounds and solo card picks count, one's own naming and free rounds don't."""
    if g.source == "named":
        return p.seat != g.master_builder
    return g.source in ("card", "solo")


def placement_options(g: Game, p: Player) -> list[Option]:
    placing = g.placing[p.seat]
    assert placing is not None
    resource = placing["resource"]
    if resource is None:
        return [Option(f"choose:{r}", f"Choose {r}", "choose", f"resource:{r}") for r in nameable(p)]
    if placing["switch"]:
        return place_options(p, f"Place {placing['switch']} on {{}}") + [cancel_option()]
    if placing["take"]:
        return place_options(p, f"Put the {placing['take']} from the Warehouse on {{}}") + [cancel_option()]
    opts = place_options(p, _PLACE_LABELS.get(resource) or f"Place {resource} on {{}}")
    if is_named_by_another(g, p):
        opts += special_placements(g, p, resource)
    if g.source == "free":
        opts.append(cancel_option())
    return opts


_PLACE_LABELS = {r: f"Place {r} on {{}}" for r in RESOURCES}  # made once: asked at every placement


def place_options(p: Player, label: str) -> list[Option]:
    """``place:r,c`` for every empty square of the player's town."""
    by_square = _place_option_per_square(label)
    return [by_square[n] for n in empty_squares(p.town.held_squares())]


def usual_placement_ids(g: Game, seat: Seat) -> tuple[str, ...] | None:
    """The ids ``placement_options`` lists for a placer choosing where the round's
    resource goes, with nothing but squares to offer (the usual choice): ``place:r,c``
    for every empty square, without making the options. None for any other case."""
    placing = g.placing[seat]
    if (not placing or g.pending[seat] or placing["resource"] is None or placing["switch"]
            or placing["take"] or g.source == "free"):
        return None
    p = g.players[seat]
    if is_named_by_another(g, p) and may_place_specially(g, p):
        return None
    held = p.town.held_squares()
    return _PLACE_IDS_IN_FIRST_HALF[held & 0xFF] + _PLACE_IDS_IN_SECOND_HALF[held >> 8]


# The ids of the empty squares' place options, by the held squares of each half of a town
# (as ``town.empty_squares``): a bot lists them at every placement.
_PLACE_IDS_IN_FIRST_HALF = tuple(tuple(f"place:{cell_id(divmod(n, SIZE))}" for n in empty_squares(ALL_SQUARES ^ 0xFF | held))
                                 for held in range(256))
_PLACE_IDS_IN_SECOND_HALF = tuple(tuple(f"place:{cell_id(divmod(n, SIZE))}" for n in empty_squares(0xFF | held << 8))
                                  for held in range(256))


@lru_cache(maxsize=256)
def _place_option_per_square(label: str) -> tuple[Option, ...]:
    # Options are frozen: one per square (reading order) and wording, made once and
    # offered to every placing seat.
    return tuple(Option(f"place:{cell_id(c)}", label.format(cell_name(c)), "place", f"cell:{cell_id(c)}")
                 for c in iter_cells())


def cancel_option() -> Option:
    return CANCEL


CANCEL = Option("cancel", "Cancel", "cancel")  # options are frozen: one of each is enough
DONE = Option("done", "Done building", "done")


def may_place_specially(g: Game, p: Player) -> bool:
    """Whether ``special_placements`` may offer anything: the Cavern rule, a built Statue
    of the Bondmaker, or a Factory or Warehouse in the town (most placements: none)."""
    return bool(g.options.get("cavern") or p.monument == "bondmaker" and p.monument_round is not None or (
        not _STORES.isdisjoint(g.cards)  # else no town holds a Factory or a Warehouse
        and not _STORES.isdisjoint([b for _, b in p.town.buildings()])))


def special_placements(g: Game, p: Player, resource: Resource) -> list[Option]:
    """Factory, Warehouse, Statue of the Bondmaker and Cavern choices for this resource."""
    town, opts = p.town, []
    if not may_place_specially(g, p):
        return opts  # nothing special to offer (most placements)
    if any(resource in town.at(c).stored for c in town.cells_of("factory")):
        opts += [Option(f"factory:{r}", f"Factory: place {r} instead", "factory", f"resource:{r}")
                 for r in RESOURCES if r != resource]
    warehouses = town.cells_of("warehouse")
    if any(len(town.at(c).stored) < WAREHOUSE_ROOM for c in warehouses):
        opts.append(Option("warehouse:store", f"Store {resource} on a Warehouse", "warehouse"))
    stored = {r for c in warehouses for r in town.at(c).stored}
    opts += [Option(f"warehouse:swap:{r}", f"Store {resource} on a Warehouse, take its {r}",
                    "warehouse", f"resource:{r}")
             for r in RESOURCES if r in stored and r != resource]
    if has_built(p, "bondmaker"):
        opts += [Option(f"statue:{cell_id(c)}", f"Put {resource} on the Cottage at {cell_name(c)}",
                        "statue", f"cell:{cell_id(c)}")
                 for c in town.cells_of("cottage") if not town.at(c).stored]
    if g.options.get("cavern") and p.caverns_used < CAVERN_LIMIT:
        opts.append(Option("cavern", f"Set {resource} aside (Cavern)", "cavern"))
    return opts


def choose_placement(g: Game, p: Player, option_id: str) -> None:
    """One step of a player's secret placement; the last step makes it pending. The game's
    placing dict is shared with the game before: a step puts a new one in its place."""
    seat, placing = p.seat, g.placing[p.seat]
    assert placing is not None
    kind, _, rest = option_id.partition(":")
    resource = placing["resource"]
    pending = None
    if kind == "place":  # the usual choice
        cell = list(parse_cell(rest))
        if placing["take"]:
            pending = {"kind": "swap", "resource": resource, "take": placing["take"], "cell": cell}
        elif placing["switch"]:
            pending = {"kind": "factory", "resource": placing["switch"], "named": resource, "cell": cell}
        else:
            pending = {"kind": "place", "resource": resource, "cell": cell}
    elif kind == "choose":
        g.placing = replaced(g.placing, seat, {**placing, "resource": rest})
    elif kind == "cancel":
        if placing["switch"] or placing["take"]:
            g.placing = replaced(g.placing, seat, {**placing, "switch": None, "take": None})
        else:
            g.placing = replaced(g.placing, seat, {**placing, "resource": None})
    elif kind == "factory":
        g.placing = replaced(g.placing, seat, {**placing, "switch": rest})
    elif option_id.startswith("warehouse:swap:"):
        g.placing = replaced(g.placing, seat, {**placing, "take": option_id.removeprefix("warehouse:swap:")})
    elif kind == "warehouse":
        pending = {"kind": "store", "resource": resource}
    elif kind == "statue":
        pending = {"kind": "statue", "resource": resource, "cell": list(parse_cell(rest))}
    elif kind == "cavern":
        pending = {"kind": "cavern", "resource": resource}
    if pending is not None:
        g.pending = replaced(g.pending, seat, pending)
        g.waiting &= ~(1 << seat)
        if g.pending.count(None) == g.placing.count(None):  # every placer has chosen (only placers choose)
            reveal_placements(g)


def reveal_placements(g: Game) -> None:
    """Everyone has chosen: all placements happen and are shown at once."""
    parts = []
    for seat, pending in enumerate(g.pending):
        if pending:
            parts.append(f"{player_name(seat)} {put_down(g, own_player(g, seat), pending)}")
    g.placing = [None] * len(g.players)
    g.pending = [None] * len(g.players)
    g.waiting = 0
    if g.source == "free":
        header = "Free choice"
    elif len(parts) > 1:
        header = f"Everyone placed {g.resource}"
    else:
        header = f"Placed {g.resource}"
    g.log.append(f"{header}: {', '.join(parts)}.")
    begin_construction(g)


def put_down(g: Game, p: Player, pending: dict[str, Any]) -> str:
    """Carry out one placement; returns how the log tells it."""
    kind, resource, town = pending["kind"], pending["resource"], p.town
    cell = tuple(pending["cell"]) if "cell" in pending else None
    said = f"placed {resource} " if g.source == "free" else ""
    if kind in ("place", "factory"):
        town.put_cube(cell, resource)
        if kind == "factory":
            return f"placed {resource} at {cell_name(cell)} instead (Factory)"
        return f"{said}at {cell_name(cell)}"
    if kind == "store":
        store_on_warehouse(town, resource)
        return f"stored {resource} on a Warehouse"
    if kind == "swap":
        take_from_warehouse(town, pending["take"])
        store_on_warehouse(town, resource)
        town[cell].resource = pending["take"]
        return (f"stored {resource} on a Warehouse and put its {pending['take']} "
                f"at {cell_name(cell)}")
    if kind == "statue":
        town[cell].stored.append(resource)
        return f"put {resource} on the Cottage at {cell_name(cell)} (Statue of the Bondmaker)"
    assert kind == "cavern"
    p.cavern = [*p.cavern, resource]
    p.caverns_used += 1
    return f"set {resource} aside (Cavern)"


# --- Buildings in detail: Warehouse ---

def store_on_warehouse(town: Town, resource: Resource) -> None:
    """Up to 3 cubes per Warehouse; the first one with room in reading order takes it."""
    cell = next(c for c in town.cells_of("warehouse") if len(town[c].stored) < WAREHOUSE_ROOM)
    town[cell].stored.append(resource)


def take_from_warehouse(town: Town, resource: Resource) -> None:
    cell = next(c for c in town.cells_of("warehouse") if resource in town[c].stored)
    town[cell].stored.remove(resource)


# --- Gameplay Flow: 3. Construct Buildings ---

def begin_construction(g: Game) -> None:
    """Everyone who can construct may, at once; who cannot is not asked."""
    g.phase = BUILD
    cards, unbuilt = tuple(g.cards), unbuilt_monuments(g)
    for p in remaining(g):
        p = own_player(g, p.seat)
        p.construction = None
        p.effects = []
        p.done = not can_construct(g, p, cards, unbuilt)
    check_step_over(g)


def can_construct(g: Game, p: Player, cards: tuple[str, ...] | None = None,
                  unbuilt: tuple[str, ...] | None = None) -> bool:
    """Whether the player is asked in this construction step (``cards``, ``unbuilt``: the
    game's building cards and ``unbuilt_monuments``, when the caller has them).

    Everyone sees who is asked, so the answer may use only what everyone knows: the
    buildings in play, the town, Cavern cubes, and whether *some* monument the player might
    hold (any not yet built by anyone) fits. Asking only when the kept monument fits would
    tell the table which monument it is.
    """
    memo = fit_memo(p)
    if memo.fits_any_of(tuple(g.cards) if cards is None else cards) or (p.cavern and not p.town.is_full()):
        return True
    if p.monument_round is not None or not g.options.get("monuments"):
        return False
    # The monuments the others cannot rule out for this player's secret one; their own
    # (their one other target) is among them.
    return memo.fits_any_of(unbuilt_monuments(g) if unbuilt is None else unbuilt)


def any_fits(p: Player, cards: list[str]) -> bool:
    """Whether a full layout of any of the cards is in the player's town now: the test of
    ``layouts_in_town``, answered from the town's ``FitMemo`` (below)."""
    return bool(cards) and fit_memo(p).fits_any(cards)


def town_code(p: Player) -> int:
    """The match code of the player's town now: a cube matches its resource (never one
    stored on a building), a Trading Post is wild from the round after it was built."""
    code = p.town.match_code()
    for r, c in p.fresh:  # a Trading Post built this round is not wild yet
        shift = square_shift(r * SIZE + c)
        if code >> shift & WILD_BIT:
            code &= ~(SQUARE_BITS << shift)
    return code


def match_code(values: Any) -> int:
    """The match code of squares given by match value (a resource, WILD or None), in
    reading order: tests describe towns this way."""
    code = 0
    for n, value in enumerate(values):
        if value is not None:
            code |= (WILD_BITS if value == WILD else RESOURCE_BITS[value]) << square_shift(n)
    return code


def squares_in(code: int) -> list[int]:
    """The squares (reading-order indices) whose byte in ``code`` is not zero."""
    found = []
    while code:
        n = ((code & -code).bit_length() - 1) // 8  # the lowest square with a bit set
        found.append(n)
        code &= ~(SQUARE_BITS << 8 * n)  # its byte (``square_shift``, inline: a hot loop)
    return found


def fit_memo(p: Player) -> "FitMemo":
    """The town's memo, brought up to date with the town as it stands now."""
    town = p.town
    code = town_code(p) if p.fresh else town.code if not town.stale else town.match_code()  # (no call when up to date)
    memo = town.fit_memo
    if memo is None or memo.code != code:
        # Moved, not shared between games: a memo carries every card asked about since it
        # was made, and another game's cards would only be more to move.
        memo = FitMemo(code, {}) if memo is None else memo.moved_to(code)
        town.fit_memo = memo
    return memo


class FitMemo:
    """Which cards have a full layout in a town, remembered from one step to the next.

    "Can anything be built" is asked for every seat after every placement and every
    building, for up to 7 buildings and 15 monuments each, and a town changes by one cube
    or one construction at a time. Whether a layout fits depends only on its own squares'
    match values (``town_code``). So after a change, a layout that did not fit can fit
    now only if it covers a changed square that holds something now, and a layout that
    fitted still does if none of its squares changed. The memo keeps, per card asked
    about, one fitting layout (or None) for the match code it was made for; ``moved_to``
    re-searches only what those two facts leave open. It compares whole match codes,
    so however the town changed (placements, constructions, a Trading Post turning wild,
    a town swapped in by a test) the answer is the one a full search gives. A memo
    answers for its match code only, so one memo may serve every copy of a town.
    """

    __slots__ = ("code", "found", "layouts", "any_of")

    def __init__(self, code: int, found: dict[str, int | None],
                 any_of: dict[tuple[str, ...], bool] | None = None) -> None:
        self.code = code
        self.found = found  # card -> index of one fitting layout in ``layouts``, or None
        self.layouts: dict[str, list[tuple[Cell, ...]]] | None = None  # ``layouts_in_town``, per card asked
        self.any_of = {} if any_of is None else any_of  # ``fits_any_of``, per tuple of cards asked

    def fit(self, card_id: str) -> int | None:
        """A fitting layout of the card (its index), or None."""
        if card_id not in self.found:
            # A layout fits only with as many squares holding something as the pattern
            # has (a town's first cubes fit nothing).
            squares = self.code.to_bytes(SIZE * SIZE, "little")  # each square's byte of the code
            self.found[card_id] = (_first_fitting(card_id, self.code, _ruled_out(squares))
                                   if SIZE * SIZE - squares.count(0) >= pattern_size(card_id) else None)
        return self.found[card_id]

    def fits_any(self, cards: Any) -> bool:
        found = self.found
        for card in cards:
            n = found[card] if card in found else self.fit(card)
            if n is not None:
                return True
        return False

    def fits_any_of(self, cards: tuple[str, ...]) -> bool:
        """``fits_any``, remembered per tuple of cards (the building cards and the unbuilt
        monuments: asked of every seat after every step, they seldom change)."""
        known = self.any_of.get(cards)
        if known is None:
            known = self.any_of[cards] = self.fits_any(cards)
        return known

    def moved_to(self, code: int) -> "FitMemo":
        """The memo for the town now showing ``code``."""
        touched = code ^ self.code
        if not touched:
            return self
        squares = code.to_bytes(SIZE * SIZE, "little")  # each square's byte of the code
        square = ((touched & -touched).bit_length() - 1) >> 3  # the first square changed
        if touched == squares[square] << 8 * square:
            # One cube on an empty square and nothing else (the usual step): what fitted
            # still fits, and only layouts wanting that cube there can fit now. Every
            # layout wanting it there at once, a bit each: a square rules out the layouts
            # that want something else there (the ORs in C, a square's byte at a time).
            possible, owners = _placed_cube_layouts(squares, square)
            if not possible:
                # Mostly so: then every card fits as before, with the same first layout,
                # asked or not, so both memos can keep (and fill) the same answers.
                return FitMemo(code, self.found, self.any_of)
            found, newly = dict(self.found), []
            while possible:  # card by card, from the lowest possible layout's bit
                card, card_bits, candidates = owners[(possible & -possible).bit_length() - 1]
                possible &= ~card_bits
                if found.get(card, 0) is None:  # asked before, did not fit
                    n = found[card] = _first_fit(code, candidates)  # also turns away all-wild layouts
                    if n is not None:
                        newly.append(card)
            # The answers given stay (copied: a card not asked yet may fit here and not
            # there), but a tuple of cards none of which fitted (each was asked) fits now
            # if one of them does.
            if not newly:
                return FitMemo(code, found, self.any_of.copy())
            newly_fit = frozenset(newly)
            return FitMemo(code, found, {cards: known or not newly_fit.isdisjoint(cards)
                                         for cards, known in self.any_of.items()})
        found, ruled_out = dict(self.found), None
        for card, n in self.found.items():  # a fitting layout that lost a square: search again
            if n is not None and _layout_covers(card)[n] & touched:
                if _first_fit(code, (_fit_layouts(card)[n],)) is None:
                    if ruled_out is None:
                        ruled_out = _ruled_out(squares)
                    found[card] = _first_fitting(card, code, ruled_out)
        if any(squares[n] for n in squares_in(touched)):
            # A square gained something: a card that did not fit may now (a layout that
            # fits now and not before covers such a square).
            if ruled_out is None:
                ruled_out = _ruled_out(squares)
            for card, n in found.items():
                if n is None:
                    found[card] = _first_fitting(card, code, ruled_out)
        return FitMemo(code, found)


FitLayout = tuple[int, int, int]  # (index in ``layouts``, match bits needed, WILD_BITs of its squares)


def _first_fit(code: int, candidates: tuple[FitLayout, ...]) -> int | None:
    """The first of the candidate layouts that fits the match code (its index): every
    square holds the layout's resource or is wild, and not all of them are wild."""
    for n, need, all_wild in candidates:
        if code & need == need and code & all_wild != all_wild:
            return n
    return None


def _ruled_out(squares: bytes) -> int:
    """The layouts of every card (``_every_layout``'s bits) that some square of a town
    rules out, from its match code's bytes (``code.to_bytes(SIZE * SIZE, "little")``)."""
    return reduce(or_, map(getitem, _every_layout()[1], squares))  # the ORs in C, a square's byte at a time


def _fitting_layouts(card_id: str, code: int, ruled_out: int) -> int:
    """The card's layouts that fit the match code, a bit each (bit n: the n-th of
    ``layouts``): as ``_first_fit`` asks of each, all at once. ``ruled_out``: the
    code's ``_ruled_out``."""
    start, every = _every_layout()[0][card_id]
    fitting = ~(ruled_out >> start) & every
    if fitting and code & _WILD_SQUARES:  # a layout all of whose squares are wild does not fit
        for n, _, all_wild in _fit_layouts(card_id):
            if fitting >> n & 1 and code & all_wild == all_wild:
                fitting &= ~(1 << n)
    return fitting


def _first_fitting(card_id: str, code: int, ruled_out: int) -> int | None:
    """The first layout of the card that fits the match code (its index), or None:
    ``_first_fit`` over every layout."""
    fitting = _fitting_layouts(card_id, code, ruled_out)
    return (fitting & -fitting).bit_length() - 1 if fitting else None


_WILD_SQUARES = sum(WILD_BIT << square_shift(n) for n in range(SIZE * SIZE))  # the wild bit of every square


@lru_cache(maxsize=None)
def _every_layout() -> tuple[dict[str, tuple[int, int]], tuple[tuple[int, ...], ...]]:
    """Every layout of every card, a bit each, card after card (a card's in ``layouts``
    order): per card, where its bits start and all its bits from there; per square
    (reading order), per byte its match code may hold (indexed by it), the layouts that
    byte rules out: nothing there (0, or a building that is not wild) those covering the
    square, a resource those wanting another one there, a wild square none.

    Made once per process for all cards (per card, it cost a game's worth of lookups) as
    ``_square_checks`` is: a row of match bytes per layout, read a column at a time."""
    starts, needs = {}, []
    for card in ALL_CARDS:
        fit_layouts = _fit_layouts(card)
        starts[card] = (len(needs), (1 << len(fit_layouts)) - 1)
        needs += [need.to_bytes(SIZE * SIZE, "little") for _, need, _ in fit_layouts]
    table = b"".join(needs)
    checks = []
    for n in range(SIZE * SIZE):
        wanted = table[n::SIZE * SIZE]
        covering = _layout_bits(wanted, _COVERS)
        ruling_out = [covering] * (WILD_BITS + 1)  # (bytes no square holds: as empty)
        ruling_out[WILD_BITS] = 0
        for bits in RESOURCE_BITS.values():
            ruling_out[bits] = covering & ~_layout_bits(wanted, _WANTS[bits])
        checks.append(tuple(ruling_out))  # a tuple of ints: the garbage collector skips it
    return starts, tuple(checks)


@lru_cache(maxsize=None)
def _indexed_layouts(card_id: str) -> tuple[tuple[tuple[int, str], ...], ...]:
    """``layouts`` with each square as its index in reading order (as ``iter_cells``)."""
    order = {cell: n for n, cell in enumerate(iter_cells())}
    return tuple(tuple((order[cell], resource) for cell, resource in layout) for layout in layouts(card_id))


@lru_cache(maxsize=None)
def _fit_layouts(card_id: str) -> tuple[FitLayout, ...]:
    """Every layout of the card, as ``_first_fit`` reads it."""
    return tuple((index, sum(RESOURCE_BITS[resource] << square_shift(n) for n, resource in layout),
                  sum(WILD_BIT << square_shift(n) for n, _ in layout))
                 for index, layout in enumerate(_indexed_layouts(card_id)))


@lru_cache(maxsize=None)
def _layout_covers(card_id: str) -> tuple[int, ...]:
    """Each layout's squares as a match-code mask (all bits of its squares' bytes)."""
    return tuple(sum(SQUARE_BITS << square_shift(n) for n, _ in layout) for layout in _indexed_layouts(card_id))


def _placed_cube_layouts(squares: bytes, square: int) -> tuple[int, tuple[tuple[str, int, tuple[FitLayout, ...]], ...]]:
    """After a cube (or a wild square) on the square, town ``squares`` (a byte each):
    the layouts it may complete, a bit each (those wanting that byte there that no square
    rules out), and per bit the card it belongs to (the card, all its bits, its layouts
    wanting that byte there). Read from the square's tables (``_square_checks``)."""
    pairs, ranges = _square_checks(square)
    low, ones, owners = ranges[squares[square]]
    return ones & ~(reduce(or_, map(getitem, pairs, _square_pairs(squares))) >> low), owners


# A town's squares two by two: each pair's bytes as one number (the first square's byte
# low), so the placed-cube tables are read a pair of squares at a time (half the ORs).
_square_pairs = struct.Struct(f"<{SIZE * SIZE // 2}H").unpack


@lru_cache(maxsize=None)
def _square_checks(square: int) -> tuple[tuple[dict[int, int], ...], dict[int, tuple[int, int, tuple[Any, ...]]]]:
    """Every layout through the square, a bit each, those wanting one resource there next
    to each other (card after card): per pair of squares (reading order, ``_square_pairs``),
    which of them the pair's bytes of the match code rule out;
    per byte the square may hold (a resource's bits, or wild: every layout), where the
    layouts wanting it there start, all their bits from there, and per bit from there
    the card it belongs to (the card, all its bits wanting that byte, those layouts).

    Made once per square for all resources from each layout's match bytes, a column at
    a time (a bit at a time, per square and resource, this was most of a first game)."""
    wanting = _layouts_wanting(square)
    ranges, needs, every_card = {}, [], dict.fromkeys(ALL_CARDS, 0)
    for match in RESOURCE_BITS.values():
        start, owners = len(needs), []
        for card, candidates in wanting[match]:
            card_bits = ((1 << len(candidates)) - 1) << len(owners)
            every_card[card] |= card_bits << start
            owners += [(card, card_bits, candidates)] * len(candidates)
            needs += [need.to_bytes(SIZE * SIZE, "little") for _, need, _ in candidates]
        ranges[match] = (start, (1 << len(owners)) - 1, tuple(owners))
    everyone = [None] * len(needs)
    for card, candidates in wanting[WILD_BITS]:  # a wild square: every layout through it
        bits = every_card[card]
        owner = (card, bits, candidates)
        for n in range(len(needs)):
            if bits >> n & 1:
                everyone[n] = owner
    ranges[WILD_BITS] = (0, (1 << len(needs)) - 1, tuple(everyone))
    # A row of bytes per layout: its match bits per square (0 where it does not cover
    # it). A column is then what every layout wants on one square.
    table = b"".join(needs)
    checks = []
    for n in range(SIZE * SIZE):
        wanted = table[n::SIZE * SIZE]
        ruling_out = [0] * (WILD_BITS + 1)  # a wild square (WILD_BITS) rules out none
        covering = ruling_out[0] = _layout_bits(wanted, _COVERS)  # empty, or a building that is not wild
        for bits in RESOURCE_BITS.values():
            ruling_out[bits] = covering & ~_layout_bits(wanted, _WANTS[bits])
        checks.append(tuple(ruling_out))  # a tuple of ints: the garbage collector skips it
    # Two squares at once (``_square_pairs``), for every pair of bytes a match code holds:
    # nothing, a resource's bit, wild. (Dicts of ints only: the garbage collector skips them.)
    held = (0, *RESOURCE_BITS.values(), WILD_BITS)
    pairs = tuple({first | second << 8: checks[n][first] | checks[n + 1][second] for first in held for second in held}
                  for n in range(0, SIZE * SIZE, 2))
    return pairs, ranges


@lru_cache(maxsize=None)
def _layouts_wanting(square: int) -> dict[int, list[tuple[str, tuple[FitLayout, ...]]]]:
    """Per byte a square of a match code may hold (a resource, or wild): the layouts
    covering the square that want it there (any of them for a wild square), per card
    that has some. A placement changes one square."""
    here = square_shift(square)
    wanting: dict[int, list[tuple[str, tuple[FitLayout, ...]]]] = {match: [] for match in (*RESOURCE_BITS.values(), WILD_BITS)}
    for card in ALL_CARDS:
        through = _layouts_through(card, (square,))
        if through:
            wanting[WILD_BITS].append((card, through))
        by_match: dict[int, list[FitLayout]] = {}
        for layout in through:
            by_match.setdefault(layout[1] >> here & SQUARE_BITS, []).append(layout)
        for match in RESOURCE_BITS.values():
            if match in by_match:
                wanting[match].append((card, tuple(by_match[match])))
    return wanting


def _layout_bits(wanted: bytes, digits: bytes) -> int:
    """The layouts (bit n: the n-th) whose byte in ``wanted`` the table maps to b"1"."""
    return int(wanted.translate(digits)[::-1] or b"0", 2)


# ``bytes.translate`` tables: any wanted resource, or one resource (by its match bits).
_COVERS = b"0" + b"1" * 255
_WANTS = {bits: bytes(ord("1") if n == bits else ord("0") for n in range(256)) for bits in RESOURCE_BITS.values()}


@lru_cache(maxsize=4096)
def _layouts_through(card_id: str, squares: tuple[int, ...]) -> tuple[FitLayout, ...]:
    """The layouts (in order) covering at least one of the given squares."""
    wanted = sum(SQUARE_BITS << square_shift(i) for i in squares)
    covers = _layout_covers(card_id)
    return tuple(layout for layout in _fit_layouts(card_id) if covers[layout[0]] & wanted)


def unbuilt_monuments(g: Game) -> tuple[str, ...]:
    """The monuments of this game nobody has built: the ones the other players cannot rule
    out for the secret monument of a player who has not built theirs."""
    return _monuments_not_ruled_out(tuple([q.monument for q in g.players if q.monument_round is not None]),
                                    len(g.players) == 1)


@lru_cache(maxsize=1024)
def _monuments_not_ruled_out(built: tuple[str, ...], solo: bool) -> tuple[str, ...]:
    ruled_out = set(built) | (SOLO_REMOVED if solo else set())
    return tuple(m for m in MONUMENTS if m not in ruled_out)


def own_targets(g: Game, p: Player) -> list[str]:
    """The cards this player may build: the game's buildings and their own unbuilt monument."""
    if p.monument and p.monument_round is None:
        return [*g.cards, p.monument]
    return g.cards


def buildable(g: Game, p: Player) -> list[str]:
    """Cards this player has a full layout for now (their own unbuilt monument too)."""
    memo = fit_memo(p)
    return [c for c in own_targets(g, p) if memo.fit(c) is not None]


def construction_options(g: Game, p: Player) -> list[Option]:
    if p.effects:
        return effect_options(g, p, p.effects[0])
    con = p.construction
    if con:
        card, picked = con["card"], [tuple(c) for c in con["picked"]]
        name = card_name(card)
        if len(picked) == pattern_size(card):
            return [site_option(c, name) for c in sites(g, p, card, picked)] + [cancel_option()]
        return ([pick_square_option(c, what_is_on(p.town, c)) for c in pickable(g, p, card, picked)]
                + [cancel_option()])
    opts = [build_option(c) for c in buildable(g, p)]
    if p.cavern and not p.town.is_full():
        opts += [Option(f"uncavern:{r}", f"Place the set-aside {r} (Cavern)", "cavern",
                        f"resource:{r}") for r in RESOURCES if r in p.cavern]
    opts.append(DONE)
    return opts


@lru_cache(maxsize=None)
def build_option(card_id: str) -> Option:
    return Option(f"build:{card_id}", f"Build {a_card(card_id)}", "build", f"card:{card_id}")


@lru_cache(maxsize=1024)
def site_option(cell: Cell, name: str) -> Option:
    return Option(f"site:{cell_id(cell)}", f"Put the {name} on {cell_name(cell)}", "site", f"cell:{cell_id(cell)}")


@lru_cache(maxsize=1024)
def pick_square_option(cell: Cell, what: str) -> Option:
    return Option(f"pick:{cell_id(cell)}", f"Use {what} on {cell_name(cell)}", "pick", f"cell:{cell_id(cell)}")


def what_is_on(town: Town, cell: Cell) -> str:
    square = town.at(cell)
    return f"the {square.resource}" if square.resource else f"the {card_name(square.building)}"


def construct_step(g: Game, p: Player, option_id: str) -> None:
    """One step of constructing (or of resolving what a new building asks for)."""
    kind, _, rest = option_id.partition(":")
    if p.effects:
        resolve_effect(g, p, option_id)
    elif kind == "build":
        p.construction = {"card": rest, "picked": []}
    elif kind == "pick":
        p.construction["picked"].append(list(parse_cell(rest)))  # type: ignore[index]
    elif kind == "cancel":
        p.construction = None
    elif kind == "site":
        construct(g, p, parse_cell(rest))
    elif kind == "uncavern":
        p.effects.append({"kind": "uncavern", "resource": rest})
    elif kind == "done":
        p.done = True
    settle(g, p)


def settle(g: Game, p: Player) -> None:
    """Drop "when built" choices that cannot be made; a player with nothing left to do
    is done; the step ends when everyone is."""
    if p.effects:
        drop_impossible_effects(g, p)
    # (A player who said "done" is done already: no need to ask whether they can build.)
    if g.phase == BUILD and not p.done and not p.construction and not p.effects and not can_construct(g, p):
        p.done = True
    check_step_over(g)


def check_step_over(g: Game) -> None:
    if g.phase == BUILD and all(p.done for p in g.players):
        end_construction(g)
    elif g.phase == WATCH and not any(p.effects for p in g.players):
        finish_round(g)


# --- Building Construction: layouts, rotated and mirrored ---

@lru_cache(maxsize=None)
def pattern_size(card_id: str) -> int:
    """How many squares the card's pattern has."""
    return len(ALL_CARDS[card_id].shape)


@lru_cache(maxsize=None)
def layouts(card_id: str) -> tuple[Layout, ...]:
    """Every way to lay a card's pattern on the 4×4 board, in all 8 rotations/mirrors."""
    shapes: list[tuple[tuple[int, int, Resource], ...]] = []
    for turn in range(8):
        cells = []
        for r, c, res in ALL_CARDS[card_id].shape:
            if turn & 4:
                r, c = c, r
            cells.append((-r if turn & 1 else r, -c if turn & 2 else c, res))
        top, left = min(r for r, _, _ in cells), min(c for _, c, _ in cells)
        shape = tuple(sorted((r - top, c - left, res) for r, c, res in cells))
        if shape not in shapes:
            shapes.append(shape)
    out = []
    for shape in shapes:
        height, width = max(r for r, _, _ in shape) + 1, max(c for _, c, _ in shape) + 1
        for dr in range(SIZE - height + 1):
            for dc in range(SIZE - width + 1):
                out.append(tuple(((r + dr, c + dc), res) for r, c, res in shape))
    return tuple(out)


def layouts_in_town(g: Game, p: Player, card_id: str) -> list[tuple[Cell, ...]]:
    """The sets of squares that hold a full layout of the card now (a list kept for the
    town's match code: not to be changed).

    A square matches with its own cube (never a cube stored on a building) or with a
    Trading Post built in an earlier round (wild, and it stays); a layout needs at least
    one real cube.
    """
    memo = fit_memo(p)
    if memo.layouts is None:
        memo.layouts = {}
    found = memo.layouts.get(card_id)
    if found is None:  # asked at each step of picking the squares: kept with the memo
        cells_of_layout = _layout_cells(card_id)
        found = memo.layouts[card_id] = []
        fitting = _fitting_layouts(card_id, memo.code, _ruled_out(memo.code.to_bytes(SIZE * SIZE, "little")))
        while fitting:  # in the layouts' order, from the lowest bit
            low = fitting & -fitting
            fitting ^= low
            cells = cells_of_layout[low.bit_length() - 1]
            if cells not in found:
                found.append(cells)
    return found


@lru_cache(maxsize=None)
def _layout_cells(card_id: str) -> tuple[tuple[Cell, ...], ...]:
    """Each layout's squares, sorted."""
    return tuple(tuple(sorted(cell for cell, _ in layout)) for layout in layouts(card_id))


def pickable(g: Game, p: Player, card_id: str, picked: list[Cell]) -> list[Cell]:
    """Squares that keep the picked ones part of some full layout of the card."""
    chosen = set(picked)
    return sorted({c for cells in layouts_in_town(g, p, card_id) if chosen <= set(cells)
                   for c in cells if c not in chosen})


def sites(g: Game, p: Player, card_id: str, picked: list[Cell]) -> list[Cell]:
    """Where the building may stand: one of the squares its cubes vacate; a Shed, or any
    building of an Obelisk owner (from the round after), on any empty square instead."""
    vacated = [c for c in picked if p.town.at(c).building is None]
    if card_id == "shed" or has_settled(g, p, "obelisk"):
        return sorted(set(vacated) | set(p.town.empty_cells()))
    return sorted(vacated)


def construct(g: Game, p: Player, site: Cell) -> None:
    """Remove the cubes (Trading Posts stay), put the building on its square, and queue
    whatever the new building asks for at once."""
    con = p.construction
    assert con is not None
    card = con["card"]
    for cell in con["picked"]:
        square = p.town[tuple(cell)]
        if square.building is None:
            square.resource = None
    p.town[site].building = card
    p.fresh = [*p.fresh, list(site)]
    p.construction = None
    if card in MONUMENTS:
        p.monument_round = g.round
        g.log.append(f"{player_name(p.seat)} builds the monument {card_name(card)} at {cell_name(site)}.")
        monument_built(g, p, card)
    else:
        p.built_types = [*p.built_types, card]
        g.log.append(f"{player_name(p.seat)} builds {a_card(card)} at {cell_name(site)}.")
        building_placed(p, card, site)


def building_placed(p: Player, card: str, site: Cell) -> None:
    """A new Bank or Factory takes its cube before anything else happens."""
    if card in ("bank", "factory"):
        p.effects.insert(0, {"kind": card, "cell": list(site)})


# --- "When built" choices (Bank, Factory, monuments) ---

def effect_options(g: Game, p: Player, effect: dict[str, Any]) -> list[Option]:
    kind = effect["kind"]
    if kind == "bank":
        return [Option(f"bankcube:{r}", f"Put {r} on the Bank", "bank", f"resource:{r}")
                for r in bank_resources(p, tuple(effect["cell"]))]
    if kind == "factory":
        return [Option(f"factorycube:{r}", f"Put {r} on the Factory", "factory", f"resource:{r}")
                for r in RESOURCES]
    if kind == "guild":
        return guild_options(g, p, effect)
    if kind == "grove":
        if effect["card"] is None:
            return [Option(f"grove:{c}", f"Place {a_card(c)} (Grove University)", "grove", f"card:{c}")
                    for c in g.cards]
        return place_options(p, f"Put the {card_name(effect['card'])} on {{}}")
    if kind == "watch":
        if len(effect["chosen"]) == WATCH_CARDS:
            return [Option("watch-done", "Confirm the cards on Opaleye's Watch", "watch")]
        return [Option(f"watch:{c}", f"Put {a_card(c)} on Opaleye's Watch", "watch", f"card:{c}")
                for c in g.cards if c not in effect["chosen"]]
    if kind == "watch-move":
        return place_options(p, f"Move the {card_name(effect['card'])} from Opaleye's Watch to {{}}")
    assert kind == "uncavern"
    return place_options(p, f"Place the set-aside {effect['resource']} on {{}}") + [cancel_option()]


def resolve_effect(g: Game, p: Player, option_id: str) -> None:
    effect = p.effects[0]
    kind, _, rest = option_id.partition(":")
    town = p.town
    if kind == "bankcube" or kind == "factorycube":
        town[tuple(effect["cell"])].stored.append(rest)
        g.log.append(f"{player_name(p.seat)} puts {rest} on the "
                     f"{'Bank' if kind == 'bankcube' else 'Factory'} at {cell_name(tuple(effect['cell']))}.")
        p.effects.pop(0)
    elif effect["kind"] == "guild":
        guild_step(g, p, effect, option_id)
    elif kind == "grove":
        effect["card"] = rest
    elif kind == "watch":
        effect["chosen"].append(rest)
    elif kind == "watch-done":
        p.watch = list(effect["chosen"])
        p.effects.pop(0)
        g.log.append(f"{player_name(p.seat)} puts {', '.join(card_name(c) for c in p.watch)} "
                     "on Opaleye's Watch.")
    elif kind == "cancel":
        p.effects.pop(0)
    else:
        assert kind == "place"
        put_effect_on(g, p, effect, parse_cell(rest))


def put_effect_on(g: Game, p: Player, effect: dict[str, Any], cell: Cell) -> None:
    """A placement asked for by Grove University, Opaleye's Watch or the Cavern."""
    p.effects.pop(0)
    who = player_name(p.seat)
    if effect["kind"] == "uncavern":
        p.cavern = without(p.cavern, effect["resource"])
        p.town[cell].resource = effect["resource"]
        g.log.append(f"{who} places the set-aside {effect['resource']} at {cell_name(cell)} (Cavern).")
        return
    card = effect["card"]
    if effect["kind"] == "watch-move":
        p.watch = without(p.watch, card)
        g.log.append(f"{who} moves {a_card(card)} from Opaleye's Watch to {cell_name(cell)}.")
    else:
        g.log.append(f"{who} places {a_card(card)} at {cell_name(cell)} (Grove University).")
    p.town[cell].building = card
    p.fresh = [*p.fresh, list(cell)]
    building_placed(p, card, cell)


def drop_impossible_effects(g: Game, p: Player) -> None:
    """A placement with no empty square, a Bank with no resource left, a Guild with
    nothing to replace: these are skipped (a Watch building then stays on the card)."""
    while p.effects and cannot_resolve(p, p.effects[0]):
        p.effects.pop(0)


def cannot_resolve(p: Player, effect: dict[str, Any]) -> bool:
    kind = effect["kind"]
    if kind in ("grove", "watch-move", "uncavern"):
        return p.town.is_full()
    if kind == "bank":
        return not bank_resources(p, tuple(effect["cell"]))
    if kind == "guild":
        return effect["cell"] is None and not guild_targets(p, effect)
    return False


# --- Buildings in detail: Bank ---

def bank_resources(p: Player, bank: Cell) -> list[Resource]:
    """A Bank takes a resource that is not on another black building of this town."""
    taken = {r for cell, b in p.town.buildings() if b in BLACK_BUILDINGS and cell != bank
             for r in p.town.at(cell).stored}
    return [r for r in RESOURCES if r not in taken]


# --- Monuments ---

def monument_built(g: Game, p: Player, monument: str) -> None:
    """Resolve a monument's immediate effect (its scoring waits for the end)."""
    if monument == "architects_guild":
        p.effects.append({"kind": "guild", "left": 2, "cell": None, "replaced": []})
    elif monument == "grove_university":
        p.effects.append({"kind": "grove", "card": None})
    elif monument == "opaleyes_watch":
        p.effects.append({"kind": "watch", "chosen": []})
    elif monument == "shrine":
        p.shrine_value = shrine_points(len(p.town.buildings()))
        g.log.append(f"The Shrine of the Elder Tree will score {p.shrine_value} VP.")


# --- Monuments: Architect's Guild ---

def guild_targets(p: Player, effect: dict[str, Any]) -> list[Cell]:
    """Buildings (not monuments) not replaced yet by this Guild."""
    replaced = [tuple(c) for c in effect["replaced"]]
    return [c for c, b in p.town.buildings() if b in BUILDINGS and c not in replaced]


def guild_options(g: Game, p: Player, effect: dict[str, Any]) -> list[Option]:
    if effect["cell"] is None:
        return [Option(f"guild:{cell_id(c)}", f"Replace the {card_name(p.town.at(c).building)} on "
                       f"{cell_name(c)}", "guild", f"cell:{cell_id(c)}")
                for c in guild_targets(p, effect)] + [Option("guild-done", "Stop replacing", "guild")]
    current = p.town.at(tuple(effect["cell"])).building
    return [Option(f"guild-to:{c}", f"Make it {a_card(c)}", "guild", f"card:{c}")
            for c in g.cards if c != current]


def guild_step(g: Game, p: Player, effect: dict[str, Any], option_id: str) -> None:
    """Replace up to 2 buildings with other building types; cubes on them go back."""
    kind, _, rest = option_id.partition(":")
    if kind == "guild-done":
        p.effects.pop(0)
    elif kind == "guild":
        effect["cell"] = list(parse_cell(rest))
    else:
        cell = tuple(effect["cell"])
        square = p.town[cell]
        g.log.append(f"{player_name(p.seat)}'s Architect's Guild turns the {card_name(square.building)} "
                     f"at {cell_name(cell)} into {a_card(rest)}.")
        square.building, square.stored = rest, []
        effect["replaced"].append(list(cell))
        effect["left"] -= 1
        effect["cell"] = None
        p.fresh = [*p.fresh, list(cell)]
        if effect["left"] == 0:
            p.effects.pop(0)
        building_placed(p, rest, cell)


# --- Monuments: Opaleye's Watch ---

def end_construction(g: Game) -> None:
    """Everyone has built: Opaleye's Watch owners take the types their neighbours built."""
    for p in remaining(g):
        if p.monument != "opaleyes_watch" or not has_settled(g, p, "opaleyes_watch"):  # (mostly: no call)
            continue
        p = own_player(g, p.seat)
        built = {c for s in beside(g, p.seat) for c in g.players[s].built_types}
        p.effects = [{"kind": "watch-move", "card": c} for c in p.watch if c in built]
        drop_impossible_effects(g, p)
    if any(p.effects for p in g.players):
        g.phase = WATCH
    else:
        finish_round(g)


def beside(g: Game, seat: Seat) -> list[Seat]:
    """The players on the left and on the right (one player in a 2-player game)."""
    n = len(g.players)
    return sorted({(seat + 1) % n, (seat - 1) % n} - {seat})


# --- Completing Your Town ---

def complete_towns(g: Game) -> None:
    """A town with no empty square at the end of a round is complete; towns completed in
    the same round share the place."""
    done_now = [p for p in remaining(g) if p.town.is_full()]
    place = g.completed + 1
    for p in done_now:
        p = own_player(g, p.seat)
        p.complete, p.place, p.done = True, place, True
        g.log.append(f"{player_name(p.seat)}'s town is complete ({ordinal(place)}).")
    g.completed += len(done_now)


def finish_round(g: Game) -> None:
    if g.source == "card":
        g.discard = [*g.discard, g.resource]  # type: ignore[list-item]
    for p in g.players:
        if p.fresh or p.built_types or not p.done:
            p = own_player(g, p.seat)
            p.fresh, p.built_types, p.done = [], [], True
    complete_towns(g)
    if not remaining(g):
        end_game(g)
        return
    if g.master_builder is not None:
        pass_hammer(g)
    start_round(g)


# --- Gameplay Flow: 4. Pass Master Builder Token ---

def pass_hammer(g: Game) -> None:
    """To the left: the next player still playing who has not built Fort Ironweed (a Fort
    holder keeps naming once they are the last player)."""
    n, current = len(g.players), g.master_builder
    order = [(current + k) % n for k in range(1, n + 1)]  # type: ignore[operator]
    candidates = [s for s in order if not g.players[s].complete]
    unfortified = [s for s in candidates if not has_built(g.players[s], "fort_ironweed")]
    g.master_builder = (unfortified or candidates)[0] if len(candidates) > 1 else candidates[0]


# --- Scoring & End Game ---

def end_game(g: Game) -> None:
    g.phase = OVER
    g.resource = None
    totals = ", ".join(f"{player_name(s.seat)} {s.score}" for s in scores(g))
    g.log.append(f"Every town is complete. Final scores: {totals}.")


def town_score(g: Game, p: Player) -> TownScore:
    """The town's score (remembered: the end of a game and its result both ask)."""
    n = len(g.players)
    right = None if n == 1 else len(g.players[(p.seat - 1) % n].town.cells_of("feast_hall"))
    key = (tuple((s.resource, s.building, tuple(s.stored)) for row in p.town.squares for s in row),
           right, p.place, p.shrine_value, tuple(g.cards))
    score = _TOWN_SCORES.get(key)
    if score is None:
        score = score_town(p.town, right_feast_halls=right, completion_place=p.place,
                           shrine_value=p.shrine_value, game_types=tuple(g.cards))
        if len(_TOWN_SCORES) >= SCORES_KEPT:
            _TOWN_SCORES.pop(next(iter(_TOWN_SCORES), None), None)  # the oldest (never fails, even between threads)
        _TOWN_SCORES[key] = score
    return score


SCORES_KEPT = 256
_TOWN_SCORES: dict[tuple[Any, ...], TownScore] = {}  # read only: ``scores`` copies the lines


def solo_rating(score: int) -> str:
    return next(title for minimum, title in SOLO_RATINGS if score >= minimum)


def scores(g: Game) -> list[SeatScore]:
    """Each town's score; ties go to the fewest Master Builder turns, then the fewest
    empty squares, then the most Cottages."""
    out = []
    for p in g.players:
        s = town_score(g, p)
        note = f"Solo rating: {solo_rating(s.total)}" if is_solo(g) else ""
        out.append(SeatScore(p.seat, s.total, dict(s.lines),
                             (-p.master_builder_turns, -s.empty_squares, s.cottages), note))
    return out


def result(g: Game) -> Result | None:
    if g.phase != OVER:
        return None
    seat_scores = scores(g)
    if is_solo(g):
        reason = f"Your town is complete: {seat_scores[0].score} VP, {solo_rating(seat_scores[0].score)}."
    else:
        reason = "Every town is complete."
    return Result(seat_scores, winners_by_score(seat_scores), reason)


# --- Town Hall variant ---

def town_hall_round(g: Game) -> None:
    """Rounds cycle: card, card, free choice. Fort Ironweed holders skip free rounds
    unless they are the last player."""
    if (g.round - 1) % 3 == 2:
        g.source = "free"
        left = remaining(g)
        placers = [p.seat for p in left if len(left) == 1 or not has_built(p, "fort_ironweed")]
        g.log.append(f"Round {g.round}: free choice, every player chooses a resource in secret.")
        begin_placement(g, placers)
        return
    g.resource = draw_town_hall_card(g)
    g.source = "card"
    g.log.append(f"Round {g.round}: the Town Hall card is {g.resource}.")
    begin_placement(g)


def draw_town_hall_card(g: Game) -> Resource:
    if not g.deck:
        g.deck, g.discard = g.discard[:], []  # (shuffled in place: a list of this game's own)
        shuffle(g, g.deck)
        set_aside_five(g)
        g.log.append("The resource cards are reshuffled; five are set aside face down.")
    card, g.deck = g.deck[0], g.deck[1:]
    return card


def set_aside_five(g: Game) -> None:
    g.discard = g.discard + g.deck[:TOWN_HALL_SET_ASIDE]
    g.deck = g.deck[TOWN_HALL_SET_ASIDE:]


# --- Solo variant ---

def pick_options(g: Game, p: Player) -> list[Option]:
    return [resource_card_option(i, r) for i, r in enumerate(g.revealed)]


@lru_cache(maxsize=64)
def resource_card_option(index: int, resource: Resource) -> Option:
    return Option(f"card:{index}", f"Take the {resource} card", "card", f"resource:{resource}")


def pick_card(g: Game, p: Player, option_id: str) -> None:
    """Take one of the three cards, place its resource; the card goes to the bottom of
    the deck and the top card is revealed in its place."""
    index = int(option_id.removeprefix("card:"))
    g.resource = g.revealed[index]
    g.source = "solo"
    deck = [*g.deck, g.resource]
    g.revealed = replaced(g.revealed, index, deck[0])
    g.deck = deck[1:]
    g.log.append(f"Round {g.round}: {player_name(p.seat)} takes the {g.resource} card.")
    begin_placement(g)


# --- The protocol: who acts, what they may choose, applying a choice ---

def to_act(g: Game) -> frozenset[Seat]:
    if g.phase == KEEP:
        return frozenset(p.seat for p in g.players if p.monument is None)
    if g.phase == NAME:
        return frozenset({g.master_builder})  # type: ignore[arg-type]
    if g.phase == PICK:
        return frozenset({0})
    if g.phase == PLACE:
        # The placers who have not chosen yet: one of the sets made once (a frozenset made
        # anew cost more than the rest of the step's listing).
        return SEAT_SETS[g.waiting]
    if g.phase == BUILD:
        return frozenset([p.seat for p in g.players if not p.done])
    if g.phase == WATCH:
        return frozenset(p.seat for p in g.players if p.effects)
    return frozenset()


SEAT_SETS = tuple(frozenset(seat for seat in range(6) if seats >> seat & 1) for seats in range(1 << 6))  # by bits


def keep_options(g: Game, p: Player) -> list[Option]:
    return [Option(f"keep:{m}", f"Keep {card_name(m)}", "keep", f"card:{m}") for m in p.dealt]


OPTIONS: dict[str, Callable[[Game, Player], list[Option]]] = {
    KEEP: keep_options, NAME: name_options, PICK: pick_options, PLACE: placement_options,
    BUILD: construction_options, WATCH: construction_options,
}
ACTIONS: dict[str, Callable[[Game, Player, str], None]] = {
    KEEP: lambda g, p, o: keep_monument(g, p, o.removeprefix("keep:")),
    NAME: name_resource, PICK: pick_card, PLACE: choose_placement,
    BUILD: construct_step, WATCH: construct_step,
}


def acts(g: Game, p: Player) -> bool:
    """Whether the player is one of ``to_act``, asked of that one player."""
    phase = g.phase
    if phase == PLACE:
        return bool(g.placing[p.seat] and not g.pending[p.seat])
    if phase == BUILD:
        return not p.done
    if phase == NAME:
        return p.seat == g.master_builder
    if phase == KEEP:
        return p.monument is None
    if phase == PICK:
        return p.seat == 0
    if phase == WATCH:
        return bool(p.effects)
    return False


def seat_if_acting(g: Game, seat: Seat) -> frozenset[Seat]:
    """The seat if it is one of ``to_act``, else none: what ``check_choice`` asks of it."""
    if isinstance(seat, int) and 0 <= seat < len(g.players) and acts(g, g.players[seat]):
        return frozenset((seat,))
    return frozenset()


def options(g: Game, seat: Seat) -> list[Option]:
    """Every legal choice for the seat now, in a stable order."""
    p = g.players[seat] if isinstance(seat, int) and 0 <= seat < len(g.players) else None
    if p is None or not acts(g, p):
        return []
    return OPTIONS[g.phase](g, p)


def option_ids(g: Game, seat: Seat) -> Sequence[str]:
    """The ids of ``options``, in the same order (a list, or a tuple shared by every
    caller for the usual placement: not to be changed)."""
    if g.phase == PLACE and type(seat) is int and 0 <= seat < len(g.players):
        ids = usual_placement_ids(g, seat)
        if ids is not None:
            return ids
    return [o.id for o in options(g, seat)]


def listed_ids(g: Game, seat: Seat) -> Sequence[str]:
    """``option_ids``, for a caller that next applies one of them to this very game (the
    bot); the list is the one ``apply`` checks the choice against: not to be changed.

    As ``protocol.ListedOnce``, but kept on the game object (``Game.listed``) rather than
    per thread: its thread-local reads and the function it hands back cost about as much
    as listing a placement's options again."""
    ids = option_ids(g, seat)
    g.listed = (seat, ids)
    return ids


def apply(g: Game, seat: Seat, option_id: str) -> Game:
    """A new game after the seat's choice; the given game is left untouched."""
    # A choice among the seat's listed ids passes every check of ``check_choice``: ids are
    # listed only for a real seat that acts in a running game. Anything else goes through
    # those checks in their order, for their refusals.
    kept, g.listed = g.listed, None  # used once
    ids = kept[1] if kept is not None and kept[0] == seat else option_ids(g, seat)
    if type(option_id) is not str or option_id not in ids:
        check_choice(seat, len(g.players), g.phase == OVER, seat_if_acting(g, seat),
                     lambda: options(g, seat), option_id)
    g = share_players(g)
    # A placement or a card pick changes the game, not the player (``own_player`` would copy it).
    ACTIONS[g.phase](g, g.players[seat] if g.phase in _GAME_ONLY else own_player(g, seat), option_id)
    return g


_GAME_ONLY = frozenset((PLACE, PICK))


# --- Saving: plain JSON (copied by hand: ``copy.deepcopy`` cost half of every action) ---

_SPECIAL = ("players", "log", "placing", "pending", "owned", "listed", "waiting")  # the placements are saved with each player
_WITH_THE_GAME = ("town", "placing", "pending")  # a saved player's fields that are not the Player's


def dump(g: Game) -> dict[str, Any]:
    raw = {k: plain(v) for k, v in vars(g).items() if k not in _SPECIAL}
    raw["players"] = [dump_player(g, p) for p in g.players]
    raw["log"] = g.log.dump()
    return raw


def dump_player(g: Game, p: Player) -> dict[str, Any]:
    raw = {k: v for k, v in vars(p).items() if k != "town"}
    raw.update(own_parts(p))
    placing, pending = g.placing[p.seat], g.pending[p.seat]
    raw["placing"] = dict(placing) if placing else placing  # values: resources or None
    raw["pending"] = own_pending(pending) if pending else pending
    raw["town"] = p.town.to_json()
    return raw


def load(raw: dict[str, Any]) -> Game:
    rest = {k: plain(v) for k, v in raw.items() if k not in _SPECIAL}
    players = [Player(**{**{k: plain(v) for k, v in p.items() if k not in _WITH_THE_GAME},
                         "town": Town.from_json(p["town"])})
               for p in raw["players"]]
    g = Game(players=players, log=GameLog.load(raw.get("log", [])), owned=(1 << len(players)) - 1,
             placing=[plain(p.get("placing")) for p in raw["players"]],
             pending=[plain(p.get("pending")) for p in raw["players"]], **rest)
    g.waiting = waiting_seats(g)
    return g


def clone(g: Game) -> Game:
    """An independent copy: every list and dict a choice may change is copied, immutable
    values are shared (``test_clone_shares_nothing_mutable``)."""
    copy = share_players(g)
    copy.options, copy.cards = dict(g.options), g.cards[:]
    copy.deck, copy.discard, copy.revealed = g.deck[:], g.discard[:], g.revealed[:]
    copy.placing = [dict(placing) if placing else placing for placing in g.placing]
    copy.pending = [own_pending(pending) if pending else pending for pending in g.pending]
    own_players(copy)
    for p in copy.players:
        vars(p).update(own_parts(p))
    return copy


def share_players(g: Game) -> Game:
    """A copy for ``apply`` to change, whose players stay those of ``g`` until a rule
    takes its own copy of one to change it (``own_player``): most actions change one
    player, and copying all six cost a third of a playout."""
    g.owned = 0  # its players are the copy's too from now on
    copy = Game.__new__(Game)
    log = GameLog.__new__(GameLog)  # the same as GameLog(recent, total, keep), a call less
    log.recent, log.total, log.keep = g.log.recent[:], g.log.total, g.log.keep
    # The options and the building cards never change after ``setup``, the cards' and the
    # placements' lists are replaced whole (``Game``): shared too.
    copy.__dict__ = {**vars(g), "players": g.players[:], "log": log, "listed": None}
    return copy


def own_player(g: Game, seat: Seat) -> Player:
    """The seat's player, to change: this game's own copy if it shares it with another.
    A player already owned is returned as it is, so references to it stay valid."""
    p = g.players[seat]
    if not g.owned >> seat & 1:
        p = g.players[seat] = clone_player(p)
        g.owned |= 1 << seat
    return p


def own_players(g: Game) -> None:
    """Every player of the game its own."""
    for p in g.players:
        own_player(g, p.seat)


# The player's lists the rules replace whole and never change in place (``without``,
# ``[*before, new]``): a copied player shares them with the original.
REPLACED_WHOLE = ("dealt", "cavern", "watch", "built_types", "fresh")


def replaced(items: list[Any], index: int, item: Any) -> list[Any]:
    """A new list: the items with ``item`` at ``index``."""
    new = items[:]
    new[index] = item
    return new


def without(items: list[Any], item: Any) -> list[Any]:
    """A new list: the items but the first one equal to ``item``."""
    rest = items[:]
    rest.remove(item)
    return rest


def clone_player(p: Player) -> Player:
    # By hand, field by field: the generic ``plain`` walk over each field was a third of
    # a playout. The same copies as ``own_parts``, but for the lists replaced whole.
    q = Player.__new__(Player)
    # A dict display, not ``p.__dict__.copy()``: a copy of the instance dict kept its
    # shared keys, and every attribute write on the copied player then cost more
    # (~7% of a 6-player playout in all).
    fields = q.__dict__ = {**p.__dict__}
    if p.construction:
        fields["construction"] = own_construction(p.construction)
    fields["effects"] = plain(p.effects) if p.effects else []
    fields["town"] = p.town.copy()
    return q


def own_parts(p: Player) -> dict[str, Any]:
    """Fresh copies of every list and dict of the player but the town (the other fields
    are immutable values)."""
    return {
        "dealt": p.dealt[:], "cavern": p.cavern[:], "watch": p.watch[:], "built_types": p.built_types[:],
        "fresh": [cell[:] for cell in p.fresh],
        "construction": own_construction(p.construction) if p.construction else p.construction,
        "effects": plain(p.effects) if p.effects else [],
    }


def own_pending(pending: dict[str, Any]) -> dict[str, Any]:
    """A copy of a chosen placement: words, and maybe a cell ([row, column])."""
    return {**pending, "cell": pending["cell"][:]} if "cell" in pending else dict(pending)


def own_construction(con: dict[str, Any]) -> dict[str, Any]:
    """A copy of a construction in progress: the card and the cells picked so far."""
    return {**con, "picked": [cell[:] for cell in con["picked"]]}
