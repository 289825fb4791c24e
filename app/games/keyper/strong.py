"""Keyper's strong bot (app/bots' "strong" level): it plays from its seat's view alone.

It rebuilds a game from the view (``bot.game_from_view``: the bag's order and the others'
face-down fairs are unknown and left out), and looks one turn ahead: each way to play is
applied to that game, the turn is played out (its own later steps greedily, the others'
answers to an invitation by the state bot), and the result is judged by ``worth``, an
estimate of the final score: points already certain, plus what goods, fairs, buildings and
held tiles are likely to bring in the seasons left, less the same for the others.
"""

from __future__ import annotations

from typing import Any

from .bot import Chance, choose_among, game_from_view, house_choice, surplus_choice
from .content import (ANIMALS, BUILDINGS, FAIRS, FINISHED, GEMS, RAW, SEASONS, SHIP_STEP, SHIPPING_TRACK, WHEAT,
                      WHITE)
from .rules import (FOLD, PLAY, Game, Player, apply, building_points, building_side, can_pay, housing_plans, options,
                    season_name, to_act)

Seat = int

# What a good still held is worth, by season (index 0-3), before any use is known: spent on
# buildings and fairs early, only sold to a boat (or scored) late.
GOOD_WORTH = {
    "raw": (1.0, 0.9, 0.7, 0.35),
    "wheat": (1.0, 0.9, 0.7, 0.35),
    "finished": (1.4, 1.3, 1.0, 0.5),
    "gem": (1.0, 0.9, 0.7, 0.45),
}
ACT_SEASON = 1.5  # a building with an action, per season still to come
STEP_CAP = 40  # steps played out per candidate (a turn is far shorter)


def good_kind(k: str) -> str:
    if k in RAW:
        return "raw"
    if k in FINISHED:
        return "finished"
    if k in GEMS:
        return "gem"
    return "wheat"


def points_now(p: Player) -> float:
    """Points the player would score if the game ended now, animals housed as well as they fit."""
    saved = p.housed
    plans = housing_plans(p) if any(p.stock.get(a, 0) for a in ANIMALS) else [p.housed]
    best = 0
    for plan in plans[:3]:
        p.housed = plan
        best = max(best, sum(building_points(p)))
    p.housed = saved
    return min(p.ship, SHIPPING_TRACK) + best + sum(f["points"] for f in p.shown)


def fair_prospect(p: Player, needs: dict[str, int], points: float, now: bool) -> float:
    """A fair not held yet: its points if the store already pays it (at the season's end),
    else a share for the goods it asks that are already in store."""
    if can_pay(p.stock, needs):
        return points * (0.95 if now else 0.6)
    want = sum(needs.values())
    have = 0
    for good, n in needs.items():
        kinds = WHITE.get(good, (good,))
        have += min(n, sum(p.stock.get(k, 0) for k in kinds))
    share = have / want
    return points * share * share * (0.5 if now else 0.35)


def worth(g: Game, p: Player, known_fairs: bool) -> float:
    """The player's estimated final score."""
    s = g.season
    later = len(SEASONS) - 1 - s  # whole seasons still to come
    total = points_now(p)
    for k, n in p.stock.items():
        if n and k not in ANIMALS:
            total += n * GOOD_WORTH[good_kind(k)][s]
    # fairs
    season = season_name(g)
    if known_fairs:
        for fs, f in p.fairs.items():
            now = fs == season
            total += fair_prospect(p, FAIRS[f].needs, FAIRS[f].points, now)
    else:
        total += sum(2.0 for fs in p.fairs if SEASONS.index(fs) >= s)  # unknown face-down fairs
    for f in p.winter:
        fair = FAIRS[f]
        if s < 3:
            total += fair_prospect(p, fair.needs, fair.points, s >= 1)
        else:
            total += fair_prospect(p, fair.back_needs or {}, fair.back_points, True)
    # buildings' actions still to use; tiles waiting to be built
    for plot in p.plots.values():
        side = building_side(plot)
        if side is not None and side.acts:
            total += ACT_SEASON * (later + 0.5)
    if later:
        total += 1.2 * len(p.held)
    return total


def judge(g: Game, me: Seat) -> float:
    mine = worth(g, g.players[me], True)
    others = [worth(g, q, False) for q in g.players if q.seat != me]
    return mine - max(others)


