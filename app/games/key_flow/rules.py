"""Key Flow rules: the game flow, in the order of the seed's headings.

A game is a pure function of (options, seed, choices). ``Game`` holds plain JSON-ready
values, is copied before every change, and is dumped and loaded as it is. A village card's
tiles, resources, stored resources and keyple cards, the hands and winter K cards, the
decks, the box, the skill pile and what the newest reveal showed are never changed in
place: a change gives them a new list or dict, so copies share them (``clone``). So are the
options, the decks' dict, the double-sided tiles left, a player's skill tiles, double-sided
tiles, cards under the store and each of its jobs (``one_done``); a village card itself is
shared too, and a step changes a card only once it holds a copy of its own (``own_card``).

Seats and neighbours: seat ``s + 1`` sits on the left of seat ``s``. Passing left gives
your remaining hand to seat ``s + 1``, passing right to ``s - 1``. A keyple card's left
arrow reaches the left neighbour's village (``s + 1``), its right arrow the right one.

Simultaneous secret drafting (the pattern of Tiny Towns' placement): every seat that has
not chosen is in ``to_act`` at once. Choosing is two private steps, a card from the hand
(``pick:``) and what to do with it (a place in the village, a building for a keyple card,
or ``discard``); until every seat has chosen, the choice sits in ``Player.chosen``, which
no view but the seat's own shows. When the last seat chooses, all choices are revealed and
resolve against the state before the turn: legality was checked against it, keyple cards
use the live panel each building showed before anything was played, and buildings placed
this turn take no keyple card (nobody could choose them). Effects that need a decision
after the reveal (which resource, transport moves, upgrades, which skill tile to pay) are
queued per seat in ``Player.jobs``; they act only on that seat's own things, so the seats
resolve them at the same time and in any order.

Village geometry: the top (road) row is at whole columns, the home card at column 0; a
river card at column ``r`` sits half a card to the right of road column ``r`` (between
road columns ``r`` and ``r + 1``). Two cards touch when they are neighbours in a row or a
river card lies under half of a road card. A new card must touch one already placed
(gaps are allowed). Transport moves a resource between two touching cards.

Readings where the seed is silent (docs/titles/key-flow.md weighs them):

- With two players, the left arrow reaches the opponent's home and the cards to its left
  (columns <= 0), the right arrow the home and the cards to its right (columns >= 0).
- Brainwave: its owner's 1- and 2-keyple cards may go to the owner's own village or either
  neighbour's, whatever their arrows.
- A neighbour may not put a keyple card on a building whose live action only transports
  or upgrades (those act only in the owner's village); from a home card a neighbour gets
  the home's small gain only.
- Gold stands in for iron, wood or stone when upgrading as well as in winter scoring (the
  seed calls gold "wild"); with the Keyflower boat any resource stands in for any other.
- A card's gains come first, then its decisions (transport, upgrades) in the listed order,
  so gold from a home card can be moved or spent in the same activation.
- Resources moved onto an autumn store stay there and score only there.
- A boat's power works from the turn after it is played (against the state before a turn).
"""

from __future__ import annotations

import copy
from bisect import insort
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter
from typing import Any, Iterator

from app.games.gamelog import GameLog
from app.games.plainstate import dump_game, load_game
from app.games.protocol import (IllegalAction, ListedOnce, Option, Result, SeatScore, check_choice,
                                winners_by_score)
from app.games.rng import Rng

from .content import (ANIMALS, BASIC, CARDS, DEAL, HOMES, K_REMOVED, PASS_LEFT, RESOURCES, RIVER, ROAD,
                      SEASON_DECKS, SEASONS, SKILLS, SPRING_HAND, SUPPLY, WINTER_K_HAND, Card, Cost, Effect,
                      describe_action, describe_effect)
from .scoring import Line, best_allocation

Seat = int
Entry = dict[str, Any]  # a card in a village

DRAFT = "draft"  # choose a card in secret, all at once
RESOLVE = "resolve"  # decisions left after a reveal (transport, upgrades, choices)
TOKENS = "tokens"  # after the draft: keyple tokens activate own buildings
WINTER_K = "winter-k"  # end of autumn: each chooses one winter K card in secret
OVER = "over"
NOBODY: frozenset[int] = frozenset()


@dataclass
class Player:
    seat: Seat
    home: str
    store: int  # which of the 6 store cards (only its picture differs)
    village: list[Entry] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)  # secret
    winter_k: list[str] = field(default_factory=list)  # secret
    choosing: str | None = None  # the card picked, its use not yet chosen (secret)
    chosen: dict[str, Any] | None = None  # the whole choice, until everyone has chosen (secret)
    tokens: int = 0
    skills: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SKILLS})  # single-sided
    doubles: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SKILLS})  # double-sided
    under_store: list[str] = field(default_factory=list)  # keyple cards, face down (secret to others)
    jobs: list[dict[str, Any]] = field(default_factory=list)  # decisions owed after a reveal
    done: bool = False  # finished with keyple tokens this season


@dataclass
class Game:
    players: list[Player]
    options: dict[str, Any]
    rng: str  # Rng.state: holds the game secret, never in a view
    phase: str = DRAFT
    season: int = 0  # index into SEASONS
    turn: int = 0  # turns played this season
    reveals: int = 0  # reveals so far (cards placed at the newest one are "new")
    decks: dict[str, list[str]] = field(default_factory=dict)  # secret order
    box: list[str] = field(default_factory=list)  # removed unseen (secret)
    skill_pile: list[str] = field(default_factory=list)  # single-sided tiles, face down (secret order)
    doubles: dict[str, int] = field(default_factory=lambda: {s: SUPPLY["double_skills"] for s in SKILLS})
    token_supply: int = SUPPLY["tokens"]
    tile_supply: int = SUPPLY["upgrade_tiles"]
    last_reveal: list[dict[str, Any]] = field(default_factory=list)  # what the newest reveal showed
    final: list[dict[str, Any]] | None = None  # each seat's scoring, once over
    log: GameLog = field(default_factory=GameLog)


# --- Small words ---

def seat_ref(seat: Seat) -> str:
    return f"{{seat{seat}}}"


def seat_label(seat: Seat) -> str:
    return f"Seat {seat + 1}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def season_name(g: Game) -> str:
    return SEASONS[g.season]


def players_n(g: Game) -> int:
    return len(g.players)


def left_of(g: Game, seat: Seat) -> Seat:
    return (seat + 1) % players_n(g)


def right_of(g: Game, seat: Seat) -> Seat:
    return (seat - 1) % players_n(g)


def where(entry: Entry) -> str:
    """"road.2", "river.-1": a card's place in its village (option ids use it)."""
    cols = _places[entry["row"]]
    known = cols.get(entry["col"])
    if known is None:  # each place's words made once (listing options asks for them very often)
        known = cols[entry["col"]] = f"{entry['row']}.{entry['col']}"
    return known


_places: dict[str, dict[int, str]] = {ROAD: {}, RIVER: {}}  # by row, by column: where()


def find(p: Player, place: str) -> Entry:
    row, _, col = place.partition(".")
    e = card_at(p, row, int(col))
    if e is None:
        raise IllegalAction(f"There is no card at {place} in that village.")
    return e


def card_at(p: Player, row: str, col: int | None) -> Entry | None:
    """The card at this row and column of p's village, or None."""
    for e in p.village:
        if e["col"] == col and e["row"] == row:
            return e
    return None


def live_panel(e: Entry) -> int:
    return len(e["tiles"])


def live_action(e: Entry) -> tuple[Effect, ...]:
    return _ACTIONS[e["card"]][len(e["tiles"])]  # live_panel, inline: asked very often


_ACTIONS = {cid: tuple(panel.action for panel in c.panels) for cid, c in CARDS.items()}  # by card id, by panel


def res_text(counts: dict[str, int]) -> str:
    parts = [f"{n} {r}" for r in RESOURCES if (n := counts.get(r, 0))]
    return ", ".join(parts) if parts else "nothing"


def powers(p: Player) -> frozenset[str]:
    """The boats' ongoing powers this player has (boats placed before this turn)."""
    boats = _POWERED.intersection(map(_card_of, p.village))  # the village's cards, read in C
    return frozenset([_POWER[cid] for cid in boats]) if boats else NO_POWERS


