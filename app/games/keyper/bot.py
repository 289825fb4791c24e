"""A Keyper bot, for tests and benchmarks.

It plays through the listed options only, toward the goal: it sends keyples where they
earn most (its own colour on matching fields, actions it can use: building what it can
afford, boats, its buildings' actions), joins an invitation whenever the field is of use
to it, plays its keyper on the board holding most keyples late in the season (those
keyples become its next team), builds the tiles that score most for their cost, upgrades,
holds every fair it can, and folds its board to the face with the most useful fields.
"""

from __future__ import annotations

import dataclasses
import functools
from operator import attrgetter
from typing import Any, Protocol

from app.games.rng import Rng

from .content import (ANIMALS, BOATS, BUILDINGS, FAIRS, FIELD_COLOUR, FINISHED, GEMS, KEYP_TILE_GAIN, RAW, REFINED,
                      SEASONS, SHIP_STEP, STOCK, WHITE, WHITE_KEYPLE, Act, Building, fields_of, layout)
from .rules import (FOLD, Game, Player, board_fields, board_of, building_points, building_side, can_build,
                    can_build_both, can_pay, can_upgrade, iter_plot_targets, listed, made_from_by_queue, matched,
                    new_board, parse_plan, returned_by, season_name, source_tile, tiebreak)

Seat = int


class Chance(Protocol):
    """What the bot draws from: the game's ``Rng`` in tests and benches, a bot's own
    ``random.Random`` when it plays from a view."""
    def randrange(self, n: int) -> int: ...


def tile_value(b: Building) -> float:
    """What a building is worth to build: its points, scoring conditions, actions and
    housing, less a little for a high cost."""
    s = b.front
    worth = s.points + 2.2 * sum(n for _, n in s.per) + 2.5 * len(s.acts) + 0.8 * s.capacity
    return worth + 0.5 * (b.back.points - s.points) - 0.6 * sum(s.cost.values())


@functools.cache
def tile_worth(tile: str) -> float:
    """``tile_value`` of a tile by its id (fixed content: worked out once)."""
    return tile_value(BUILDINGS[tile])


def least_overbuilt(p: Player, area: str) -> float:
    """The least worth lost by building in the area: 0 for an empty plot, else the cheapest
    building one may build over (its worth, 5 more if upgraded)."""
    least = None
    for pid, q in p.plots.items():
        if pid.startswith(area) and len(q["tiles"]) < 2:
            worth = 0.0 if not q["tiles"] else tile_worth(q["tiles"][-1]) + (5 if q["up"] else 0)
            if least is None or worth < least:
                least = worth
    return 0.0 if least is None else least


def fair_needs(g: Game, p: Player) -> dict[str, int]:
    """Goods still missing for the fair of this season and the winter fairs it holds (its
    own face-down fair is the bot's own secret, which it may use)."""
    want: dict[str, int] = {}
    season = season_name(g)
    own = p.fairs.get(season)
    stock = p.stock
    plans = [FAIR_GOODS[own][0]] if own else []
    if p.winter:
        back = season == "winter"  # a winter fair taken asks its back side's goods in winter
        plans += [FAIR_GOODS[f][back] for f in p.winter]
    for plan in plans:
        for good, kinds, n in plan:
            have = stock.get(good, 0) if kinds is None else sum(map(stock.get, kinds, NONE_OF_EACH))
            if have < n:
                short = n - have
                if kinds is None:
                    if want.get(good, 0) < short:
                        want[good] = short
                else:
                    for k in kinds:
                        if want.get(k, 0) < short:
                            want[k] = short
    return want


def fair_goods(needs: dict[str, int] | None) -> tuple[tuple[str, tuple[str, ...] | None, int], ...]:
    """A fair's goods as ``fair_needs`` counts them: each with the kinds that may be
    brought for it (a white good: any of its group; None: the good named) and how many."""
    return tuple((good, WHITE.get(good), n) for good, n in (needs or {}).items())


# Every fair's goods, front and back side (fixed content: worked out once).
FAIR_GOODS = {fid: (fair_goods(f.needs), fair_goods(f.back_needs)) for fid, f in FAIRS.items()}


def good_value(g: Game, p: Player, kind: str) -> float:
    return goods_values(g, p).get(kind, 0.0)


def goods_values(g: Game, p: Player) -> dict[str, float]:
    """Every good's worth to the player now (``goods_worth``), remembered for the decision."""
    values = _once.get("goods")
    if values is None:
        values = _once["goods"] = goods_worth(g, p)
    return values


def trade_value(g: Game, p: Player, kind: str) -> float:
    """``good_value`` of a good a boat trades, without the whole table (a boat step weighs
    two or three goods): its base worth, more while the fairs need it."""
    base = GOOD_BASE.get(kind)
    if base is None:  # an animal (by the room for it), or no good at all
        return good_value(g, p, kind)
    return base + FAIR_BONUS if fair_needs_memo(g, p).get(kind) else base


