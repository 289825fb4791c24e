"""Properties over whole games: bot and random games finish for 2-4 players, counters and
tiles are never lost, replaying the choices rebuilds the state, dump/load round-trips, no
view shows another seat's counters or a face-down tile, refusals change nothing."""

from __future__ import annotations

import json
import random

import pytest

import app.games.key_harvest as kh
from app.games.key_harvest import bot
from app.games.key_harvest.content import EVENTS, FIELDS, is_event
from app.games.protocol import IllegalAction
from app.games.rng import Rng

from ..twins import leaves
from .support import snapshot, total_counters


def check_invariants(g):
    assert total_counters(g) == 60
    assert all(n >= 0 for n in g.supply.values())
    assert all(n >= 0 for p in g.players for n in p.counters.values())
    tiles = ([r for p in g.players for r in p.fields] + [e["tile"] for p in g.players for e in p.store]
             + [r for r in g.registry if r] + g.fallow + [t for t in g.bag if not is_event(t)])
    assert sorted(tiles) == sorted(FIELDS), "every field tile is in exactly one place"
    events = g.track + g.set_aside + g.held + g.ignored + g.removed + [t for t in g.bag if is_event(t)]
    assert sorted(events) == sorted(EVENTS), "every event is in exactly one place"
    assert len(g.track) <= 10 and all(len(p.store) <= 2 for p in g.players)
    for p in g.players:
        for ref, w in p.workers.items():
            assert ref not in p.fields and not any(n in p.workers for n in kh.rules.NEIGHBOURS[ref])


def check_views(g):
    face_down = set(g.removed) | {t for t in g.bag if is_event(t)}
    for seat in [None, *range(len(g.players))]:
        v = kh.view(g, seat)
        strings = set(leaves(v))
        assert not strings & face_down, f"seat {seat} sees a face-down event"
        if seat is None:
            assert v["private"] is None
        else:
            assert v["private"]["counters"] == g.players[seat].counters
        assert "counters" not in set(leaves(v["public"]))


def play(players, seed, chooser, check_every=0):
    g = kh.setup(players, {}, seed)
    actions = []
    while kh.result(g) is None:
        assert len(actions) < 5000, f"{players} players, seed {seed}: no end after 5000 choices"
        seat = min(kh.to_act(g))
        choice = chooser(g, seat)
        g = kh.apply(g, seat, choice)
        actions.append((seat, choice))
        if check_every and len(actions) % check_every == 0:
            check_invariants(g)
            check_views(g)
    check_invariants(g)
    return g, actions


def bot_chooser(seed):
    rng = Rng(seed)
    return lambda g, seat: bot.choose(g, seat, rng)


def random_chooser(seed):
    rng = random.Random(seed)

    def choose(g, seat):
        ids = [o.id for o in kh.options(g, seat)]
        return rng.choice([i for i in ids if i != "cancel"] or ids)
    return choose


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bot_games_finish_in_a_realistic_number_of_turns(players, seed):
    g, actions = play(players, seed, bot_chooser(seed), check_every=7)
    r = kh.result(g)
    assert r.winners and {s.seat for s in r.scores} == set(range(players))
    assert g.ending and g.final_turns == 0
    assert 8 * players <= g.turns <= 40 * players
    assert max(s.score for s in r.scores) >= 10  # bots build groups worth something


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_finish_with_invariants_kept(players):
    play(players, 40 + players, random_chooser(players), check_every=3)


def test_replaying_the_choices_rebuilds_the_state_and_dump_load_round_trips():
    g, actions = play(3, 8, bot_chooser(8))
    replayed = kh.setup(3, {}, 8)
    for seat, choice in actions:
        replayed = kh.apply(replayed, seat, choice)
        raw = json.loads(json.dumps(kh.dump(replayed)))
        assert kh.dump(kh.load(raw)) == kh.dump(replayed)
    assert kh.dump(replayed) == kh.dump(g)


