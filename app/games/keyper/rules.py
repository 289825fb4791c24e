"""Keyper rules: the game flow, in the order of the seed's sections (setup, gameplay flow,
core mechanics, scoring).

A game is a pure function of (options, seed, choices). ``Game`` holds plain JSON-ready
values, is copied before every change, and is dumped and loaded as it is.

The flow is a queue of steps (``Game.queue``): an invitation to one seat, one repetition
of an action (take a tile, build, upgrade, a boat trade, a building's action), the keyp
tile, a final lay-down, a fair. The seat of the step at the front acts; with an empty
queue it is the turn player. Whether a step waits or is skipped depends only on public
things (keyples in hand, goods, the display), never on a face-down fair tile, so whose
turn it is never gives a secret away. Two things are private: each player's face-down
fair tiles (owner only, until held) and the fold a player picks for the next season
(all players choose at once; nobody sees another's choice until everyone has chosen).
Housing animals and putting surplus keyples onto the keyp tile are choices too, made one
player after another (the seed does not make them simultaneous and what they touch is
public); each is asked only when there is more than one way.

Seat ``s + 1`` sits on the left of seat ``s``: play goes clockwise, 0, 1, 2, ...
The log writes a seat as ``{seat0}``, ``{seat1}``…; the table puts the player's name there.

Readings of the seed where it is unclear (docs/titles/keyper.md weighs them):

- White keyples "represent any colour", so a white keyple gets the colour bonus on a
  coloured field (the boat rule, "light-blue or white keyple: 2 actions", says the same).
- Laying down a single keyple gives 1 (2 matched) when it stands alone, 2 (3 matched)
  when another keyple already lies on that space; a pair laid down gives the active
  player 2 (3 if one of them matches).
- Keyples laid down on the keyp tile are laid down when the keyper is played, or, if the
  player leaves them, at the end of the season (the "forgotten" step).
- Displayed fair goods leave the player's store for good; a seasonal fair not held at the
  end of its season is discarded unseen.
- Tiles taken from the display are replaced at the end of the turn, from the bag; tiles
  taken in the season's last turn or final lay-downs are not replaced (printed rule).
- Payment is automatic: named goods first, then a white good from the most plentiful
  kind, wheat last; a discount drops the cost's most valuable item.
"""

from __future__ import annotations

import functools
import threading
from collections import Counter
from itertools import compress
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from app.games.gamelog import GameLog
from app.games.plainstate import dump_game, load_game
from app.games.protocol import (IllegalAction, ListedOnce, Option, Result, SeatScore, check_choice,
                                winners_by_score)
from app.games.rng import Rng

from .content import (ANIMALS, BOARDS, BOATS, BOATS_PER_SEASON, BUILDINGS, COUNTRY, FAIRS, FARM_PLOTS, FIELD_COLOUR,
                      FIELD_NAMES, FINISHED, GEMS, GOOD_NAMES, GOODS, HOME, KEYP_TILE_GAIN, KEYPLE_COLOURS,
                      KEYPLE_NAMES, PLAYER_COLOURS, RAW, REFINED, SEASONS, SHIP_STEP, SHIPPING_TRACK,
                      START_GOODS, START_KEYPLES, STOCK, act_text, SUPPLY, TEAM_SIZE, VILLAGE_PLOTS, WHEAT, WHITE,
                      WHITE_KEYPLE, WINTER_FAIRS_FROM, WINTER_SIDES, Act, Side, cost_text, fields_of, folds)

Seat = int
Job = dict[str, Any]

PLAY, FOLD, OVER = "play", "fold", "over"
DISPLAY_SIZE = 8
SCORE_CAP = 4
PLOTS = [f"farm{i}" for i in range(1, FARM_PLOTS + 1)] + [f"village{i}" for i in range(1, VILLAGE_PLOTS + 1)]
ACTION_KINDS = ("tile", "build", "discount", "upgrade", "fair")


@dataclass
class Player:
    seat: Seat
    colour: str
    hand: list[str] = field(default_factory=list)  # keyples not yet played this season
    keyp: list[str] = field(default_factory=list)  # standing on the keyp tile
    keyp_down: list[str] = field(default_factory=list)  # laid down on the keyp tile this season
    keyper: int | None = None  # the board its keyper stands on (claims), None while in hand
    stock: dict[str, int] = field(default_factory=dict)  # goods and animals (public, as on the table)
    plots: dict[str, dict[str, Any]] = field(default_factory=dict)  # plot -> {tiles, up, keyples}
    home: list[str] = field(default_factory=list)  # home tiles not built yet
    held: list[str] = field(default_factory=list)  # country tiles taken, not built yet
    fairs: dict[str, str] = field(default_factory=dict)  # season -> face-down fair tile (secret)
    shown: list[dict[str, Any]] = field(default_factory=list)  # fairs held: {id, side, points, season, goods}
    winter: list[str] = field(default_factory=list)  # winter fair tiles taken, not yet held (public)
    ship: int = 0  # shipping track
    housed: dict[str, dict[str, int]] = field(default_factory=dict)  # plot -> animals (after housing)
    fold: str | None = None  # the fold being chosen (secret until everyone has chosen)


@dataclass
class Game:
    players: list[Player]
    options: dict[str, Any]
    rng: str  # Rng.state: holds the game secret, never in a view
    phase: str = PLAY
    season: int = 0
    turn: Seat = 0
    start: Seat = 0
    last: Seat = 0  # the last seat to play a keyple or keyper
    turns: int = 0
    boards: list[dict[str, Any]] = field(default_factory=list)
    bag: list[str] = field(default_factory=list)  # country tiles in (secret) drawing order
    display: list[str | None] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    refill: list[int] = field(default_factory=list)  # display slots to refill at the end of the turn
    boats: list[str] = field(default_factory=list)  # this season's boats not yet on a river
    aside: list[str] = field(default_factory=list)  # boats set aside this season
    winter_fairs: list[str] = field(default_factory=list)  # face up from summer
    fair_pool: list[str] = field(default_factory=list)  # seasonal fair tiles not dealt (secret)
    fair_out: list[str] = field(default_factory=list)  # face-down fairs discarded unheld (secret)
    supply: dict[str, int] = field(default_factory=dict)
    trades: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # seat -> boat goods got/sold this turn
    queue: list[Job] = field(default_factory=list)
    ending: bool = False  # the season's end steps are running
    acted: bool = False  # the turn player has made this turn's play (its steps may still run)
    log: GameLog = field(default_factory=GameLog)


# --- Small words ---

def seat_ref(seat: Seat) -> str:
    return f"{{seat{seat}}}"


def season_name(g: Game) -> str:
    return SEASONS[g.season]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def goods_text(goods: dict[str, int]) -> str:
    parts = [f"{n} {GOOD_NAMES[k]}" for k, n in goods.items() if n]
    return ", ".join(parts) if parts else "nothing"


def a_keyple(colour: str) -> str:
    """"an orange keyple", "a grey keyple" (also for a colour's longer name)."""
    return f"{'an' if colour[0] in 'aeiou' else 'a'} {colour} keyple"


def clockwise(g: Game, first: Seat) -> list[Seat]:
    return list(seats_from(len(g.players), first))


@functools.cache
def seats_from(n: int, first: Seat) -> tuple[Seat, ...]:
    """The n seats clockwise from ``first`` (made once: every turn and field asks)."""
    return tuple((first + k) % n for k in range(n))


def keyple_sort(keyples: list[str]) -> list[str]:
    return sorted(keyples, key=KEYPLE_COLOURS.index)


def board_of(g: Game, board_id: int) -> dict[str, Any]:
    if 0 < board_id <= len(g.boards) and g.boards[board_id - 1]["id"] == board_id:
        return g.boards[board_id - 1]  # boards are kept in id order: no search (a hot path)
    return next(b for b in g.boards if b["id"] == board_id)


def field_kind(g: Game, board_id: int, space: str) -> str:
    return board_fields(board_of(g, board_id))[space]


def space_name(g: Game, board_id: int, space: str) -> str:
    return space_label(board_id, board_of(g, board_id)["fold"], space)


@functools.cache
def space_label(board_id: int, fold: str, space: str) -> str:
    """A space's name on a board folded so (remembered: every option list names them)."""
    if space == "river":
        return f"the river of board {board_id}"
    r, c = space.split(",")
    return f"the {FIELD_NAMES[fields_of(board_id, fold)[space]]} field of board {board_id} (row {int(r) + 1}, column {int(c) + 1})"


def building_side(plot: dict[str, Any]) -> Side | None:
    """The active (top) tile's face of a plot, None for an empty plot."""
    if not plot["tiles"]:
        return None
    b = BUILDINGS[plot["tiles"][-1]]
    return b.back if plot["up"] else b.front


def tile_name(tile: str) -> str:
    return BUILDINGS[tile].front.name


def without(items: list[str], item: str) -> list[str]:
    """A new list less the first ``item`` (lists a clone shares are replaced, never changed)."""
    out = list(items)
    out.remove(item)
    return out


# ``clone`` shares each player's plots and each board's spaces with the game it copies (an
# action changes one or two of them): a rule takes its own copy before changing one.

def own_plot(p: Player, plot_id: str) -> dict[str, Any]:
    """The player's plot, this game's own copy (to change)."""
    old = p.plots[plot_id]
    plot = {"tiles": list(old["tiles"]), "up": old["up"], "keyples": [dict(k) for k in old["keyples"]]}
    p.plots = dict(p.plots)
    p.plots[plot_id] = plot
    return plot


# ``apply`` copies the acting seat's player alone; the others are shared with the game it
# was given until a rule takes its own copy of one (``own_player``) before changing it.

class _Applying(threading.local):
    given: Game | None = None  # the game ``apply`` was given (its players and boards are shared)


_applying = _Applying()


def own_player(g: Game, seat: Seat) -> Player:
    """The seat's player, this game's own copy (to change)."""
    given = _applying.given
    if given is not None and g.players[seat] is given.players[seat]:
        g.players[seat] = copy_player(given.players[seat])
    return g.players[seat]


def own_players(g: Game) -> None:
    """Every player this game's own (the steps that change them all: a season's end)."""
    for seat in range(len(g.players)):
        own_player(g, seat)


def own_board(g: Game, board_id: int) -> dict[str, Any]:
    """The board, this game's own copy (to change): ``apply`` shares the boards with the
    game it was given, like the players."""
    board = board_of(g, board_id)
    given = _applying.given
    if given is not None and any(board is b for b in given.boards):
        i = g.boards.index(board)
        board = g.boards[i] = dict(board)
    return board


def own_boards(g: Game) -> None:
    """Every board this game's own (the steps that change them all: a season's end and start)."""
    for b in list(g.boards):
        own_board(g, b["id"])


def own_space(board: dict[str, Any], space: str) -> list[dict[str, Any]]:
    """The keyples on a board's space, this game's own copy (to change; the board must be
    the game's own: ``own_board``)."""
    spaces = board["spaces"] = dict(board["spaces"])
    keyples = spaces[space] = [dict(k) for k in spaces[space]]
    return keyples


# --- Goods: the supply, paying and gaining ---

def gain(g: Game, p: Player, good: str, n: int = 1) -> int:
    """Up to n of a good from the supply (limited: no compensation); returns how many."""
    if good == "ship":
        p.ship = min(SHIPPING_TRACK, p.ship + n)
        return n
    got = min(n, g.supply[good])
    g.supply[good] -= got
    p.stock[good] = p.stock.get(good, 0) + got
    return got