FAIR_BONUS = 1.2  # what a good the fairs still need is worth more
# What a good is worth before the fairs' bonus (animals: by the room to house them).
GOOD_BASE = {**{k: 1.0 for k in RAW}, "wheat": 1.0, **{k: 1.5 for k in GEMS}, **{k: 1.4 for k in FINISHED}}
VALUED = frozenset(GOOD_BASE) | frozenset(ANIMALS)  # the kinds ``goods_worth`` values
PENNED = frozenset(ANIMALS)
GOOD_BASE_PENNED = {**GOOD_BASE, **{k: 0.2 for k in ANIMALS}}  # animals with no room for one more


def goods_worth(g: Game, p: Player) -> dict[str, float]:
    """Every good's worth to the player now, in one pass (``trade_value`` weighs one good
    the same way)."""
    values = dict(GOOD_BASE_PENNED)  # every animal at 0.2: then those with room for one more
    room, held = pens(p)
    for kind, n in room.items():
        if n > held and kind in PENNED:
            values[kind] = 1.3
    for kind, n in fair_needs_memo(g, p).items():
        if n and kind in values:
            values[kind] += FAIR_BONUS
    return values


NONE_OF_EACH = (0,) * len(ANIMALS)  # ``stock.get``'s default, for each animal


def pens(p: Player) -> tuple[dict[str, int], int]:
    """Room for each animal on the player's buildings, and the animals held (once per
    decision: every animal's value asks; the room once per plots, ``plots_known``)."""
    if "pens" not in _once:
        known = plots_known(p)
        room = known.get("room")
        if room is None:
            room = known["room"] = {}
            for plot in p.plots.values():
                side = building_side(plot)
                if side and side.houses:
                    for kind in set(side.houses):
                        room[kind] = room.get(kind, 0) + side.capacity
        _once["pens"] = (room, sum(map(p.stock.get, ANIMALS, NONE_OF_EACH)))
    return _once["pens"]


# What the bot worked out from a player's plots, by the plots' dict: the rules never change
# one in place (``own_plot`` copies it first), so while that dict lives on the plots are the
# same, across decisions and games. The dict is kept with its facts, so its id is not reused.
_by_plots: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}


def plots_known(p: Player) -> dict[str, Any]:
    """The facts worked out so far from the player's plots as they are now."""
    entry = _by_plots.get(id(p.plots))
    if entry is None:
        if len(_by_plots) >= 64:
            _by_plots.clear()
        entry = _by_plots[id(p.plots)] = (p.plots, {})
    return entry[1]


def fair_needs_memo(g: Game, p: Player) -> dict[str, int]:
    if "needs" not in _once:
        _once["needs"] = fair_needs(g, p)
    return _once["needs"]


def act_worth(g: Game, p: Player, side_houses: tuple[str, ...], a: Act) -> float:
    """What one use of a building's action brings, less what it costs (about in points)."""
    if not can_pay(p.stock, a.pay):
        return 0.0
    values = goods_values(g, p)  # ``good_value`` of each good, read from the decision's table
    gained = 0.0
    for good, n in a.gain.items():
        if good == "ship":
            gained += 1.0 * n
        elif good == "animal":
            gained += max((values.get(k, 0.0) for k in side_houses), default=0.0)
        elif good == "refine":
            gained += max((values.get(REFINED[r], 0.0) - 0.5 * values.get(r, 0.0) + 0.3
                           for r in RAW if p.stock.get(r, 0)), default=0.0)
        elif good == "gem":
            gained += 1.5 * n
        else:
            gained += n * values.get(good, 0.0)
    paid = 0  # (summed in a loop as ``sum`` would, without a generator)
    for k, n in a.pay.items():
        paid += n * values.get(STAND_IN.get(k, k), 0.0)
    return max(0.0, gained - 0.5 * paid)


STAND_IN = {"raw": "clay", "finished": "brick", "gem": "ruby"}

# Values remembered within one decision, for the seat deciding (``choose_among`` forgets them).
_memo: dict[str, float] = {}  # a field kind's value
_works: dict[str, float] = {}  # working a plot
_bounds: dict[str, float] = {}  # a plot's ``plot_bound``
_once: dict[str, Any] = {}  # "goods": every good's value, "needs": what the fairs still need, "pens": room for
# animals, "spots": the spaces' worth


def kind_value(g: Game, p: Player, kind: str) -> float:
    """How useful one repetition of a field is to the player now (remembered for the decision)."""
    value = _memo.get(kind)
    if value is None:
        value = _memo[kind] = kind_worth(g, p, kind)
    return value


def kind_worth(g: Game, p: Player, kind: str) -> float:
    if kind in VALUED:  # a good or an animal: read from the decision's table (``good_value``)
        values = _once.get("goods")
        return (goods_values(g, p) if values is None else values)[kind]
    if kind == "tile":
        return 2.2 if any(g.display) and len(p.held) < 2 else 0.3
    if kind in ("build", "discount"):
        both = _once.get("buildable")  # a build, a discount build: both weighed at once
        if both is None:
            both = _once["buildable"] = can_build_both(g, p)
        return (4.0 if kind == "discount" else 3.5) if both[kind == "discount"] else 0.2
    if kind == "upgrade":
        return 3.0 if can_upgrade(p) else 0.2
    if kind == "fair":
        return 2.0 if g.winter_fairs and len(p.winter) < 2 else 0.1
    if kind == "river":
        return river_worth(g, p)
    return good_value(g, p, kind)


