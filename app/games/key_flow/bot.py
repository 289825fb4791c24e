"""A Key Flow bot for tests and benchmarks, drafting toward its winter cards.

It only reads what its seat may see: its hand, its winter K cards, its store card's cards
and the public table. Its goals are the slot words of its winter K cards (and of the winter
scoring cards in its village): a card that feeds a goal (an animal, a keyple colour, a boat,
a transport card, the resources, skills or tokens a goal takes) is worth more to it.

Drafting: every card in hand gets the value of its best use (a building early, a keyple
card on the building whose live action gives most, a winter card by the points it adds to
its best allocation), against discarding for a token. After a reveal it takes the resource
its next upgrade needs, pays its most plentiful skill tile, moves resources toward a
building it can then upgrade or onto a store, upgrades for the most points, flips when it
cannot upgrade, and spends keyple tokens on its best building.
"""

from __future__ import annotations

from functools import partial
from itertools import count
from operator import is_not, itemgetter
from typing import Any

from app.games.rng import Rng

from .content import BASIC, CARDS, PASS_LEFT, RESOURCES, RIVER, ROAD, SEASONS, SKILLS, Card, Effect
from .rules import (DRAFT, RESOLVE, TOKENS, USES, WINTER_K, Entry, Game, Player, add_res, can_pay, checked_alone, find,
                    is_draft_choice, items, listed, live_action, live_panel, move_id, pick_ids,
                    powers, reachable, season_name, shape_neighbours, village_shape)
from .rules import spots as free_columns
from .scoring import accepts

Seat = int
EARLY = {"spring": 3, "summer": 2, "autumn": 1, "winter": -2}


def goals(g: Game, p: Player) -> frozenset[str]:
    # only winter scoring cards have slot words: the words are kept by the winter K cards and
    # the village's winter scoring cards (found in C), which change seldom
    # (winter scoring cards are winter's: before winter no village holds one, unread)
    key = (tuple(p.winter_k), _SCORERS.intersection(map(_card_of, p.village)) if g.season == _WINTER else _NO_CARDS)
    words = _goals_known.get(key)
    if words is None:
        if len(_goals_known) > 20000:  # a bound, not a policy
            _goals_known.clear()
        words = _goals_known[key] = _goals(p)
    return words


_goals_known: dict[tuple[tuple[str, ...], frozenset[str]], frozenset[str]] = {}  # a pure function of its key
_SCORERS = frozenset(cid for cid, c in CARDS.items() if c.scoring)  # the cards with slot words
assert all(CARDS[cid].season == "winter" for cid in _SCORERS)  # (goals reads the village in winter only)
_WINTER = SEASONS.index("winter")
_NO_CARDS: frozenset[str] = frozenset()
_card_of = itemgetter("card")


def _goals(p: Player) -> frozenset[str]:
    words: set[str] = set()
    for cid in p.winter_k:
        words |= slot_words(cid)
    for e in p.village:
        if e["card"] in _SCORERS:  # (only winter scoring cards have slot words)
            words |= slot_words(e["card"])
    return frozenset(words)


_slot_words: dict[str, frozenset[str]] = {}  # by card id: content does not change


def slot_words(cid: str) -> frozenset[str]:
    """The slot words of a winter scoring card's variants (none for other cards)."""
    known = _slot_words.get(cid)
    if known is None:
        known = _slot_words[cid] = frozenset(slot for v in CARDS[cid].scoring for slot in v.slots)
    return known


_BASIC = frozenset(BASIC)
_SKILL_WORDS = frozenset(SKILLS + ("skill",))


def effect_value(p: Player, e: Effect, want: frozenset[str], own: bool) -> float:
    if e.kind == "gain":
        return e.amount * (1.5 if e.what in want or (e.what == "gold" and want & _BASIC) else 1.0)
    if e.kind == "any":
        return e.amount * 1.1
    if e.kind == "skill":
        return e.amount * (2.0 if want & _SKILL_WORDS else 1.2)
    if e.kind == "token":
        return e.amount * (1.6 if "token" in want else 1.0)
    if e.kind == "convert":
        held = sum(p.skills.values()) + sum(p.doubles.values())
        return sum(effect_value(p, x, want, own) for x in e.gains) - 1.2 if held else 0.0
    if not own:
        return 0.0
    if e.kind == "transport":
        return min(e.amount, _village_facts(p)[1]) * 0.6  # the resources on the village's cards
    return 2.5 * e.amount if upgradable(p) else 0.6 * min(e.amount, flippable(p))


def token_worth(want: frozenset[str]) -> float:
    """What a keyple token is worth to keep (a winter card scoring tokens makes it more)."""
    return 2.2 if "token" in want else 0.8


def upgradable(p: Player) -> int:
    key = ("upgradable", id(p))
    if key not in _memo:
        _memo[key] = _upgradable(p)
    return _memo[key]


def _upgradable(p: Player) -> int:
    pw = powers(p)
    return sum(1 for e in p.village if live_panel(e) < len(CARDS[e["card"]].costs)
               and can_pay(p, e, CARDS[e["card"]].costs[live_panel(e)], pw) is not None)


def flippable(p: Player) -> int:
    return _village_facts(p)[2]  # its house tiles


def _village_counts(p: Player) -> tuple[int, int]:
    """The resources on the village's cards and its upgrade tiles that can be flipped
    (houses), once per decision."""
    known = _village_facts(p)
    return known[1], known[2]


def _village_facts(p: Player) -> tuple[Player, int, int, list[tuple[int, int, Any, int]], dict[int, int]]:
    """What the bot reads of the seat's own village, in one pass once per decision: (p, the
    resources on its cards, its house tiles, the cards with an upgrade that adds points as
    (gain, place, its cost, how many resources it takes beyond what the card holds), largest
    gain first, then last place), and a dict for ``_reachable_upgrade``'s shortfalls by place)."""
    global _facts_now
    known = _facts_now
    if known[0] is not p:  # the slot keeps p: its id() is not reused
        total = houses = 0
        ups = []
        for at, e in enumerate(p.village):
            res, tiles = e["res"], e["tiles"]
            up = _GAINING[e["card"]][len(tiles)]  # None: no upgrade that adds points
            if res:
                held = sum(res.values())
                total += held
                if up is not None:
                    ups.append((up[0], at, up[2], up[1] - held))
            elif up is not None:
                ups.append((up[0], at, up[2], up[1]))
            if tiles:
                houses += tiles.count("house")
        ups.sort(reverse=True)  # largest gain first, then last place (places differ: the rest is never compared)
        known = _facts_now = (p, total, houses, ups, {})
    return known


def action_value(p: Player, action: tuple[Effect, ...], want: frozenset[str], own: bool) -> float:
    only = _GAINS_ONLY.get(id(action)) if own else True
    if only is None:  # not a content action
        only = _gains_only(action)
    if only:
        # on a neighbour's building only the gains count, and an action without transport
        # or upgrades only gains: the worth reads the goals and whether the seat holds a
        # skill tile (to convert), so it is kept by those for every decision (the action is
        # the content's own object: its id() is never reused)
        worths = _gains_worths(p, want, own)
        worth = worths.get(id(action))
        if worth is None:
            worth = worths[id(action)] = _action_value(p, action, want, own)
        return worth
    # the same building's action is weighed for many cards in one decision; the memo keeps
    # the objects it was asked about, so a key is never another object's reused id()
    key = ("action", id(p), id(action), id(want), own)
    known = _memo.get(key)
    if known is not None and known[0] is p and known[1] is action and known[2] is want:
        return known[3]
    value = _action_value(p, action, want, own)
    _memo[key] = (p, action, want, value)
    return value


