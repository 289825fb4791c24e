"""Properties over whole games: bot and random games finish for 2-4 players, goods,
keyples and tiles are never lost, replaying the choices rebuilds the state, dump/load
round-trips, and no view shows another seat's face-down fairs or a fold being chosen."""

from __future__ import annotations

import json
import random

import pytest

import app.games.keyper as kp
from app.games.keyper import bot
from app.games.keyper.content import BUILDINGS, COUNTRY, FAIRS, STOCK, SUPPLY
from app.games.keyper.rules import FOLD, build_options, can_build, can_pay, can_upgrade, clone, payment
from app.games.rng import Rng

from ..twins import leaves


def check_invariants(g):
    for good in STOCK:
        held = sum(p.stock.get(good, 0) for p in g.players)
        shown = sum(f["goods"].get(good, 0) for p in g.players for f in p.shown)
        assert held + shown + g.supply[good] == SUPPLY[good], good
        assert g.supply[good] >= 0 and all(p.stock.get(good, 0) >= 0 for p in g.players)
    keyples = sum(len(p.hand) + len(p.keyp) + len(p.keyp_down) for p in g.players)
    keyples += sum(len(s) for b in g.boards for s in b["spaces"].values())
    keyples += sum(len(pl["keyples"]) for p in g.players for pl in p.plots.values())
    assert keyples == 8 * len(g.players)
    tiles = (g.bag + [t for t in g.display if t] + g.discard + [t for p in g.players for t in p.held]
             + [t for p in g.players for pl in p.plots.values() for t in pl["tiles"] if t in COUNTRY])
    in_play = set(tiles)
    assert len(tiles) == len(in_play)
    if g.season >= 1:
        assert in_play == set(COUNTRY)
    fairs = (g.fair_pool + g.fair_out + g.winter_fairs + [f for p in g.players for f in p.fairs.values()]
             + [f for p in g.players for f in p.winter] + [f["id"] for p in g.players for f in p.shown])
    assert len(fairs) == len(set(fairs))
    assert all(p.ship <= 40 for p in g.players)
    assert all(len(pl["tiles"]) <= 2 for p in g.players for pl in p.plots.values())


def check_views(g):
    secret = {f for p in g.players for f in p.fairs.values()} | set(g.fair_pool) | set(g.fair_out)
    for seat in [None, *range(len(g.players))]:
        v = kp.view(g, seat)
        strings = set(leaves(v))
        own = set(g.players[seat].fairs.values()) if seat is not None else set()
        assert not (strings & (secret - own)), f"seat {seat} sees a face-down fair"
        if seat is None:
            assert v["private"] is None
        if g.phase == FOLD:
            others = {p.fold for p in g.players if p.fold and p.seat != seat}
            assert not any(f in json.dumps(v["public"]) for f in others if f not in
                           {b["fold"] for b in g.boards}), "a chosen fold shows"
    json.dumps(kp.view(g, None))


def play(players, seed, chooser, check_every=0):
    g = kp.setup(players, {}, seed)
    actions = []
    kept = []  # (game, its dump) now and then: no later choice may change them
    while kp.result(g) is None:
        assert len(actions) < 5000, f"{players} players, seed {seed}: no end after 5000 choices"
        seat = min(kp.to_act(g))
        if check_every and len(actions) % check_every == 0:
            check_every_choice_leaves_the_game(g, seat)
            kept.append((g, kp.dump(g)))
        choice = chooser(g, seat)
        g = kp.apply(g, seat, choice)
        actions.append((seat, choice))
        if check_every and len(actions) % check_every == 0:
            check_invariants(g)
            check_views(g)
    check_invariants(g)
    for earlier, dumped in kept:  # later games share parts with them (copy on write)
        assert kp.dump(earlier) == dumped
    return g, actions


def check_every_choice_leaves_the_game(g, seat):
    """``apply`` (and ``clone``) share the parts an action leaves alone with the given game:
    no choice may change it."""
    before = kp.dump(g)
    assert kp.dump(clone(g)) == before
    for o in kp.options(g, seat):
        kp.apply(g, seat, o.id)
        assert kp.dump(g) == before, o.id


def bot_chooser(seed):
    rng = Rng(seed)
    return lambda g, seat: bot.choose(g, seat, rng)