def boat_face_worth(g: Game, p: Player, goods: tuple[str, ...]) -> float:
    """One boat action: the best good to take, or selling one held for 2 shipping points."""
    return face_worth(goods_values(g, p), fair_needs_memo(g, p), g.supply, p.stock, goods)


def face_worth(values: dict[str, float], needs: dict[str, int], supply: dict[str, int], stock: dict[str, int],
               goods: tuple[str, ...]) -> float:
    """``boat_face_worth`` from what it reads (a river weighs every boat with the same)."""
    take = sell = 0.0  # every good is worth more than nothing, and so is every sale
    for x in goods:
        if supply.get(x, 0) and values[x] > take:
            take = values[x]
        if stock.get(x, 0) and not needs.get(x) and SHIP_STEP - 0.5 * values[x] > sell:
            sell = SHIP_STEP - 0.5 * values[x]
    return max(take, sell)


def river_worth(g: Game, p: Player) -> float:
    """A river action is worth what the best boat waiting (or already on a river) gives."""
    # the best of every boat's best is the best over all their goods at once
    goods = river_goods(river_boats(g), g.season)
    return face_worth(goods_values(g, p), fair_needs_memo(g, p), g.supply, p.stock, goods)


def river_boats(g: Game) -> tuple[str, ...]:
    """The boats waiting and those already on a river."""
    boats = list(g.boats)
    for b in g.boards:
        if b["boat"]:
            boats.append(b["boat"])
    return tuple(boats)


@functools.cache
def river_goods(boats: tuple[str, ...], season: int) -> tuple[str, ...]:
    """The goods the boats show this season, each once (fixed content: worked out once)."""
    return tuple(dict.fromkeys(x for boat in boats for x in BOATS[boat].faces[SEASONS[season]]))


def boat_worth(g: Game, p: Player, boat: str) -> float:
    """``boat_face_worth`` of a boat's face this season (remembered for the decision)."""
    worths = _once.get("boats")
    if worths is None:
        worths = _once["boats"] = {}
    worth = worths.get(boat)
    if worth is None:
        worth = worths[boat] = boat_face_worth(g, p, BOATS[boat].faces[season_name(g)])
    return worth


def work_value(g: Game, p: Player, plot_id: str) -> float:
    side = building_side(p.plots[plot_id])
    if side is None:
        return 0.0
    return 1.3 * max((act_worth(g, p, side.houses, a) for a in side.acts), default=0.0) + 0.9


@functools.cache
def work_bound(tile: str, up: bool, best_good: float) -> float:
    """At least ``work_value`` of a plot with this tile (upgraded or not) when no good is
    worth more than ``best_good``: each act's gain weighed as in ``act_worth``, every good at
    ``best_good``, nothing paid (the same sums in the same order, so never below it)."""
    b = BUILDINGS[tile]
    best = 0.0
    for a in (b.back if up else b.front).acts:
        gained = 0.0
        for good, n in a.gain.items():
            if good == "ship":
                gained += 1.0 * n
            elif good == "animal":
                gained += best_good
            elif good == "refine":
                gained += best_good + 0.3
            elif good == "gem":
                gained += 1.5 * n
            else:
                gained += n * best_good
        best = max(best, gained)
    return 1.3 * best + 0.9


def plot_bound(g: Game, p: Player, plot_id: str) -> float:
    """At least ``plot_value``, without weighing the building's actions: a keyple's place
    need not weigh a building that cannot beat the best place found."""
    plot = p.plots[plot_id]
    best_good = _once.get("best good")
    if best_good is None:
        best_good = _once["best good"] = max(goods_values(g, p).values())
    return work_bound(plot["tiles"][-1], plot["up"], best_good) * (2 if plot["keyples"] else 1)


def bound_of(g: Game, p: Player, plot_id: str) -> float:
    """``plot_bound``, the same for every colour: once per decision."""
    bound = _bounds.get(plot_id)
    if bound is None:
        bound = _bounds[plot_id] = plot_bound(g, p, plot_id)
    return bound


Spot = tuple[str | None, float, float, float]  # (field colour, keyples' share, worth, claimed)
# A spot with where it stands: (its place in the place step's listing, the colour of the
# keyple standing there or None for empty spaces, the spot, its options in listing order)
Placed = tuple[int, str | None, Spot, tuple[str, ...]]