NO_POWERS: frozenset[str] = frozenset()
_POWER = {cid: c.power for cid, c in CARDS.items()}  # by card id: a boat's power, or none
_POWERED = frozenset(cid for cid, power in _POWER.items() if power)  # the cards with a power
_card_of = itemgetter("card")
_BRAINWAVE = frozenset(cid for cid, power in _POWER.items() if power == "brainwave")


def own_card(p: Player, e: Entry) -> Entry:
    """The card ``e`` of p's village as this step's own, to change: a copy in its place in the
    village (copies of the game share every card: ``clone``), or ``e`` itself when it is this
    step's already. ``p`` must be the step's own player (its village list its own)."""
    if _fresh.get(id(e)) is e:
        return e
    mine = e.copy()  # its lists and dicts are never changed in place: shared
    village = p.village
    village[village.index(e)] = mine  # (no two cards of a village are equal: their places differ)
    _fresh[id(mine)] = mine
    return mine


# The village cards made or copied since the game was last copied (by id(); the dict keeps
# them, so an id is never another card's): a step changes these in place. Every copy
# (clone, chooser_copy, own_players) empties it, since its cards are then shared.
_fresh: dict[int, Entry] = {}


def entry(card_id: str, row: str, col: int, placed: int) -> Entry:
    return {"card": card_id, "row": row, "col": col, "tiles": [], "res": {}, "stored": {}, "keyples": [],
            "token_acts": 0, "placed": placed}


# --- Setup ---

def marking_number(marking: str) -> int:
    return 0 if marking == "K" else int(marking[0])


def numbered_for(players: int, season: str) -> list[str]:
    """The numbered cards of a season used with this many players (2 players: the 3+ ones)."""
    return list(_NUMBERED[(max(players, 3), season)])


def k_cards(season: str) -> list[str]:
    return list(_K_CARDS[season])


# by (highest marking used, season), and by season: the deck's card ids in content order
# (content does not change; every setup asks for each season)
_NUMBERED = {(top, season): tuple(c.id for c in SEASON_DECKS.values()
                                  if c.season == season and c.marking != "K" and marking_number(c.marking) <= top)
             for top in range(3, 7) for season in SEASONS}
_K_CARDS = {season: tuple(c.id for c in SEASON_DECKS.values() if c.season == season and c.marking == "K")
            for season in SEASONS}


def setup(players: int, options: dict[str, Any], seed: int) -> Game:
    if not 2 <= players <= 6:
        raise IllegalAction("Key Flow is for 2 to 6 players.")
    rng = Rng(seed)
    homes = rng.shuffled(sorted(HOMES))
    stores = rng.shuffled(list(range(1, 7)))
    ps = [Player(seat=s, home=homes[s], store=stores[s]) for s in range(players)]
    g = Game(players=ps, options=dict(options), rng="")
    for p in ps:
        p.village.append(entry(p.home, ROAD, 0, 0))
    # Spring, summer, autumn: return K cards to the box by player count, keep numbered cards
    # up to the player count, shuffle.
    for season in SEASONS[:3]:
        ks = rng.shuffled(k_cards(season))
        removed = K_REMOVED[players]
        g.box = g.box + ks[:removed]
        g.decks[season] = rng.shuffled(ks[removed:] + numbered_for(players, season))
    g.decks["winter"] = rng.shuffled(numbered_for(players, "winter"))
    winter_k = rng.shuffled(k_cards("winter"))
    for p in ps:
        p.winter_k = sorted(winter_k[:WINTER_K_HAND[players]], key=_by_card_order)
        del winter_k[:WINTER_K_HAND[players]]
    g.box = g.box + winter_k
    g.skill_pile = rng.shuffled([s for s in SKILLS for _ in range(SUPPLY["single_skills"])])
    g.rng = rng.state
    g.log.append(f"{plural(players, 'player')}: each has a home card, a store card, "
                 f"{WINTER_K_HAND[players]} winter K cards and {SPRING_HAND[players]} spring cards.")
    deal(g, SPRING_HAND[players])
    return g


def card_order(card_id: str) -> tuple[str, str]:
    return _CARD_ORDER[card_id]


# by card id: card_order's key (sorting hands with this dict's lookup runs in C)
_CARD_ORDER = {cid: (c.name, cid) for cid, c in CARDS.items()}
# by card id: its place in card_order's order (one number, which a sort compares faster than
# two words, in the same order)
_CARD_RANK = {cid: rank for rank, cid in enumerate(sorted(CARDS, key=_CARD_ORDER.__getitem__))}
_by_card_order = _CARD_RANK.__getitem__


def deal(g: Game, size: int) -> None:
    """Deal ``size`` cards of the season's deck to each player; what is left goes to the box."""
    deck = g.decks[season_name(g)]
    for i, p in enumerate(g.players):
        p.hand = sorted(deck[i * size:(i + 1) * size], key=_by_card_order)
        p.done = False
    g.box = g.box + deck[len(g.players) * size:]
    g.decks = {**g.decks, season_name(g): []}  # a new dict: copies share the old (clone)
    g.phase, g.turn = DRAFT, 0
    g.log.append(f"{season_name(g).capitalize()}: {plural(size, 'card')} each; "
                 f"pass to the {'left' if PASS_LEFT[season_name(g)] else 'right'}.")


# --- The village: where cards may go ---

def spots(p: Player, row: str) -> list[int]:
    """Free columns of a row where a new card touches a card already in the village."""
    return list(shape_spots(village_shape(p.village), row))


_spots: dict[tuple[tuple[tuple[str, int], ...], str], list[int]] = {}


def shape_spots(shape: tuple[tuple[str, int], ...], row: str) -> list[int]:
    """``spots`` of a village given as its (row, column) per card (the list is kept: do not
    change it). A pure function of the village's shape, which the bot and the rules both ask
    of the same shapes: each is worked out once."""
    known = _spots.get((shape, row))
    if known is None:
        if len(_spots) > 20000:  # a bound, not a policy: shapes recur within a game
            _spots.clear()
        road = {col for r, col in shape if r == ROAD}
        river = {col for r, col in shape if r != ROAD}
        # the free places touching a card (``touching``): a road card touches the road cards
        # beside it and the river cards under its halves (river columns col - 1 and col)
        if row == ROAD:
            near = {col - 1 for col in road} | {col + 1 for col in road} | river | {col + 1 for col in river}
            near -= road
        else:
            near = {col - 1 for col in river} | {col + 1 for col in river} | road | {col - 1 for col in road}
            near -= river
        known = _spots[(shape, row)] = sorted(near)
    return known


def touching(a: Entry, b: Entry) -> bool:
    if a["row"] == b["row"]:
        return abs(a["col"] - b["col"]) == 1
    road, river = (a, b) if a["row"] == ROAD else (b, a)
    return river["col"] in (road["col"] - 1, road["col"])


def neighbours(village: list[Entry]) -> tuple[tuple[int, ...], ...]:
    """For each card of the village (by place in the list), the places of the cards it
    touches, in village order. Transport and the bot ask this many times for few shapes."""
    return shape_neighbours(village_shape(village))


_place_of = itemgetter("row", "col")


def village_shape(village: list[Entry]) -> tuple[tuple[str, int], ...]:
    """The village's (row, column) per card: one tuple object per shape, so the caches kept
    by shape find it by identity (comparing two equal shapes tuple by tuple cost more than
    the lookup), and kept for the last village list asked (the bot and the rules ask of the
    same village in turn). A card is never moved or taken away, only added: a list's shape
    changes only with its length."""
    global _shape_now
    known = _shape_now
    if known[0] is village and known[1] == len(village):
        return known[2]
    shape = tuple(map(_place_of, village))
    one = _shape_objects.get(shape)
    if one is None:
        if len(_shape_objects) > 20000:  # a bound, not a policy: shapes recur within a game
            _shape_objects.clear()
        one = _shape_objects[shape] = shape
    _shape_now = (village, len(village), one)  # (holds the list: its id() is not reused)
    return one