def random_chooser(seed):
    rng = random.Random(seed)

    def choose(g, seat):
        ids = [o.id for o in kp.options(g, seat)]
        return rng.choice([i for i in ids if i != "cancel"] or ids)
    return choose


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_games_finish_and_keep_everything(players):
    g, actions = play(players, 11 * players, bot_chooser(players), check_every=7)
    result = kp.result(g)
    assert result.winners and len(result.scores) == players
    assert max(s.score for s in result.scores) > 0
    kinds = {a.split(":")[0] for _, a in actions}
    assert {"keyper", "keyple", "join", "fold", "build"} <= kinds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_finish(players):
    g, _ = play(players, 5 + players, random_chooser(players), check_every=5)
    assert kp.result(g) is not None and kp.to_act(g) == frozenset()


def test_replay_equals_snapshot_and_dump_round_trips():
    g, actions = play(3, 8, random_chooser(8))
    again = kp.setup(3, {}, 8)
    for seat, choice in actions:
        again = kp.apply(again, seat, choice)
    assert kp.dump(again) == kp.dump(g)
    assert kp.dump(kp.load(json.loads(json.dumps(kp.dump(g))))) == kp.dump(g)


def test_apply_never_changes_the_given_state():
    g = kp.setup(2, {}, 3)
    before = json.dumps(kp.dump(g), sort_keys=True)
    for o in kp.options(g, g.turn):
        kp.apply(g, g.turn, o.id)
    assert json.dumps(kp.dump(g), sort_keys=True) == before


def test_the_owner_sees_its_fairs_and_nobody_else_does():
    g = kp.setup(3, {}, 2)
    mine = g.players[1].fairs["spring"]
    assert kp.view(g, 1)["private"]["fairs"]["spring"]["id"] == mine
    for seat in (None, 0, 2):
        assert mine not in set(leaves(kp.view(g, seat)))
    assert mine in FAIRS


@pytest.mark.parametrize("players", [2, 4])
def test_the_quick_build_and_upgrade_checks_agree_with_the_options(players):
    """``can_build`` and ``can_upgrade`` (asked by the bot and when a step is skipped) say
    yes exactly when the action would list something, at every step of random games."""
    def check(g, seat):
        for p in g.players:
            for kind in ("build", "discount"):
                assert can_build(g, p, kind) == bool(build_options(g, p, {"kind": kind})), (kind, p.seat)
            upgrades = [pid for pid, plot in p.plots.items() if plot["tiles"] and not plot["up"]
                        and payment(p.stock, BUILDINGS[plot["tiles"][-1]].back.cost) is not None]
            assert can_upgrade(p) == bool(upgrades)
    seen = []
    chooser = random_chooser(players)

    def both(g, seat):
        check(g, seat)
        seen.append((can_build(g, g.players[seat], "build"), can_upgrade(g.players[seat])))
        return chooser(g, seat)
    play(players, 3 + players, both)
    assert {True, False} <= {b for b, _ in seen} | {u for _, u in seen} and any(u for _, u in seen)


def test_can_pay_agrees_with_payment():
    """``can_pay`` (the quick test) answers as ``payment`` finds a way, over many stores and
    costs mixing named goods, white goods and wheat."""
    rng = random.Random(16)
    kinds = ["clay", "logs", "rock", "brick", "wood", "stone", "wheat", "emerald", "gold", "ruby", "sapphire", "sheep"]
    for _ in range(20000):
        stock = {k: rng.choice((0, 0, 1, 1, 2, 3)) for k in rng.sample(kinds, rng.randrange(len(kinds) + 1))}
        cost = {k: rng.randrange(1, 4) for k in rng.sample(kinds + ["raw", "finished", "gem"], rng.randrange(5))}
        assert can_pay(stock, cost) == (payment(stock, cost) is not None), (stock, cost)