class Spots:
    """Where the seat's keyples may go on the country boards, weighed once per decision
    for every colour at once: a space's worth does not depend on the colour, only the
    colour bonus (and who may join a keyple already there) does."""

    def __init__(self, g: Game, p: Player) -> None:
        self.empty: dict[str | None, tuple[float, float]] = {}  # field colour -> best of the empty spaces, unmatched and matched
        self.joins: list[tuple[str, Spot]] = []  # a space with one standing keyple: its colour, the spot
        # field colour -> the first best empty space of that colour, unmatched and matched:
        # [value, place in the listing, option, value, place, option]
        self.tops: dict[str | None, list[Any]] = {}
        # each board: its first place in the listing, its claim, its shape, the worth of each
        # empty field group (None: a river with no boat to put on it), the spots one may join
        self.boards: list[tuple[int, float, Shape, list[float | None], list[Spot]]] = []
        self._placed: list[Placed] | None = None  # made when asked
        self._by_option: dict[str, Spot] | None = None  # "space:<board>:<space>" -> its spot, made when asked
        memo, tops, seat, boats = _memo, self.tops, p.seat, g.boats
        memo.update(goods_values(g, p))  # every good's and animal's ``kind_value`` at once (its table)
        joins_all, boards = self.joins.append, self.boards.append
        for index, board in enumerate(g.boards):
            # the board's claim: 0.3 if it is the seat's or nobody's
            keyper = board["keyper"]
            claimed = 0.3 if keyper == seat or keyper is None else 0.0
            at = index * BOARD_PLACES  # the board's first place in the listing
            shape = board_shape(board)
            worths: list[float | None] = []
            for field, field_colour, options, first in shape[0]:  # in listing order
                if field == "river":
                    if not board["boat"] and not boats:
                        worths.append(None)  # no boat to put on it
                        continue
                    worth = self.worth(g, p, board, field)
                else:
                    worth = memo.get(field)  # ``kind_value``, read straight from its memo when known
                    if worth is None:
                        worth = memo[field] = kind_worth(g, p, field)
                worths.append(worth)
                v0 = worth * 1.6 + claimed  # unmatched, matched: as ``value`` sums
                v1 = worth * (1.6 + 1) + claimed
                top = tops.get(field_colour)
                if top is None:
                    place = at + first
                    tops[field_colour] = [v0, place, options[0], v1, place, options[0]]
                elif v0 > top[0]:  # the first among equals stays
                    top[0], top[1], top[2] = v0, at + first, options[0]
                    if v1 > top[3]:
                        top[3], top[4], top[5] = v1, at + first, options[0]
                elif v1 > top[3]:
                    top[3], top[4], top[5] = v1, at + first, options[0]
            spots = []
            if shape[1]:
                for option, standing_colour, field, field_colour, cell in shape[1]:
                    worth = memo.get(field) if field != "river" else None  # ``worth``, from the memo when known
                    spot = (field_colour, 2, self.worth(g, p, board, field) if worth is None else worth, claimed)
                    spots.append(spot)
                    joins_all((standing_colour, spot))
            boards((at, claimed, shape, worths, spots))
        self.empty = {field_colour: (top[0], top[3]) for field_colour, top in tops.items()}

    @property
    def placed(self) -> list[Placed]:
        """The empty spaces by board and field, and the spaces one may join."""
        if self._placed is None:
            self._placed = []
            for at, claimed, (empties, joins), worths, spots in self.boards:
                for (field, field_colour, options, first), worth in zip(empties, worths):
                    if worth is not None:
                        self._placed.append((at + first, None, (field_colour, 1.6, worth, claimed), options))  # 1.6: a join may come
                for (option, standing_colour, _, _, cell), spot in zip(joins, spots):
                    self._placed.append((at + cell, standing_colour, spot, (option,)))
        return self._placed

    @staticmethod
    def worth(g: Game, p: Player, board: dict[str, Any], field: str) -> float:
        """One repetition of the field; a river is worth its own boat, or the best one waiting."""
        if field == "river" and board["boat"]:
            return boat_worth(g, p, board["boat"])
        return kind_value(g, p, field)

    def value(self, colour: str, option: str) -> float | None:
        """A keyple of this colour on the space of the option "space:<board>:<space>", about
        in points (None: not a space it may enter)."""
        if self._by_option is None:
            self._by_option = {option: spot for _, _, spot, options in self.placed for option in options}
        spot = self._by_option.get(option)
        if spot is None:
            return None
        field_colour, alone, worth, claimed = spot
        return worth * (alone + matched(colour, field_colour)) + claimed - (0.8 if colour == "white" else 0)

    def first_best(self, colour: str) -> tuple[str, float] | None:
        """The option of the space whose ``value`` is best for this colour, the first in the
        place step's listing among equals, and that value (None: no space it may enter)."""
        if colour == WHITE_KEYPLE:
            return self.first_best_white()
        # a colour other than white: each field colour's first best empty space, then the joins
        # (``matched`` and ``may_join`` written out for a colour other than white)
        best, best_at, best_value = None, 0, 0.0
        for field_colour, top in self.tops.items():
            v, at, option = (top[3], top[4], top[5]) if field_colour is not None and colour == field_colour \
                else (top[0], top[1], top[2])
            if best is None or v > best_value or v == best_value and at < best_at:
                best, best_at, best_value = option, at, v
        for at, _, (_, joins), _, spots in self.boards:
            for (option, standing_colour, _, field_colour, cell), (_, alone, worth, claimed) in zip(joins, spots):
                if colour == standing_colour or standing_colour == WHITE_KEYPLE and field_colour is not None \
                        and colour == field_colour:
                    v = worth * (alone + (field_colour is not None and colour == field_colour)) + claimed  # as ``value`` sums
                    if best is None or v > best_value or v == best_value and at + cell < best_at:
                        best, best_at, best_value = option, at + cell, v
        return None if best is None else (best, best_value)

    def first_best_white(self) -> tuple[str, float] | None:
        """``first_best`` for a white keyple, space by space (its 0.8 off may make equals of
        values that were not)."""
        white = 0.8  # a white keyple's value is 0.8 less
        best, best_at, best_value = None, 0, 0.0
        for at, _, (field_colour, alone, worth, claimed), options in self.placed:
            # white may join any keyple, and matches every coloured field (``may_join``, ``matched``)
            v = worth * (alone + (field_colour is not None)) + claimed - white  # as ``value`` sums
            if best is None or v > best_value or v == best_value and at < best_at:
                best, best_at, best_value = options[0], at, v
        return None if best is None else (best, best_value)

    def best(self, colour: str) -> float | None:
        """The best ``value`` of this colour over the spaces it may enter (None: nowhere);
        the same sums, so the same number as the best of each space's value."""
        best = None
        white = colour == WHITE_KEYPLE
        # ``matched`` and ``may_join`` written out (every join is asked for every colour in hand)
        for field_colour, (v0, v1) in self.empty.items():
            v = v1 if field_colour is not None and (white or colour == field_colour) else v0
            if best is None or v > best:
                best = v
        for first, (field_colour, alone, worth, claimed) in self.joins:
            if white or colour == first or first == WHITE_KEYPLE and field_colour is not None and colour == field_colour:
                v = worth * (alone + (field_colour is not None and (white or colour == field_colour))) + claimed
                if best is None or v > best:
                    best = v
        return None if best is None else best - (0.8 if colour == "white" else 0)


