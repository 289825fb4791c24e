"""What the bot keeps across decisions (goals, a neighbour's action's worth, which item kinds
fill a winter slot; its own actions' worth is kept for one decision) and the rules' table of panels that act equal their computation from
scratch at every state of seeded bot games."""

from __future__ import annotations

import random

import pytest

import app.games.key_flow as kf
from app.games.key_flow import bot, rules
from app.games.key_flow.bot import _action_value, _goals, action_value, fillable, goals
from app.games.key_flow.content import CARDS, ROAD
from app.games.key_flow.rules import items, live_action, powers
from app.games.key_flow.scoring import accepts
from app.games.rng import Rng

SLOTS = sorted({slot for c in CARDS.values() for v in c.scoring for slot in v.slots})
KEYPLE_CARDS = [c for c in CARDS.values() if c.kind == "keyple"]


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
            bot.forget()  # a decision of its own, as the bot starts each
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
            # bot._road_spots reads the road row as the village's first cards, by column
            assert p.village == sorted(p.village, key=rules._village_order)
            for q in g.players:
                roads = [e for e in q.village if e["row"] == ROAD and len(e["keyples"]) < 3
                         and rules.USES[e["card"]][len(e["tiles"])][q is p]]
                assert [s[0] for s in bot._road_spots(g, p, q.seat, want)] == sorted(e["col"] for e in roads)
            for c in KEYPLE_CARDS:  # rules.reachable, kept by what it reads
                assert bot._reachable(g, p, c) == rules.reachable(g, p, c)
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
    """bot.transport_choice stops at the first giver too far to beat the best move: the kept
    steps must come nearest first, and be the shortest walks along touching cards (none on
    from a store)."""
    checked = 0
    for step, g in enumerate(states(players, seed)):
        if step % 7:
            continue
        for p in g.players:
            bot.forget()
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


def _move_worth(p, src, dst, r):
    """A transport move weighed as the bot first weighed every listed move: the most, over
    the cards wanting ``r`` that the move brings it closer to, of their weight / (1 + steps
    left), less the giver's own weight for ``r`` when its next upgrade takes every ``r`` it
    holds (or 2.5 for gold when it lacks anything)."""
    village = p.village
    wants = {}  # place -> weight for r
    for i, e in enumerate(village):
        store, cost, weight = bot._TRANSPORT_WANTS[e["card"]][len(e["tiles"])]
        lacks = bot.needs(p, e)
        for res, w in store:
            if res == r:
                wants[i] = max(wants.get(i, -1.0), w)
        if r in lacks or (r == "gold" and lacks):
            wants[i] = max(wants.get(i, -1.0), 2.5 if r == "gold" and r not in lacks else weight)
    gain = 0.0
    for target, weight in wants.items():
        dist = bot.steps_from(p, target)
        if target == src or src not in dist or dst not in dist:
            continue
        if dist[dst] < dist[src]:
            gain = max(gain, weight / (1 + dist[dst]))
    e = village[src]
    _, cost, weight = bot._TRANSPORT_WANTS[e["card"]][len(e["tiles"])]
    if any(res == r and n >= e["res"][r] for res, n in cost or ()):
        return gain - weight  # moving it away undoes what it holds toward its upgrade
    return gain - (2.5 if r == "gold" and bot.needs(p, e) else 0.0)


@pytest.mark.parametrize("players, seed", [(2, 3), (4, 5), (6, 6)])
def test_transport_choice_is_the_best_listed_move(players, seed):
    """bot.transport_choice looks only from each wanting card to its nearest givers: its move
    must be a listed one and worth as much as the best of every listed move weighed one by
    one ("stop" only when no move is worth more than bot.MIN_MOVE)."""
    checked = 0
    for g in states(players, seed):
        for p in g.players:
            if not (p.jobs and p.jobs[0]["do"] == "transport" and rules.is_acting(g, p)):
                continue
            bot.forget()
            bot._plans.clear()  # the moves weighed afresh (a unit's kept path is tested below)
            chosen = bot.transport_choice(p)
            moves = list(rules.iter_move_places(p))
            best = max((_move_worth(p, *m) for m in moves), default=0.0)
            if chosen == "stop":  # no move is worth more than bot.MIN_MOVE
                assert best <= bot.MIN_MOVE
            else:
                assert chosen in {rules.move_id(p, *m) for m in moves}
                worth = next(_move_worth(p, *m) for m in moves if rules.move_id(p, *m) == chosen)
                assert worth == pytest.approx(best) and worth > bot.MIN_MOVE
            checked += 1
    assert checked > 20


def test_the_kinds_filling_a_slot_are_those_accepts_takes_for_every_set_of_powers():
    """The bot's table of the item kinds filling each slot word, kept for the powers that
    change them (bot._SLOT_POWERS), equals scoring.accepts for every set of the boats'
    powers, and holds every kind rules.items counts."""
    every = sorted({c.power for c in CARDS.values() if c.power})
    for mask in range(1 << len(every)):
        pw = frozenset(x for i, x in enumerate(every) if mask >> i & 1)
        table = bot._FITS[pw & bot._SLOT_POWERS]
        for slot in SLOTS:
            assert table[slot] == {kind for kind in bot._ITEM_KINDS if accepts(slot, kind, pw)}
    kinds = {kind for by_panel in rules._CARD_ITEMS.values() for panel in by_panel for kind in panel}
    assert kinds | {rules._KCARD_ITEM[c.id] for c in KEYPLE_CARDS} <= bot._ITEM_KINDS