def _action_value(p: Player, action: tuple[Effect, ...], want: frozenset[str], own: bool) -> float:
    # (loops, not sums over generators: the same additions in the same order)
    ups = carts = 0
    if own:
        for e in action:
            if e.kind == "upgrade":
                ups += e.amount
            elif e.kind == "transport":
                carts += e.amount
    v = 0
    if not ups:
        for e in action:
            v += effect_value(p, e, want, own)
        return v
    # transport and upgrades together: an upgrade is worth what it adds, when the transport
    # of this same action (or what already sits on the card) makes one payable
    gain = reachable_upgrade(p, carts)
    for e in action:
        if e.kind != "upgrade":
            v += effect_value(p, e, want, own)
    if gain:
        return v + 0.9 * gain + 0.6 * min(ups - 1, flippable(p))
    return v + 0.6 * min(ups, flippable(p))


def _gains_worths(p: Player, want: frozenset[str], own: bool) -> dict[int, float]:
    """The kept worths of actions that only gain (by id() of the action) for the seat's
    goals, whether it holds a skill tile and whether the village is its own: found once
    per decision."""
    global _gains_own, _gains_other
    known = _gains_own if own else _gains_other
    if known[0] is p and known[1] is want:  # the slot keeps p: its id() is not reused
        return known[2]
    # the worths read the goals only through the words effect_value weighs: seats (and
    # games) whose goals differ only in other words share them
    shared = (want & _WORTH_WORDS, any(p.skills.values()) or any(p.doubles.values()), own)
    worths = _gains_worth.get(shared)
    if worths is None:
        if len(_gains_worth) > 2000:  # a bound, not a policy
            _gains_worth.clear()
        worths = _gains_worth[shared] = {}
    if own:
        _gains_own = (p, want, worths)
    else:
        _gains_other = (p, want, worths)
    return worths


# The goal words effect_value reads of an action that only gains (or of any action in a
# neighbour's village): a resource gained, the basic resources (gold stands in for them),
# the skill words and keyple tokens.
_WORTH_WORDS = frozenset({x.what for c in CARDS.values() for action in (c.reward, *(panel.action for panel in c.panels))
                          for e in action for x in (e, *e.gains) if x.kind == "gain"}) | _BASIC | _SKILL_WORDS | {"token"}
# by (goals among _WORTH_WORDS, holds a skill, own village), by id() of a content action
# (never reused): its worth
_gains_worth: dict[tuple[frozenset[str], bool, bool], dict[int, float]] = {}
_gains_only_known: dict[int, tuple[tuple[Effect, ...], bool]] = {}  # by id() of a content action (kept: never reused)


# by id() of each content action (rewards and panels; kept by CARDS, so never reused): does it
# only gain (_gains_only)?
_GAINS_ONLY = {id(action): not any(e.own_village_only for e in action)
               for c in CARDS.values() for action in (c.reward, *(panel.action for panel in c.panels))}


def _gains_only(action: tuple[Effect, ...]) -> bool:
    """Does this action only gain (no transport or upgrade, which read the village)?"""
    known = _gains_only_known.get(id(action))
    if known is None or known[0] is not action:
        known = _gains_only_known[id(action)] = (action, not any(e.own_village_only for e in action))
    return known[1]


def forget() -> None:
    """Empty the bot's memo of one decision (at each: the player does not change within
    one) and the slots keeping the facts a decision asks most often (for the last player
    asked), read without a key."""
    global _facts_now, _steps_now, _items_now, _gains_own, _gains_other
    _facts_now = _steps_now = _items_now = _gains_own = _gains_other = _NO_SLOT
    _memo.clear()


_NO_SLOT: tuple[Any, ...] = (None,)  # a slot kept for no player (its first item is never a player)
# A plain dict: a dict subclass's get and item reads miss the interpreter's specialised paths
_memo: dict[Any, Any] = {}
# _village_facts, _village_steps, _items_known and _gains_worths (own village, another's):
# each a tuple starting with the player it was found for
_facts_now = _steps_now = _items_now = _gains_own = _gains_other = _NO_SLOT


def steps_from(p: Player, start: int) -> dict[int, int]:
    """Steps along touching cards from the card at place ``start`` of the village to every
    card reached (places in the village), nearest first; nothing moves on from a store."""
    return _village_steps(p)[2][start] or _steps_from(p, start)


def _village_steps(p: Player) -> tuple[Player, tuple[tuple[int, ...], ...], list[dict[int, int] | None],
                                       tuple[bool, ...]]:
    """(p, the cards each card touches, the steps from each card once found, is a store per
    card), kept by the village's shape: its places and which cards are stores, read in C."""
    global _steps_now
    known = _steps_now
    if known[0] is not p:  # the slot keeps p: its id() is not reused
        village = p.village
        places = village_shape(village)
        stores = tuple(map(_IS_STORE.__getitem__, map(_card_of, village)))
        kept = _steps_known.get((places, stores))
        if kept is None:
            if len(_steps_known) > 20000:  # a bound, not a policy: shapes recur within a game
                _steps_known.clear()
            kept = _steps_known[(places, stores)] = (shape_neighbours(places), [None] * len(places))
        known = _steps_now = (p, kept[0], kept[1], stores)
    return known


def _steps_from(p: Player, start: int) -> dict[int, int]:
    _, near, table, stores = _village_steps(p)
    dist = {start: 0}
    todo = [start]
    for a in todo:  # breadth first: the list grows behind the loop
        for b in near[a]:
            if b not in dist:
                dist[b] = dist[a] + 1
                if not stores[b]:  # nothing moves on from a store
                    todo.append(b)
    table[start] = dist
    return dist  # nearest first, as reached


_IS_STORE = {cid: c.kind == "store" for cid, c in CARDS.items()}  # by card id: content does not change
# by village shape (places, is a store per card): the cards each touches (rules.neighbours),
# and the steps from each start, once computed
_steps_known: dict[tuple[tuple[tuple[str, int], ...], tuple[bool, ...]],
                   tuple[tuple[tuple[int, ...], ...], list[dict[int, int] | None]]] = {}


def reachable_upgrade(p: Player, carts: int) -> int:
    """The most points one upgrade could add after moving at most ``carts`` resources onto
    the card it needs them on, from cards of the village holding them (how far they are is
    not searched: walking the village for every pick cost more than the estimate's error);
    0 when none can."""
    key = ("reach", id(p), carts)
    known = _memo.get(key)
    if known is None:
        known = _memo[key] = _reachable_upgrade(p, carts)
    return known


def _reachable_upgrade(p: Player, carts: int) -> int:
    pw = None  # the boats' powers, once a card needs them
    village = p.village
    facts = _village_facts(p)
    short = facts[4]  # by place: the resources its upgrade still lacks in all (gold on it filling in)
    # the cards are tried largest gain first, and the first card within reach answers
    for gain, at, cost, beyond in facts[3]:
        # each resource on the card pays at most one of the cost, each missing one takes a
        # cart: a cost that far beyond what the card holds is out of reach
        if beyond > carts or (cost.skills and _lacks_skill(p, cost.skills)):
            continue
        missing = short.get(at)
        if missing is None:  # the same card is asked again for another number of carts
            if pw is None:
                pw = powers(p)
            missing = 0
            for _, n in shortfall(village[at], cost, pw):  # (its skills are checked above)
                missing += n
            short[at] = missing
        # each missing resource takes a cart (whether the village's other cards hold it is
        # not asked: checking it was a few per cent of a game for little strength)
        if missing <= carts:
            return gain
    return 0