BOARD_PLACES = 1000  # more than a board's spaces: a place in the listing is board * this + space


@functools.cache
def board_cells(board_id: int, fold: str) -> tuple[tuple[str, str, str | None, str], ...]:
    """(space, field kind, field colour, "space:<board>:<space>": the option to play there) of a folded board."""
    return tuple((key, kind, FIELD_COLOUR[kind], f"space:{board_id}:{key}")
                 for key, kind in fields_of(board_id, fold).items())


Shape = tuple[tuple[tuple[str, str | None, tuple[str, ...], int], ...], tuple[tuple[str, str, str, str | None, int], ...]]

# A board's shape by its spaces' dict: the rules never change one in place (``own_space``
# copies it first), so while that dict lives on (kept here, so its id is not reused) the
# board's keyples stand as they did, whichever seat decides.
_shapes: dict[int, tuple[dict[str, Any], int, str, Shape]] = {}


def board_shape(board: dict[str, Any]) -> Shape:
    """Where a keyple may go on a board: its empty spaces grouped by field (field, field
    colour, the options to play there, the first one's place among the board's spaces; the
    river too, if empty), and the spaces with one standing keyple (the option, that keyple's
    colour, field, field colour, the space's place)."""
    spaces = board["spaces"]
    known = _shapes.get(id(spaces))
    if known is not None and known[1] == board["id"] and known[2] == board["fold"]:
        return known[3]
    empties: dict[str, tuple[str | None, list[str], int]] = {}  # field -> its colour, the options, the first's place
    joins = []
    for cell, (key, field, field_colour, option) in enumerate(board_cells(board["id"], board["fold"])):
        keyples = spaces[key]
        if not keyples:
            group = empties.get(field)
            if group is None:
                empties[field] = (field_colour, [option], cell)
            else:
                group[1].append(option)
        elif len(keyples) == 1 and not keyples[0]["down"]:  # one may join it
            joins.append((option, keyples[0]["colour"], field, field_colour, cell))
    shape = (tuple([(field, colour, tuple(options), first) for field, (colour, options, first) in empties.items()]),
             tuple(joins))
    if len(_shapes) >= 256:
        _shapes.clear()
    _shapes[id(spaces)] = (spaces, board["id"], board["fold"], shape)
    return shape


def spots(g: Game, p: Player) -> Spots:
    if "spots" not in _once:
        _once["spots"] = Spots(g, p)
    return _once["spots"]


def plot_value(g: Game, p: Player, plot_id: str) -> float:
    """A keyple of any colour on one of the seat's buildings, about in points."""
    if plot_id not in _works:  # the same for every colour: once per decision
        _works[plot_id] = work_value(g, p, plot_id) * (2 if p.plots[plot_id]["keyples"] else 1)
    return _works[plot_id]


_worked: list[Any] = []  # the game and seat the values above were worked out for


def worked_out_for(g: Game, seat: Seat) -> bool:
    """Do the remembered values hold for this decision? They read the game but not its queue:
    a keyple just chosen, now to be placed, finds them all (the place step weighs the same
    spaces the keyple's choice did). Known at once when the rules made this game from that
    one by a choice that changed only the queue (``made_from_by_queue``); else the games are
    compared: any other change forgets them."""
    if not _worked or _worked[1] != seat or not g.queue or g.queue[0]["do"] != "place":
        return False
    last = _worked[0]
    # else every field but the queue, as two tuples made in C: their ``==`` passes what is
    # shared at once (identity first), and compares the rest (field by field in Python cost
    # ~30k instructions a place step)
    return last is g or made_from_by_queue(g) is last or ALL_BUT_QUEUE(g) == ALL_BUT_QUEUE(last)


