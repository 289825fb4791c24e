"""What the bot keeps across decisions (goals, a neighbour's action's worth, which item kinds
fill a winter slot; its own actions' worth is kept for one decision) and the rules' table of panels that act equal their computation from
scratch at every state of seeded bot games."""

from __future__ import annotations

import pytest

import app.games.key_flow as kf
from app.games.key_flow import bot, rules
from app.games.key_flow.bot import _action_value, _goals, action_value, fillable, goals
from app.games.key_flow.content import CARDS, ROAD
from app.games.key_flow.rules import items, live_action, powers
from app.games.key_flow.scoring import accepts
from app.games.rng import Rng

SLOTS = sorted({slot for c in CARDS.values() for v in c.scoring for slot in v.slots})


def states(players: int, seed: int):
    """Every state of a seeded bot game, as the bot plays it."""
    g = kf.setup(players, {}, seed)
    order, rng = Rng(seed), Rng(seed)
    while kf.result(g) is None:
        yield g
        seat = order.choice(sorted(kf.to_act(g)))
        g = kf.apply(g, seat, bot.choose(g, seat, rng))


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 4), (4, 5), (6, 6)])
def test_what_the_bot_keeps_equals_it_from_scratch(players, seed):
    checked = 0
    for step, g in enumerate(states(players, seed)):
        if step % 3:  # every third state: the game's every phase, in a test's time
            continue
        for p in g.players:
            bot._memo.clear()  # a decision of its own, as the bot starts each
            want = goals(g, p)
            assert want == _goals(p) and isinstance(want, frozenset)
            pw, have = powers(p), items(p)
            for slot in SLOTS:
                assert fillable(p, slot) == sum(n for kind, n in have.items() if accepts(slot, kind, pw))
            for q in g.players:
                for e in q.village:  # every building, its own or a neighbour's, reachable or not
                    if e["row"] == ROAD:
                        action, own = live_action(e), q is p
                        assert action_value(p, action, want, own) == _action_value(p, action, want, own)
                        checked += 1
            for cid in p.hand:  # what a card in hand would give, built
                c = CARDS[cid]
                for action in (c.reward, *(panel.action for panel in c.panels)):
                    assert action_value(p, action, want, True) == _action_value(p, action, want, True)
    assert checked > 100


def test_the_table_of_panels_that_act_equals_use_of():
    for cid, c in CARDS.items():
        assert rules.USES[cid] == tuple(rules._use_of(cid, panel) for panel in range(len(c.panels)))


@pytest.mark.parametrize("players, seed", [(2, 7), (6, 8)])
def test_to_act_is_every_seat_acting(players, seed):
    for g in states(players, seed):  # every phase of a whole game
        assert kf.to_act(g) == frozenset(p.seat for p in g.players if rules.is_acting(g, p))


@pytest.mark.parametrize("players, seed", [(2, 3), (5, 2)])
def test_steps_from_are_the_shortest_walks_nearest_first(players, seed):
    """bot.moves_needed stops at the first card beyond the carts' reach: the kept steps must
    come nearest first, and be the shortest walks along touching cards (none on from a store)."""
    checked = 0
    for step, g in enumerate(states(players, seed)):
        if step % 7:
            continue
        for p in g.players:
            bot._memo.clear()
            village = p.village
            for start in range(len(village)):
                steps = bot.steps_from(p, start)
                assert list(steps.values()) == sorted(steps.values())
                # from scratch: grow the reached places one step at a time
                reached, frontier, d = {start: 0}, [start], 0
                while frontier:
                    d += 1
                    frontier = [b for a in frontier if a == start or CARDS[village[a]["card"]].kind != "store"
                                for b in range(len(village)) if rules.touching(village[a], village[b])]
                    frontier = [b for b in dict.fromkeys(frontier) if b not in reached]
                    reached.update({b: d for b in frontier})
                assert steps == reached
                checked += 1
    assert checked > 100


def _moves_one_unit_at_a_time(p, at, missing, pw, carts):
    """bot.moves_needed as first written: each missing unit alone, from the nearest card
    (by steps, place, kind) still holding one of its kind or gold (any with the Keyflower)."""
    dist = bot.steps_from(p, at)
    left = {}
    for i, d in dist.items():
        x = p.village[i]
        if i != at and d <= carts and CARDS[x["card"]].kind != "store":
            for k, n in x["res"].items():
                if n:
                    left[(d, i, k)] = n
    steps = 0
    for r, n in missing:
        kinds = rules.RESOURCES if "keyflower" in pw else (r, "gold")
        for _ in range(n):
            unit = next((u for u in sorted(left) if left[u] and u[2] in kinds), None)
            if unit is None:
                return carts + 1
            left[unit] -= 1
            steps += unit[0]
    return steps


@pytest.mark.parametrize("players, seed", [(2, 3), (4, 5), (6, 6)])
def test_moves_needed_takes_the_nearest_units_one_at_a_time(players, seed):
    """bot.moves_needed takes as many units as a card holds at once and stops past the
    carts: the same steps as taking them one at a time, when the carts reach (else more
    than the carts either way), for every card's next upgrade at every cart count."""
    checked = reached = 0
    for step, g in enumerate(states(players, seed)):
        if step % 4:
            continue
        for p in g.players:
            bot._memo.clear()
            pw = powers(p)
            for at, e in enumerate(p.village):
                costs = CARDS[e["card"]].costs
                if len(e["tiles"]) >= len(costs):
                    continue
                cost = costs[len(e["tiles"])]
                for missing in (bot.shortfall(e, cost, pw), list(cost.resources)):  # also with nothing on it yet
                    if not missing:
                        continue
                    for carts in range(7):
                        fast, slow = bot.moves_needed(p, at, missing, pw, carts), \
                            _moves_one_unit_at_a_time(p, at, missing, pw, carts)
                        assert (fast <= carts) == (slow <= carts)
                        if slow <= carts:
                            assert fast == slow
                            reached += 1
                        checked += 1
    assert checked > 500 and reached > 20