def place_steps(players, seed, chooser):
    """(game, seat) at every keyple's place step of a whole game."""
    steps = []

    def watch(g, seat):
        if g.queue and g.queue[0]["do"] == "place":
            steps.append((g, seat))
        return chooser(g, seat)
    play(players, seed, watch)
    return steps


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_place_option_is_checked_as_the_listing_says(players):
    """``place_listed`` (how ``apply`` checks a place choice without listing every space)
    says yes exactly for the listed options, over every space, building and boat of the game
    and some odd ids, at every place step of bot and random games."""
    from app.games.keyper.rules import PLOTS, place_listed
    from app.games.keyper.content import BOATS
    steps = place_steps(players, 40 + players, bot_chooser(players))
    steps += place_steps(players, 50 + players, random_chooser(players))
    assert len(steps) > 50 and any(g.queue[0].get("river") for g, _ in steps)
    for g, seat in steps:
        listed = {o.id for o in kp.options(g, seat)}
        asked = set(listed) | {f"plot:{pid}" for pid in PLOTS} | {f"boat:{b}" for b in BOATS}
        asked |= {f"space:{b['id']}:{key}" for b in g.boards for key in b["spaces"]}
        asked |= {"space:9:0,0", "space:1", "space:x:river", "plot:", "boat:", "keyple:red", "pass", ""}
        for option_id in asked:
            assert place_listed(g, g.players[seat], option_id) == (option_id in listed), option_id


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_bots_place_pick_is_its_choice_among_the_listed_places(players):
    """At a keyple's place step the bot picks from its spots without the list
    (``place_pick``); it is the choice ``place_choice`` makes among the listed options, at
    every place step of bot and random games."""
    steps = place_steps(players, 60 + players, bot_chooser(players))
    steps += place_steps(players, 70 + players, random_chooser(players))
    checked = 0
    for g, seat in steps:
        if g.queue[0].get("river"):
            continue
        bot.decide(g, seat)
        quick = bot.place_pick(g, g.players[seat], g.queue[0]["colour"])
        bot.decide(kp.setup(2, {}, 0), 0)  # forget the spots: the slow path weighs afresh
        offered = [o.id for o in kp.options(g, seat)]
        assert quick == bot.choose_among(g, seat, offered, Rng(0)), (quick, offered)
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_boat_step_can_trade_exactly_when_trades_are_listed(players):
    """``can_trade`` (how a boat step is found settled without listing) is true exactly when
    ``boat_options`` lists a trade, at every state of bot and random games that holds a boat
    step for any seat with any goods."""
    from app.games.keyper.rules import boat_options, can_trade
    seen = []

    def watch(chooser):
        def choose(g, seat):
            if g.phase != FOLD and g.queue and g.queue[0]["do"] == "act" and g.queue[0]["kind"] == "boat":
                seen.append(g)
            return chooser(g, seat)
        return choose
    play(players, 100 + players, watch(bot_chooser(players)))
    play(players, 110 + players, watch(random_chooser(players)))
    both = set()
    for g in seen:
        # and the same game with the supply run out, then with every store empty or the
        # shipping track full too: the refusals
        dry = clone(g)
        dry.supply = {k: 0 for k in dry.supply}
        empty, full = clone(dry), clone(dry)
        for p in empty.players:
            p.stock = {}
        for p in full.players:
            p.ship = 40
        for game in (g, dry, empty, full):
            job = game.queue[0]
            for p in game.players:
                listed = bool(boat_options(game, p, job))
                assert can_trade(game, p, job) == listed
                both.add(listed)
    assert len(seen) > 20 and both == {True, False}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_keyples_best_value_skipping_buildings_is_the_best_of_all(players):
    """A turn weighs a building for a keyple only if its bound (``plot_bound``) could beat
    the best place found: ``best_place_value`` is still the best over every space and every
    building weighed exactly, for each colour in hand, at every turn of bot and random games;
    and no building is worth more than its bound."""
    from app.games.keyper.rules import may_join
    turns = []

    def watch(chooser):
        def choose(g, seat):
            if g.phase != FOLD and not g.queue and g.players[seat].hand:
                turns.append((g, seat))
            return chooser(g, seat)
        return choose
    play(players, 80 + players, watch(bot_chooser(players)))
    play(players, 90 + players, watch(random_chooser(players)))
    skipped = 0
    for g, seat in turns:
        p = g.players[seat]
        for colour in dict.fromkeys(p.hand):
            bot.decide(g, seat)  # a turn: weighed afresh
            quick = bot.best_place_value(g, p, colour)
            skipped += sum(plot_id not in bot._works for plot_id, _ in bot.open_buildings(p))
            best = bot.spots(g, p).best(colour)
            for plot_id, first in bot.open_buildings(p):
                value = bot.plot_value(g, p, plot_id)
                assert value <= bot.plot_bound(g, p, plot_id)
                if (first is None or may_join(first, None, colour)) and (best is None or value > best):
                    best = value
            assert quick == (0.0 if best is None else best), (colour, quick, best)
    assert len(turns) > 50 and skipped > 0


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 5), (4, 7)])
def test_option_ids_are_the_options_ids_all_game_long(players, seed):
    """``apply`` checks a choice against ``option_ids``, and the bot reads only those: for
    every seat at every decision of a random and a bot game, the same ids in the same order
    as ``options``."""
    from app.games.keyper.rules import option_ids
    from app.games.playout import bot_playout, random_playout
    kinds = set()
    for playout in (random_playout, bot_playout):
        played = playout("keyper", players, seed=seed)
        g = kp.setup(players, played.options, seed)
        for seat, option in played.actions + [(None, None)]:
            for s in range(players):
                ids = option_ids(g, s)
                assert ids == [o.id for o in kp.options(g, s)], (s, g.queue[:1])
                kinds.update(i.split(":")[0] for i in ids)
            if seat is not None:
                g = kp.apply(g, seat, option)
    every = {"keyper", "keyple", "lay", "pair", "pass", "join", "decline", "space", "plot", "boat", "keyp", "take",
             "build", "upgrade", "winter", "get", "sell", "use", "done", "cancel", "fair", "fold", "surplus"}
    assert every <= kinds, every - kinds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_invitation_is_worth_joining_as_its_field_value_says(players):
    """``bot.worth_joining`` (an invitation's bar without weighing what cannot change the
    answer) says yes exactly when ``kind_value`` of the field is at least 0.9, for every
    field kind and every seat at every invitation of bot and random games."""
    from app.games.keyper.content import FIELD_COLOUR
    from app.games.keyper.rules import board_fields, board_of
    seen = {}

    def watch(chooser):
        def choose(g, seat):
            if g.queue and g.queue[0]["do"] == "invite":
                job = g.queue[0]
                asked = {board_fields(board_of(g, job["board"]))[job["space"]]} | set(FIELD_COLOUR)
                dry = clone(g)  # and with the supply and the stores run out (a river weighed in full)
                dry.supply = {k: 0 for k in dry.supply}
                for q in dry.players:
                    q.stock = {k: 0 for k in q.stock}
                for game in (g, dry):
                    for p in game.players:
                        for field in asked:
                            bot.decide(kp.setup(2, {}, 0), 0)  # forget the values: each weighed afresh
                            quick = bot.worth_joining(game, p, field)
                            bot.decide(kp.setup(2, {}, 0), 0)
                            assert quick == (bot.kind_value(game, p, field) >= 0.9), field
                            seen.setdefault(field, set()).add(quick)
            return chooser(g, seat)
        return choose
    play(players, 80 + players, watch(bot_chooser(players)))
    play(players, 90 + players, watch(random_chooser(players)))
    assert seen["river"] == seen["build"] == seen["discount"] == {True, False}, seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_made_by_a_queue_only_choice_differs_only_in_its_queue(players):
    """``made_from_by_queue`` (how the state bot knows at once that its values still hold at
    a keyple's place step) names the game a choice of a keyple or a tile to build was applied
    to, and every field but the queue of the two games is equal, at every such choice of bot
    and random games; after any other choice it names nothing."""
    from app.games.keyper.rules import made_from_by_queue
    counts = {True: 0, False: 0}

    def watch(chooser):
        def choose(g, seat):
            choice = chooser(g, seat)
            after = kp.apply(g, seat, choice)
            queue_only = choice.startswith(("keyple:", "build:"))
            assert made_from_by_queue(after) is (g if queue_only else None), choice
            if queue_only:
                assert bot.ALL_BUT_QUEUE(after) == bot.ALL_BUT_QUEUE(g), choice
                assert after.queue != g.queue
            counts[queue_only] += 1
            return choice
        return choose
    play(players, 100 + players, watch(bot_chooser(players)))
    play(players, 110 + players, watch(random_chooser(players)))
    assert counts[True] > 50 and counts[False] > 200