ALL_BUT_QUEUE = attrgetter(*[f.name for f in dataclasses.fields(Game) if f.name != "queue"])


def choose(state: Game, seat: Seat, rng: Rng) -> str:
    """One option id for the seat, drawn from ``rng``."""
    job = state.queue[0] if state.queue and state.phase != FOLD else None
    if job is not None and job["do"] == "place" and job["seat"] == seat and not job.get("river"):
        # a keyple's place: ``place_choice`` over all it may enter, read from the spots without
        # listing every space (``apply`` checks the one choice)
        decide(state, seat)
        return place_pick(state, state.players[seat], job["colour"])
    return choose_among(state, seat, listed(state, seat), rng)


def decide(state: Game, seat: Seat) -> None:
    """A new decision: the remembered values are forgotten unless they still hold."""
    queue = state.queue  # (``worked_out_for``'s first test, without the call: most decisions fail it)
    if not queue or queue[0]["do"] != "place" or not worked_out_for(state, seat):
        _memo.clear()
        _works.clear()
        _bounds.clear()
        _once.clear()
    _worked[:] = state, seat


def choose_among(state: Game, seat: Seat, offered: list[str], rng: Chance) -> str:
    """One of the offered option ids; ``state`` may be the true game or one rebuilt from a
    seat's view (``choose_from_view``): the bot reads only what the seat may see."""
    decide(state, seat)
    if not offered:
        raise ValueError(f"seat {seat} has nothing to choose")
    p = state.players[seat]
    if state.phase == FOLD:
        return fold_choice(state, p, offered, rng)
    step = state.queue[0]["do"] if state.queue else None
    if step is None:
        return turn_choice(state, p, offered, rng)
    if step == "invite":
        job = state.queue[0]
        field = board_fields(board_of(state, job["board"]))[job["space"]]
        joins = [o for o in offered if o.startswith("join:")]
        # a good other than an animal is worth at least 1 (``GOOD_BASE``): no need to weigh it
        if joins and (field in GOOD_BASE or worth_joining(state, p, field)):
            best = joins[0]
            for o in joins[1:]:  # ``max`` by (not white, id), in a loop
                if (o != "join:white", o) > (best != "join:white", best):
                    best = o
            return best
        return "decline"
    if step == "place":
        return place_choice(state, p, offered)
    if step == "keyp":
        return "keyp:now"
    if step == "final":
        lays = [o for o in offered if o != "pass"]
        return lays[0] if lays else "pass"
    if step == "fair":
        fairs = [o for o in offered if o.startswith("fair:")]
        return max(fairs, key=lambda o: o.endswith(":6")) if fairs else "done"
    if step == "house":
        return house_choice(p, offered)
    if step == "surplus":
        return surplus_choice(state, p, offered)
    return act_choice(state, p, offered, rng)


def worth_joining(g: Game, p: Player, field: str) -> bool:
    """Is ``kind_value`` of the field at least 0.9, an invitation's bar? Asked without the
    values that cannot change the answer: a build or a discount build is worth 3.5 or 4.0
    when a tile can be built (just that one: ``can_build``), else 0.2; a river is worth at
    least its best good to take, and a good other than an animal is worth at least 1
    (``GOOD_BASE``). tests/games/keyper/test_properties.py compares it with ``kind_value``
    at every invitation of seeded games."""
    if field == "build" or field == "discount":
        return can_build(g, p, field)
    if field == "river":
        supply = g.supply
        for x in river_goods(river_boats(g), g.season):
            if x in GOOD_BASE and supply.get(x, 0):
                return True
    return kind_value(g, p, field) >= 0.9


def turn_choice(g: Game, p: Player, offered: list[str], rng: Chance) -> str:
    keypers, keyples = [], []
    for o in offered:
        if o.startswith("keyple:"):
            keyples.append(o)
        elif o.startswith("keyper:"):
            keypers.append(o)
    if keypers and (not keyples or len(p.hand) <= 1 + rng.randrange(3)):
        def gathered(o: str) -> tuple[int, int]:
            board = board_of(g, int(o.split(":")[1]))
            return sum(len(s) for s in board["spaces"].values()), -int(o.split(":")[1])
        return max(keypers, key=gathered)
    if keyples:
        best, best_value = keyples[0], -1.0
        for o in keyples:
            colour = o.split(":")[1]
            value = best_place_value(g, p, colour)
            value += rng.randrange(100) / 400
            if value > best_value:
                best, best_value = o, value
        return best
    lays = [o for o in offered if o.startswith(("lay:", "pair:"))]
    if lays:
        return lays[rng.randrange(len(lays))]
    return offered[0]


def best_place_value(g: Game, p: Player, colour: str) -> float:
    """The best value of a keyple of this colour over where it may go (0 if nowhere)."""
    best = spots(g, p).best(colour)
    white = colour == WHITE_KEYPLE
    for plot_id, first in open_buildings(p):
        if first is None or white or colour == first:  # ``may_join`` on a building
            if best is not None and plot_id not in _works:
                bound = _bounds.get(plot_id)
                if bound is None:
                    bound = bound_of(g, p, plot_id)
                if bound <= best:
                    continue  # it cannot beat the best: not weighed
            value = plot_value(g, p, plot_id)
            if best is None or value > best:
                best = value
    return 0.0 if best is None else best