def payment(stock: dict[str, int], cost: dict[str, int]) -> dict[str, int] | None:
    """What paying ``cost`` takes from ``stock`` (named goods first, then white goods from
    the most plentiful kind, wheat last), or None if it cannot be paid."""
    for good, n in cost.items():  # the common refusal first, before any copy (a hot path)
        if good not in WHITE and stock.get(good, 0) < n:
            return None
    left = dict(stock)
    paid: dict[str, int] = {}
    for good, n in cost.items():
        if good in WHITE:
            continue
        left[good] -= n
        paid[good] = paid.get(good, 0) + n
    for white in ("gem", "finished", "raw"):
        for _ in range(cost.get(white, 0)):
            top = None  # the most plentiful kind; the first listed among equals
            for k in WHITE[white]:
                if top is None or left.get(k, 0) > left.get(top, 0):
                    top = k
            pick = top if left.get(top, 0) > 0 else (WHEAT if white != "gem" and left.get(WHEAT, 0) > 0 else None)
            if pick is None:
                return None
            left[pick] -= 1
            paid[pick] = paid.get(pick, 0) + 1
    return paid


def can_pay(stock: dict[str, int], cost: dict[str, int]) -> bool:
    """``payment(stock, cost) is not None``, without working out what is paid (a hot path:
    every build and upgrade the bot weighs asks). Named goods first; then each kind of white
    good from its group, where wheat stands in for finished goods, then for raw ones, as
    ``payment`` takes it."""
    whites = False
    for good, n in cost.items():
        if good in WHITE:
            whites = True
        elif stock.get(good, 0) < n:
            return False
    if not whites:
        return True
    wheat = stock.get(WHEAT, 0) - cost.get(WHEAT, 0)
    for white in ("gem", "finished", "raw"):
        n = cost.get(white, 0)
        if n:
            short = n
            for k in WHITE[white]:  # (a loop, not a sum over a generator: a hot path)
                short -= stock.get(k, 0) - cost.get(k, 0)
            if short > 0:
                if white == "gem" or short > wheat:
                    return False
                wheat -= short
    return True


def pay(g: Game, p: Player, paid: dict[str, int]) -> None:
    for good, n in paid.items():
        p.stock[good] -= n
        g.supply[good] += n


VALUE_ORDER = ("gem",) + GEMS + ("finished",) + FINISHED + (WHEAT, "raw") + RAW


def discounted(cost: dict[str, int]) -> dict[str, int]:
    """A cost less its most valuable item (the discount-build field)."""
    out = dict(cost)
    for good in VALUE_ORDER:
        if out.get(good):
            out[good] -= 1
            if not out[good]:
                del out[good]
            break
    return out


# --- Setup ---

def setup(players: int, options: dict[str, Any], seed: int) -> Game:
    """One country board per player on its spring face, the spring tiles in the bag with
    8 on display, 4 of the 6 boats, each player's pieces and three face-down fairs, and a
    random start player."""
    if not 2 <= players <= 4:
        raise IllegalAction("Keyper is for 2–4 players.")
    rng = Rng(seed)
    g = Game(players=[], options=dict(options), rng="")
    g.supply = dict(SUPPLY)
    for s in range(players):
        p = Player(s, PLAYER_COLOURS[s], hand=keyple_sort(list(START_KEYPLES)), home=list(HOME))
        p.plots = {plot: {"tiles": [], "up": False, "keyples": []} for plot in PLOTS}
        p.stock = {k: 0 for k in STOCK}
        for good, n in START_GOODS.items():
            gain(g, p, good, n)
        g.players.append(p)
    for board_id in range(1, players + 1):
        g.boards.append(new_board(board_id, "spring-0-0", None))
    g.bag = rng.shuffled([t for t, b in COUNTRY.items() if b.season == "spring"])
    g.display = [g.bag.pop(0) for _ in range(DISPLAY_SIZE)]
    deal_fairs(g, rng)
    choose_boats(g, rng)
    g.start = g.turn = g.last = rng.randrange(players)
    g.rng = rng.state
    g.log.append(f"A game of Keyper for {players} players. Spring begins; {seat_ref(g.start)} is the start player.")
    return g


def new_board(board_id: int, fold: str, folder: Seat | None) -> dict[str, Any]:
    return {"id": board_id, "fold": fold, "folder": folder, "keyper": None, "boat": None,
            "spaces": {k: [] for k in fields_of(board_id, fold)}}


def board_fields(board: dict[str, Any]) -> dict[str, str]:
    """The fields of a board as it is folded (derived, so the state stays small to copy)."""
    return fields_of(board["id"], board["fold"])


def deal_fairs(g: Game, rng: Rng) -> None:
    """Each player gets one spring, one summer and one autumn fair tile, face down; the
    others stay out of the game unseen."""
    for season in SEASONS[:3]:
        pile = rng.shuffled([f for f, fair in FAIRS.items() if fair.season == season])
        for p in g.players:
            p.fairs[season] = pile.pop(0)
        g.fair_pool.extend(sorted(pile))


def choose_boats(g: Game, rng: Rng) -> None:
    chosen = rng.shuffled(list(BOATS))
    g.boats = sorted(chosen[:BOATS_PER_SEASON])
    g.aside = sorted(chosen[BOATS_PER_SEASON:])
    g.log.append(f"This season's boats: {', '.join(BOATS[b].name for b in g.boats)}.")


# --- Keyples: where they may go and what they earn ---