def _lacks_skill(p: Player, skills: tuple[tuple[str, int], ...]) -> bool:
    """Does the seat hold fewer of a skill than ``skills`` takes (a loop: no generator)?"""
    for s, n in skills:
        if p.skills[s] + p.doubles[s] < n:
            return True
    return False


_upgrade_gains: dict[tuple[str, int], int] = {}  # by (card, panel): content does not change


def upgrade_gain(card_id: str, level: int) -> int:
    """The points the next upgrade adds to a card showing panel ``level`` (0: none left)."""
    known = _upgrade_gains.get((card_id, level))
    if known is None:
        c = CARDS[card_id]
        known = _upgrade_gains[(card_id, level)] = \
            c.panels[level + 1].points - c.panels[level].points if level < len(c.costs) else 0
    return known


# by card id, by panel: (upgrade_gain, how many resources the next upgrade takes, its cost),
# (0, 0, None) once no upgrade is left
_UPGRADES = {cid: tuple((upgrade_gain(cid, level), sum(n for _, n in c.costs[level].resources), c.costs[level])
                        if level < len(c.costs) else (0, 0, None) for level in range(len(c.panels)))
             for cid, c in CARDS.items()}
# by card id, by panel: _UPGRADES' entry when its upgrade adds points, else None
_GAINING = {cid: tuple(up if up[0] > 0 else None for up in by_panel) for cid, by_panel in _UPGRADES.items()}


_whole_costs: dict[int, tuple[Any, list[tuple[str, int]]]] = {}  # by id() of a content cost: its resources


def shortfall(e: Entry, cost: Any, pw: frozenset[str]) -> list[tuple[str, int]]:
    """Resources a card's next upgrade still lacks after what sits on it (gold on it fills in)."""
    if not e["res"]:  # nothing on the card: the whole cost
        known = _whole_costs.get(id(cost))
        if known is None or known[0] is not cost:  # kept with the cost: its id() is not reused
            known = _whole_costs[id(cost)] = (cost, [(r, n) for r, n in cost.resources if n > 0])
        return known[1]  # (only read)
    have = dict(e["res"])
    out = []
    for r, n in cost.resources:
        use = min(n, have.get(r, 0))
        have[r] = have.get(r, 0) - use
        if n > use:
            out.append((r, n - use))
    if "keyflower" in pw:
        spare = 0
        for r in RESOURCES:
            spare += have.get(r, 0)
    else:
        spare = have.get("gold", 0)
    trimmed = []
    for r, n in out:
        use = min(n, spare)
        spare -= use
        if n > use:
            trimmed.append((r, n - use))
    return trimmed


def card_value(g: Game, p: Player, c: Card, want: frozenset[str]) -> tuple[float, str | None]:
    """The value of the card's best use and that use's option id (None: discard)."""
    if c.kind == "keyple":
        goal = (0.8 if _COLOUR_WORDS[c.id] in want or "keyple" in want else 0.0) + \
            (0.8 if c.animal and (c.animal in want or "animal" in want) else 0.0)
        # the best target, and what it is worth before the card's own goals, depend on the
        # card's keyples and arrows only: once per decision for each
        key = ("target", id(p), c.keyples, c.arrows)
        known = _memo.get(key)
        if known is None or known[0] is not p or known[1] is not want:  # the memo keeps p: its id() is not reused
            known = _memo[key] = (p, want, best_target(g, p, c, want))
        own, v, top = known[2]
        if top is None:
            return (-1.0, None)
        v += goal + 0.2 if own else -0.3
        if v <= -1.0:  # worth less than nothing: discard
            return (-1.0, None)
        return (v, f"on:{top[3]}:{top[0]}")  # the option id of the best building alone
    return village_card_worth(g, p, c, want), best_spot(p, c)


# by keyple card id: the slot word of its colour (made once, not for every card of every pick)
_COLOUR_WORDS = {cid: f"keyple:{c.colour}" for cid, c in CARDS.items() if c.kind == "keyple"}


def best_target(g: Game, p: Player, c: Card, want: frozenset[str]) -> tuple[bool, float, tuple[int, int, float, Seat] | None]:
    """(own village?, worth before the card's own goals, its ``_road_spots`` entry) of the
    building ``rules.targets`` lists for this keyple card whose live action gives most, less
    the keyple tokens it takes (the first, in the rules' order, of equals). A card with a
    building at home is weighed there only: a neighbour's building seldom beats the seat's
    own (and the neighbour keeps the card), and weighing every neighbour's village for
    every pick was a large part of a pick. (False, -inf, None) when there is none."""
    worth = token_worth(want)
    keyples = c.keyples
    tokens_held = p.tokens
    best: tuple[bool, float, tuple[int, int, float, Seat] | None] = (False, float("-inf"), None)
    for owner, lo, hi in _reachable(g, p, c):
        own = owner == p.seat
        best_v, top = best[1], None
        for spot in _road_spots(g, p, owner, want):
            col, held, v, _ = spot
            if held >= keyples:
                tokens = held + 1 - keyples  # rules.tokens_needed
                if keyples + tokens > 3 or tokens > tokens_held:
                    continue
                v -= worth * tokens
            elif keyples > 3:  # (no keyple card has more than 3 keyples)
                continue
            if v > best_v and lo <= col <= hi:
                best_v, top = v, spot
        if top is not None:
            best = (own, best_v, top)
        if own and top is not None:
            break
    return best


def _reachable(g: Game, p: Player, c: Card) -> list[tuple[Seat, int, int]]:
    """``rules.reachable``, kept by what it reads: the number of players, the seat, the
    card's arrows, and whether a Brainwave boat in the village gives a card of at most two
    keyples every arrow."""
    key = (len(g.players), p.seat, c.arrows, c.keyples <= 2 and not _BRAINWAVE.isdisjoint(map(_card_of, p.village)))
    known = _reachable_known.get(key)
    if known is None:
        known = _reachable_known[key] = reachable(g, p, c)
    return known


_BRAINWAVE = frozenset(cid for cid, c in CARDS.items() if c.power == "brainwave")
# (players, seat, arrows, Brainwave applies) -> rules.reachable: a pure function of the key
# (a few hundred keys at most: never cleared)
_reachable_known: dict[tuple[int, Seat, str, bool], list[tuple[Seat, int, int]]] = {}


def _road_spots(g: Game, p: Player, owner: Seat, want: frozenset[str]) -> list[tuple[int, int, float, Seat]]:
    """The buildings of ``owner``'s village a keyple card of ``p`` may go on, whatever its
    keyples and arrows (a live action that does something for ``p``, fewer than 3 keyple
    cards), by column, each as (column, keyple cards held, its action's worth, owner): once
    per decision, whichever keyple cards ask."""
    key = ("roads", id(p), owner)
    known = _memo.get(key)
    if known is not None and known[0] is p:  # the memo keeps p: its id() is not reused
        return known[1]
    own = owner == p.seat
    worths = _gains_worths(p, want, own)  # the kept worths of actions that only gain, by id()
    spots = []
    for e in g.players[owner].village:  # the road row first, by column (rules._village_order)
        if e["row"] != ROAD:
            break
        held = len(e["keyples"])
        if held >= 3:
            continue
        uses = _ROAD_USES[e["card"]][len(e["tiles"])]
        if not uses[own]:
            continue  # rules.usable_by, inline: asked for every road card of every village in reach
        action = uses[2]  # live_action
        worth = worths.get(id(action))
        if worth is None:
            worth = action_value(p, action, want, own)
        spots.append((e["col"], held, worth, owner))
    _memo[key] = (p, spots)
    return spots