def test_unlisted_choices_are_refused_and_change_nothing():
    g, actions = play(2, 5, bot_chooser(5))
    g = kh.setup(2, {}, 5)
    for seat, choice in actions[:150]:
        before = snapshot(g)
        listed = {o.id for o in kh.options(g, seat)}
        for bogus in ("harvest:Z9", "take:1:5", "registry:9", "add:purple", "space:A0", "confirm", "end", "done"):
            if bogus not in listed:
                with pytest.raises(IllegalAction):
                    kh.apply(g, seat, bogus)
        other = (seat + 1) % 2
        if other not in kh.to_act(g):
            with pytest.raises(IllegalAction, match="nothing to choose"):
                kh.apply(g, other, "end")
        assert snapshot(g) == before
        g = kh.apply(g, seat, choice)


def test_views_never_mutate_the_game():
    g, _ = play(4, 3, bot_chooser(3))
    before = snapshot(g)
    for seat in (None, 0, 1, 2, 3):
        kh.view(g, seat)
    assert snapshot(g) == before


def test_the_bot_plays_toward_the_goal_and_beats_random_play():
    wins = 0
    for seed in range(10):
        rng, pick = Rng(seed), random_chooser(seed)
        g = kh.setup(2, {}, seed)
        while kh.result(g) is None:
            seat = min(kh.to_act(g))
            g = kh.apply(g, seat, bot.choose(g, seat, rng) if seat == 0 else pick(g, seat))
        wins += kh.result(g).winners == [0]
    assert wins >= 8  # fixed seeds: 10 of 10 when written


# --- Doing the same thing cheaper (issue 16): copies, kept options ---

def containers(value, found: dict | None = None) -> dict:
    """Every dict and list inside a game and its players, by id."""
    found = {} if found is None else found
    if isinstance(value, list) or isinstance(value, dict):
        found[id(value)] = value
        for v in (value.values() if isinstance(value, dict) else value):
            containers(v, found)
    elif isinstance(value, (kh.rules.Game, kh.rules.Player)):
        containers(vars(value), found)
    return found


def test_a_copy_of_the_game_shares_nothing_that_can_change():
    g = kh.setup(3, {}, 4)
    rng = Rng(4)
    for _ in range(60):  # into the middle of a game: stores, bids and queued steps
        seat = min(kh.to_act(g))
        g = kh.apply(g, seat, bot.choose(g, seat, rng))
    copy = kh.rules.clone(g)
    shared = set(containers(copy)) & set(containers(g))
    assert not shared, [containers(g)[i] for i in shared][:3]
    assert snapshot(copy) == snapshot(g)


def test_a_game_changed_in_place_after_listing_is_checked_anew():
    from .support import game, give
    g = give(game(), 0, "red")
    pick = next(o.id for o in kh.options(g, 0) if o.id.startswith("registry:"))
    g.players[0].counters["red"] = 0  # a test's change in place: no counter left to bid
    g.supply["red"] += 1
    with pytest.raises(IllegalAction):
        kh.apply(g, 0, pick)


def test_listing_then_applying_twice_gives_two_games_of_their_own():
    from .support import game, give
    g = give(game(), 0, "red")
    before = snapshot(g)
    pick = next(o.id for o in kh.options(g, 0) if o.id.startswith("registry:"))
    first, second = kh.apply(g, 0, pick), kh.apply(g, 0, pick)
    assert first is not second and snapshot(first) == snapshot(second)
    first.queue[0]["bid"]["red"] = 1
    assert second.queue[0]["bid"] == {} and snapshot(g) == before