_shape_objects: dict[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = {}
_shape_now: tuple[Any, ...] = (None, 0, ())


_shapes: dict[tuple[tuple[str, int], ...], tuple[tuple[int, ...], ...]] = {}  # a pure function of the shape


def shape_neighbours(shape: tuple[tuple[str, int], ...]) -> tuple[tuple[int, ...], ...]:
    """``neighbours`` of a village given as its (row, column) per card."""
    known = _shapes.get(shape)
    if known is None:
        if len(_shapes) > 20000:  # a bound, not a policy: shapes recur within a game
            _shapes.clear()
        get = dict(zip(shape, range(len(shape)))).get  # a card's place in the list, by (row, column)
        out = []
        for row, col in shape:  # the four places it touches (_touched), -1 where no card is
            if row == ROAD:
                near = sorted((get((ROAD, col - 1), -1), get((ROAD, col + 1), -1), get((RIVER, col - 1), -1),
                               get((RIVER, col), -1)))
            else:
                near = sorted((get((RIVER, col - 1), -1), get((RIVER, col + 1), -1), get((ROAD, col), -1),
                               get((ROAD, col + 1), -1)))
            out.append(tuple(near[near.count(-1):]))
        known = _shapes[shape] = tuple(out)
    return known


def _touched(row: str, col: int) -> tuple[tuple[str, int], ...]:
    """The places a card at (row, col) touches (``touching``): its neighbours in its row,
    and the cards under (or over) its halves in the other row."""
    if row == ROAD:
        return ((ROAD, col - 1), (ROAD, col + 1), (RIVER, col - 1), (RIVER, col))
    return ((RIVER, col - 1), (RIVER, col + 1), (ROAD, col), (ROAD, col + 1))


# --- Keyple cards: where they may go ---

EVERY_COL = -10**9, 10**9


def reachable(g: Game, p: Player, c: Card) -> list[tuple[Seat, int, int]]:
    """Villages a keyple card may reach, each with the lowest and highest road column it
    may reach there: its own village first, then the others by seat."""
    if c.keyples <= 2 and not _BRAINWAVE.isdisjoint(map(_card_of, p.village)):  # "brainwave" in powers(p)
        arrows = "LDR"
    else:
        arrows = c.arrows
    n = len(g.players)
    known = _reach.get((n, p.seat, arrows))
    if known is None:
        known = _reach[(n, p.seat, arrows)] = _reached(n, p.seat, arrows)
    return list(known)


_reach: dict[tuple[int, Seat, str], list[tuple[Seat, int, int]]] = {}  # by (players, seat, arrows): a pure function


def _reached(n: int, seat: Seat, arrows: str) -> list[tuple[Seat, int, int]]:
    """``reachable`` for a seat of n, by the card's arrows (or "LDR" with the Brainwave)."""
    lo, hi = EVERY_COL
    others: list[tuple[Seat, int, int]] = []
    if n == 2:
        other = 1 - seat
        if "L" in arrows and "R" in arrows:
            others.append((other, lo, hi))
        elif "L" in arrows:
            others.append((other, lo, 0))
        elif "R" in arrows:
            others.append((other, 0, hi))
    else:
        left, right = (seat + 1) % n, (seat - 1) % n  # left_of, right_of
        if "L" in arrows:
            others.append((left, lo, hi))
        if "R" in arrows and right != left:
            others.append((right, lo, hi))
        others.sort()
    return ([(seat, lo, hi)] if "D" in arrows else []) + others


def usable_by(e: Entry, owner: Seat, seat: Seat) -> bool:
    """A building whose live action does something for ``seat``."""
    return USES[e["card"]][len(e["tiles"])][owner == seat]


_uses: dict[tuple[str, int], tuple[bool, bool]] = {}  # by (card, panel): content does not change


def _use_of(card_id: str, panel: int) -> tuple[bool, bool]:
    """Does this panel's action do something (for a neighbour, for the owner)? Transport and
    upgrades act only in the owner's village."""
    known = _uses.get((card_id, panel))
    if known is None:
        action = CARDS[card_id].panels[panel].action
        known = _uses[(card_id, panel)] = (any(not eff.own_village_only for eff in action), bool(action))
    return known


# by card id, by panel: _use_of of each, looked up without a key tuple (targets asks very often)
USES = {cid: tuple(_use_of(cid, panel) for panel in range(len(c.panels))) for cid, c in CARDS.items()}


def tokens_needed(c: Card, e: Entry) -> int:
    """Keyple tokens that raise the card's keyples above those of the cards already on the building."""
    return max(c.keyples, len(e["keyples"]) + 1) - c.keyples


def keyple_tokens(e: Entry, keyples: int, held_tokens: int, lo: int, hi: int, own: bool) -> int | None:
    """The keyple tokens a card of ``keyples`` keyples takes to go on the card ``e`` (a road
    building within the columns it reaches, holding fewer keyple cards than it will have,
    whose live action does something for the one placing it), or None if it may not."""
    # the cheap tests first: a river card, or a building already holding 3 keyple cards,
    # takes none
    if e["row"] != ROAD:
        return None
    held = len(e["keyples"])
    if held >= 3 or not lo <= e["col"] <= hi:
        return None
    tokens = max(keyples, held + 1) - keyples  # tokens_needed, inline: asked very often
    if keyples + tokens <= 3 and tokens <= held_tokens and USES[e["card"]][len(e["tiles"])][own]:
        return tokens
    return None


def targets(g: Game, p: Player, c: Card) -> list[tuple[Seat, Entry, int]]:
    """(village owner, building, keyple tokens needed) a keyple card may go on now: a card
    with N keyples (raised by tokens, at most 3) goes on a road building holding fewer than
    N keyple cards."""
    out = []
    keyples = c.keyples
    for owner, lo, hi in reachable(g, p, c):  # in the order listed: own village first, then by seat
        own = owner == p.seat
        found = []
        for e in g.players[owner].village:
            tokens = keyple_tokens(e, keyples, p.tokens, lo, hi, own)
            if tokens is not None:
                found.append((e["col"], e, tokens))
        found.sort(key=itemgetter(0))  # by column (one road card a column)
        out += [(owner, e, tokens) for _, e, tokens in found]
    return out


# --- Choosing a card in secret ---

def pick_options(g: Game, p: Player) -> list[Option]:
    cards = p.winter_k if g.phase == WINTER_K else p.hand
    return [_pick_option(cid) for cid in cards]


_picks: dict[str, Option] = {}  # by card id: an option is immutable, and listing picks is frequent


def _pick_option(cid: str) -> Option:
    known = _picks.get(cid)
    if known is None:
        known = _picks[cid] = Option(f"pick:{cid}", f"Choose {CARDS[cid].name}", "pick", f"hand:{cid}")
    return known


def use_options(g: Game, p: Player) -> list[Option]:
    """What to do with the picked card: a place in the village, a building, or discard."""
    c = CARDS[p.choosing]  # type: ignore[index]
    out = []
    if c.kind == "keyple":
        for owner, e, tokens in targets(g, p, c):
            whose = "your" if owner == p.seat else f"{seat_label(owner)}'s"
            extra = f" (+{plural(tokens, 'keyple token')})" if tokens else ""
            out.append(Option(f"on:{owner}:{e['col']}",
                              f"On {whose} {CARDS[e['card']].name}{extra}: {describe_action(live_action(e))}",
                              "keyple", f"card:{owner}:{where(e)}"))
    else:
        assert c.row is not None
        for col in spots(p, c.row):
            out.append(Option(f"{c.row}:{col}", f"Build {c.name} in the {c.row} row, column {col}", "build",
                              f"spot:{p.seat}:{c.row}.{col}"))
    if g.phase == DRAFT:
        out.append(Option("discard", f"Discard {c.name} unseen for a keyple token", "discard"))
    out.append(Option("cancel", "Choose another card", "cancel"))
    return out


def choose_step(g: Game, p: Player, option_id: str) -> None:
    kind, _, rest = option_id.partition(":")
    if kind == "pick":
        p.choosing = rest
        return
    if kind == "cancel":
        p.choosing = None
        return
    assert p.choosing is not None
    if kind == "discard":
        p.chosen = {"card": p.choosing, "use": "discard"}
    elif kind == "on":
        owner, col = (int(x) for x in rest.split(":"))
        target = road_card(g.players[owner], col)
        tokens = tokens_needed(CARDS[p.choosing], target)  # a listed target: its legality is checked
        p.chosen = {"card": p.choosing, "use": "keyple", "owner": owner, "col": col, "tokens": tokens}
    else:
        p.chosen = {"card": p.choosing, "use": "build", "row": kind, "col": int(rest)}
    p.choosing = None
    if everyone_chose(g):
        reveal(g)


def everyone_chose(g: Game) -> bool:
    # (loops, here and in anyone_owes: an attrgetter reads each field through the generic
    # lookup, the loop through the interpreter's specialised one)
    for q in g.players:
        if not q.chosen:
            return False
    return True


def anyone_owes(g: Game) -> bool:
    """Does any seat owe a decision after the reveal?"""
    for q in g.players:
        if q.jobs:
            return True
    return False


def road_card(p: Player, col: int) -> Entry:
    """The card in the road row of p's village at this column (a listed keyple target)."""
    e = card_at(p, ROAD, col)
    if e is not None:
        return e
    raise IllegalAction(f"There is no road card at column {col} in that village.")  # (a listed target is)


# --- The reveal: everything resolves against the state before the turn ---

def reveal(g: Game) -> None:
    g.reveals += 1
    chosen = [(p, p.chosen) for p in g.players]
    # The actions keyple cards trigger are read before anything changes (seed: simultaneous
    # play resolves against the state before any card is played).
    actions = {}
    for p, ch in chosen:
        assert ch is not None
        cards = list(p.winter_k if g.phase == WINTER_K else p.hand)  # a new list: copies share the old
        cards.remove(ch["card"])
        if g.phase == WINTER_K:
            p.winter_k = cards
        else:
            p.hand = cards
        if ch["use"] == "keyple":
            actions[p.seat] = live_action(road_card(g.players[ch["owner"]], ch["col"]))
    shown = []
    lines = []
    for p, ch in chosen:
        p.chosen = None
        c = CARDS[ch["card"]]
        if ch["use"] == "discard":
            gained = take_tokens(g, p, 1)
            g.box = g.box + [ch["card"]]
            lines.append(f"{seat_ref(p.seat)} discards a card unseen" + (" for a keyple token." if gained else
                                                                          " (no keyple token is left)."))
            shown.append({"seat": p.seat, "use": "discard"})
        elif ch["use"] == "build":
            e = entry(c.id, ch["row"], ch["col"], g.reveals)
            _fresh[id(e)] = e  # this step's own card
            insort(p.village, e, key=_village_order)  # the road row first, each row by column
            got = gain(g, p, c.reward, e)
            lines.append(f"{seat_ref(p.seat)} builds {c.name} ({ch['row']} row)" + (f" and gains {got}." if got else "."))
            shown.append({"seat": p.seat, "use": "build", "card": c.id, "place": where(e)})
        else:
            p.tokens -= ch["tokens"]
            g.token_supply += ch["tokens"]
            owner = ch["owner"]
            # the building as it is now, as this step's own (another seat's keyple card or
            # gain may have replaced it earlier in this reveal); its action as it was before
            target = own_card(g.players[owner], road_card(g.players[owner], ch["col"]))
            action = actions[p.seat]
            target["keyples"] = target["keyples"] + [{"card": c.id, "by": p.seat, "tokens": ch["tokens"],
                                                      "at": g.reveals}]
            whose = "own" if owner == p.seat else f"{seat_ref(owner)}'s"
            boost = f" with {plural(ch['tokens'], 'keyple token')}" if ch["tokens"] else ""
            got = activate(g, p, owner, target, action)
            lines.append(f"{seat_ref(p.seat)} puts {c.name} ({c.colour}) on their {whose} {CARDS[target['card']].name}"
                         f"{boost}" + (f": {got}." if got else "."))
            shown.append({"seat": p.seat, "use": "keyple", "card": c.id, "owner": owner, "place": where(target)})
    for line in lines:
        g.log.append(line)
    g.last_reveal = shown
    if g.phase == WINTER_K:
        winter_deck(g)
        return
    after_turn(g)


def _village_order(e: Entry) -> tuple[bool, int]:
    return e["row"] != ROAD, e["col"]


def add_res(e: Entry, bucket: str, r: str, n: int) -> None:
    """``n`` more (or fewer) of resource ``r`` on a card's "res" or "stored", in a new dict
    (copies of the game share the old one); none left drops the kind. ``e`` is the step's
    own card (``own_card``)."""
    held = dict(e[bucket])
    left = held.get(r, 0) + n
    if left:
        held[r] = left
    else:
        del held[r]
    e[bucket] = held


def take_tokens(g: Game, p: Player, n: int) -> int:
    n = min(n, g.token_supply)
    g.token_supply -= n
    p.tokens += n
    return n


def gain(g: Game, p: Player, effects: tuple[Effect, ...], onto: Entry) -> str:
    """Resources, skill tiles and tokens with no decision; returns what was gained in words.
    ``onto`` is a card of p's village."""
    parts = []
    for eff in effects:
        if eff.kind == "gain":
            onto = own_card(p, onto)
            add_res(onto, "res", eff.what, eff.amount)
            parts.append(f"{eff.amount} {eff.what}")
        elif eff.kind == "token":
            if n := take_tokens(g, p, eff.amount):
                parts.append(plural(n, "keyple token"))
        elif eff.kind == "skill":
            for _ in range(eff.amount):
                if eff.what == "random":
                    if g.skill_pile:
                        tile = g.skill_pile[0]
                        g.skill_pile = g.skill_pile[1:]
                        p.skills = {**p.skills, tile: p.skills[tile] + 1}  # (copies share the old)
                        parts.append(f"a {tile} tile")
                elif g.doubles[eff.what]:
                    g.doubles = {**g.doubles, eff.what: g.doubles[eff.what] - 1}  # (copies share the old)
                    p.doubles = {**p.doubles, eff.what: p.doubles[eff.what] + 1}
                    parts.append(f"a double-sided {eff.what} tile")
    return ", ".join(parts)


def activate(g: Game, p: Player, owner: Seat, e: Entry, action: tuple[Effect, ...]) -> str:
    """One activation of a building by seat p: gains now, decisions queued."""
    own = owner == p.seat
    onto = e if own else home_entry(p)
    plain = tuple(x for x in action if x.kind in ("gain", "token", "skill"))
    got = gain(g, p, plain, onto)
    for x in action:
        if x.kind == "any":
            p.jobs.append({"do": "any", "n": x.amount, "onto": where(onto)})
        elif x.kind == "convert":
            p.jobs.append({"do": "convert", "pay": x.what, "gains": [describe_effect(y) for y in x.gains],
                           "card": e["card"], "panel": live_panel(e), "onto": where(onto)})
        elif x.kind in ("transport", "upgrade") and own:
            p.jobs.append({"do": x.kind, "left": x.amount})
    prune_jobs(g, p)
    if not own and onto is not e:
        got = got and f"{got} onto their home card"
    return got


def home_entry(p: Player) -> Entry:
    return next(e for e in p.village if e["card"] == p.home)


def prune_jobs(g: Game, p: Player) -> None:
    """Drop decisions that have no choice left (nothing to move, pay or upgrade)."""
    while p.jobs and not has_job_options(g, p, p.jobs[0]):
        p.jobs.pop(0)


def after_turn(g: Game) -> None:
    if anyone_owes(g):
        g.phase = RESOLVE
        return
    if g.players[0].hand:
        pass_hands(g)
        g.turn += 1
        g.phase = DRAFT
        return
    start_tokens(g)


def pass_hands(g: Game) -> None:
    hands = [p.hand for p in g.players]
    step = 1 if PASS_LEFT[season_name(g)] else -1
    for p in g.players:
        p.hand = sorted(hands[(p.seat - step) % players_n(g)], key=_by_card_order)


# --- Decisions after a reveal: resources of choice, conversions, transport, upgrades ---

def has_job_options(g: Game, p: Player, job: dict[str, Any]) -> bool:
    """Would ``job_options`` list anything? (Asked after every change; no labels needed.)"""
    do = job["do"]
    if do == "any":
        return True
    if do == "convert":
        return any(True for _ in iter_payable(p, job))
    if do == "transport":
        return can_move(p)
    return next(iter_upgrades(g, p), None) is not None or next(iter_flips(p), None) is not None


def iter_payable(p: Player, job: dict[str, Any]) -> Iterator[str]:
    """The skill tiles a conversion may take."""
    return (s for s in SKILLS if (job["pay"] in ("any", s)) and (p.skills[s] or p.doubles[s]))


def job_options(g: Game, p: Player, job: dict[str, Any]) -> list[Option]:
    do = job["do"]
    if do == "any":
        return [Option(f"take:{r}", f"Take {job['n']} {r}", "take") for r in BASIC]
    if do == "convert":
        payable = list(iter_payable(p, job))
        gains = " and ".join(job["gains"])
        return [Option(f"pay:{s}", f"Pay a {s} tile for {gains}", "pay") for s in payable] + \
            ([Option("skip", "Pay nothing", "skip")] if payable else [])
    if do == "transport":
        return transport_options(p, job["left"])
    return upgrade_options(g, p, job["left"])


def iter_move_places(p: Player) -> Iterator[tuple[int, int, str]]:
    """(from card, to card, resource), each card by its place in the village: one resource
    may move between touching cards, never out of a store, and onto a store only if it
    takes it."""
    village = p.village
    near = refuses = None  # the cards each card touches, and what each refuses, once a card holds resources
    for i, a in enumerate(village):
        res = a["res"]
        if not res or a["card"] in _STORES:
            continue
        if near is None:
            near = neighbours(village)
            refuses = [_REFUSES[e["card"]] for e in village]
        for r in RESOURCES:
            if not res.get(r):
                continue
            for j in near[i]:
                if r in refuses[j]:  # type: ignore[index]
                    continue
                yield i, j, r


def can_move(p: Player) -> bool:
    """Would ``iter_move_places`` find a move? (Asked after every move: a card holding
    resources, not a store, beside a card that refuses not all of them; a card holds only
    the kinds it has some of.)"""
    village = p.village
    near = None
    for i, a in enumerate(village):
        res = a["res"]
        if not res or a["card"] in _STORES:
            continue
        if near is None:
            if len(village) > 1 and _STORES.isdisjoint(map(_card_of, village)):
                # every new card touches one already placed, so each card of a village of
                # two or more touches another, and only stores refuse anything
                return True
            near = neighbours(village)
        for j in near[i]:
            if not _REFUSES[village[j]["card"]].issuperset(res):
                return True
    return False


_STORES = frozenset(cid for cid, c in CARDS.items() if c.kind == "store")
# by card id: the resources a move may not bring onto it (a store takes only its own)
_REFUSES = {cid: frozenset(RESOURCES) - frozenset(c.accepts) if c.kind == "store" else frozenset()
            for cid, c in CARDS.items()}


def move_id(p: Player, src: int, dst: int, r: str) -> str:
    """The option id of a move ``iter_move_places`` finds (``is_move_listed`` reads it)."""
    return f"move:{where(p.village[src])}:{where(p.village[dst])}:{r}"


def transport_options(p: Player, left: int) -> list[Option]:
    village = p.village
    out = [Option(move_id(p, i, j, r), f"Move 1 {r} from {CARDS[village[i]['card']].name} to "
                                       f"{CARDS[village[j]['card']].name} ({left} left)", "move")
           for i, j, r in iter_move_places(p)]
    return out + ([Option("stop", "Stop transporting", "stop")] if out else [])


def can_pay(p: Player, e: Entry, cost: Cost, pw: frozenset[str]) -> dict[str, int] | None:
    """The resources taken from the card to pay ``cost`` (exact kinds first, then gold, or
    with the Keyflower boat anything), or None when it cannot be paid."""
    if any(p.skills[s] + p.doubles[s] < n for s, n in cost.skills):
        return None
    have = dict(e["res"])
    paid: dict[str, int] = {}
    short = 0
    for r, n in cost.resources:
        use = min(n, have.get(r, 0))
        have[r] = have.get(r, 0) - use
        if use:
            paid[r] = paid.get(r, 0) + use
        short += n - use
    for r in _WILD_KEYFLOWER if "keyflower" in pw else _WILD:
        use = min(short, have.get(r, 0))
        have[r] = have.get(r, 0) - use
        if use:
            paid[r] = paid.get(r, 0) + use
        short -= use
    return paid if short == 0 else None


# what fills in for a missing resource, gold first: gold, or with the Keyflower boat any resource
_WILD = ("gold",)
_WILD_KEYFLOWER = tuple(sorted(RESOURCES, key=lambda x: x != "gold"))


def iter_upgrades(g: Game, p: Player) -> Iterator[Entry]:
    """The cards whose next upgrade the player can pay now (while upgrade tiles last)."""
    if not g.tile_supply:
        return
    pw = None  # the boats' powers, once a card needs them
    for e in p.village:
        level = len(e["tiles"])
        # each resource on the card pays at most one of the cost (gold or the Keyflower boat
        # stand in, never add): a card holding fewer than the cost takes can never pay it
        if _UPGRADE_NEEDS[e["card"]][level] <= (sum(e["res"].values()) if e["res"] else 0):
            if pw is None:
                pw = powers(p)
            if can_pay(p, e, CARDS[e["card"]].costs[level], pw) is not None:
                yield e


NO_UPGRADE = 99  # more resources than a card ever holds
# by card id, by panel: how many resources its next upgrade takes (NO_UPGRADE on the last panel)
_UPGRADE_NEEDS = {cid: tuple(sum(n for _, n in cost.resources) for cost in c.costs) + (NO_UPGRADE,)
                  for cid, c in CARDS.items()}


def iter_flips(p: Player) -> Iterator[Entry]:
    """The cards with an upgrade tile that can be flipped to its point side."""
    return (e for e in p.village if "house" in e["tiles"])


def upgrade_options(g: Game, p: Player, left: int) -> list[Option]:
    out = []
    for e in iter_upgrades(g, p):
        c = CARDS[e["card"]]
        level = live_panel(e)
        out.append(Option(f"upgrade:{where(e)}", f"Upgrade {c.name} to {c.panels[level + 1].points} points "
                          f"({cost_text(c.costs[level])}; {left} left)", "upgrade", f"card:{p.seat}:{where(e)}"))
    for e in iter_flips(p):
        out.append(Option(f"flip:{where(e)}", f"Flip an upgrade tile on {CARDS[e['card']].name} to 1 point",
                          "flip", f"card:{p.seat}:{where(e)}"))
    return out + ([Option("stop", "Stop upgrading", "stop")] if out else [])


def cost_text(cost: Cost) -> str:
    return " + ".join([f"{n} {r}" for r, n in cost.resources] + [f"{n} {s}" for s, n in cost.skills])


def do_job(g: Game, p: Player, option_id: str) -> None:
    job = p.jobs[0]
    kind, _, rest = option_id.partition(":")
    if kind in ("stop", "skip"):
        p.jobs.pop(0)
    elif kind == "take":
        onto = own_card(p, find(p, job["onto"]))
        add_res(onto, "res", rest, job["n"])
        g.log.append(f"{seat_ref(p.seat)} takes {job['n']} {rest}.")
        p.jobs.pop(0)
    elif kind == "pay":
        pay_skill(g, p, rest)
        panel = CARDS[job["card"]].panels[job["panel"]]
        convert = next(x for x in panel.action if x.kind == "convert")
        got = gain(g, p, convert.gains, find(p, job["onto"]))
        g.log.append(f"{seat_ref(p.seat)} pays a {rest} tile for {got or 'nothing'}.")
        p.jobs.pop(0)
    elif kind == "move":
        a, b, r = rest.split(":")
        src, dst = own_card(p, find(p, a)), own_card(p, find(p, b))
        add_res(src, "res", r, -1)
        add_res(dst, "stored" if CARDS[dst["card"]].kind == "store" else "res", r, 1)
        g.log.append(f"{seat_ref(p.seat)} moves 1 {r} from {CARDS[src['card']].name} to {CARDS[dst['card']].name}.")
        one_done(p)
    elif kind == "upgrade":
        upgrade(g, p, find(p, rest))
        one_done(p)
    elif kind == "flip":
        e = own_card(p, find(p, rest))
        tiles = list(e["tiles"])
        tiles[tiles.index("house")] = "points"
        e["tiles"] = tiles
        extra = ""
        if "flipper" in powers(p):
            add_res(e, "res", "gold", 1)
            extra = " (Flipper: 1 gold)"
        g.log.append(f"{seat_ref(p.seat)} flips an upgrade tile on {CARDS[e['card']].name} to 1 point{extra}.")
        one_done(p)
    prune_jobs(g, p)
    if g.phase == TOKENS:
        check_tokens_over(g, p)
    elif not anyone_owes(g):
        # the turn ends: the hands pass or the tokens start, setting every seat's fields, and
        # the others' players are the earlier game's (clone's ``only``)
        g.players = [q if q is p else _made(Player, dict(q.__dict__)) for q in g.players]
        after_turn(g)


def one_done(p: Player) -> None:
    """One unit of the first job is used: the job is a new dict with one left fewer (copies
    share the old one), or gone."""
    job = p.jobs[0]
    left = job["left"] - 1
    if left:
        p.jobs[0] = {**job, "left": left}
    else:
        p.jobs.pop(0)


def pay_skill(g: Game, p: Player, skill: str) -> None:
    """A skill tile goes back to the supply: single-sided first, double-sided to their own pile."""
    if p.skills[skill]:
        p.skills = {**p.skills, skill: p.skills[skill] - 1}  # new dicts: copies share the old
    else:
        p.doubles = {**p.doubles, skill: p.doubles[skill] - 1}
        g.doubles = {**g.doubles, skill: g.doubles[skill] + 1}


def upgrade(g: Game, p: Player, e: Entry) -> None:
    e = own_card(p, e)
    c = CARDS[e["card"]]
    cost = c.costs[live_panel(e)]
    paid = can_pay(p, e, cost, powers(p))
    assert paid is not None
    for r, n in paid.items():
        add_res(e, "res", r, -n)
    for s, n in cost.skills:
        for _ in range(n):
            pay_skill(g, p, s)
    e["tiles"] = e["tiles"] + ["house"]
    g.tile_supply -= 1
    g.log.append(f"{seat_ref(p.seat)} upgrades {c.name} (paying {cost_text(cost)}): it now shows "
                 f"{c.panels[live_panel(e)].points} points.")


# --- After the draft: keyple tokens, then the keyple cards go under the store card ---

def token_cost(e: Entry) -> int | None:
    """Tokens needed for one more activation: 1 with 0–1 before, 2 with 2, none past 3."""
    acts = len(e["keyples"]) + e["token_acts"]
    return 1 if acts <= 1 else 2 if acts == 2 else None


def iter_token_uses(p: Player) -> Iterator[tuple[Entry, int]]:
    """(building, tokens it takes): own road buildings with an action that keyple tokens
    can activate once more now."""
    tokens = p.tokens
    if not tokens:
        return
    for e in p.village:
        if e["row"] != ROAD or not _ACTIONS[e["card"]][len(e["tiles"])]:  # live_action, inline
            continue
        acts = len(e["keyples"]) + e["token_acts"]  # token_cost, inline
        cost = 1 if acts <= 1 else 2 if acts == 2 else 0
        if cost and cost <= tokens:
            yield e, cost


def can_use_tokens(p: Player) -> bool:
    return next(iter_token_uses(p), None) is not None


def token_options(g: Game, p: Player) -> list[Option]:
    return [Option(f"token:{e['col']}", f"Use {plural(cost, 'keyple token')} on {CARDS[e['card']].name}: "
                   f"{describe_action(live_action(e))}", "token", f"card:{p.seat}:{where(e)}")
            for e, cost in iter_token_uses(p)]


def start_tokens(g: Game) -> None:
    g.phase = TOKENS
    for p in g.players:
        p.done = not can_use_tokens(p)
    g.log.append(f"End of the {season_name(g)} draft: keyple tokens may activate your own buildings.")
    check_tokens_over(g)


def use_tokens(g: Game, p: Player, option_id: str) -> None:
    if option_id == "done":
        p.done = True
    else:
        e = own_card(p, find(p, f"{ROAD}.{option_id.removeprefix('token:')}"))
        cost = token_cost(e)
        assert cost is not None
        p.tokens -= cost
        g.token_supply += cost
        e["token_acts"] += 1
        got = activate(g, p, p.seat, e, live_action(e))
        g.log.append(f"{seat_ref(p.seat)} uses {plural(cost, 'keyple token')} on {CARDS[e['card']].name}"
                     + (f": {got}." if got else "."))
        if not p.jobs and not can_use_tokens(p):
            p.done = True
    check_tokens_over(g, p)


def check_tokens_over(g: Game, acting: Player | None = None) -> None:
    """Seats that cannot use a token are done; the season ends when all are. ``acting``
    is the player of its own of a seat that just decided (the others may be the earlier
    game's: clone's ``only``)."""
    for seat, p in enumerate(g.players):
        if not p.jobs and not p.done and not can_use_tokens(p):
            if p is not acting:
                g.players[seat] = p = _made(Player, dict(p.__dict__))  # a player of its own
            p.done = True
    if all(p.done and not p.jobs for p in g.players):
        end_season(g)


def end_season(g: Game) -> None:
    """Keyple cards go face down under their village owner's store card."""
    own_players(g)  # every village changes (the step may have copied only one seat's)
    for p in g.players:
        under = list(p.under_store)  # a new list: copies share the old
        for e in list(p.village):
            if e["keyples"] or e["token_acts"]:  # (a card left as it is stays shared)
                e = own_card(p, e)
                under += [k["card"] for k in e["keyples"]]
                e["keyples"] = []
                e["token_acts"] = 0
        p.under_store = sorted(under, key=_by_card_order)
    g.last_reveal = []  # the season's keyple cards are face down now
    g.log.append(f"End of {season_name(g)}: keyple cards go face down under their village owner's store card.")
    if season_name(g) == "autumn":
        g.phase = WINTER_K
        g.log.append("Each player chooses one winter K card in secret to play into their village.")
        return
    if season_name(g) == "winter":
        finish(g)
        return
    g.season += 1
    deal(g, DEAL[season_name(g)][players_n(g)])


def winter_deck(g: Game) -> None:
    """The winter K cards not chosen are shuffled with the numbered winter cards."""
    rng = Rng(g.rng)
    rest = [cid for p in g.players for cid in p.winter_k]
    for p in g.players:
        p.winter_k = []
    g.decks = {**g.decks, "winter": rng.shuffled(g.decks["winter"] + rest)}  # (copies share the old)
    g.rng = rng.state
    g.season = 3
    deal(g, DEAL["winter"][players_n(g)])


# --- Final scoring ---

def items(p: Player) -> dict[str, int]:
    """What this player can allocate to winter cards (see scoring.accepts for the kinds)."""
    out: dict[str, int] = {}
    get = out.get
    for e in p.village:
        if e["res"]:
            for r, n in e["res"].items():
                out[r] = get(r, 0) + n
        for kind in _CARD_ITEMS[e["card"]][len(e["tiles"])]:
            out[kind] = get(kind, 0) + 1
    for s in SKILLS:  # (only kinds held: no kind with none)
        if n := p.skills[s] + p.doubles[s]:
            out[s] = n
    if p.tokens:
        out["token"] = p.tokens
    for kind in map(_KCARD_ITEM.__getitem__, p.under_store):
        out[kind] = get(kind, 0) + 1
    return out


def _card_items(c: Card, panel: int) -> tuple[str, ...]:
    """The items a village card is itself, showing this panel: its animal icons, a boat, and
    a cart when the panel transports."""
    return (tuple(f"icon:{a}" for a in c.animals) + (("boat",) if c.boat else ())
            + (("cart",) if any(x.kind == "transport" for x in c.panels[panel].action) else ()))


# by card id, by panel: _card_items (content does not change; items() is asked very often)
_CARD_ITEMS = {cid: tuple(_card_items(c, panel) for panel in range(len(c.panels))) for cid, c in CARDS.items()}
# a keyple card's item kind, by card id
_KCARD_ITEM = {cid: f"kcard:{c.colour}:{c.animal or '-'}" for cid, c in CARDS.items()}


def animal_count(p: Player, animal: str) -> int:
    icons = sum(CARDS[e["card"]].animals.count(animal) for e in p.village)
    return icons + sum(CARDS[cid].animal == animal for cid in p.under_store)


def animal_counts(p: Player) -> list[int]:
    """``animal_count`` of each animal, in ANIMALS order, in one pass."""
    counts = [0] * len(ANIMALS)
    for e in p.village:
        for at in _ICONS[e["card"]]:
            counts[at] += 1
    for cid in p.under_store:
        if (at := _KCARD_ANIMAL[cid]) is not None:
            counts[at] += 1
    return counts


# by card id: its animal icons (by place in ANIMALS), and a keyple card's animal (or None)
_ICONS = {cid: tuple(ANIMALS.index(a) for a in c.animals if a in ANIMALS) for cid, c in CARDS.items()}
_KCARD_ANIMAL = {cid: ANIMALS.index(c.animal) if c.animal in ANIMALS else None for cid, c in CARDS.items()}


def score_player(p: Player) -> dict[str, Any]:
    panels = flipped = stores = 0
    scorers = []
    for e in p.village:  # (one pass over the village for each part of the score)
        c = CARDS[e["card"]]
        panels += c.panels[len(e["tiles"])].points
        if e["tiles"]:
            flipped += e["tiles"].count("points")
        if e["stored"]:
            stores += c.store_points * sum(e["stored"].values())
        if c.scoring:
            scorers.append((e["card"], c.scoring))
    total, lines = best_allocation(items(p), scorers, powers(p))
    winter = sum(line.points for line in lines if line.key != "gold")
    gold = sum(line.points for line in lines if line.key == "gold")
    breakdown = {"panels": panels, "flipped tiles": flipped, "stores": stores, "winter cards": winter, "gold": gold}
    return {"seat": p.seat, "score": sum(breakdown.values()), "breakdown": breakdown,
            "tiebreak": animal_counts(p),
            "allocation": [line_json(line) for line in lines]}


def line_json(line: Line) -> dict[str, Any]:
    name = CARDS[line.key].name if line.key in CARDS else "Unallocated gold"
    return {"card": line.key, "name": name, "variant": line.variant, "sets": line.sets, "points": line.points,
            "items": line.items}


def finish(g: Game) -> None:
    g.phase = OVER
    g.final = [score_player(p) for p in g.players]
    r = result(g)
    assert r is not None
    names = ", ".join(f"{seat_ref(s.seat)} {s.score}" for s in r.scores)
    g.log.append(f"Game over. Scores: {names}. " + " and ".join(seat_ref(w) for w in r.winners)
                 + (" win." if len(r.winners) > 1 else " wins."))


def result(g: Game) -> Result | None:
    if g.phase != OVER or g.final is None:
        return None
    scores = [SeatScore(f["seat"], f["score"], dict(f["breakdown"]), tuple(f["tiebreak"]),
                        "tiebreak: sheep, then pigs, then cows") for f in g.final]
    return Result(scores, winners_by_score(scores), "after winter")


# --- The protocol: who acts, what they may choose, applying a choice ---

def to_act(g: Game) -> frozenset[Seat]:
    # is_acting for every seat, its phase asked once (a playout asks at every step); for six
    # players, a comprehension's attribute reads cost less than map() with attrgetter and
    # compress() (which read each attribute through the generic lookup)
    phase = g.phase
    if phase == OVER:
        return NOBODY
    acting = []  # (a loop: a comprehension makes and calls a function each time)
    if phase in (DRAFT, WINTER_K):
        for p in g.players:
            if p.chosen is None:
                acting.append(p.seat)
    elif phase == RESOLVE:
        for p in g.players:
            if p.jobs:
                acting.append(p.seat)
    elif phase == TOKENS:
        for p in g.players:
            if p.jobs or not p.done:
                acting.append(p.seat)
    return frozenset(acting)


def is_acting(g: Game, p: Player) -> bool:
    """Is ``p`` in ``to_act``? (Asked for one seat by listing and applying.)"""
    if g.phase in (DRAFT, WINTER_K):
        return p.chosen is None
    if g.phase == RESOLVE:
        return bool(p.jobs)
    if g.phase == TOKENS:
        return bool(p.jobs) or not p.done
    return False


def options(g: Game, seat: Seat) -> list[Option]:
    if seat not in to_act(g):
        return []
    p = g.players[seat]
    if g.phase in (DRAFT, WINTER_K):
        return use_options(g, p) if p.choosing else pick_options(g, p)
    if p.jobs:
        return job_options(g, p, p.jobs[0])
    return token_options(g, p) + [Option("done", "Done with keyple tokens", "done")]


def option_ids(g: Game, seat: Seat) -> list[str]:
    """The ids of ``options``, in its order, without their words: what ``apply`` checks a
    choice against and all the bot reads (labels were a tenth of a bot game's time).
    tests/games/key_flow/test_properties.py checks both list the same ids all game long."""
    if not is_seat(g, seat) or not is_acting(g, g.players[seat]):
        return []
    p = g.players[seat]
    if g.phase in (DRAFT, WINTER_K):
        if not p.choosing:
            return pick_ids(g, p)
        c = CARDS[p.choosing]
        if c.kind == "keyple":
            out = [f"on:{owner}:{e['col']}" for owner, e, _ in targets(g, p, c)]
        else:
            assert c.row is not None
            out = [f"{c.row}:{col}" for col in spots(p, c.row)]
        return out + (["discard", "cancel"] if g.phase == DRAFT else ["cancel"])
    if not p.jobs:
        return [f"token:{e['col']}" for e, _ in iter_token_uses(p)] + ["done"]
    job = p.jobs[0]
    do = job["do"]
    if do == "any":
        return [f"take:{r}" for r in BASIC]
    if do == "convert":
        out = [f"pay:{s}" for s in iter_payable(p, job)]
    elif do == "transport":
        out = [move_id(p, i, j, r) for i, j, r in iter_move_places(p)]
    else:
        out = [f"upgrade:{where(e)}" for e in iter_upgrades(g, p)] + [f"flip:{where(e)}" for e in iter_flips(p)]
    return out + ([("skip" if do == "convert" else "stop")] if out else [])


def pick_ids(g: Game, p: Player) -> list[str]:
    """The ids of the cards ``p`` may pick now (its hand, or its winter K cards)."""
    return list(map(_PICK_IDS.__getitem__, p.winter_k if g.phase == WINTER_K else p.hand))


def is_draft_choice(g: Game, p: Player, option_id: object) -> bool:
    """Would ``option_ids`` list this id for ``p``, who chooses in the draft (or its winter
    K card) now? Found without listing every option (tests/games/key_flow/test_properties.py
    checks the two agree on every id at every draft decision of seeded games)."""
    if type(option_id) is not str:
        return False
    if p.choosing is None:
        return option_id.startswith("pick:") and option_id[5:] in (p.winter_k if g.phase == WINTER_K else p.hand)
    if option_id in ("cancel", "discard"):
        return option_id == "cancel" or g.phase == DRAFT
    # the bot asks this of the use it weighed best, then apply of the same use: the answer
    # is kept for that very game, player, picked card and id (no step changes a game it
    # was given, and the slot holds them, so their id()s are not reused)
    global _use_checked
    kept = _use_checked
    if kept[0] is g and kept[1] is p and kept[2] == p.choosing and kept[3] == option_id:
        return kept[4]
    listed = _is_use_listed(g, p, option_id)
    _use_checked = (g, p, p.choosing, option_id, listed)
    return listed


_use_checked: tuple[Any, ...] = (None, None, None, None, False)  # is_draft_choice's last use asked


def _is_use_listed(g: Game, p: Player, option_id: str) -> bool:
    """``is_draft_choice`` for a place in the village or a building (the picked card's use)."""
    c = CARDS[p.choosing]  # type: ignore[index]
    kind, _, rest = option_id.partition(":")
    if c.kind != "keyple":
        return kind == c.row and _number(rest) in spots(p, kind)
    owner_text, _, col_text = rest.partition(":")
    owner, col = _number(owner_text), _number(col_text)
    if kind != "on" or owner is None or col is None:
        return False
    for seat, lo, hi in reachable(g, p, c):
        if seat == owner:
            e = card_at(g.players[owner], ROAD, col)
            return e is not None and keyple_tokens(e, c.keyples, p.tokens, lo, hi, owner == p.seat) is not None
    return False


def _number(text: str) -> int | None:
    """A whole number written as an option id writes one (``str(int)``), else None."""
    n = _SMALL_NUMBERS.get(text)  # the seats and columns ids hold: no parse
    if n is not None:
        return n
    try:
        n = int(text)
    except ValueError:
        return None
    return n if str(n) == text else None


_SMALL_NUMBERS = {str(n): n for n in range(-30, 31)}


_PICK_IDS = {cid: f"pick:{cid}" for cid in CARDS}  # by card id (content does not change)


# What the bot listed last (ids alone), for the next ``apply`` on that game (protocol.ListedOnce).
_LISTED = ListedOnce(option_ids)  # type: ignore[arg-type]


def listed(g: Game, seat: Seat) -> list[str]:
    """The ids of ``options``, for a caller that next applies one of them to this very
    game (the bot)."""
    return _LISTED.listed(g, seat)  # type: ignore[return-value]


def checked_alone(g: Game, p: Player) -> bool:
    """Does ``apply`` check this acting seat's choice by itself, without listing every
    option (``is_choice_listed``): a pick, the picked card's use, a transport move? The bot
    then weighs those as the rules find them and lists nothing either."""
    if g.phase in (DRAFT, WINTER_K):
        return p.chosen is None
    return g.phase in (RESOLVE, TOKENS) and bool(p.jobs) and p.jobs[0]["do"] == "transport"


def is_choice_listed(g: Game, p: Player, option_id: object) -> bool:
    """Would ``option_ids`` list this id for a seat whose choice is ``checked_alone``?
    (tests/games/key_flow/test_properties.py checks the two agree on every id at every such
    decision of seeded games.)"""
    return is_draft_choice(g, p, option_id) if g.phase in (DRAFT, WINTER_K) else is_move_listed(p, option_id)


def is_move_listed(p: Player, option_id: object) -> bool:
    """Would ``option_ids`` list this id for ``p``'s transport job?"""
    if option_id == "stop":
        return can_move(p)
    if type(option_id) is not str or not option_id.startswith("move:"):
        return False
    parts = option_id.split(":")
    if len(parts) != 4:
        return False
    _, a, b, r = parts
    # each place read as where() writes it (a row, a dot, a column as str(int) writes it)
    a_row, _, a_col = a.partition(".")
    b_row, _, b_col = b.partition(".")
    src, dst = card_at(p, a_row, _number(a_col)), card_at(p, b_row, _number(b_col))
    return (src is not None and dst is not None and r in RESOURCES and bool(src["res"].get(r))
            and src["card"] not in _STORES and touching(src, dst) and r not in _REFUSES[dst["card"]])


def is_seat(g: Game, seat: object) -> bool:
    return isinstance(seat, int) and 0 <= seat < len(g.players)


def apply(g: Game, seat: Seat, option_id: str) -> Game:
    kept = _LISTED.offered(g, seat)  # (always asked: it forgets what was listed)
    p = g.players[seat] if is_seat(g, seat) else None
    # A choice apply checks alone (a seat checked alone is an acting one: a real seat, the
    # game not over) passes every refusal of check_choice once found listed: it is asked
    # only to refuse one that is not.
    if p is not None and checked_alone(g, p):
        listed = is_choice_listed(g, p, option_id)
    else:  # check_choice asks only whether this seat acts (a valid seat: else it refuses first)
        acting = frozenset((seat,)) if p is not None and is_acting(g, p) else NOBODY
        check_choice(seat, len(g.players), g.phase == OVER, acting, partial(_kept_holds, kept, option_id), option_id)
        listed = True
    if not listed:
        check_choice(seat, len(g.players), False, frozenset((seat,)), _NOT_LISTED, option_id)
    if g.phase in (DRAFT, WINTER_K):
        g = clone(g) if reveals_now(g, seat, option_id) else chooser_copy(g, seat)
        choose_step(g, g.players[seat], option_id)
        return g
    g = clone(g, only=seat)  # a decision after a reveal, or a token: this seat's own things
    p = g.players[seat]
    if p.jobs:
        do_job(g, p, option_id)
    else:
        use_tokens(g, p, option_id)
    return g


def _NOT_LISTED() -> bool:  # check_choice's ``offered`` for a choice found not listed
    return False


def _kept_holds(kept: Any, option_id: str) -> bool:  # check_choice's ``offered`` for a listed seat
    return option_id in kept()


def reveals_now(g: Game, seat: Seat, option_id: str) -> bool:
    """Does this draft choice complete the turn (everyone else has chosen already)?"""
    if option_id == "cancel" or option_id.startswith("pick:"):
        return False
    chooser = g.players[seat]  # (the chooser's choice is being made now)
    for q in g.players:
        if not q.chosen and q is not chooser:
            return False
    return True


def chooser_copy(g: Game, seat: Seat) -> Game:
    """A copy for a secret choice that reveals nothing: it only sets the chooser's
    ``choosing`` or ``chosen`` (to a new dict), so the new game and the chooser share every
    list and dict with the old ones, and the other players are the old ones. Most of a
    draft's steps are such choices, and no step ever changes a player, list or dict of a
    game it was given (any other step copies what it changes)."""
    _fresh.clear()  # the two games share every card now
    attrs = dict(g.__dict__)
    players = list(g.players)
    players[seat] = _made(Player, dict(players[seat].__dict__))
    attrs["players"] = players
    return _made(Game, attrs)


def clone(g: Game, only: Seat | None = None) -> Game:
    """An independent copy, knowing the state's shape (every action copies the game once,
    and the generic deep copy was most of a playout's time). The objects are made without
    running their ``__init__`` (every field is set here); tests/games/key_flow/
    test_properties.py checks the copy equals the generic one and shares nothing the rules
    change in place. The village cards are shared (a step copies the ones it changes:
    ``own_card``; copying every card of every village was about 3% of a 6-player game).

    With ``only``, the other seats' players are those of ``g``: a decision after a reveal
    or a keyple token changes only that seat's own things and the game's, until a step
    sets another seat's field, which first gives that seat a player of its own
    (``check_tokens_over``, ``do_job`` before ``after_turn``; end_season, which changes
    every village, first calls ``own_players``)."""
    _fresh.clear()  # the two games share every card now
    if only is None:
        players = list(map(_player_copy, g.players))
    else:
        players = list(g.players)
        players[only] = _player_copy(players[only])
    attrs = dict(g.__dict__)
    attrs["players"] = players
    # the options, the decks, the double-sided tiles left, the box, the skill pile and
    # last_reveal are never changed in place (a step replaces them): shared
    attrs["final"] = None if g.final is None else copy.deepcopy(g.final)  # set once, at the end
    attrs["log"] = GameLog(g.log.recent, g.log.total, g.log.keep)
    return _made(Game, attrs)


def own_players(g: Game) -> None:
    """Every player of ``g`` gets lists and dicts of its own (see ``clone``'s ``only``)."""
    _fresh.clear()  # the earlier players share every card
    g.players = [_player_copy(p) for p in g.players]


def _player_copy(p: Player) -> Player:
    # the plain values (str, int, bool, None), the chosen use, the skill dicts and the cards
    # under the store as they are: a step replaces them, never changes them in place
    attrs = dict(p.__dict__)
    attrs["village"] = list(p.village)  # the cards shared until a step changes one (own_card)
    attrs["jobs"] = list(p.jobs)  # its dicts never changed in place (one_done replaces one)
    return _made(Player, attrs)


# The copies take their fields with dict(obj.__dict__), not obj.__dict__.copy(): an object made
# by its class (setup, load) keeps a split dict (keys shared with its class), whose copies stay
# split, and the interpreter reads a split dict's attributes through the generic lookup, never
# its specialised one (a game's every p.village, g.phase...: about 6% of a 6-player bot game).
# dict() builds a combined one, and copies of that stay combined.


def _made(cls: type, attrs: dict[str, Any]) -> Any:
    """An instance holding exactly ``attrs``, its ``__init__`` not run (a copy sets them all)."""
    obj = object.__new__(cls)
    obj.__dict__ = attrs
    return obj


def dump(g: Game) -> dict[str, Any]:
    return dump_game(g)


def load(raw: dict[str, Any]) -> Game:
    return load_game(Game, Player, raw)