# by card id, by panel: (usable by a neighbour, usable by its owner (rules.USES), the
# panel's action (rules.live_action: the content's own object))
_ROAD_USES = {cid: tuple((*USES[cid][level], panel.action) for level, panel in enumerate(c.panels))
              for cid, c in CARDS.items()}


def village_card_worth(g: Game, p: Player, c: Card, want: frozenset[str]) -> float:
    """``card_value`` of a card built in the village, without its place: only the picked
    card's place is ever used, so a pick finds it for that card alone."""
    season = season_name(g)
    if c.kind == "scorer":
        return c.panels[0].points + alone(p, c) + 0.5
    v = _BUILT_WORTH[c.id]
    if c.animals:
        icons = 0  # (summed first, as before: the same additions)
        for a in c.animals:
            if a in want or "animal" in want:
                icons += 2.0
        v += icons
    v += action_value(p, c.reward, want, True)
    if _ACTIVATABLE[c.id]:
        v += EARLY[season] * action_value(p, c.panels[0].action, want, True) / 2
    if c.boat:
        v += 3 if "boat" in want else 1
    if c.kind == "store":
        near = makers = 0
        accepted = frozenset(c.accepts)
        for x in p.village:
            res = x["res"]
            if res:
                for r in c.accepts:
                    near += res.get(r, 0)
            if _PLACE_TRAITS[x["card"]][0] & accepted:  # what it makes (makes(), kept by card)
                makers += 1
        v += c.store_points * min(4, 0.5 * near + makers) * EARLY.get(season, 1) / 2 if season != "winter" else 0
    return v


def built_worth(c: Card) -> float:
    """A building's points, and half of what upgrading adds per panel."""
    return c.panels[0].points + 0.5 * (c.panels[-1].points - c.panels[0].points) / max(1, len(c.panels))


# by card id: built_worth, and whether the card activates (content does not change; read
# from tables, not asked of a function, for every village card in hand at every pick)
_BUILT_WORTH = {cid: built_worth(c) for cid, c in CARDS.items() if c.panels}  # (keyple cards have none)
_ACTIVATABLE = {cid: c.activatable for cid, c in CARDS.items()}


def alone(p: Player, c: Card) -> float:
    """What a winter scoring card would make from this player's items on its own (a quick
    estimate: the exact allocation is for the final scoring)."""
    known = _items_known(p)
    counted = known[3]
    best = 0.0
    for v in c.scoring:
        sets = None  # the fewest sets any slot word allows (a loop: no generator per variant)
        for slot, n in slot_counts(v):
            k = (counted[slot] if slot in counted else _fillable(known, slot)) // n
            if sets is None or k < sets:
                sets = k
        best = max(best, float(sets * v.points))
    return best


_slot_counts: dict[int, tuple[Any, tuple[tuple[str, int], ...]]] = {}  # by id() of a content variant (kept)


def slot_counts(v: Any) -> tuple[tuple[str, int], ...]:
    """Each slot word of a winter card's variant, with how many of it one set takes."""
    known = _slot_counts.get(id(v))
    if known is None or known[0] is not v:
        known = _slot_counts[id(v)] = (v, tuple((slot, v.slots.count(slot)) for slot in set(v.slots)))
    return known[1]


def fillable(p: Player, slot: str) -> int:
    """How many of this player's items could fill a winter card's slot (once per decision)."""
    known = _items_known(p)
    n = known[3].get(slot)
    return _fillable(known, slot) if n is None else n


def _items_known(p: Player) -> tuple[Player, dict[str, int], frozenset[str], dict[str, int],
                                     dict[str, frozenset[str]] | None]:
    """(p, its items, its powers, fillable's counts by slot so far, the item kinds filling
    each slot word for its powers (None: it holds a kind not in the table)), once per
    decision."""
    global _items_now
    known = _items_now
    if known[0] is not p:  # the slot keeps p: its id() is not reused
        have, pw = items(p), powers(p)
        fits = _FITS.get(pw & _SLOT_POWERS) if have.keys() <= _ITEM_KINDS else None
        known = _items_now = (p, have, pw, {}, fits)
    return known


def _fillable(known: tuple[Player, dict[str, int], frozenset[str], dict[str, int],
                           dict[str, frozenset[str]] | None], slot: str) -> int:
    _, have, pw, counted, table = known
    fits = None if table is None else table.get(slot)
    if fits is None:
        # the kinds that fill a slot are kept by (powers, slot) over every kind ever held;
        # the items held are matched against them as sets (a scan of every kind held, per
        # slot and decision, was a fifth of a pick)
        kept = _fitting.get((pw, slot))
        if kept is None:
            kept = _fitting[(pw, slot)] = (set(), set())
        seen, fits = kept
        new = have.keys() - seen
        if new:
            seen |= new
            fits.update(kind for kind in new if accepts(slot, kind, pw))
    n = 0
    for kind in have.keys() & fits:
        n += have[kind]
    counted[slot] = n
    return n


# (powers, slot) -> (every item kind weighed for it, those that fill it): a pure function
_fitting: dict[tuple[frozenset[str], str], tuple[set[str], set[str]]] = {}


def _item_kinds() -> frozenset[str]:
    """Every item kind rules.items counts (scoring.accepts' kinds): resources, skill tiles,
    keyple tokens, animal icons, boats, carts, and a keyple card's colour and animal."""
    kinds = set(RESOURCES) | set(SKILLS) | {"token", "boat", "cart"}
    for c in CARDS.values():
        kinds.update(f"icon:{a}" for a in c.animals)
        if c.kind == "keyple":
            kinds.add(f"kcard:{c.colour}:{c.animal or '-'}")
    return frozenset(kinds)


_ITEM_KINDS = _item_kinds()
_SLOT_WORDS = frozenset(slot for c in CARDS.values() for v in c.scoring for slot in v.slots)
# the boats' powers that change which kinds fill a slot (scoring.accepts reads each power
# on its own, so the kinds filling a slot for any powers are those for these among them)
_SLOT_POWERS = frozenset(x for x in {c.power for c in CARDS.values() if c.power}
                         if any(accepts(slot, kind, frozenset([x])) != accepts(slot, kind)
                                for slot in _SLOT_WORDS for kind in _ITEM_KINDS))


def _fits_for(pw: frozenset[str]) -> dict[str, frozenset[str]]:
    return {slot: frozenset(kind for kind in _ITEM_KINDS if accepts(slot, kind, pw)) for slot in _SLOT_WORDS}


# by the powers among _SLOT_POWERS (each set of them), by slot word: the item kinds filling it
_FITS = {frozenset(sub): _fits_for(frozenset(sub))
         for sub in ([x for i, x in enumerate(sorted(_SLOT_POWERS)) if mask >> i & 1]
                     for mask in range(1 << len(_SLOT_POWERS)))}


_makes: dict[str, frozenset[str]] = {}  # by card id: content does not change
_takes: dict[str, frozenset[str]] = {}


def makes(c: Card) -> frozenset[str]:
    """Resources a card's panels produce onto it (any: each basic one)."""
    known = _makes.get(c.id)
    if known is None:
        known = _makes[c.id] = frozenset(_made_by(c))
    return known


def _made_by(c: Card) -> set[str]:
    out: set[str] = set()
    for panel in c.panels:
        for e in panel.action:
            if e.kind == "gain" and e.what in RESOURCES:
                out.add(e.what)
            elif e.kind == "any":
                out.update(BASIC)
            elif e.kind == "convert":
                out.update(g.what for g in e.gains if g.kind == "gain")
    out.update(e.what for e in c.reward if e.kind == "gain")
    return out