def open_buildings(p: Player) -> list[tuple[str, str | None]]:
    """The seat's buildings a keyple may be played on (``iter_plot_targets`` for every colour
    at once): each with the colour of the one keyple standing there, if any (once per plots)."""
    known = plots_known(p)
    if "buildings" not in known:
        found = []
        for plot_id in iter_plot_targets(p, WHITE_KEYPLE):  # white may go wherever any colour may
            keyples = p.plots[plot_id]["keyples"]
            found.append((plot_id, keyples[0]["colour"] if keyples else None))
        known["buildings"] = found
    return known["buildings"]


def place_choice(g: Game, p: Player, offered: list[str]) -> str:
    job = g.queue[0]
    boats = [o for o in offered if o.startswith("boat:")]
    if boats:
        def boat_worth(o: str) -> float:
            goods = BOATS[o.split(":")[1]].faces[season_name(g)]
            return boat_face_worth(g, p, goods) + 0.1 * sum(good_value(g, p, x) for x in goods)
        return max(boats, key=boat_worth)
    colour = job["colour"]
    weighed = spots(g, p)
    best, best_worth = "", 0.0
    for o in offered:  # the first of the best, as ``max`` picks
        worth = weighed.value(colour, o)  # None: not a space
        if worth is None:
            if not o.startswith("plot:"):
                continue  # cancel
            worth = plot_value(g, p, o[len("plot:"):])
        if not best or worth > best_worth:
            best, best_worth = o, worth
    return best


def place_pick(g: Game, p: Player, colour: str) -> str:
    """``place_choice`` among every place a keyple of this colour may go (as the place step
    lists them: the country spaces, then its buildings), without the list."""
    found = spots(g, p).first_best(colour)
    best, best_worth = found if found else ("", 0.0)
    white = colour == WHITE_KEYPLE
    for plot_id, first in open_buildings(p):
        if first is None or white or colour == first:  # ``may_join`` on a building
            if best and plot_id not in _works and bound_of(g, p, plot_id) <= best_worth:
                continue  # it cannot beat the best: not weighed
            worth = plot_value(g, p, plot_id)
            if not best or worth > best_worth:
                best, best_worth = f"plot:{plot_id}", worth
    return best


def act_choice(g: Game, p: Player, offered: list[str], rng: Chance) -> str:
    job = g.queue[0]
    onward = [o for o in offered if o not in ("done", "cancel")]
    if not onward:
        return "done" if "done" in offered else offered[0]
    kind = job["kind"]
    if kind == "tile":
        return max(onward, key=lambda o: tile_worth(g.display[int(o.split(":")[1])]))  # type: ignore[arg-type]
    if kind in ("build", "discount"):
        if job.get("src"):
            best, best_worth = "", 0.0
            for o in onward:  # the first of the best, as ``max`` picks
                plot = p.plots[o.split(":")[1]]
                worth = 100.0 if not plot["tiles"] else -tile_worth(plot["tiles"][-1]) - (5 if plot["up"] else 0)
                if not best or worth > best_worth:
                    best, best_worth = o, worth
            return best
        lost: dict[str, float] = {}  # area -> the least worth lost by building there (once per area)
        best, best_worth, best_tile = "", 0.0, ""
        for o in onward:  # the first of the best, as ``max`` picks
            tile = source_tile(g, p, o.split(":", 1)[1])
            area = BUILDINGS[tile].area
            if area not in lost:
                lost[area] = least_overbuilt(p, area)
            worth = tile_worth(tile) - lost[area]
            if not best or worth > best_worth:
                best, best_worth, best_tile = o, worth, tile
        if best_worth <= 0 < tile_worth(best_tile) and "done" in offered:
            return "done"  # only overbuilding a better building is left
        return best
    if kind == "boat":
        needed = fair_needs_memo(g, p)
        worth: dict[str, float] = {}  # the takes, then the sales of goods the fairs do not need
        sells = []
        for o in onward:
            verb, good = o.split(":")
            if verb == "get":
                worth[o] = trade_value(g, p, good)
            elif verb == "sell" and not needed.get(good):
                sells.append((o, good))
        for o, good in sells:
            worth[o] = SHIP_STEP - 0.5 * trade_value(g, p, good) + rng.randrange(10) / 20
        best, best_worth = "done", 0.0
        for o, w in worth.items():  # the first of the best, as ``max`` picks
            if best == "done" or w > best_worth:
                best, best_worth = o, w
        return best
    if kind == "fair":
        def fair_fit(o: str) -> int:
            needs = FAIRS[o.split(":")[1]].needs
            return -sum(max(0, n - p.stock.get(k, 0)) for k, n in needs.items())
        return max(onward, key=fair_fit)
    if kind == "work":
        side = building_side(p.plots[job["plot"]])
        assert side is not None
        return max(onward, key=lambda o: (act_worth(g, p, side.houses, side.acts[int(o.split(":")[1])]),
                                          rng.randrange(10)))
    return onward[0]