def standing(space: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [k for k in space if not k["down"]]


def standing_count(space: list[dict[str, Any]]) -> int:
    """``len(standing(space))``, without the list (a space holds one or two keyples)."""
    n = 0
    for k in space:
        if not k["down"]:
            n += 1
    return n


def matched(colour: str, field_colour: str | None) -> bool:
    """The colour bonus: a keyple of the field's colour, or a white one (it stands for any
    colour); never on uncoloured fields or buildings."""
    return field_colour is not None and (colour == field_colour or colour == WHITE_KEYPLE)


def may_join(first: str, field_colour: str | None, colour: str) -> bool:
    """A second keyple must be the first one's colour or white; a white first keyple may be
    joined by the field's colour too, and on an uncoloured field or a building only by white."""
    if colour == first or colour == WHITE_KEYPLE:
        return True
    return first == WHITE_KEYPLE and field_colour is not None and colour == field_colour


def out_of_hand(p: Player) -> bool:
    """The keyper and every keyple are out: the player may lay keyples down."""
    return p.keyper is not None and not p.hand


def season_over(g: Game) -> bool:
    for p in g.players:  # ``out_of_hand`` of every player (a loop: asked every turn)
        if p.keyper is None or p.hand:
            return False
    return True


def can_enter(space: list[dict[str, Any]], field_colour: str | None, colour: str) -> bool:
    """Empty, or one standing keyple and nothing else, which this colour may join."""
    if not space:
        return True
    return len(space) == 1 and not space[0]["down"] and may_join(space[0]["colour"], field_colour, colour)


def workable(plot: dict[str, Any]) -> bool:
    s = building_side(plot)
    return s is not None and bool(s.acts)


def place_targets(g: Game, p: Player, colour: str) -> list[tuple[str, str]]:
    """Where a keyple of this colour may go: ("space", "<board>:<space>") on a country board
    (a river needs a free boat) or ("plot", "<plot>") on one of the player's buildings."""
    return list(iter_place_targets(g, p, colour))


def can_place(g: Game, p: Player, colour: str) -> bool:
    """Has a keyple of this colour somewhere to go (``place_targets`` not empty: the first
    will do)? ``iter_space_targets`` written out: every turn asks for each colour in hand."""
    boats = g.boats
    for b in g.boards:
        spaces = b["spaces"]
        for key, field_colour, _ in board_spaces(b["id"], b["fold"]):
            if open_to(spaces[key], key, field_colour, colour, boats):
                return True
    return next(iter_plot_targets(p, colour), None) is not None


def empty_space(g: Game) -> bool:
    """Is some board space open to a keyple of any colour: an empty one (an empty river needs
    a free boat)? (``can_place`` is then true for every colour.)"""
    for b in g.boards:
        for key, space in b["spaces"].items():
            if not space and (key != "river" or g.boats):
                return True
    return False


def iter_place_targets(g: Game, p: Player, colour: str) -> Iterator[tuple[str, str]]:
    for _, _, ref in iter_space_targets(g, colour):
        yield "space", ref
    for plot_id in iter_plot_targets(p, colour):
        yield "plot", plot_id


def iter_space_targets(g: Game, colour: str) -> Iterator[tuple[dict[str, Any], str, str]]:
    """The country spaces of ``place_targets``: (board, space, "<board>:<space>") (the bot
    weighs them with the board at hand)."""
    for b in g.boards:
        spaces = b["spaces"]
        for key, field_colour, ref in board_spaces(b["id"], b["fold"]):
            if key == "river" and not spaces["river"] and not g.boats:
                continue
            if can_enter(spaces[key], field_colour, colour):
                yield b, key, ref


def iter_plot_targets(p: Player, colour: str) -> Iterator[str]:
    """The player's plots of ``place_targets``."""
    for plot_id, plot in p.plots.items():
        if workable(plot) and can_enter(plot["keyples"], None, colour):
            yield plot_id


@functools.cache
def board_spaces(board_id: int, fold: str) -> tuple[tuple[str, str | None, str], ...]:
    """(space, field colour, "<board>:<space>") of a folded board, in its spaces' order."""
    return tuple((key, FIELD_COLOUR[kind], f"{board_id}:{key}") for key, kind in fields_of(board_id, fold).items())


def lay_targets(g: Game, p: Player) -> list[tuple[str, str, int]]:
    """Keyples the player may lay down: (kind, where, how many): standing keyples on its own
    buildings and its claimed board; on any country board if there are none there."""
    own = [("plot", plot_id, n) for plot_id, plot in p.plots.items()
           if plot["keyples"] and (n := standing_count(plot["keyples"])) and workable(plot)]
    def on(board: dict[str, Any]) -> list[tuple[str, str, int]]:
        out = []
        for key, space in board["spaces"].items():
            if space:  # (most spaces are empty: counted only when not)
                n = standing_count(space)
                if n:
                    out.append(("space", f"{board['id']}:{key}", n))
        return out
    claimed = on(board_of(g, p.keyper)) if p.keyper is not None else []
    if own or claimed:
        return own + claimed
    return [t for b in g.boards for t in on(b)]


def lay_options(g: Game, p: Player) -> list[Option]:
    return [lay_option(p.seat, kind, where, n, where_text(g, p, kind, where)) for kind, where, n in lay_targets(g, p)]


@functools.cache
def lay_option(seat: Seat, kind: str, where: str, n: int, text: str) -> Option:
    """Laying down the keyple (n 1) or both keyples on a target, named ``text``."""
    target = f"plot:{seat}:{where}" if kind == "plot" else f"space:{where}"
    if n == 1:
        return Option(f"lay:{kind}:{where}", f"Lay down the keyple on {text}", "lay", target)
    return Option(f"pair:{kind}:{where}", f"Lay down both keyples on {text}", "lay", target)


def where_text(g: Game, p: Player, kind: str, where: str) -> str:
    if kind == "plot":
        return f"your {tile_name(p.plots[where]['tiles'][-1])}"
    board_id, space = where.split(":")
    return space_name(g, int(board_id), space)


# --- A turn ---

def turn_options(g: Game, p: Player) -> list[Option]:
    out: list[Option] = []
    if p.keyper is None:
        out += [keyper_option(b["id"]) for b in g.boards if b["keyper"] is None]
    anywhere = empty_space(g)  # then every colour may be placed
    for colour in dict.fromkeys(p.hand):
        if anywhere or can_place(g, p, colour):
            out.append(keyple_option(p.seat, colour))
    if out_of_hand(p):
        out += lay_options(g, p)
    if not out:
        out.append(Option("pass", "Pass", "pass"))
    return out


# Options are immutable: the ones every turn lists are made once.

@functools.cache
def keyper_option(board_id: int) -> Option:
    return Option(f"keyper:{board_id}", f"Play your keyper on board {board_id} (claim it)", "keyper", f"keyp:{board_id}")


@functools.cache
def keyple_option(seat: Seat, colour: str) -> Option:
    return Option(f"keyple:{colour}", f"Play {a_keyple(KEYPLE_NAMES[colour])}", "keyple", f"hand:{seat}:{colour}")


def has_turn(g: Game, p: Player) -> bool:
    """Public: a player with everything out and nothing to lay down is skipped."""
    return not out_of_hand(p) or can_lay(g, p)


def can_lay(g: Game, p: Player) -> bool:
    """Is ``lay_targets`` not empty (without listing them)? A standing keyple on one of the
    player's buildings, or on any country board (the claimed board is one of them)."""
    for plot in p.plots.values():
        if plot["keyples"] and standing_count(plot["keyples"]) and workable(plot):
            return True
    for b in g.boards:
        for space in b["spaces"].values():
            if space and standing_count(space):
                return True
    return False


def choose_keyper(g: Game, p: Player, option_id: str) -> None:
    board = own_board(g, int(option_id.split(":")[1]))
    board["keyper"] = p.seat
    p.keyper = board["id"]
    g.last = p.seat
    g.acted = True
    g.log.append(f"{seat_ref(p.seat)} plays their keyper on board {board['id']} and claims it for the season.")
    if p.keyp:
        g.queue.insert(0, {"do": "keyp", "seat": p.seat})


def keyp_options(g: Game, p: Player) -> list[Option]:
    gains = ", ".join(keyp_gain_text(c) for c in p.keyp)
    return [Option("keyp:now", f"Lay down the keyples on your keyp tile now ({gains})", "keyp", f"keyptile:{p.seat}"),
            Option("keyp:later", "Leave them for the end of the season", "keyp")]


def keyp_gain_text(colour: str) -> str:
    good = KEYP_TILE_GAIN[colour]
    return "1 shipping point" if good == "ship1" else f"1 {GOOD_NAMES[good]}"


def lay_keyp_tile(g: Game, p: Player) -> None:
    """Each keyple on the keyp tile is laid down for one good of its colour (authored table)."""
    got = []
    for colour in p.keyp:
        good = KEYP_TILE_GAIN[colour]
        if good == "ship1":
            gain(g, p, "ship", 1)
            got.append("1 shipping point")
            continue
        if good == "gem":
            good = max(GEMS, key=lambda k: (g.supply[k], -GEMS.index(k)))
        if gain(g, p, good):
            got.append(f"1 {GOOD_NAMES[good]}")
    p.keyp_down = p.keyp_down + p.keyp
    p.keyp = []
    g.log.append(f"{seat_ref(p.seat)} lays down the keyples on their keyp tile: {', '.join(got) or 'nothing'}.")


def choose_keyp(g: Game, p: Player, option_id: str) -> None:
    g.queue.pop(0)
    if option_id == "keyp:now":
        lay_keyp_tile(g, p)
    else:
        g.log.append(f"{seat_ref(p.seat)} leaves the keyples on their keyp tile for the end of the season.")


def choose_keyple(g: Game, p: Player, option_id: str) -> None:
    g.queue.insert(0, {"do": "place", "seat": p.seat, "colour": option_id.split(":")[1]})


def place_options(g: Game, p: Player) -> list[Option]:
    job = g.queue[0]
    colour = job["colour"]
    if job.get("river"):
        return [Option(f"boat:{b}", f"Put the {BOATS[b].name} on the river ({', '.join(BOATS[b].faces[season_name(g)])})",
                       "boat", f"boat:{b}") for b in g.boats] + [cancel_option()]
    # the targets of ``place_targets``, in its order (``iter_space_targets`` and ``can_enter``
    # written out: every keyple placed lists them)
    out: list[Option] = []
    for b in g.boards:
        spaces = b["spaces"]
        for key, field_colour, option in board_space_options(b["id"], b["fold"]):
            if open_to(spaces[key], key, field_colour, colour, g.boats):
                out.append(option)
    for plot_id in iter_plot_targets(p, colour):
        out.append(Option(f"plot:{plot_id}", f"Work your {tile_name(p.plots[plot_id]['tiles'][-1])}", "place",
                          f"plot:{p.seat}:{plot_id}"))
    return out + [cancel_option()]


def open_to(space: list[dict[str, Any]], key: str, field_colour: str | None, colour: str, boats: Any) -> bool:
    """May a keyple of ``colour`` go onto this board space (``place_options`` and
    ``place_listed`` ask the same)? An empty space, but an empty river needs a free boat; or
    one upright keyple it may join."""
    if not space:
        return key != "river" or bool(boats)
    return len(space) == 1 and not space[0]["down"] and may_join(space[0]["colour"], field_colour, colour)


@functools.cache
def board_space_options(board_id: int, fold: str) -> tuple[tuple[str, str | None, Option], ...]:
    """(space, field colour, the option to play there) of a folded board, in its spaces' order."""
    return tuple((key, field_colour, space_option(ref, fold)) for key, field_colour, ref in board_spaces(board_id, fold))


@functools.cache
def space_option(where: str, fold: str) -> Option:
    """Playing on a space ("<board>:<space>") of a board folded so (options are immutable:
    remembered, as every turn lists them)."""
    board_id, space = where.split(":")
    return Option(f"space:{where}", f"Play on {space_label(int(board_id), fold, space)}", "place", f"space:{where}")


def choose_place(g: Game, p: Player, option_id: str) -> None:
    """A keyple onto a field, a river (then a boat is chosen), or one of the player's buildings."""
    job = g.queue[0]
    kind, where = option_id.split(":", 1)
    colour = job["colour"]
    if kind == "space":
        board_id, space = where.split(":")
        board = own_board(g, int(board_id))
        if space == "river" and board["boat"] is None:
            job["river"] = board["id"]
            return
        g.queue.pop(0)
        play_on_field(g, p, colour, board, space)
    elif kind == "boat":
        g.queue.pop(0)
        board = own_board(g, job["river"])
        board["boat"] = where
        g.boats = without(g.boats, where)
        g.log.append(f"{seat_ref(p.seat)} puts the {BOATS[where].name} on the river of board {board['id']}.")
        play_on_field(g, p, colour, board, "river")
    else:
        g.queue.pop(0)
        play_on_plot(g, p, colour, where)


def take_from_hand(g: Game, p: Player, colour: str) -> None:
    p.hand.remove(colour)
    g.last = p.seat
    g.acted = True


def play_on_field(g: Game, p: Player, colour: str, board: dict[str, Any], space: str) -> None:
    """Empty field: the others are invited clockwise from the left. A field holding one
    standing keyple: it is laid down and the newcomer gains 2 (3 matched)."""
    take_from_hand(g, p, colour)
    keyples = own_space(board, space)
    kind = board_fields(board)[space]
    where = space_name(g, board["id"], space)
    if keyples:
        keyples[0]["down"] = True
        keyples.append({"colour": colour, "seat": p.seat, "down": False})
        n = 2 + matched(colour, FIELD_COLOUR[kind])
        g.log.append(f"{seat_ref(p.seat)} plays {a_keyple(colour)} on {where}, laying down the keyple there.")
        resolve(g, board["id"], space, [(p.seat, n)])
        return
    keyples.append({"colour": colour, "seat": p.seat, "down": False})
    g.log.append(f"{seat_ref(p.seat)} plays {a_keyple(colour)} on {where} and invites the others to join.")
    invitees = [s for s in clockwise(g, p.seat)[1:]]
    next_invitation(g, {"do": "invite", "seat": None, "active": p.seat, "board": board["id"], "space": space,
                        "rest": invitees})


def joinable_colours(g: Game, job: Job, p: Player) -> list[str]:
    space = board_of(g, job["board"])["spaces"][job["space"]]
    field_colour = FIELD_COLOUR[field_kind(g, job["board"], job["space"])]
    return [c for c in dict.fromkeys(p.hand) if may_join(space[0]["colour"], field_colour, c)]


def next_invitation(g: Game, job: Job) -> None:
    """The next seat clockwise that could join is asked; none left: the active player works
    the field alone for 1 (2 matched)."""
    board = board_of(g, job["board"])
    first = board["spaces"][job["space"]][0]["colour"]
    field_colour = FIELD_COLOUR[board_fields(board)[job["space"]]]
    while job["rest"]:
        seat = job["rest"].pop(0)
        if any(may_join(first, field_colour, c) for c in g.players[seat].hand):  # ``joinable_colours``
            job["seat"] = seat
            g.queue.insert(0, job)
            return
    resolve(g, board["id"], job["space"], [(job["active"], 1 + matched(first, field_colour))])


def join_gain(g: Game, job: Job, colour: str) -> int:
    return 2 + matched(colour, FIELD_COLOUR[field_kind(g, job["board"], job["space"])])


def invite_options(g: Game, p: Player) -> list[Option]:
    """``joinable_colours``, each with its ``join_gain`` (the space read once)."""
    job = g.queue[0]
    board = board_of(g, job["board"])
    first = board["spaces"][job["space"]][0]["colour"]
    field_colour = FIELD_COLOUR[board_fields(board)[job["space"]]]
    return [join_option(p.seat, c, 2 + matched(c, field_colour)) for c in dict.fromkeys(p.hand)
            if may_join(first, field_colour, c)] + [DECLINE]


@functools.cache
def join_option(seat: Seat, colour: str, gain: int) -> Option:
    return Option(f"join:{colour}", f"Join with {a_keyple(KEYPLE_NAMES[colour])} (you gain {gain})", "join",
                  f"hand:{seat}:{colour}")


DECLINE = Option("decline", "Decline the invitation", "decline")


def choose_invite(g: Game, p: Player, option_id: str) -> None:
    job = g.queue.pop(0)
    if option_id == "decline":
        g.log.append(f"{seat_ref(p.seat)} declines to join.")
        next_invitation(g, job)
        return
    board = own_board(g, job["board"])
    colour = option_id.split(":")[1]
    p.hand.remove(colour)  # joining is not "playing" on one's turn: the start player is not affected
    own_space(board, job["space"]).append({"colour": colour, "seat": p.seat, "down": False})
    first = board["spaces"][job["space"]][0]["colour"]
    field_colour = FIELD_COLOUR[board_fields(board)[job["space"]]]
    g.log.append(f"{seat_ref(p.seat)} joins with {a_keyple(colour)}.")
    resolve(g, board["id"], job["space"], [(job["active"], 2 + matched(first, field_colour)),
                                          (p.seat, 2 + matched(colour, field_colour))])


def play_on_plot(g: Game, p: Player, colour: str, plot_id: str) -> None:
    """One of the player's own buildings: 1 action, 2 when a keyple standing there is laid down."""
    take_from_hand(g, p, colour)
    plot = own_plot(p, plot_id)
    n = 1
    if plot["keyples"]:
        for k in plot["keyples"]:
            k["down"] = True
        n = 2
    plot["keyples"].append({"colour": colour, "seat": p.seat, "down": False})
    g.log.append(f"{seat_ref(p.seat)} plays {a_keyple(colour)} on their {tile_name(plot['tiles'][-1])}"
                 f"{' (laying down the keyple there)' if n == 2 else ''}.")
    queue_work(g, p.seat, plot_id, n)


def queue_work(g: Game, seat: Seat, plot_id: str, n: int) -> None:
    g.queue[0:0] = [{"do": "act", "kind": "work", "seat": seat, "plot": plot_id, "left": n}]


def resolve(g: Game, board_id: int, space: str, takers: list[tuple[Seat, int]]) -> None:
    """Each taker gains n repetitions of the field: goods at once (active player first,
    then the joiner, one at a time: a short supply runs out in that order), actions as
    steps, alternating the same way."""
    kind = field_kind(g, board_id, space)
    most = 0  # the most repetitions a taker has (a loop: every field played asks)
    for _, n in takers:
        if n > most:
            most = n
    if kind in GOODS or kind in ANIMALS:
        got = {}
        for seat, _ in takers:
            own_player(g, seat)
            got[seat] = 0
        for i in range(most):
            for seat, n in takers:
                if i < n:
                    got[seat] += gain(g, g.players[seat], kind)
        for seat, n in takers:
            short = f" (the supply ran out: {n - got[seat]} short)" if got[seat] < n else ""
            g.log.append(f"{seat_ref(seat)} gains {got[seat]} {GOOD_NAMES[kind]}{short}.")
        return
    step = "boat" if kind == "river" else kind
    jobs: list[Job] = []
    for i in range(most):
        for seat, n in takers:
            if i < n:
                jobs.append({"do": "act", "kind": step, "seat": seat, "board": board_id, "left": 1,
                             "of": n, "group": f"{board_id}:{space}:{seat}"})
    for seat, n in takers:
        g.log.append(f"{seat_ref(seat)} has {plural(n, 'action')}: {FIELD_NAMES[kind]}.")
    g.queue[0:0] = jobs


def choose_lay(g: Game, p: Player, option_id: str) -> None:
    """Laying down: a single keyple (1, 2 when another lies there; +1 matched) or a pair
    on a field (2, +1 matched) for the active player."""
    final = bool(g.queue and g.queue[0]["do"] == "final")
    if final:
        g.queue.pop(0)
    else:
        g.acted = True
    kind_word, kind, where = option_id.split(":", 2)
    pair = kind_word == "pair"
    if kind == "plot":
        plot = own_plot(p, where)
        lying = len(plot["keyples"]) - len(standing(plot["keyples"]))
        for k in plot["keyples"]:
            k["down"] = True
        n = 2 if lying else 1
        g.log.append(f"{seat_ref(p.seat)} lays down the keyple on their {tile_name(plot['tiles'][-1])}.")
        queue_work(g, p.seat, where, n)
        return
    board_id, space = where.split(":")
    board = own_board(g, int(board_id))
    keyples = own_space(board, space)
    field_colour = FIELD_COLOUR[board_fields(board)[space]]
    up = standing(keyples)
    bonus = any(matched(k["colour"], field_colour) for k in up)
    lying = len(keyples) - len(up)
    for k in up:
        k["down"] = True
    n = (2 if pair or lying else 1) + bonus
    g.log.append(f"{seat_ref(p.seat)} lays down {'both keyples' if pair else 'the keyple'} on "
                 f"{space_name(g, board['id'], space)}.")
    resolve(g, board["id"], space, [(p.seat, n)])


def choose_pass(g: Game, p: Player, option_id: str) -> None:
    if g.queue and g.queue[0]["do"] == "final":
        g.queue.pop(0)
        g.log.append(f"{seat_ref(p.seat)} makes no final lay-down.")
    else:
        g.acted = True
        g.log.append(f"{seat_ref(p.seat)} passes.")


# --- One repetition of an action ---

def act_options(g: Game, p: Player) -> list[Option]:
    job = g.queue[0]
    kind = job["kind"]
    out: list[Option] = []
    if kind == "tile":
        out = [take_option(i, t) for i, t in enumerate(g.display) if t]
    elif kind in ("build", "discount"):
        out = build_options(g, p, job)
    elif kind == "upgrade":
        for plot_id, plot in p.plots.items():
            if plot["tiles"] and not plot["up"] and can_pay(p.stock, BUILDINGS[plot["tiles"][-1]].back.cost):
                out.append(upgrade_option(p.seat, plot_id, plot["tiles"][-1]))
    elif kind == "fair":
        out = [Option(f"winter:{f}", f"Take the winter fair {f} ({fair_text(f)})", "winter", f"winterfair:{f}")
               for f in g.winter_fairs]
    elif kind == "boat":
        out = boat_options(g, p, job)
    elif kind == "work":
        out = work_options(g, p, job)
    if not out:
        return []
    return out + [DONE]


DONE = Option("done", "Done (skip the rest of this action)", "done")


# Options are immutable: those a step lists again and again are made once.

@functools.cache
def take_option(slot: int, tile: str) -> Option:
    return Option(f"take:{slot}", f"Take {tile_name(tile)} from the display", "take", f"display:{slot}")


@functools.cache
def upgrade_option(seat: Seat, plot_id: str, tile: str) -> Option:
    b = BUILDINGS[tile]
    return Option(f"upgrade:{plot_id}", f"Upgrade {b.front.name} to {b.back.name} ({cost_text(b.back.cost)})",
                  "upgrade", f"plot:{seat}:{plot_id}")


def fair_text(fair_id: str) -> str:
    f = FAIRS[fair_id]
    text = f"{goods_text(f.needs)}: {f.points} points"
    if f.back_needs:
        text += f"; or {goods_text(f.back_needs)}: {f.back_points} points"
    return text


def build_sources(g: Game, p: Player) -> list[tuple[str, str]]:
    return ([(f"home:{t}", t) for t in p.home] + [(f"held:{t}", t) for t in p.held]
            + [(f"display:{i}", t) for i, t in enumerate(g.display) if t])


PLOT_AREA = {pid: pid.rstrip("0123456789") for pid in PLOTS}


def areas_with_room(p: Player) -> dict[str, bool]:
    """Does the farm, does the village have a plot for one more tile (as ``free_plots``)?"""
    room = {"farm": False, "village": False}
    for pid, plot in p.plots.items():
        if len(plot["tiles"]) < 2:
            area = PLOT_AREA[pid]
            if not room[area]:
                room[area] = True
                if room["farm"] and room["village"]:
                    break  # (nothing more to find)
    return room


def free_plots(p: Player, area: str) -> list[str]:
    """Empty plots of the area, and plots holding one tile (each may be overbuilt once)."""
    return [pid for pid, plot in p.plots.items() if pid.startswith(area) and len(plot["tiles"]) < 2]


def build_cost(job: Job, tile: str) -> dict[str, int]:
    """The tile's cost for this build (shared: read it, never change it)."""
    return discounted_front(tile) if job["kind"] == "discount" else BUILDINGS[tile].front.cost


@functools.cache
def discounted_front(tile: str) -> dict[str, int]:
    """A tile's front cost less the discount (fixed content: worked out once)."""
    return discounted(BUILDINGS[tile].front.cost)


def build_options(g: Game, p: Player, job: Job) -> list[Option]:
    if job.get("src"):
        tile = source_tile(g, p, job["src"])
        return [build_plot_option(p.seat, pid, tile, p.plots[pid]["tiles"][-1] if p.plots[pid]["tiles"] else None)
                for pid in free_plots(p, BUILDINGS[tile].area)] + [cancel_option()]
    out = []
    room = areas_with_room(p)
    discount = job["kind"] == "discount"
    # the sources of ``build_sources``, in its order; a source's string only for a tile that can be built
    held = goods_held(p.stock)
    for where, tiles in (("home", p.home), ("held", p.held), ("display", g.display)):
        for i, tile in enumerate(tiles):
            if tile:
                area, cost, less, named, named_less = TILE_COSTS[tile]  # ``build_cost``
                if room[area] and (named_less if discount else named) <= held \
                        and can_pay(p.stock, less if discount else cost):
                    out.append(build_option(p.seat, job["kind"], where, str(i) if where == "display" else tile, tile))
    return out


@functools.cache
def build_plot_option(seat: Seat, plot_id: str, tile: str, over: str | None) -> Option:
    """Building the tile on a plot, over the tile ``over`` if any (made once: immutable)."""
    return Option(f"plot:{plot_id}", f"Build {tile_name(tile)} on {plot_id}"
                  + (f" (overbuilding {tile_name(over)})" if over else ""), "plot", f"plot:{seat}:{plot_id}")


@functools.cache
def build_option(seat: Seat, kind: str, where: str, ref: str, tile: str) -> Option:
    """Building a tile from home, held tiles or the display slot ``ref`` (made once: immutable)."""
    target = f"display:{ref}" if where == "display" else f"{where}:{seat}:{tile}"
    return Option(f"build:{where}:{ref}", f"Build {tile_name(tile)} ({cost_text(build_cost({'kind': kind}, tile))})",
                  "build", target)


def can_build(g: Game, p: Player, kind: str) -> bool:
    """Would a build (or discount build) action offer anything now? (What ``act_options``
    lists, without writing the options: the bot asks this often.)"""
    room = areas_with_room(p)
    if not (room["farm"] or room["village"]):
        return False
    # the tiles of ``build_sources``, without writing their sources
    discount = kind == "discount"
    held = goods_held(p.stock)
    for tiles in (p.home, p.held, g.display):
        for tile in tiles:
            if tile:
                area, cost, less, named, named_less = TILE_COSTS[tile]
                if room[area] and (named_less if discount else named) <= held \
                        and can_pay(p.stock, less if discount else cost):
                    return True
    return False


def can_build_both(g: Game, p: Player) -> tuple[bool, bool]:
    """``can_build`` for a build and for a discount build, in one pass over the tiles (the
    bot weighs both)."""
    room = areas_with_room(p)
    if not (room["farm"] or room["village"]):
        return False, False
    build = discount = False
    stock = p.stock
    held = goods_held(stock)
    for tiles in (p.home, p.held, g.display):
        for tile in tiles:
            if tile:
                area, cost, less, named, named_less = TILE_COSTS[tile]
                if room[area]:
                    discount = discount or named_less <= held and can_pay(stock, less)
                    build = build or named <= held and can_pay(stock, cost)
                    if build and discount:
                        return True, True
    return build, discount


def tile_costs(tile: str) -> tuple[str, dict[str, int], dict[str, int], frozenset[str], frozenset[str]]:
    """A tile's area, front cost and discounted front cost, and the goods each names (not
    white ones): a cost is paid only if the store holds some of each."""
    b = BUILDINGS[tile]
    less = discounted_front(tile)
    return b.area, b.front.cost, less, named_goods(b.front.cost), named_goods(less)


def named_goods(cost: dict[str, int]) -> frozenset[str]:
    return frozenset(good for good, n in cost.items() if good not in WHITE and n > 0)


# ``tile_costs`` of every tile (fixed content: worked out once, read as a plain dict).
TILE_COSTS = {tile: tile_costs(tile) for tile in BUILDINGS}


def goods_held(stock: dict[str, int]) -> set[str]:
    """The goods (and animals) the store holds any of: a quick refusal before ``can_pay``
    (a store never holds less than none, so "any" is "not none")."""
    return set(compress(stock, stock.values()))


def can_upgrade(p: Player) -> bool:
    """Would an upgrade action offer anything now?"""
    stock = p.stock
    for plot in p.plots.values():
        tiles = plot["tiles"]
        if tiles and not plot["up"] and can_pay(stock, BUILDINGS[tiles[-1]].back.cost):
            return True
    return False


def source_tile(g: Game, p: Player, src: str) -> str:
    where, ref = src.split(":")
    return g.display[int(ref)] if where == "display" else ref  # type: ignore[return-value]


def boat_options(g: Game, p: Player, job: Job) -> list[Option]:
    board = board_of(g, job["board"])
    goods = BOATS[board["boat"]].faces[season_name(g)]
    done = g.trades.get(str(p.seat), {"got": [], "sold": []})
    out = []
    for good in goods:
        if g.supply[good] > 0 and good not in done["sold"]:
            out.append(BOAT_GETS[good])
    for good in goods:
        if p.stock.get(good, 0) > 0 and good not in done["got"] and p.ship < SHIPPING_TRACK:
            out.append(BOAT_SELLS[good])
    return out


def can_trade(g: Game, p: Player, job: Job) -> bool:
    """Would ``boat_options`` list anything (without listing it: a boat step asks first)?"""
    goods = BOATS[board_of(g, job["board"])["boat"]].faces[season_name(g)]
    done = g.trades.get(str(p.seat), {"got": [], "sold": []})
    for good in goods:
        if g.supply[good] > 0 and good not in done["sold"]:
            return True
    return p.ship < SHIPPING_TRACK and any(p.stock.get(good, 0) > 0 and good not in done["got"] for good in goods)


BOAT_GETS = {good: Option(f"get:{good}", f"Take 1 {GOOD_NAMES[good]} from the boat", "get", None) for good in GOODS}
BOAT_SELLS = {good: Option(f"sell:{good}", f"Sell 1 {GOOD_NAMES[good]} for {SHIP_STEP} shipping points", "sell", None)
              for good in GOODS}


def work_variants(g: Game, p: Player, a: Act) -> list[str]:
    """The ways one action of a building can be taken now ("-" when there is one way)."""
    if not can_pay(p.stock, a.pay):
        return []
    if "refine" in a.gain:
        return [r for r in RAW if p.stock.get(r, 0) > 0 and g.supply[REFINED[r]] > 0]
    if "animal" in a.gain:
        return []  # needs the plot's houses: see work_options
    if "gem" in a.gain:
        return [k for k in GEMS if g.supply[k] > 0]
    if all(k == "ship" or g.supply[k] > 0 for k in a.gain):
        return ["-"]
    return []


def work_choices(g: Game, p: Player, job: Job) -> list[tuple[int, Any, str]]:
    """(action index, action, variant) of each use a work step offers, in listing order."""
    side = building_side(p.plots[job["plot"]])
    assert side is not None
    out = []
    for i, a in enumerate(side.acts):
        if "animal" in a.gain:
            variants = [k for k in side.houses if g.supply[k] > 0] if can_pay(p.stock, a.pay) else []
        else:
            variants = work_variants(g, p, a)
        out.extend((i, a, v) for v in variants)
    return out


def work_options(g: Game, p: Player, job: Job) -> list[Option]:
    name = building_side(p.plots[job["plot"]]).name  # type: ignore[union-attr]
    out = []
    for i, a, v in work_choices(g, p, job):
        label = "Refine 1 {} into 1 {}".format(v, REFINED[v]) if "refine" in a.gain else \
            f"Take 1 {GOOD_NAMES[v]}" if v != "-" and "gem" in a.gain or "animal" in a.gain else \
            f"{name}: " + act_text(a)
        out.append(Option(f"use:{i}:{v}", label, "use", None))
    return out


def choose_take(g: Game, p: Player, option_id: str) -> None:
    slot = int(option_id.split(":")[1])
    tile = g.display[slot]
    assert tile
    g.display[slot] = None
    g.refill.append(slot)
    p.held = p.held + [tile]
    g.log.append(f"{seat_ref(p.seat)} takes {tile_name(tile)} from the display.")
    finish_repetition(g)


def choose_build(g: Game, p: Player, option_id: str) -> None:
    g.queue[0]["src"] = option_id.split(":", 1)[1]


def choose_plot(g: Game, p: Player, option_id: str) -> None:
    """Build: pay, put the tile on the plot (over an old one: that one goes inactive and
    the keyples on it move up), take it from where it was."""
    job = g.queue[0]
    plot_id = option_id.split(":")[1]
    src = job.pop("src")
    tile = source_tile(g, p, src)
    paid = payment(p.stock, build_cost(job, tile))
    assert paid is not None
    pay(g, p, paid)
    where, ref = src.split(":")
    if where == "home":
        p.home = without(p.home, tile)
    elif where == "held":
        p.held = without(p.held, tile)
    else:
        g.display[int(ref)] = None
        g.refill.append(int(ref))
    plot = own_plot(p, plot_id)
    over = tile_name(plot["tiles"][-1]) if plot["tiles"] else None
    plot["tiles"].append(tile)
    plot["up"] = False
    g.log.append(f"{seat_ref(p.seat)} builds {tile_name(tile)} on {plot_id} for {goods_text(paid)}"
                 + (f", overbuilding {over}." if over else "."))
    finish_repetition(g)


def choose_upgrade(g: Game, p: Player, option_id: str) -> None:
    plot = own_plot(p, option_id.split(":")[1])
    b = BUILDINGS[plot["tiles"][-1]]
    paid = payment(p.stock, b.back.cost)
    assert paid is not None
    pay(g, p, paid)
    plot["up"] = True
    g.log.append(f"{seat_ref(p.seat)} upgrades {b.front.name} to {b.back.name} for {goods_text(paid)}.")
    finish_repetition(g)


def choose_winter(g: Game, p: Player, option_id: str) -> None:
    fair_id = option_id.split(":")[1]
    g.winter_fairs = without(g.winter_fairs, fair_id)
    p.winter = p.winter + [fair_id]
    g.log.append(f"{seat_ref(p.seat)} takes the winter fair {fair_id} ({fair_text(fair_id)}).")
    finish_repetition(g)


def choose_trade(g: Game, p: Player, option_id: str) -> None:
    """A boat trade: take one good shown, or sell one for 2 shipping points; never both
    with the same good in one turn."""
    verb, good = option_id.split(":")
    done = g.trades.setdefault(str(p.seat), {"got": [], "sold": []})
    if verb == "get":
        gain(g, p, good)
        done["got"].append(good)
        g.log.append(f"{seat_ref(p.seat)} takes 1 {GOOD_NAMES[good]} from the boat.")
    else:
        p.stock[good] -= 1
        g.supply[good] += 1
        gain(g, p, "ship", SHIP_STEP)
        done["sold"].append(good)
        g.log.append(f"{seat_ref(p.seat)} sells 1 {GOOD_NAMES[good]} to the boat for {SHIP_STEP} shipping points.")
    finish_repetition(g)


def choose_use(g: Game, p: Player, option_id: str) -> None:
    """One action of a building: pay what it asks, gain what it gives."""
    _, index, variant = option_id.split(":")
    job = g.queue[0]
    side = building_side(p.plots[job["plot"]])
    assert side is not None
    a = side.acts[int(index)]
    paid = payment(p.stock, a.pay)
    assert paid is not None
    pay(g, p, paid)
    got = []
    for good, n in a.gain.items():
        if good == "refine":
            p.stock[variant] -= 1
            g.supply[variant] += 1
            got.append(f"{gain(g, p, REFINED[variant])} {REFINED[variant]}")
        elif good in ("animal", "gem"):
            got.append(f"{gain(g, p, variant, n)} {GOOD_NAMES[variant]}")
        elif good == "ship":
            gain(g, p, "ship", n)
            got.append(f"{n} shipping points")
        else:
            got.append(f"{gain(g, p, good, n)} {GOOD_NAMES[good]}")
    g.log.append(f"{seat_ref(p.seat)} uses {side.name}: {goods_text(paid) + ' for ' if paid else ''}{', '.join(got)}.")
    finish_repetition(g)


def finish_repetition(g: Game) -> None:
    job = g.queue[0]
    job["left"] -= 1
    if job["left"] <= 0:
        g.queue.pop(0)


def choose_done(g: Game, p: Player, option_id: str) -> None:
    """Skip the rest of this action (this step and the seat's other steps of the same field)."""
    job = g.queue.pop(0)
    if job["do"] == "fair":
        discard_fair(g, p)
        return
    group = job.get("group")
    if group:
        g.queue = [j for j in g.queue if j.get("group") != group]


def cancel_option() -> Option:
    return CANCEL


CANCEL = Option("cancel", "Cancel", "cancel")


def choose_cancel(g: Game, p: Player, option_id: str) -> None:
    job = g.queue[0]
    if job["do"] == "place":
        if job.pop("river", None) is None:
            g.queue.pop(0)
    else:
        job.pop("src", None)


# --- End of a season ---

def begin_season_end(g: Game) -> None:
    """Everyone is out: the others' final lay-downs (clockwise from the left of the last
    player), then the rest of the season's end runs by itself or asks for fairs."""
    g.ending = True
    g.refill = []  # tiles taken as the season's last action are not replaced
    g.log.append(f"Every keyper and keyple of {season_name(g)} is out: the season ends.")
    g.queue = [{"do": "final", "seat": s} for s in clockwise(g, g.last)[1:]] + [{"do": "end1"}]


def end_after_lay_downs(g: Game) -> None:
    """Forgotten keyp-tile keyples, then the fairs of the season and the housing of animals,
    each clockwise from the start player (one after another: what is housed is public)."""
    own_players(g)
    for p in g.players:
        if p.keyp:
            lay_keyp_tile(g, p)
    season = season_name(g)
    jobs: list[Job] = [{"do": "fair", "seat": s} for s in clockwise(g, g.start)
                       if season in g.players[s].fairs or winter_fair_options(g, g.players[s])]
    houses: list[Job] = [{"do": "house", "seat": s} for s in clockwise(g, g.start)]
    g.queue[0:0] = jobs + houses + [{"do": "end2"}]


def fair_options(g: Game, p: Player) -> list[Option]:
    out = []
    season = season_name(g)
    own = p.fairs.get(season)
    if own and can_pay(p.stock, FAIRS[own].needs):
        out.append(Option(f"fair:{own}:front", f"Hold your {season} fair ({goods_text(FAIRS[own].needs)}: "
                                             f"{FAIRS[own].points} points)", "fair", f"fairtile:{p.seat}:{season}"))
    out += winter_fair_options(g, p)
    label = "Done with fairs" + (f" (your {season} fair tile is discarded unheld)" if own else "")
    return out + [Option("done", label, "done")]


def winter_fair_options(g: Game, p: Player) -> list[Option]:
    out = []
    for f in p.winter:
        fair = FAIRS[f]
        for side_name in WINTER_SIDES.get(season_name(g), ()):
            needs, points = (fair.needs, fair.points) if side_name == "4" else (fair.back_needs or {}, fair.back_points)
            if can_pay(p.stock, needs):
                out.append(Option(f"fair:{f}:{side_name}", f"Hold the winter fair {f} for {points} points "
                                  f"({goods_text(needs)})", "fair", f"winterfair:{f}"))
    return out


def choose_fair(g: Game, p: Player, option_id: str) -> None:
    """Display the goods a fair asks for; they stay on the fair, which scores at the end."""
    _, fair_id, side_name = option_id.split(":")
    fair = FAIRS[fair_id]
    needs, points = ((fair.back_needs or {}, fair.back_points) if side_name == "6" else (fair.needs, fair.points))
    paid = payment(p.stock, needs)
    assert paid is not None
    for good, n in paid.items():
        p.stock[good] -= n
    if fair.season == "winter":
        p.winter = without(p.winter, fair_id)
    else:
        p.fairs = {season: f for season, f in p.fairs.items() if season != fair.season}
    p.shown = p.shown + [{"id": fair_id, "side": side_name, "points": points, "season": season_name(g), "goods": paid}]
    g.log.append(f"{seat_ref(p.seat)} holds the {'winter' if fair.season == 'winter' else fair.season} fair "
                 f"{fair_id}, displaying {goods_text(paid)}: {points} points.")
    if not fair_options(g, p)[:-1]:
        g.queue.pop(0)
        discard_fair(g, p)


def discard_fair(g: Game, p: Player) -> None:
    season = season_name(g)
    own = p.fairs.get(season)
    if own:
        p.fairs = {s: f for s, f in p.fairs.items() if s != season}
        g.fair_out = g.fair_out + [own]
        g.log.append(f"{seat_ref(p.seat)} does not hold their {season} fair; it is discarded unseen.")


def housing_places(p: Player) -> list[tuple[str, tuple[str, ...], int, int]]:
    """The farm buildings that house animals: (plot, kinds, room, points per housed animal),
    best-paying first."""
    places = []
    for pid, plot in p.plots.items():
        side = building_side(plot)
        if side and side.houses:
            rate = sum(n for thing, n in side.per if thing == "housed")
            places.append((pid, side.houses, side.capacity, rate))
    return sorted(places, key=lambda pl: (-pl[3], PLOTS.index(pl[0])))


def housing_plan(p: Player, order: list[str]) -> dict[str, dict[str, int]]:
    """The most animals that fit (augmenting paths over the buildings' room), keeping the
    kinds earliest in ``order`` first (a kept animal is never dropped for a later one) and
    trying the best-paying buildings first."""
    places = housing_places(p)
    slots = [(pid, houses, i) for pid, houses, cap, _ in places for i in range(cap)]
    units = [a for a in order for _ in range(p.stock.get(a, 0))]
    owner: dict[int, int] = {}  # slot index -> unit index

    def place(u: int, seen: set[int]) -> bool:
        for s, (_, houses, _) in enumerate(slots):
            if units[u] in houses and s not in seen:
                seen.add(s)
                if s not in owner or place(owner[s], seen):
                    owner[s] = u
                    return True
        return False
    for u in range(len(units)):
        place(u, set())
    plan: dict[str, dict[str, int]] = {}
    for s, u in sorted(owner.items()):
        kinds = plan.setdefault(slots[s][0], {})
        kinds[units[u]] = kinds.get(units[u], 0) + 1
    return {pid: {a: kinds[a] for a in ANIMALS if a in kinds} for pid, kinds in sorted(plan.items(), key=lambda kv: PLOTS.index(kv[0]))}


def housing_plans(p: Player) -> list[dict[str, dict[str, int]]]:
    """The whole choices offered for housing: the most animals that fit, first keeping the
    kinds in the tiebreak order, then each kind held given the first claim on the room.
    Each plan keeps as many animals as can be kept; they differ in which kinds go back."""
    held = [a for a in ANIMALS if p.stock.get(a, 0)]
    if not held:
        return [{}]  # no animals: the one way houses none (as ``housing_plan`` finds)
    plans: list[dict[str, dict[str, int]]] = []
    for first in [None, *held]:
        order = ([first] if first else []) + [a for a in held if a != first]
        plan = housing_plan(p, order)
        if plan not in plans:
            plans.append(plan)
    return plans


def plan_id(plan: dict[str, dict[str, int]]) -> str:
    return ";".join(f"{pid}=" + ",".join(f"{n}{a}" for a, n in kinds.items()) for pid, kinds in plan.items()) or "none"


def parse_plan(text: str) -> dict[str, dict[str, int]]:
    if text == "none":
        return {}
    plan: dict[str, dict[str, int]] = {}
    for part in text.split(";"):
        pid, _, kinds = part.partition("=")
        plan[pid] = {}
        for item in kinds.split(","):
            digits = len(item) - len(item.lstrip("0123456789"))
            plan[pid][item[digits:]] = int(item[:digits])
    return plan


def returned_by(p: Player, plan: dict[str, dict[str, int]]) -> dict[str, int]:
    kept: Counter[str] = Counter()
    for kinds in plan.values():
        kept.update(kinds)
    return {a: p.stock.get(a, 0) - kept[a] for a in ANIMALS if p.stock.get(a, 0) > kept[a]}


def house_options(g: Game, p: Player) -> list[Option]:
    out = []
    for plan in housing_plans(p):
        kept = "; ".join(f"{goods_text(kinds)} in your {tile_name(p.plots[pid]['tiles'][-1])}"
                         for pid, kinds in plan.items()) or "no animals"
        back = returned_by(p, plan)
        out.append(Option(f"house:{plan_id(plan)}", f"House {kept}"
                          + (f"; return {goods_text(back)}" if back else ""), "house", None))
    return out


def house(g: Game, p: Player, plan: dict[str, dict[str, int]]) -> None:
    """Animals go into the plan's farm buildings; the rest go back to the supply."""
    back = returned_by(p, plan)
    p.housed = {pid: dict(kinds) for pid, kinds in plan.items()}
    for a, n in back.items():
        p.stock[a] -= n
        g.supply[a] += n
    if back:
        g.log.append(f"{seat_ref(p.seat)} cannot house {goods_text(back)}: back to the supply.")


def house_animals(g: Game, p: Player, plans: list[dict[str, dict[str, int]]] | None = None) -> None:
    """The housing with no choice to make (or the first plan): as many as fit (``plans``:
    the player's ``housing_plans``, if already found)."""
    plans = housing_plans(p) if plans is None else plans
    house(g, p, plans[0] if plans else {})


def choose_house(g: Game, p: Player, option_id: str) -> None:
    g.queue.pop(0)
    plan = parse_plan(option_id.split(":", 1)[1])
    house(g, p, plan)
    kept = sum(n for kinds in plan.values() for n in kinds.values())
    g.log.append(f"{seat_ref(p.seat)} houses {plural(kept, 'animal')}.")


def end_after_fairs(g: Game) -> None:
    """(Animals are housed by now.) Keypers, claimed boards and their keyples retrieved; then, before
    another season, the display, the boats and the folds."""
    own_players(g)
    retrieve(g)
    if g.season == len(SEASONS) - 1:
        g.phase = OVER
        g.queue = []
        g.log.append("Winter is over: the game ends.")
        return
    g.season += 1
    rng = Rng(g.rng)
    g.discard = g.discard + [t for t in g.display if t]
    g.bag = list(g.bag)  # this game's own, to draw from
    if season_name(g) == "summer":  # the non-spring tiles join the bag at the start of summer
        g.bag += [t for t, b in COUNTRY.items() if b.season != "spring"]
        rng.shuffle(g.bag)
    if season_name(g) == WINTER_FAIRS_FROM:
        g.winter_fairs = sorted(f for f, fair in FAIRS.items() if fair.season == "winter")
    g.display = [g.bag.pop(0) if g.bag else None for _ in range(DISPLAY_SIZE)]
    choose_boats(g, rng)
    g.rng = rng.state
    g.phase = FOLD
    g.queue = []
    g.log.append(f"{season_name(g).capitalize()} is coming: everyone secretly chooses how to fold their board.")


def retrieve(g: Game) -> None:
    """Each claimer takes back its keyper, the board it claimed (to fold next) and every
    keyple on that board; keyples on buildings and the keyp tile go back to their owners."""
    own_boards(g)
    for b in g.boards:
        seat = b["keyper"]
        p = g.players[seat]
        got = [k["colour"] for space in b["spaces"].values() for k in space]
        p.hand += got
        b["folder"], b["keyper"], b["boat"] = seat, None, None
        b["spaces"] = {k: [] for k in board_fields(b)}
        g.log.append(f"{seat_ref(seat)} takes back their keyper, board {b['id']} and the "
                     f"{plural(len(got), 'keyple')} on it.")
    for p in g.players:
        for plot_id, plot in list(p.plots.items()):
            if plot["keyples"]:
                p.hand += [k["colour"] for k in plot["keyples"]]
                own_plot(p, plot_id)["keyples"] = []
        p.hand += p.keyp_down + p.keyp
        p.keyp_down, p.keyp = [], []
        p.hand = keyple_sort(p.hand)
        p.keyper = None


def fold_options(g: Game, p: Player) -> list[Option]:
    board = next(b for b in g.boards if b["folder"] == p.seat)
    return [fold_option(board["id"], f) for f in folds(board["id"], season_name(g))]


@functools.cache
def fold_option(board_id: int, fold: str) -> Option:
    return Option(f"fold:{fold}", f"Fold board {board_id} to {fold_text(fold)}", "fold", f"fold:{board_id}:{fold}")


def fold_text(fold: str) -> str:
    season, tl, bl = fold.split("-")
    return f"{season}, top-left face {'AB'[int(tl)]}, bottom-left face {'AB'[int(bl)]}"


def choose_fold(g: Game, p: Player, option_id: str) -> None:
    """Folds are chosen at once and in secret: each is kept until everyone has chosen."""
    p.fold = option_id.split(":", 1)[1]
    if all(q.fold for q in g.players):
        start_season(g)


def start_season(g: Game) -> None:
    """The folds are revealed and the last player to play a keyple or keyper starts; then
    each player over the team size chooses, one after another clockwise from the start
    player, which keyples go onto their keyp tile (hands are public, so nothing is secret)."""
    own_players(g)
    own_boards(g)
    for b in g.boards:
        q = g.players[b["folder"]]
        fresh = new_board(b["id"], q.fold, q.seat)  # type: ignore[arg-type]
        b.update(fresh)
        g.log.append(f"{seat_ref(q.seat)} folds board {b['id']}: {fold_text(q.fold)}.")  # type: ignore[arg-type]
    for q in g.players:
        q.fold = None
    g.phase = PLAY
    g.ending = False
    g.trades = {}
    g.start = g.turn = g.last
    g.log.append(f"{season_name(g).capitalize()} begins; {seat_ref(g.start)} starts (the last to play in "
                 f"{SEASONS[g.season - 1]}).")
    size = TEAM_SIZE[len(g.players)]
    g.queue = [{"do": "surplus", "seat": s} for s in clockwise(g, g.start) if len(g.players[s].hand) > size]


def surplus_choices(g: Game, p: Player) -> list[list[str]]:
    """The keyples a player over the team size may put onto the keyp tile (whole choices):
    the colours held most often first (white last), then each colour held put there first."""
    return [list(choice) for choice in surplus_ways(tuple(p.hand), TEAM_SIZE[len(g.players)])]


@functools.lru_cache(maxsize=4096)
def surplus_ways(hand: tuple[str, ...], size: int) -> tuple[tuple[str, ...], ...]:
    """``surplus_choices`` of a hand (in its order) and team size: they depend on nothing
    else, and a season's start asks for them again at every step until the choice is made."""
    k = len(hand) - size
    if k <= 0:
        return ()

    def rest(hand: list[str], n: int) -> list[str]:
        counts, out = Counter(hand), []
        for _ in range(n):
            colour = max(counts, key=lambda c: (c != WHITE_KEYPLE, counts[c], -KEYPLE_COLOURS.index(c)))
            counts[colour] -= 1
            if not counts[colour]:
                del counts[colour]  # no more of it in hand
            out.append(colour)
        return out
    choices: list[list[str]] = []
    for first in [None, *dict.fromkeys(hand)]:
        put = [first] * min(k, hand.count(first)) if first else []
        left = list(hand)
        for c in put:
            left.remove(c)
        choice = keyple_sort(put + rest(left, k - len(put)))
        if choice not in choices:
            choices.append(choice)
    return tuple(map(tuple, choices))


def surplus_options(g: Game, p: Player) -> list[Option]:
    return list(surplus_listing(tuple(p.hand), TEAM_SIZE[len(g.players)]))


@functools.lru_cache(maxsize=4096)
def surplus_listing(hand: tuple[str, ...], size: int) -> tuple[Option, ...]:
    """The options of ``surplus_ways`` (made once: immutable)."""
    return tuple(Option(f"surplus:{','.join(c)}", f"Put {', '.join(c)} onto your keyp tile "
                        f"({', '.join(keyp_gain_text(x) for x in c)} when your keyper is played)", "surplus", None)
                 for c in surplus_ways(hand, size))


def put_on_keyp(g: Game, p: Player, colours: list[str]) -> None:
    for c in colours:
        p.hand.remove(c)
    p.keyp = keyple_sort(p.keyp + colours)
    size = TEAM_SIZE[len(g.players)]
    g.log.append(f"{seat_ref(p.seat)} has more than {size} keyples: {', '.join(colours)} go onto the keyp tile.")


def surplus(g: Game, p: Player, choices: list[list[str]] | None = None) -> None:
    """The surplus with no choice to make (or the first choice): colours held most often
    first, white last, so a team keeps its variety (``choices``: ``surplus_choices``, if
    already found)."""
    choices = surplus_choices(g, p) if choices is None else choices
    if choices:
        put_on_keyp(g, p, choices[0])


def choose_surplus(g: Game, p: Player, option_id: str) -> None:
    g.queue.pop(0)
    put_on_keyp(g, p, option_id.split(":", 1)[1].split(","))


# --- Scoring ---

def units(p: Player) -> dict[str, int]:
    """What can score, one key per unit kind: goods, animals per plot, keyples per colour."""
    out = {k: p.stock.get(k, 0) for k in GOODS if p.stock.get(k, 0)}
    for pid, animals in p.housed.items():
        for a, n in animals.items():
            out[f"{a}@{pid}"] = n
    for colour, n in Counter(p.hand + p.keyp).items():
        out[f"keyple:{colour}"] = n
    return out


def matches(thing: str, pid: str, key: str) -> bool:
    if thing == "housed":
        return key.endswith(f"@{pid}")
    if thing == "keyple:any":
        return key.startswith("keyple:")
    if thing in WHITE:
        return key in WHITE[thing]
    if thing in ANIMALS:
        return key.split("@")[0] == thing and "@" in key
    return key == thing


def building_scores(p: Player) -> dict[str, tuple[int, int]]:
    """Each active building's (flat points, "per" points). A unit scores once; a building
    counts a thing at most 4 times. Units go to the best-paying conditions first (named
    things before white ones), each condition taking the units fewest others want."""
    out: dict[str, tuple[int, int]] = {}
    slots = []
    for pid, plot in p.plots.items():
        s = building_side(plot)
        if s is None:
            continue
        out[pid] = (s.points, 0)
        for thing, n in s.per:
            slots.append((pid, thing, n))
    left = units(p)
    slots.sort(key=lambda sl: (-sl[2], sl[1] in WHITE or sl[1] == "keyple:any", sl[0], sl[1]))
    for pid, thing, n in slots:
        want = SCORE_CAP
        keys = sorted((k for k in left if left[k] and matches(thing, pid, k)),
                      key=lambda k: (sum(matches(t, q, k) for q, t, _ in slots), k))
        for k in keys:
            take = min(want, left[k])
            left[k] -= take
            want -= take
            out[pid] = (out[pid][0], out[pid][1] + take * n)
            if not want:
                break
    return out


def building_points(p: Player) -> tuple[int, int]:
    """Flat points and "per" points of all the active buildings."""
    scored = building_scores(p).values()
    return sum(f for f, _ in scored), sum(n for _, n in scored)


def score_lines(p: Player) -> dict[str, int]:
    flat, per = building_points(p)
    return {"Shipping track": p.ship, "Buildings": flat, "Buildings' goods, animals and keyples": per,
            "Fairs": sum(f["points"] for f in p.shown)}


def tiebreak(p: Player) -> tuple[int, ...]:
    """Gems, finished goods, wheat, raw materials, then deer, wild boar, goats, chickens,
    horses, cows, pigs, sheep (seed, Scoring)."""
    s = p.stock
    return (sum(s.get(k, 0) for k in GEMS), sum(s.get(k, 0) for k in FINISHED), s.get(WHEAT, 0),
            sum(s.get(k, 0) for k in RAW), *(s.get(a, 0) for a in ANIMALS))


def scores(g: Game) -> list[SeatScore]:
    out = []
    for p in g.players:
        lines = score_lines(p)
        out.append(SeatScore(p.seat, sum(lines.values()), lines, tiebreak(p)))
    return out


def result(g: Game) -> Result | None:
    if g.phase != OVER:
        return None
    seat_scores = scores(g)
    return Result(seat_scores, winners_by_score(seat_scores), "Winter is over.")


# --- The queue and who acts ---

def step_is_settled(g: Game, job: Job) -> bool:
    """Steps with nothing to choose are skipped; every test here uses public things only."""
    kind = job["do"]
    if kind == "act":
        p = g.players[job["seat"]]
        if job["kind"] in ("build", "discount"):
            if job.get("src"):
                return False  # a tile chosen: cancel (and its plots) are always listed
            return not can_build(g, p, job["kind"])  # the same test, without writing the options
        if job["kind"] == "upgrade":
            return not can_upgrade(p)
        if job["kind"] == "tile":
            return not any(g.display)  # a tile to take
        if job["kind"] == "fair":
            return not g.winter_fairs  # a winter fair to take
        if job["kind"] == "boat":
            return not can_trade(g, p, job)
        return not act_options(g, p)
    if kind == "final":
        return not can_lay(g, g.players[job["seat"]])
    return False


def next_turn(g: Game) -> None:
    """The turn's steps are done: refill the display's empty slots from the bag, then the
    season ends, or the next player clockwise with something to do takes a turn."""
    for slot in sorted(g.refill):
        if g.display[slot] is None and g.bag:
            g.display[slot], g.bag = g.bag[0], g.bag[1:]
            g.log.append(f"{tile_name(g.display[slot])} is drawn for the display.")  # type: ignore[arg-type]
    g.refill = []
    g.acted = False
    g.trades = {}
    g.turns += 1
    if season_over(g):
        begin_season_end(g)
        return
    for seat in clockwise(g, g.turn)[1:] + [g.turn]:
        if has_turn(g, g.players[seat]):
            g.turn = seat
            return


def to_act(g: Game) -> frozenset[Seat]:
    if g.phase == OVER:
        return NOBODY
    if g.phase == FOLD:
        return frozenset(p.seat for p in g.players if p.fold is None)
    return ONE_SEAT[g.queue[0]["seat"] if g.queue else g.turn]


# Sets are immutable: the ones every decision asks for are made once.
NOBODY: frozenset[Seat] = frozenset()
ONE_SEAT = tuple(frozenset({seat}) for seat in range(len(PLAYER_COLOURS)))


QUEUE_OPTIONS: dict[str, Callable[[Game, Player], list[Option]]] = {
    "invite": invite_options, "act": act_options, "place": place_options, "keyp": keyp_options,
    "fair": fair_options, "house": house_options, "surplus": surplus_options,
    "final": lambda g, p: lay_options(g, p) + [Option("pass", "No final lay-down", "pass")],
}
CHOICES: dict[str, Callable[[Game, Player, str], None]] = {
    "keyper": choose_keyper, "keyple": choose_keyple, "space": choose_place, "boat": choose_place,
    "plot": lambda g, p, o: (choose_plot if g.queue[0]["do"] == "act" else choose_place)(g, p, o),
    "join": choose_invite, "decline": choose_invite, "lay": choose_lay, "pair": choose_lay,
    "pass": choose_pass, "keyp": choose_keyp, "take": choose_take, "build": choose_build,
    "upgrade": choose_upgrade, "winter": choose_winter, "get": choose_trade, "sell": choose_trade,
    "use": choose_use, "done": choose_done, "cancel": choose_cancel, "fair": choose_fair, "fold": choose_fold,
    "house": choose_house, "surplus": choose_surplus,
}


# Steps asked only when there is more than one way: (the ways, what happens with one or none,
# given the ways found).
AUTO_STEPS: dict[str, tuple[Callable[[Game, Player], list[Any]], Callable[[Game, Player, Any], None]]] = {
    "house": (lambda g, p: housing_plans(p), house_animals),
    "surplus": (surplus_choices, surplus),
}


def options(g: Game, seat: Seat) -> list[Option]:
    if g.phase == OVER or seat not in to_act(g):
        return []
    p = g.players[seat]
    if g.phase == FOLD:
        return fold_options(g, p)
    if g.queue:
        return QUEUE_OPTIONS[g.queue[0]["do"]](g, p)
    return turn_options(g, p)


def option_ids(g: Game, seat: Seat) -> list[str]:
    """The ids of ``options``, in its order, without their words: what ``apply`` checks a
    choice against and all the bot reads (labels, targets and ``Option`` objects were most
    of a listing). tests/games/keyper/test_properties.py checks both list the same ids at
    every decision of seeded games."""
    if g.phase == OVER or seat not in to_act(g):
        return []
    p = g.players[seat]
    if g.phase == FOLD:
        board = next(b for b in g.boards if b["folder"] == p.seat)
        return list(fold_ids(board["id"], season_name(g)))
    if g.queue:
        return QUEUE_IDS[g.queue[0]["do"]](g, p)
    return turn_ids(g, p)


@functools.cache
def fold_ids(board_id: int, season: str) -> tuple[str, ...]:
    """The ids of ``fold_options`` (fixed content: made once)."""
    return tuple([f"fold:{f}" for f in folds(board_id, season)])


def turn_ids(g: Game, p: Player) -> list[str]:
    """The ids of ``turn_options``."""
    out: list[str] = []
    if p.keyper is None:
        for b in g.boards:
            if b["keyper"] is None:
                out.append(KEYPER_IDS[b["id"]])
    anywhere = empty_space(g)  # then every colour may be placed
    for colour in dict.fromkeys(p.hand):
        if anywhere or can_place(g, p, colour):
            out.append(KEYPLE_IDS[colour])
    if out_of_hand(p):
        out += lay_ids(g, p)
    if not out:
        out.append("pass")
    return out


KEYPER_IDS = {board_id: f"keyper:{board_id}" for board_id in BOARDS}
KEYPLE_IDS = {colour: f"keyple:{colour}" for colour in KEYPLE_COLOURS}
JOIN_IDS = {colour: f"join:{colour}" for colour in KEYPLE_COLOURS}


def lay_ids(g: Game, p: Player) -> list[str]:
    """The ids of ``lay_options``."""
    return [("lay:" if n == 1 else "pair:") + kind + ":" + where for kind, where, n in lay_targets(g, p)]


def invite_ids(g: Game, p: Player) -> list[str]:
    """The ids of ``invite_options``."""
    job = g.queue[0]
    board = board_of(g, job["board"])
    first = board["spaces"][job["space"]][0]["colour"]
    field_colour = FIELD_COLOUR[board_fields(board)[job["space"]]]
    out = []
    for c in dict.fromkeys(p.hand):
        if may_join(first, field_colour, c):
            out.append(JOIN_IDS[c])
    out.append("decline")
    return out


def place_ids(g: Game, p: Player) -> list[str]:
    """The ids of ``place_options``."""
    job = g.queue[0]
    if job.get("river"):
        return [f"boat:{b}" for b in g.boats] + ["cancel"]
    colour, boats = job["colour"], g.boats
    out = []
    for b in g.boards:
        spaces = b["spaces"]
        for key, field_colour, option_id in board_space_ids(b["id"], b["fold"]):
            if open_to(spaces[key], key, field_colour, colour, boats):
                out.append(option_id)
    for plot_id in iter_plot_targets(p, colour):
        out.append("plot:" + plot_id)
    out.append("cancel")
    return out


@functools.cache
def board_space_ids(board_id: int, fold: str) -> tuple[tuple[str, str | None, str], ...]:
    """``board_space_options`` with the options' ids (fixed content: made once)."""
    return tuple((key, field_colour, f"space:{ref}") for key, field_colour, ref in board_spaces(board_id, fold))


def act_ids(g: Game, p: Player) -> list[str]:
    """The ids of ``act_options``."""
    job = g.queue[0]
    kind = job["kind"]
    out: list[str] = []
    if kind == "tile":
        out = [f"take:{i}" for i, t in enumerate(g.display) if t]
    elif kind in ("build", "discount"):
        return build_ids(g, p, job)
    elif kind == "upgrade":
        stock = p.stock
        for plot_id, plot in p.plots.items():
            if plot["tiles"] and not plot["up"] and can_pay(stock, BUILDINGS[plot["tiles"][-1]].back.cost):
                out.append("upgrade:" + plot_id)
    elif kind == "fair":
        out = ["winter:" + f for f in g.winter_fairs]
    elif kind == "boat":
        out = boat_ids(g, p, job)
    elif kind == "work":
        out = work_ids(g, p, job)
    if not out:
        return []
    out.append("done")
    return out


def work_ids(g: Game, p: Player, job: Job) -> list[str]:
    """The ids of ``work_options``."""
    return [f"use:{i}:{v}" for i, _, v in work_choices(g, p, job)]


def build_ids(g: Game, p: Player, job: Job) -> list[str]:
    """The ids of ``act_options`` at a build step (``build_options``, then "done")."""
    if job.get("src"):
        tile = source_tile(g, p, job["src"])
        return ["plot:" + pid for pid in free_plots(p, BUILDINGS[tile].area)] + ["cancel", "done"]
    out = []
    room = areas_with_room(p)
    discount = job["kind"] == "discount"
    stock = p.stock
    held = goods_held(stock)
    for where, tiles in (("home", p.home), ("held", p.held), ("display", g.display)):
        for i, tile in enumerate(tiles):
            if tile:
                area, cost, less, named, named_less = TILE_COSTS[tile]  # ``build_cost``
                if room[area] and (named_less if discount else named) <= held \
                        and can_pay(stock, less if discount else cost):
                    out.append(f"build:display:{i}" if where == "display" else f"build:{where}:{tile}")
    if out:
        out.append("done")
    return out


def boat_ids(g: Game, p: Player, job: Job) -> list[str]:
    """The ids of ``boat_options``."""
    board = board_of(g, job["board"])
    goods = BOATS[board["boat"]].faces[season_name(g)]
    done = g.trades.get(str(p.seat), NO_TRADES)
    out = []
    for good in goods:
        if g.supply[good] > 0 and good not in done["sold"]:
            out.append("get:" + good)
    if p.ship < SHIPPING_TRACK:
        for good in goods:
            if p.stock.get(good, 0) > 0 and good not in done["got"]:
                out.append("sell:" + good)
    return out


NO_TRADES: dict[str, list[str]] = {"got": [], "sold": []}  # (read only)


def fair_ids(g: Game, p: Player) -> list[str]:
    """The ids of ``fair_options``."""
    out = []
    season = season_name(g)
    own = p.fairs.get(season)
    if own and can_pay(p.stock, FAIRS[own].needs):
        out.append(f"fair:{own}:front")
    for f in p.winter:  # ``winter_fair_options``
        fair = FAIRS[f]
        for side_name in WINTER_SIDES.get(season, ()):
            if can_pay(p.stock, fair.needs if side_name == "4" else fair.back_needs or {}):
                out.append(f"fair:{f}:{side_name}")
    out.append("done")
    return out


def house_ids(g: Game, p: Player) -> list[str]:
    """The ids of ``house_options``."""
    return ["house:" + plan_id(plan) for plan in housing_plans(p)]


def surplus_ids(g: Game, p: Player) -> list[str]:
    """The ids of ``surplus_options``."""
    return [o.id for o in surplus_listing(tuple(p.hand), TEAM_SIZE[len(g.players)])]


QUEUE_IDS: dict[str, Callable[[Game, Player], list[str]]] = {
    "invite": invite_ids, "act": act_ids, "place": place_ids, "keyp": lambda g, p: ["keyp:now", "keyp:later"],
    "fair": fair_ids, "house": house_ids, "surplus": surplus_ids, "final": lambda g, p: lay_ids(g, p) + ["pass"],
}


# What the bot listed last (ids alone), for the next ``apply`` on that game (protocol.ListedOnce).
_LISTED = ListedOnce(option_ids)  # type: ignore[arg-type]


# ``option_ids``, for a caller that next applies one of them to this very game (the bot; no
# wrapper around it: one call less per decision).
listed: Callable[[Game, Seat], list[str]] = _LISTED.listed  # type: ignore[assignment]


def apply(g: Game, seat: Seat, option_id: str) -> Game:
    """A new game after the seat's choice; the given game is left untouched."""
    check_choice(seat, len(g.players), g.phase == OVER, to_act(g), offered_for(g, seat, option_id), option_id)
    verb = option_id.split(":", 1)[0]
    queue_only = verb in QUEUE_ONLY
    new = clone(g, NO_SEAT if queue_only else seat)
    _applying.given = g  # (one thread-local attribute: each costs as much as a small function)
    try:
        CHOICES[verb](new, new.players[seat], option_id)
        advance(new)
    finally:
        _applying.given = None
    if queue_only:
        global _queue_only_made
        _queue_only_made = (g, new)
    return new


# Choices that change only the queue (a keyple to place, a tile to build), and leave a step
# that waits for the same seat: ``apply`` need not copy the player (``own_player`` would).
QUEUE_ONLY = frozenset({"keyple", "build"})
NO_SEAT = -1  # ``clone`` copies no player

# The last game ``apply`` made by a QUEUE_ONLY choice, and the game it was given (one pair,
# replaced whole: safe to read from any thread).
_queue_only_made: tuple[Game, Game] | None = None


def made_from_by_queue(g: Game) -> Game | None:
    """The game that ``g`` was made from by a choice that changed only the queue, if ``g``
    is the last game ``apply`` made so (else None): every other field of the two games is
    equal (games are never changed once made). The state bot then knows the values it
    weighed for that game still hold, without comparing the games."""
    made = _queue_only_made
    return made[0] if made is not None and made[1] is g else None


def offered_for(g: Game, seat: Seat, option_id: object) -> Callable[[], bool]:
    """What ``check_choice`` tests a choice against: whether it is listed now. At a
    keyple's place step that is asked of the rules for it alone (``place_listed``: the
    bot picks a space without listing every space of every board); else it is looked up in
    the ids the bot listed for this game, or in a fresh ``option_ids``."""
    ids = _LISTED.offered(g, seat)  # (always asked: it forgets what was listed)
    if g.queue and g.phase == PLAY and g.queue[0]["do"] == "place" and g.queue[0]["seat"] == seat \
            and isinstance(option_id, str):
        return lambda: place_listed(g, g.players[seat], option_id)
    return lambda: option_id in ids()  # type: ignore[operator]


def place_listed(g: Game, p: Player, option_id: str) -> bool:
    """Is this option among ``place_options`` now? (It alone is checked.)"""
    job = g.queue[0]
    if option_id == "cancel":
        return True
    kind, _, where = option_id.partition(":")
    if job.get("river"):
        return kind == "boat" and where in g.boats
    if kind == "plot":
        plot = p.plots.get(where)
        return plot is not None and workable(plot) and can_enter(plot["keyples"], None, job["colour"])
    board_ref, _, key = where.partition(":")
    board = None
    for b in g.boards:
        if str(b["id"]) == board_ref:
            board = b
            break
    if kind != "space" or board is None or key not in board["spaces"]:
        return False
    return open_to(board["spaces"][key], key, FIELD_COLOUR[board_fields(board)[key]], job["colour"], g.boats)


def advance(g: Game) -> None:
    """Run the steps that need no question; when the turn's steps are all done, the next
    turn (or the season's end) comes."""
    while g.phase == PLAY:
        if g.queue:
            job = g.queue[0]
            if job["do"] == "end1":
                g.queue.pop(0)
                end_after_lay_downs(g)
            elif job["do"] == "end2":
                g.queue.pop(0)
                end_after_fairs(g)
            elif job["do"] in AUTO_STEPS:
                ways, settle = AUTO_STEPS[job["do"]]
                found = ways(g, g.players[job["seat"]])
                if len(found) > 1:
                    return
                g.queue.pop(0)  # one way or none: nothing to ask
                settle(g, own_player(g, job["seat"]), found)  # (the player's own copy finds the same ways)
            elif step_is_settled(g, job):
                g.queue.pop(0)
            else:
                return
        elif g.acted:
            next_turn(g)
        else:
            return


def clone(g: Game, seat: Seat | None = None) -> Game:
    """A copy for ``apply`` to change, made by hand (every action makes one). What the rules
    change in place is copied as deep as it nests: hands, stores, the supply, the display,
    the queue. The rest is shared, and a rule replaces it rather than change it: plots and
    boards' spaces (``own_plot``, ``own_space`` copy one before a change), tiles at home
    and held, fairs, winter fairs, keyp tiles, housed animals, the bag, boats and discards.
    With ``seat`` (``apply``), only that seat's player is copied and no board: the others
    and the boards are shared until a rule takes its own copy (``own_player``, ``own_board``)."""
    if seat is None:
        players, boards = [copy_player(p) for p in g.players], [dict(b) for b in g.boards]
    else:  # (``own_player``, ``own_board``; a player's place in the list is its seat)
        players, boards = list(g.players), list(g.boards)
        if seat >= 0:
            players[seat] = copy_player(players[seat])
    queue = [dict(j, rest=list(j["rest"])) if "rest" in j else dict(j) for j in g.queue] if g.queue else []
    return Game(players, g.options, g.rng, g.phase, g.season, g.turn, g.start, g.last, g.turns, boards,
                g.bag, list(g.display), g.discard, list(g.refill), g.boats, g.aside, g.winter_fairs, g.fair_pool,
                g.fair_out, dict(g.supply),
                {k: {"got": list(v["got"]), "sold": list(v["sold"])} for k, v in g.trades.items()} if g.trades else {},
                queue, g.ending, g.acted, GameLog(g.log.recent, g.log.total))


def copy_player(p: Player) -> Player:
    """A player for ``clone``: its hand and store copied, the rest shared (as ``clone`` says)."""
    return Player(p.seat, p.colour, list(p.hand), p.keyp, p.keyp_down, p.keyper, dict(p.stock), p.plots, p.home,
                  p.held, p.fairs, p.shown, p.winter, p.ship, p.housed, p.fold)


def dump(g: Game) -> dict[str, Any]:
    return dump_game(g)


def load(raw: dict[str, Any]) -> Game:
    return load_game(Game, Player, raw)