def takes(c: Card) -> frozenset[str]:
    """Resources a card wants moved onto it: its upgrade costs, or what a store accepts."""
    known = _takes.get(c.id)
    if known is None:
        known = _takes[c.id] = frozenset(c.accepts) if c.kind == "store" else \
            frozenset(r for cost in c.costs for r, _ in cost.resources)
    return known


# by card id: what best_spot reads of a card already in the village (makes, takes, is a
# store, is a home card); content does not change
_PLACE_TRAITS = {cid: (makes(c), takes(c), c.kind == "store", c.season == "home") for cid, c in CARDS.items()}


def best_spot(p: Player, c: Card) -> str:
    """A free place touching the cards that feed this one, or that it feeds (resources
    then travel one space), nearest the home card otherwise."""
    assert c.row is not None
    wants, gives = takes(c), makes(c)
    store = c.kind == "store"
    village = p.village
    near: dict[int, float] = {}  # what a card of the village adds to a place touching it
    best, best_key = 0, None
    for col, touched in _free_places(p, c.row):
        score = 0.0
        for i in touched:
            worth = near.get(i)
            if worth is None:  # only the cards touching a free place are weighed, once each
                e = village[i]
                theirs_made, theirs_taken, their_store, home = _PLACE_TRAITS[e["card"]]
                theirs = theirs_made | e["res"].keys() if e["res"] else theirs_made  # what it makes or holds
                worth = near[i] = (len(wants & theirs) * (2.0 if store else 1.0)
                                   + (0.5 if "gold" in theirs and wants and not store else 0.0)
                                   + len(gives & theirs_taken) * (2.0 if their_store else 1.0)
                                   + (0.3 if home else 0.0))
            score += worth
        key = (-score, abs(col), col)
        if best_key is None or key < best_key:
            best, best_key = col, key
    return f"{c.row}:{best}"


def _free_places(p: Player, row: str) -> list[tuple[int, tuple[int, ...]]]:
    """rules.spots, each with the places in the village of the cards it would touch (as
    rules.touching: the neighbours in its row, and in the other row the cards under or over
    its halves): a function of the village's shape, kept by shape."""
    key = ("spots", id(p), row)
    known = _memo.get(key)
    if known is None or known[0] is not p:
        places = village_shape(p.village)  # the village's shape (one object per shape)
        out = _free_known.get((row, places))
        if out is None:
            if len(_free_known) > 20000:  # a bound, not a policy: shapes recur within a game
                _free_known.clear()
            # the free columns from rules.spots, kept by shape there: the picked card's use is
            # then checked (is_draft_choice) against the same kept list
            out = _free_known[(row, places)] = _free_places_of(places, row, free_columns(p, row))
        known = _memo[key] = (p, out)
    return known[1]


_free_known: dict[tuple[str, tuple[tuple[str, int], ...]], list[tuple[int, tuple[int, ...]]]] = {}


def _free_places_of(places: tuple[tuple[str, int], ...], row: str, free: list[int]) -> list[tuple[int, tuple[int, ...]]]:
    """``_free_places`` of a village given as its (row, column) per card, and its free
    columns in that row (``rules.spots``)."""
    at = dict(zip(places, count())).get  # a place's index in the village (None: no card there)
    other, (lo, hi) = (RIVER, (-1, 0)) if row == ROAD else (ROAD, (0, 1))  # other-row columns it touches
    return [(col, tuple(sorted(filter(_is_place, map(at, ((row, col - 1), (row, col + 1), (other, col + lo),
                                                           (other, col + hi)))))))
            for col in free]


_is_place = partial(is_not, None)  # an index found, not None


def choose(state: Game, seat: Seat, rng: Rng, offered: list[str] | None = None) -> str:
    g, p = state, state.players[seat]
    # Picks, the picked card's use and transport moves are weighed as the rules find them,
    # and apply checks the one chosen (rules.checked_alone): no listing of every option's
    # words for them.
    alone = offered is None and checked_alone(g, p)
    if not alone:
        if offered is None:
            offered = listed(state, seat)  # apply then checks against this list
        if not offered:
            raise ValueError(f"seat {seat} has nothing to choose")
    forget()
    if g.phase in (DRAFT, WINTER_K):
        if p.choosing is None:
            want = goals(g, p)
            values = {}
            ids = offered if offered is not None else pick_ids(g, p)
            top = second = float("-inf")
            picked = ""
            for o in ids:
                cid = o.removeprefix("pick:")
                c = CARDS[cid]
                value = values[cid] = card_value(g, p, c, want) if c.kind == "keyple" else \
                    (village_card_worth(g, p, c, want), None)
                v = value[0]
                if v > top:
                    top, second, picked = v, top, o
                elif v > second:
                    second = v
            if second >= top - NOISE:  # another card could win with the noise: draw it
                picked = pick_among(rng, ids, values, top)
            cid = picked.removeprefix("pick:")
            if CARDS[cid].kind != "keyple":  # the place of the picked card alone is ever used
                values[cid] = (values[cid][0], best_spot(p, CARDS[cid]))
            _picked[seat] = (g, {cid: values[cid]}, want)
            return picked
        v, use, want = picked_value(g, p)
        if (g.phase == WINTER_K or v >= token_worth(want) + 0.2) and \
                (use in offered if offered is not None else is_draft_choice(g, p, use)):
            return use
        if offered is None:
            offered = listed(state, seat)
        return "discard" if "discard" in offered else next(o for o in offered if o != "cancel")
    if p.jobs:
        if offered is None:
            return transport_choice(p)
        # of the decisions after a reveal, only a resource of choice reads the goals
        return job_choice(g, p, offered, goals(g, p) if p.jobs[0]["do"] == "any" else NO_GOALS)
    return token_choice(g, p, offered, goals(g, p))  # type: ignore[arg-type]


NO_GOALS: frozenset[str] = frozenset()
NOISE = 99 / 1000  # the most a pick's tie-breaking noise adds to a card's value


def pick_among(rng: Rng, ids: list[str], values: dict[str, tuple[float, str | None]], top: float) -> str:
    """The pick of the highest value plus a tie-breaking noise of 0-0.099 (ties of the sum by
    option id, as ``max`` breaks them). Only the cards within the noise of the best value can
    win, so the noise is drawn for those alone, and not at all when one card is that far
    ahead (a draw for every card of every pick was a tenth of a pick)."""
    near = [o for o in ids if values[o[5:]][0] >= top - NOISE]  # (o[5:]: the card id after "pick:")
    if len(near) == 1:
        return near[0]
    scored = []
    for o, digit in zip(near, pick_noise(rng, len(near))):
        scored.append((values[o[5:]][0] + digit / 1000, o))
    return max(scored)[1]


def pick_noise(rng: Rng, cards: int) -> list[int]:
    """A tie-breaking noise of 0-99 for each card in hand, from one draw: the base-100 digits
    of one number below 100 ** cards (a draw per card was a few per cent of a pick), as a
    list (a generator resumed for each card cost more)."""
    digits = []
    for start in range(0, cards, 9):  # 100 ** 9 < 2 ** 64: nine cards a draw
        x = rng.randrange(100 ** min(9, cards - start))
        for _ in range(min(9, cards - start)):
            x, digit = divmod(x, 100)
            digits.append(digit)
    return digits


# Each seat's card values at its last pick, with the game they were weighed in and its goals:
# the next step, using the picked card, weighs it again in a game that differs only in
# secret choices.
_picked: dict[Seat, tuple[Game, dict[str, tuple[float, str | None]], frozenset[str]]] = {}