@pytest.mark.parametrize("players, seed", [(3, 9), (6, 4)])
def test_the_kept_worth_of_an_action_reads_only_the_worth_words_of_the_goals(players, seed):
    """The worths of actions that only gain (and of every action in a neighbour's village)
    are kept by the goals among bot._WORTH_WORDS alone, shared by seats whose goals differ
    elsewhere: each such worth, weighed afresh, must be the same with those goals alone."""
    rnd = random.Random(seed)
    actions = [a for c in CARDS.values() for a in (c.reward, *(panel.action for panel in c.panels))]
    checked = 0
    for step, g in enumerate(states(players, seed)):
        if step % 25:
            continue
        for p in g.players:
            for _ in range(3):
                want = frozenset(rnd.sample(SLOTS, rnd.randint(0, 6)))
                for action in actions:
                    for own in (True, False):
                        if own and not bot._gains_only(action):
                            continue  # kept for one decision only
                        bot.forget()
                        assert _action_value(p, action, want, own) == \
                            _action_value(p, action, want & bot._WORTH_WORDS, own), (sorted(want), action)
                        checked += 1
    assert checked > 1000


class _Digits:
    """An Rng stand-in for pick_noise: draws from a seeded random.Random, counting them."""

    def __init__(self, seed: int) -> None:
        self.rnd, self.draws = random.Random(seed), 0

    def randrange(self, n: int) -> int:
        self.draws += 1
        return self.rnd.randrange(n)


def test_a_pick_draws_noise_only_for_the_cards_it_could_lift_to_the_top():
    """bot.pick_among draws the tie-breaking noise (0-99 thousandths a card) only for the
    cards within the noise of the best value: a card left out must lose to the chosen one
    even with the most noise there is, and the chosen one must be the best of value plus
    noise among those drawn for; with one card that far ahead, nothing is drawn."""
    rnd = random.Random(7)
    checked = drawn = 0
    for trial in range(3000):
        cards = [f"c{i}" for i in range(rnd.randint(1, 9))]
        values = {cid: (rnd.choice([-1.0, 0.5, 2.0]) if rnd.random() < 0.3 else round(rnd.uniform(-1, 6), rnd.choice([1, 2, 3])),
                        None) for cid in cards}
        ids = [f"pick:{cid}" for cid in cards]
        top = max(v for v, _ in values.values())
        rng = _Digits(trial)
        chosen = bot.pick_among(rng, ids, values, top)
        # the same draws again, to know each near card's digit
        near = [o for o in ids if values[o[5:]][0] + 99 / 1000 >= top]
        digits = dict(zip(near, bot.pick_noise(_Digits(trial), len(near)))) if rng.draws else {chosen: 0}
        score = values[chosen[5:]][0] + digits[chosen] / 1000
        assert (score, chosen) == max((values[o[5:]][0] + d / 1000, o) for o, d in digits.items())
        for o in ids:
            if o not in digits:
                assert values[o[5:]][0] + 99 / 1000 < score, (values, chosen)
        assert rng.draws == (0 if len(near) == 1 else 1 + (len(near) - 1) // 9)
        checked += 1
        drawn += bool(rng.draws)
    assert checked == 3000 and 100 < drawn < 2900


@pytest.mark.parametrize("players, seed", [(2, 3), (4, 5), (6, 6)])
def test_a_kept_transport_path_goes_on_only_in_the_village_it_was_made_for(players, seed):
    """A unit sent more than one step keeps its path (bot._plans): at the seat's next move,
    in the village as that move left it, the next step is a listed move of the same resource
    onto the next card of a shortest path to the wanting card; a village differing in any
    card, or holding other resources on the two cards moved, does not take the kept path."""
    kept = refused = 0
    for g in states(players, seed):
        for p in g.players:
            planned = bot._plans.get(p.seat)
            if planned is None or not (p.jobs and p.jobs[0]["do"] == "transport" and rules.is_acting(g, p)):
                continue
            before, path, r, src, dst = planned
            move = bot.planned_move(p, planned)
            if move is None:
                continue
            kept += 1
            assert rules.is_move_listed(p, move)
            assert move == rules.move_id(p, path[1], path[2], r)
            dist = bot.steps_from(p, path[-1])
            assert dist[path[2]] == dist[path[1]] - 1 and p.village[path[1]]["res"].get(r)
            # the same plan in a village changed anywhere else is refused
            for at in range(len(p.village)):
                other = list(p.village)
                other[at] = {**other[at], "res": {**other[at]["res"], "stone": other[at]["res"].get("stone", 0) + 1}}
                q = rules.Player(**{**vars(p), "village": other})
                assert bot.planned_move(q, planned) is None
                refused += 1
    assert kept >= 2 and refused > kept