def test_options_the_bot_listed_are_reused_once_and_only_for_that_game_and_seat(monkeypatch):
    from .support import game, give
    g = give(game(), 0, "red")
    offered = [o.id for o in kh.rules.listed(g, 0)]
    assert offered == [o.id for o in kh.options(g, 0)]
    with pytest.raises(IllegalAction):
        kh.apply(g, 0, "confirm")  # not listed: refused against the kept list
    kh.rules.listed(g, 0)

    def listing_again(*_):
        raise AssertionError("listed twice")
    with monkeypatch.context() as patch:
        patch.setattr(kh.rules, "options", listing_again)
        after = kh.apply(g, 0, offered[0])  # checked against the kept list, not listed again
    assert after is not g and snapshot(after) != snapshot(g)
    with pytest.raises(AssertionError, match="listed twice"), monkeypatch.context() as patch:
        patch.setattr(kh.rules, "options", listing_again)
        kh.apply(g, 0, offered[0])  # the kept list was used once: listed afresh


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_turn_listed_kind_by_kind_matches_the_whole_list(players):
    """``rules.TurnListing`` (the bot's turn, each kind of option worked out when asked) gives
    every kind exactly as ``options`` lists it, its own-store takes as the first takes, and
    ``apply`` accepts what it worked out and nothing else without the full check."""
    turns = 0
    for g, seat, turn in bot_game_steps(players, seeds=6):
        if turn is not None:
            turns += 1
            offered = kh.options(g, seat)
            for kind in ("harvest", "play", "remove", "take", "registry"):
                assert turn.of(kind) == [o.id for o in offered if o.kind == kind], kind
            own = [o.id for o in offered if o.id.startswith(f"take:{seat}:")]
            assert turn.own_takes() == own == turn.of("take")[:len(own)]
            assert all(turn.has(o.id) for o in offered) and not turn.has("take:9:0")
            assert not turn.has("harvest:Z9") and not turn.has("confirm")
        else:
            assert not kh.options(g, seat) or g.queue or g.phase != "play"
    assert turns > 100