def picked_value(g: Game, p: Player) -> tuple[float, str | None, frozenset[str]]:
    """card_value of the picked card and the goals it was weighed with, as at the pick when
    nothing they read has changed since (the goals read the winter K cards and the village)."""
    weighed = _picked.pop(p.seat, None)
    if weighed is not None and p.choosing in weighed[1] and unchanged_for(weighed[0], g, p.seat):
        return (*weighed[1][p.choosing], weighed[2])
    want = goals(g, p)
    return (*card_value(g, p, CARDS[p.choosing], want), want)  # type: ignore[index]


def unchanged_for(before: Game, now: Game, seat: Seat) -> bool:
    """Does ``now`` hold for ``seat`` what ``before`` held: the very same villages, tiles,
    cards under the store and winter K cards, and the same tokens and season? Steps that
    only choose in secret share these lists and dicts (rules.chooser_copy), and no step
    changes a list or dict of a game it was given, so being the same object means being
    equal."""
    a, b = before.players[seat], now.players[seat]
    if not (before.season == now.season and len(before.players) == len(now.players) and a.tokens == b.tokens
            and a.skills is b.skills and a.doubles is b.doubles and a.under_store is b.under_store
            and a.winter_k is b.winter_k):
        return False
    for x, y in zip(before.players, now.players):
        if x is not y and x.village is not y.village:  # (a secret choice copies only the chooser)
            return False
    return True


def needs(p: Player, e: Entry) -> dict[str, int]:
    """Resources still missing on this card for its next upgrade."""
    c = CARDS[e["card"]]
    level = live_panel(e)
    if level >= len(c.costs):
        return {}
    return {r: n - e["res"].get(r, 0) for r, n in c.costs[level].resources if n > e["res"].get(r, 0)}


def job_choice(g: Game, p: Player, offered: list[str], want: frozenset[str]) -> str:
    job: dict[str, Any] = p.jobs[0]
    if job["do"] == "any":
        return f"take:{any_choice(p, find(p, job['onto']), want)}"
    if job["do"] == "convert":
        pays = [o for o in offered if o.startswith("pay:")]
        return max(pays, key=lambda o: p.skills[o[4:]] + p.doubles[o[4:]]) if pays else offered[-1]
    if job["do"] == "upgrade":
        ups = [o for o in offered if o.startswith("upgrade:")]
        if ups:
            def gain(o: str) -> int:
                e = find(p, o.removeprefix("upgrade:"))
                c = CARDS[e["card"]]
                return c.panels[live_panel(e) + 1].points - c.panels[live_panel(e)].points
            return max(ups, key=gain)
        flips = [o for o in offered if o.startswith("flip:")]
        return flips[0] if flips else "stop"
    return transport_choice(p)


def any_choice(p: Player, onto: Entry, want: frozenset[str]) -> str:
    """The resource to take onto ``onto``: what it lacks for its next upgrade, else what the
    nearest card lacking one (or a store taking one) wants, else what a winter card wants."""
    missing = needs(p, onto)
    for r in BASIC:
        if missing.get(r):
            return r
    village = p.village
    start = village.index(onto)  # (no two cards of a village are equal: their places differ)
    score = {r: 0.0 for r in BASIC}
    for i, d in steps_from(p, start).items():  # the cards reached (each max is the same in any order)
        if i == start:
            continue
        x = village[i]
        res, level = x["res"], len(x["tiles"])  # (live_panel)
        cost = _TRANSPORT_WANTS[x["card"]][level][1]  # its next upgrade's resources (None: none left)
        if cost is not None:
            for r, n in cost:  # what ``needs`` lists
                if n > res.get(r, 0) and r in score:
                    score[r] = max(score[r], upgrade_gain(x["card"], level) / (1 + d))
        c = CARDS[x["card"]]
        for r in c.accepts:
            score[r] = max(score[r], c.store_points / (1 + d))
    top = max(BASIC, key=lambda r: (score[r], r in want))
    if sum(1 for r in BASIC if score[r] == score[top] and (r in want) == (top in want)) == 1:
        return top  # (the fewest held only breaks ties: counted only for one)
    have = {r: sum(x["res"].get(r, 0) for x in village) for r in BASIC}
    return max(BASIC, key=lambda r: (score[r], r in want, -have[r]))


def transport_choice(p: Player) -> str:
    """The move that brings a resource one step closer to where it is wanted most: a card
    whose next upgrade lacks it (gold helps any), or a store that takes it. A wanting card
    is worth its weight over the steps from the nearest card that can give the resource
    (less 2.5 when the giver lacks it itself), and the unit moves one step along a shortest
    path: the best move of all, without weighing every move the rules list. A unit with more
    than one step to go keeps going at the seat's next move, along the same path, while the
    village is just as that move left it (``planned_move``): it is not weighed again."""
    planned = _plans.pop(p.seat, None)
    if planned is not None:
        move = planned_move(p, planned)
        if move is not None:
            return move
    village = p.village
    lacking = {}  # by place of a card that can give: what its next upgrade lacks (``needs``)
    # by resource: the cards wanting it (places in the village), each with its best weight
    wanted_by: dict[str, dict[int, float]] = {}
    givers: dict[str, set[int]] = {}  # by resource: the cards holding it that can give it (not stores)
    for i, e in enumerate(village):
        res = e["res"]
        if res:
            store, cost, weight = _TRANSPORT_WANTS[e["card"]][len(e["tiles"])]
            if cost is None:
                lacks, wants, keeps = NO_NEEDS, store, NO_NEEDS
            else:
                lacks, keeps = {}, {}
                for r, n in cost:
                    h = res.get(r, 0)
                    if n > h:
                        lacks[r] = n - h
                    if h and n >= h:  # every one held goes to its next upgrade
                        keeps[r] = weight
                if lacks:  # and gold fills in for any of them
                    wants = list(store)
                    for r in lacks:
                        wants.append((r, weight))
                    wants.append(_GOLD_WANT[0])
                else:
                    wants = store
            if not _IS_STORE[e["card"]]:  # nothing moves out of a store
                lacking[i] = (lacks, keeps)
                for r, n in res.items():
                    if n:
                        held = givers.get(r)
                        if held is None:
                            givers[r] = {i}
                        else:
                            held.add(i)
            for r, w in wants:  # _want, inline
                by_place = wanted_by.get(r)
                if by_place is None:
                    wanted_by[r] = {i: w}
                elif by_place.get(i, -1.0) < w:
                    by_place[i] = w
        else:  # nothing on the card: what it wants is the card's own (kept by card and panel),
            # each resource once at its best weight
            for r, w in _EMPTY_WANTS[e["card"]][len(e["tiles"])]:
                by_place = wanted_by.get(r)
                if by_place is None:
                    wanted_by[r] = {i: w}
                else:
                    by_place[i] = w
    best, best_v = None, MIN_MOVE
    steps = _village_steps(p)[2]  # steps_from's kept steps
    for r, targets in wanted_by.items():
        held = givers.get(r)
        if held is None:  # no card can give it: no walk from its wanting cards
            continue
        for target, weight in targets.items():
            if weight <= best_v:  # even a giver one step away would not beat the best
                continue
            dist = steps[target] or _steps_from(p, target)
            left = len(held)  # givers not yet reached: none left, the walk stops
            for src, d in dist.items():  # nearest first
                if src not in held:
                    continue
                if d:
                    v = weight / d  # the move's gain: weight / (1 + steps left after it)
                    if v <= best_v:
                        break  # the rest are farther
                    lacks, keeps = lacking[src]
                    if r in keeps:
                        v -= keeps[r]  # the giver needs it itself: its own weight for it
                    elif r == "gold" and lacks:
                        v -= 2.5
                    if v > best_v:
                        best, best_v = (src, target, r, d), v
                left -= 1
                if not left:
                    break
    if best is None:
        return "stop"
    src, target, r, d = best
    # one step along a shortest path: onto the wanting card, or a card that passes it on
    # (a store on the way would keep it); the rest of the path is kept for the next moves
    path = shortest_path(p, src, target)
    if d > 1:
        plan(p, path, r)
    return move_id(p, src, path[1], r)