def fold_choice(g: Game, p: Player, offered: list[str], rng: Chance) -> str:
    board = next(b for b in g.boards if b["folder"] == p.seat)

    def worth(o: str) -> float:
        fields = fold_fields(board["id"], o.split(":", 1)[1])
        return sum([kind_value(g, p, k) for k in fields]) + rng.randrange(100) / 50
    return max(offered, key=worth)


@functools.cache
def fold_fields(board_id: int, fold: str) -> tuple[str, ...]:
    """The field kinds of a folded board's cells in layout order, the keyp cell and the river
    left out (what ``fold_choice`` weighs)."""
    return tuple(k for k in layout(board_id, fold).values() if k not in ("keyp", "river"))




def house_choice(p: Player, offered: list[str]) -> str:
    """The housing that scores most now (then keeps the animals the tiebreak counts first)."""
    def worth(o: str) -> tuple[int, tuple[int, ...]]:
        plan = parse_plan(o.split(":", 1)[1])
        saved = p.housed, dict(p.stock)
        p.housed = plan
        for a, n in returned_by(p, plan).items():
            p.stock[a] -= n
        try:
            return sum(building_points(p)), tiebreak(p)
        finally:
            p.housed, p.stock = saved
    return max(offered, key=worth)


KEYP_WORTH = {"clay": 1.0, "logs": 1.0, "rock": 1.0, "wheat": 1.0, "gem": 1.5, "ship1": 1.0}


def surplus_choice(g: Game, p: Player, offered: list[str]) -> str:
    """Keep a varied team (a colour's last keyple is worth most in hand) and put on the keyp
    tile the keyples whose goods are worth most."""
    def worth(o: str) -> float:
        put = o.split(":", 1)[1].split(",")
        left = list(p.hand)
        for c in put:
            left.remove(c)
        variety = len(set(left)) + 0.5 * min(2, left.count("white"))
        return 2.0 * variety + sum(KEYP_WORTH[KEYP_TILE_GAIN[c]] for c in put)
    return max(offered, key=worth)


# --- Playing from a seat's view (the "strong" level of app/bots) ---

def game_from_view(view: dict[str, Any]) -> tuple[Game, Seat]:
    """A game rebuilt from what one seat sees: the public board, the seat's own face-down
    fairs; nothing secret (the bag's order, the others' fairs, the dealt-out fairs) is
    known or needed. Good enough for the bot's judgement, never for applying a choice."""
    pub, own = view["public"], view.get("private") or {}
    seat = view["seat"]
    players = []
    for q in pub["players"]:
        p = Player(q["seat"], q["colour"], hand=list(q["hand"]), keyp=list(q["keyp"]), keyp_down=list(q["keyp_down"]),
                   keyper=q["keyper"])
        p.stock = {k: q["stock"].get(k, 0) for k in STOCK}
        p.plots = {pl["plot"]: {"tiles": list(pl["tiles"]), "up": pl["up"], "keyples": [dict(k) for k in pl["keyples"]]}
                   for pl in q["plots"]}
        p.housed = {pl["plot"]: dict(pl["housed"]) for pl in q["plots"] if pl["housed"]}
        p.home = [t["tile"] for t in q["home"]]
        p.held = [t["tile"] for t in q["held"]]
        p.shown = [dict(f) for f in q["shown"]]
        p.winter = [f["id"] for f in q["winter"]]
        p.ship = q["ship"]
        if q["seat"] == seat:
            p.fairs = {s: f["id"] for s, f in (own.get("fairs") or {}).items()}
        players.append(p)
    g = Game(players, {}, "", phase=pub["phase"], season=pub["season_index"], turn=pub["turn"], start=pub["start"],
             last=pub["last"])
    for b in pub["boards"]:
        board = new_board(b["id"], b["fold"], b["folder"])
        board["keyper"] = b["keyper"]
        board["boat"] = b["boat"]["id"] if b["boat"] else None
        for cell in b["cells"]:
            if cell["key"] in board["spaces"] and not board["spaces"][cell["key"]]:
                board["spaces"][cell["key"]] = [dict(k) for k in cell["keyples"]]
        g.boards.append(board)
    g.display = [d["tile"] if d else None for d in pub["display"]]
    g.boats = [b["id"] for b in pub["boats"]]
    g.aside = list(pub["aside"])
    g.winter_fairs = [f["id"] for f in pub["winter_fairs"]]
    g.supply = dict(pub["supply"])
    step = pub.get("pending")
    if step:
        job = {k: v for k, v in step.items() if v is not None and k not in ("field", "first")}
        g.queue = [job]
    return g, seat


def mirror_from_view(view: dict[str, Any], offered: list[dict[str, Any]], rng: Chance) -> str:
    """The state bot's judgement from the seat's view alone, on a game rebuilt from the
    view, among the offered options (the strong level looks further: ``strong.py``)."""
    ids = [o["id"] for o in offered]
    if not ids:
        raise ValueError("nothing to choose")
    g, seat = game_from_view(view)
    return choose_among(g, seat, ids, rng)


def choose_from_view(view: dict[str, Any], offered: list[dict[str, Any]], rng: Chance) -> str:
    """app/bots' "strong" level: one turn ahead from the seat's view (``strong.py``)."""
    from . import strong  # imported here: strong.py builds on this module
    return strong.choose_from_view(view, offered, rng)