def play_out_turn(g: Game, me: Seat, rng: Chance, turns: int) -> Game:
    """The rest of the turn, every step (its own and the others') chosen by the state bot,
    until the turn ends (the rebuilt game knows no more of the queue than its front)."""
    for _ in range(STEP_CAP):
        if g.phase != PLAY or g.turns != turns:
            break
        acting = to_act(g)
        if not acting:
            break
        seat = min(acting)
        if not g.queue:
            break  # the turn player's next play: a new turn
        offered = [o.id for o in options(g, seat)]
        if not offered:
            break
        choice = choose_among(g, seat, offered, rng)
        g = apply(g, seat, choice)
    return g


def after(g: Game, me: Seat, choice: str, rng: Chance) -> float:
    turns = g.turns
    try:
        h = apply(g, me, choice)
        h = play_out_turn(h, me, rng, turns)
    except Exception:  # a rebuilt game lacks what it cannot know (the bag, a queue's tail)
        return float("-inf")
    return judge(h, me)


def best_place(g: Game, me: Seat, rng: Chance) -> tuple[str, float]:
    """The best target for the keyple waiting to be placed (a river without a boat: the
    best boat too)."""
    best, best_value = "cancel", float("-inf")
    for o in options(g, me):
        if o.id == "cancel":
            continue
        value = after(g, me, o.id, rng)
        if o.id.endswith(":river"):
            try:
                h = apply(g, me, o.id)
            except Exception:  # as in ``after``: judged unplayable
                continue
            if h.queue and h.queue[0]["do"] == "place" and h.queue[0].get("river"):
                value = max((after(h, me, b.id, rng) for b in options(h, me) if b.id != "cancel"),
                            default=float("-inf"))
        if value > best_value:
            best, best_value = o.id, value
    return best, best_value


def turn_move(g: Game, me: Seat, offered: list[str], rng: Chance) -> str:
    keypers = [o for o in offered if o.startswith("keyper:")]
    keyples = [o for o in offered if o.startswith("keyple:")]
    p = g.players[me]
    if keypers and (not keyples or len(p.hand) <= 1 + rng.randrange(3)):
        return choose_among(g, me, keypers, rng)
    best, best_value = offered[0], float("-inf")
    for o in offered:
        if o.startswith("keyper:"):
            continue
        if o.startswith("keyple:"):
            h = apply(g, me, o)
            _, value = best_place(h, me, rng)
        else:
            value = after(g, me, o, rng)
        if value > best_value:
            best, best_value = o, value
    return best


def one_ahead(g: Game, me: Seat, offered: list[str], rng: Chance) -> str:
    best, best_value = offered[0], float("-inf")
    for o in offered:
        if o == "cancel":
            continue
        value = after(g, me, o, rng)
        if value > best_value:
            best, best_value = o, value
    return best


def choose_strong(g: Game, me: Seat, offered: list[str], rng: Chance) -> str:
    if g.phase == FOLD:
        return choose_among(g, me, offered, rng)
    step = g.queue[0]["do"] if g.queue else None
    if step is None:
        return turn_move(g, me, offered, rng)
    if step == "place":
        if g.queue[0].get("river"):
            return one_ahead(g, me, offered, rng)
        return best_place(g, me, rng)[0]
    if step == "house":
        return house_choice(g.players[me], offered)
    if step == "surplus":
        return surplus_choice(g, g.players[me], offered)
    if step in ("act", "invite", "final"):
        return one_ahead(g, me, offered, rng)
    return choose_among(g, me, offered, rng)


def choose_from_view(view: dict[str, Any], offered: list[dict[str, Any]], rng: Chance) -> str:
    """The strong bot's choice from the seat's view alone: one turn ahead on a game rebuilt
    from the view, among the offered options."""
    ids = [o["id"] for o in offered]
    if not ids:
        raise ValueError("nothing to choose")
    g, seat = game_from_view(view)
    g.rng = "00" * 32 + ":0"  # a stand-in: the rebuilt game never draws what is hidden
    if g.queue and g.queue[0]["do"] == "invite":
        g.queue[0].setdefault("rest", [])
    return choose_strong(g, seat, ids, rng)