def shortest_path(p: Player, src: int, target: int) -> list[int]:
    """The places from ``src`` to ``target`` along a shortest path of touching cards, each
    step onto the target or a card that passes a resource on (not a store: it would keep
    it); the first such card in the village's order at each step."""
    village = p.village
    dist = steps_from(p, target)
    near = _village_steps(p)[1]
    path = [src]
    at, d = src, dist[src]
    while d:
        d -= 1
        for nxt in near[at]:
            if dist.get(nxt) == d and (nxt == target or not _IS_STORE[village[nxt]["card"]]):
                break
        else:  # (a card reached by the walk from the target is next to one a step nearer)
            raise AssertionError("a giver reached is next to a card one step nearer")
        path.append(nxt)
        at = nxt
    return path


def plan(p: Player, path: list[int], r: str) -> None:
    """Keep the rest of a unit's path for the seat's next move, with the village as the
    move to ``path[1]`` leaves it: the same card objects but the two it changes (copies whose
    resources ``rules.add_res`` changes as the move does)."""
    village = p.village
    src, dst = dict(village[path[0]]), dict(village[path[1]])
    add_res(src, "res", r, -1)  # (a new dict on the copy: the card's own is not changed)
    add_res(dst, "res", r, 1)
    _plans[p.seat] = (village, path, r, src, dst)


def planned_move(p: Player, planned: tuple[list[Entry], list[int], str, Entry, Entry]) -> str | None:
    """The next step of the unit a seat's last move sent along ``plan``'s path, when the
    village is exactly as that move left it (else None: weigh the moves afresh)."""
    before, path, r, src, dst = planned
    village = p.village
    a, b = path[0], path[1]
    if len(village) != len(before) or village[a] != src or village[b] != dst:
        return None
    for i, (x, y) in enumerate(zip(village, before)):
        if x is not y and i != a and i != b:
            return None
    path = path[1:]
    if len(path) > 2:  # still more than one step to go after this one
        plan(p, path, r)
    return move_id(p, path[0], path[1], r)


# by seat: the village a move left it was chosen in, the unit's path (places: where the
# move took it from, where to, and on to the wanting card), the resource, and the two
# cards as the move leaves them (plan); checked against the village the next move sees
_plans: dict[Seat, tuple[list[Entry], list[int], str, Entry, Entry]] = {}


NO_NEEDS: dict[Any, Any] = {}  # never changed
# a move must be worth this much (a wanting card's weight over the steps, less what the giver
# loses): units moved for less were not worth the decision (fewer transport decisions a game)
MIN_MOVE = 1.6


def _transport_wants(c: Card, level: int) -> tuple[tuple[tuple[str, float], ...], Any, float]:
    """What transport_choice reads of a card showing panel ``level``: (resource, weight) a
    store takes, its next upgrade's resources (None: no upgrade left) and their weight."""
    store = tuple((r, c.store_points + 0.5) for r in c.accepts) if c.kind == "store" else ()
    cost = c.costs[level].resources if level < len(c.costs) else None
    return store, cost, 3.0 + c.panels[-1].points / 10


# by card id, by panel: _transport_wants of each (content does not change)
_TRANSPORT_WANTS = {cid: tuple(_transport_wants(c, level) for level in range(len(c.panels)))
                    for cid, c in CARDS.items()}
_GOLD_WANT = (("gold", 2.5),)


def _empty_wants(store: tuple[tuple[str, float], ...], cost: Any, weight: float) -> tuple[tuple[str, float], ...]:
    """What transport_choice finds for a card holding nothing: every resource it wants, each
    once at its best weight, in the order it first names them (the order it weighs them)."""
    if cost is None:
        wants = store
    else:
        lacks = [r for r, n in cost if n > 0]
        wants = store + tuple((r, weight) for r in lacks) + (_GOLD_WANT if lacks else ())
    best: dict[str, float] = {}
    for r, w in wants:
        if best.get(r, -1.0) < w:
            best[r] = w
    return tuple(best.items())


# by card id, by panel: _empty_wants (never changed: transport_choice only reads them)
_EMPTY_WANTS = {cid: tuple(_empty_wants(*wants) for wants in by_panel) for cid, by_panel in _TRANSPORT_WANTS.items()}




def token_choice(g: Game, p: Player, offered: list[str], want: frozenset[str]) -> str:
    # tokens a winter card scores are kept unless an activation is clearly worth more
    best, best_v = "done", 2.8 if "token" in want else 0.9
    roads = {}  # the road cards by column ("token:COL" names the road card at COL)
    for e in p.village:  # the road row first (rules._village_order)
        if e["row"] != ROAD:
            break
        roads[e["col"]] = e
    for o in offered:
        if not o.startswith("token:"):
            continue
        v = action_value(p, live_action(roads[int(o[6:])]), want, True)
        if v > best_v:
            best, best_v = o, v
    return best


# --- The same bot from a seat's view alone (app/bots' "strong" level) ---

def state_from_view(view: dict[str, Any]) -> tuple[Game, Seat]:
    """A game holding only what this seat's view shows: every village, supply and count
    in public, this seat's own hand, winter K cards, picked card and store cards. Other
    seats' hands, the decks and the skill pile stay empty: the bot never reads them."""
    pub, own = view["public"], view["private"]
    seat = own["seat"]
    reveals = pub["reveals"]
    players = []
    for pp in pub["players"]:
        village = []
        for e in pp["village"]:
            keyples = [{"card": k["card"]["id"], "by": k["by"], "tokens": k["tokens"],
                        "at": reveals if k["new"] else 0} for k in e["keyples"]]
            village.append({"card": e["card"]["id"], "row": e["row"], "col": e["col"], "tiles": list(e["tiles"]),
                            "res": dict(e["res"]), "stored": dict(e["stored"]), "keyples": keyples,
                            "token_acts": e["acts"] - len(keyples), "placed": reveals if e["new"] else 0})
        p = Player(seat=pp["seat"], home=pp["home"], store=pp["store"], village=village, tokens=pp["tokens"],
                   skills={s: pp["skills"][s] - pp["doubles"][s] for s in SKILLS}, doubles=dict(pp["doubles"]),
                   jobs=[dict(j) for j in pp["jobs"]], done=pp["done"])
        if pp["seat"] == seat:
            p.hand = [c["id"] for c in own["hand"]]
            p.winter_k = [c["id"] for c in own["winter_k"]]
            p.choosing = own["choosing"]["id"] if own["choosing"] else None
            p.under_store = [c["id"] for c in own["under_store"]]
        players.append(p)
    g = Game(players=players, options={}, rng="", phase=pub["phase"], season=SEASONS.index(pub["season"]),
             turn=pub["turn"], reveals=reveals, token_supply=pub["supply"]["tokens"],
             tile_supply=pub["supply"]["upgrade_tiles"], doubles=dict(pub["supply"]["doubles"]))
    return g, seat