def bot_game_steps(players, seeds):
    """Every step of seeded bot games, seeds 0..seeds-1: (game, seat to act, its
    ``TurnListing`` or None). What the caller lists in between is forgotten before the bot
    moves on."""
    for seed in range(seeds):
        g, rng = kh.setup(players, {}, seed), Rng(seed)
        while kh.result(g) is None:
            seat = min(kh.to_act(g))
            turn = kh.rules.listed_turn(g, seat)
            kh.rules._LISTED.last = None
            yield g, seat, turn
            kh.rules._LISTED.last = None
            g = kh.apply(g, seat, bot.choose(g, seat, rng))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_bot_s_light_listing_of_a_step_matches_its_options(players):
    """``rules.listed`` gives a worker's spaces, a power's targets, a counter to take and an
    event's choice as ``Choice``s: the ids and kinds of ``options``, in its order; and the
    queue's "anything in reach?" (``power_in_reach``) agrees with ``power_targets``."""
    light = reached = 0
    for seed in range(8):
        g, rng = kh.setup(players, {}, seed), Rng(seed)
        while kh.result(g) is None:
            seat = min(kh.to_act(g))
            offered = [(o.id, o.kind) for o in kh.options(g, seat)]
            listed = kh.rules.listed(g, seat)
            assert [(o.id, o.kind) for o in listed] == offered
            if g.queue and g.queue[0]["do"] in kh.rules.STEP_CHOICES:
                light += 1
                assert all(type(o) is kh.rules.Choice for o in listed)
            for job in g.queue:
                if job["do"] == "power" and kh.rules.effect_of(job).kind not in kh.rules.AUTOMATIC:
                    reached += 1
                    p = g.players[job["seat"]]
                    assert kh.rules.power_in_reach(g, p, job) == bool(kh.rules.power_targets(g, p, job))
            g = kh.apply(g, seat, bot.choose(g, seat, rng))
    assert light > 100 and reached > 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_bot_s_pricing_of_plays_matches_pricing_every_listed_play_on_every_space(players):
    """``bot.best_worker`` prices the workers at home on the board's spots, leaving out those
    with no space (not listed) and, with a floor, those that cannot reach it; ``TurnListing.has``
    answers for a play without the plays listed. Both against the plain way at every turn of
    seeded games: every listed play priced on every space it may take (``power_worth``)."""
    turns = strong = 0
    for g, seat, turn in bot_game_steps(players, seeds=6):
        if turn is not None:
            turns += 1
            p = g.players[seat]
            plays = [o.id for o in kh.options(g, seat) if o.kind == "play"]
            for worker_id in kh.rules.WORKERS:
                assert turn.has(f"play:{worker_id}") == (f"play:{worker_id}" in plays), worker_id
            assert not turn.has("play:nobody") and not turn.has("play")
            best, worth = None, float("-inf")
            for o in plays:
                w = kh.rules.WORKERS[o[5:]]
                here = max(bot.power_worth(g, p, w.id, ref) for ref in kh.rules.worker_spaces(p, w.id))
                here += bot.POINTS_SHARE * w.value
                if here > worth:
                    best, worth = o, here
            assert bot.best_worker(g, p, kh.rules.listed_turn(g, seat)) == (best, worth)
            floored = bot.best_worker(g, p, kh.rules.listed_turn(g, seat), bot.STRONG)
            if worth >= bot.STRONG:
                strong += 1
                assert floored == (best, worth)
            else:
                assert floored[1] < bot.STRONG
    assert turns > 100 and strong > 10


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_bid_read_from_the_bid_answers_as_its_options(players):
    """``rules.BidListing`` (the bot's bid, its options read from the bid when asked) accepts
    exactly the ids ``options`` lists, at every bid step of seeded bot and random games."""
    bids = 0
    for seed in range(8):
        g, rng, pick = kh.setup(players, {}, seed), Rng(seed), random.Random(seed)
        while kh.result(g) is None:
            seat = min(kh.to_act(g))
            bidding = kh.rules.listed_bid(g, seat)
            kh.rules._LISTED.last = None
            offered = [o.id for o in kh.options(g, seat)]
            if bidding is None:
                assert not (g.queue and g.queue[0]["do"] == "bid" and offered)
            else:
                bids += 1
                asked = [*kh.rules.ADD_CROPS, "confirm", "cancel", "add:", "add:oats", "end", "registry:0"]
                assert [i for i in asked if bidding.has(i)] == [i for i in asked if i in offered]
                assert set(offered) <= set(asked)
            choice = bot.choose(g, seat, rng) if seed % 2 else pick.choice(offered)
            g = kh.apply(g, seat, choice)
    assert bids > 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_second_tile_read_from_the_game_answers_as_its_options(players):
    """``rules.MoreListing`` (the bot's second tile, read from the game when asked) accepts
    exactly the ids ``options`` lists, gives the seat's own store as the first takes and tells
    whether anything but "done" is listed, at every such step of seeded bot and random games."""
    steps = 0
    for seed in range(8):
        g, rng, pick = kh.setup(players, {}, seed), Rng(seed), random.Random(seed)
        while kh.result(g) is None:
            seat = min(kh.to_act(g))
            more = kh.rules.listed_more(g, seat)
            kh.rules._LISTED.last = None
            offered = [o.id for o in kh.options(g, seat)]
            if more is None:
                assert not (g.queue and g.queue[0]["do"] == "more" and offered)
            else:
                steps += 1
                asked = [*(f"take:{s}:{i}" for s in range(players) for i in range(4)),
                         *(f"registry:{i}" for i in range(7)), "done", "cancel", "end", "take:9:0"]
                assert [i for i in asked if more.has(i)] == [i for i in asked if i in offered]
                assert more.own_takes() == [o for o in offered if o.startswith(f"take:{seat}:")]
                assert more.own_takes() == offered[:len(more.own_takes())]
                assert more.can_take_any() == (len(offered) > 1)
            choice = bot.choose(g, seat, rng) if seed % 2 else pick.choice(offered)
            g = kh.apply(g, seat, choice)
    assert steps > 50


def test_a_listing_kept_by_another_thread_is_not_taken(monkeypatch):
    """The bot's kept listing is one slot for every thread, stamped with the thread that
    listed: ``apply`` in another thread checks the choice afresh (with ``options``)."""
    import threading
    from .support import game, give
    g = give(game(), 0, "red")
    pick = next(o.id for o in kh.options(g, 0) if o.id.startswith("registry:"))
    lister = threading.Thread(target=kh.rules.listed, args=(g, 0))
    lister.start()
    lister.join()

    def listing_again(*_):
        raise AssertionError("listed afresh")
    with pytest.raises(AssertionError, match="listed afresh"), monkeypatch.context() as patch:
        patch.setattr(kh.rules, "options", listing_again)
        kh.apply(g, 0, pick)
    kh.rules.listed(g, 0)  # the same thread's listing is taken
    with monkeypatch.context() as patch:
        patch.setattr(kh.rules, "options", listing_again)
        assert kh.apply(g, 0, pick) is not g