def choose_from_view(view: dict[str, Any], offered: list[dict[str, Any]], rng: Any) -> str:
    """The strong bot's choice from a seat's view and its listed options only (the view
    dict a player's page or the API gets; never the game's state or secret)."""
    ids = [o["id"] for o in offered]
    if not ids:
        raise ValueError("nothing to choose")
    g, seat = state_from_view(view)
    chosen = strong_choice(g, seat, rng, ids)
    return chosen if chosen in ids else next((i for i in ids if i != "cancel"), ids[0])


# --- The strong bot: the state bot, with a lookahead where the final score is in sight ---

def strong_choice(g: Game, seat: Seat, rng: Any, offered: list[str]) -> str:
    """In winter every card and use is tried on a copy of the rebuilt game (the other seats
    discard: their hands are not known), its decisions resolved as the state bot would, and
    the final score it leaves is compared; the winter K card is chosen by the exact
    allocation it adds. Elsewhere the state bot chooses."""
    p = g.players[seat]
    if g.phase == WINTER_K and p.choosing is None:
        return max(offered, key=lambda o: winter_k_worth(g, p, o.removeprefix("pick:")))
    if g.phase == DRAFT and season_name(g) == "winter":
        if p.choosing is None:
            cards = [o.removeprefix("pick:") for o in offered]
            denied = denial(g, seat, cards)
            best = max((use_worth(g, seat, cid, use) - DENY * denied[cid], f"pick:{cid}")
                       for cid in cards for use in uses(g, seat, cid))
            return best[1]
        worth = {use: use_worth(g, seat, p.choosing, use) for use in uses(g, seat, p.choosing)}
        return max((u for u in offered if u in worth), key=lambda u: worth[u])
    if season_name(g) == "winter" and g.phase in (RESOLVE, TOKENS) and not any(j["do"] == "convert" for j in p.jobs):
        # ties keep the state bot's choice
        first = choose(g, seat, rng, offered)
        return max(offered, key=lambda o: (step_worth(g, seat, o), o == first))
    return choose(g, seat, rng, offered)


def step_worth(g: Game, seat: Seat, option_id: str) -> float:
    """The final score after this winter decision, the decisions it leaves resolved as the
    state bot would (keyple tokens left unspent)."""
    from .rules import clone, do_job, use_tokens
    g = clone(g)
    p = g.players[seat]
    for q in g.players:  # the other seats' decisions are theirs: leave them out
        if q is not p:
            q.jobs, q.done = [], True
    if p.jobs:
        do_job(g, p, option_id)
    elif option_id != "done":
        use_tokens(g, p, option_id)
    return _worth_after_jobs(g, p)


def _worth_after_jobs(g: Game, p: Player) -> float:
    """The village's final worth once its pending jobs are done as the state bot does them."""
    from .rules import do_job, job_options
    while p.jobs:
        forget()
        offered = [o.id for o in job_options(g, p, p.jobs[0])]
        do_job(g, p, job_choice(g, p, offered, goals(g, p)))
    forget()
    return final_worth(p)


DENY = 1.0  # a point the next seat gains counts against ours (2 players: the score gap decides)


def denial(g: Game, seat: Seat, cards: list[str]) -> dict[str, float]:
    """For each card we could pick: the most the seat we pass to gains from the cards we
    pass it (its village and winter cards are public in winter; its own hand is not)."""
    step = 1 if PASS_LEFT[season_name(g)] else -1
    to = (seat + step) % len(g.players)
    if to == seat or len(cards) < 2:
        return {cid: 0.0 for cid in cards}
    now = final_worth(g.players[to])
    gains = {cid: max(use_worth(g, to, cid, use) for use in uses(g, to, cid)) - now for cid in set(cards)}
    ranked = sorted(gains.values(), reverse=True)
    return {cid: ranked[1] if gains[cid] == ranked[0] and ranked.count(ranked[0]) == 1 else ranked[0]
            for cid in cards}


def uses(g: Game, seat: Seat, cid: str) -> list[str]:
    """What could be done with a card: every building it may go on, the state bot's place
    for a village card, and discarding."""
    from .rules import use_options
    p = g.players[seat]
    held, p.choosing = p.choosing, cid
    try:
        ids = [o.id for o in use_options(g, p) if o.id != "cancel"]
    finally:
        p.choosing = held
    if CARDS[cid].kind != "keyple":
        spot = best_spot(p, CARDS[cid])
        ids = [i for i in ids if i == spot or not i.startswith(("road:", "river:"))]
    return ids


def use_worth(g: Game, seat: Seat, cid: str, use: str) -> float:
    from .rules import choose_step, clone
    g = clone(g)
    p = g.players[seat]
    if cid not in p.hand:  # another seat's gain from a card we might pass it
        p.hand = p.hand + [cid]
    for q in g.players:  # the others discard a card like ours, so the turn runs its course
        if q is not p:
            q.hand, q.chosen, q.jobs = list(p.hand), {"card": cid, "use": "discard"}, []
    p.choosing = cid
    choose_step(g, p, use)
    return _worth_after_jobs(g, p)


_allocations: dict[Any, int] = {}  # (items, winter cards, powers) -> best allocation: a pure function


def final_worth(p: Player) -> float:
    """The final score this village would make now (as ``rules.score_player`` counts it),
    keyple cards on its buildings counted as under the store card (where they will be at
    the end of the season)."""
    q = Player(seat=p.seat, home=p.home, store=p.store, village=p.village, tokens=p.tokens, skills=p.skills,
               doubles=p.doubles, under_store=p.under_store + [k["card"] for e in p.village for k in e["keyples"]])
    points = 0
    scorers = []
    for e in p.village:
        c = CARDS[e["card"]]
        points += c.panels[live_panel(e)].points + e["tiles"].count("points")
        if e["stored"]:
            points += c.store_points * sum(e["stored"].values())
        if c.scoring:
            scorers.append(e["card"])
    return float(points + allocation_points(items(q), scorers, powers(q)))


def allocation_points(have: dict[str, int], scorers: list[str], pw: frozenset[str]) -> int:
    """``scoring.best_allocation``'s points, each group of winter cards sharing item kinds
    searched once per (its items, its cards): trying a card mostly changes one group, and
    the search is most of a lookahead's time."""
    from .scoring import winter_groups, exact_search
    supply = {k: n for k, n in sorted(have.items()) if n > 0}
    merged = list({CARDS[cid].scoring: cid for cid in sorted(scorers)}.items())
    cards = [(cid, variants) for variants, cid in merged]
    comps = winter_groups(supply, cards, pw)
    points, gold_taken = 0, False
    for members, kinds in comps:
        sink = "gold" in kinds and not gold_taken
        gold_taken |= sink
        sub = tuple((k, supply[k]) for k in supply if k in kinds)
        key = (sub, tuple(CARDS[cards[j][0]].scoring for j in members), pw, sink)
        if key not in _allocations:
            if len(_allocations) > 50_000:
                _allocations.clear()
            _allocations[key] = exact_search(dict(sub), [cards[j] for j in members], pw, sink=sink)[0]
        points += _allocations[key]
    return points + (0 if gold_taken else supply.get("gold", 0))


def winter_k_worth(g: Game, p: Player, cid: str) -> float:
    """The final score with this winter K card in the village, at the state bot's place."""
    from .rules import entry
    c = CARDS[cid]
    row, _, col = best_spot(p, c).partition(":")
    q = Player(seat=p.seat, home=p.home, store=p.store, village=p.village + [entry(cid, row, int(col), 0)],
               tokens=p.tokens, skills=p.skills, doubles=p.doubles, under_store=p.under_store)
    return final_worth(q)


__all__ = ["choose", "choose_from_view", "state_from_view", "RESOURCES"]
