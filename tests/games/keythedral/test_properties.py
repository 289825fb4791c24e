"""Properties over whole games: random and bot games finish for 2-5 players, replaying
the log rebuilds the state, no view shows another seat's screen, refusals change nothing."""

from __future__ import annotations

import json
import random

import pytest

import app.games.keythedral as kt
from app.games.keythedral import bot, rules
from app.games.protocol import IllegalAction
from app.games.rng import Rng

from ..twins import leaves


def hidden_from_everyone(g):
    """Face-down law cards, the law deck, face-down tiles, the order of the bag."""
    face_down = [t for v, row in g.rows.items() if int(v) not in g.face_up for t in row]
    return {c for c in g.law_slots if c} | set(g.law_deck) | set(face_down)


def check_views(g):
    shown = {seat: kt.view(g, seat) for seat in [None, *range(len(g.players))]}
    assert shown[None]["private"] is None
    secret_all = hidden_from_everyone(g)
    for seat, v in shown.items():
        strings = set(leaves(v))
        assert not strings & secret_all, f"seat {seat} sees hidden content {strings & secret_all}"
        for p in g.players:
            if p.seat == seat:
                continue
            mine = set(p.laws) | set(p.tiles)
            assert not strings & mine, f"seat {seat} sees seat {p.seat}'s {strings & mine}"
        for entry in v["public"]["players"]:
            assert isinstance(entry["cubes"], int) and isinstance(entry["laws"], int)
        if seat is not None:
            assert v["private"]["seat"] == seat
            assert v["private"]["cubes"] == g.players[seat].cubes
            assert [c["id"] for c in v["private"]["laws"]] == g.players[seat].laws
            received = g.players[seat].received
            assert v["private"]["received"] == (dict(received) if received else None)
        else:
            assert "received" not in json.dumps(v)  # which cubes paid the auction: payer and payee only


RANDOM_CAP = 4000  # random decisions before the bot takes over
BOT_CAP = 3000  # the bot ends any game well within this


def play(players, seed, chooser, check_every=0, options=None):
    """A whole game with views checked every ``check_every`` decisions. "random" plays at
    random for RANDOM_CAP decisions and then lets the bot finish: only a game the bot
    cannot end fails."""
    g = kt.setup(players, options or {}, seed)
    rng = random.Random(seed)
    brng = Rng(seed)
    actions = []
    for step in range(BOT_CAP + (RANDOM_CAP if chooser == "random" else 0)):
        if kt.result(g) is not None:
            return g, actions
        seat = rng.choice(sorted(kt.to_act(g)))
        if chooser == "bot" or step >= RANDOM_CAP:
            pick = bot.choose(g, seat, brng)
        else:
            listed = [o.id for o in kt.options(g, seat)]
            assert len(listed) == len(set(listed))
            pick = rng.choice([i for i in listed if i != "cancel"] or listed)
        g = kt.apply(g, seat, pick)
        actions.append((seat, pick))
        if check_every and step % check_every == 0:
            check_views(g)
    raise AssertionError(f"{players} players, seed {seed}: the bot could not end the game")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_finish_and_no_view_leaks(players):
    g, actions = play(players, 100 + players, "random", check_every=5)
    result = kt.result(g)
    assert {s.seat for s in result.scores} == set(range(players))
    assert result.winners and kt.to_act(g) == frozenset()
    assert all(not row for row in g.rows.values())
    check_views(g)


@pytest.mark.parametrize("players, options", [(2, {"length": "short"}), (3, {"strategic": True}),
                                              (4, {}), (5, {"length": "short", "strategic": True})])
def test_bot_games_finish_in_a_sensible_number_of_rounds(players, options):
    g, _ = play(players, 7 * players, "bot", check_every=3, options=options)
    assert 3 <= g.round <= 20
    tiles = sum(len(p.tiles) for p in g.players)
    assert tiles == (15 if options.get("length") == "short" else 22)


@pytest.mark.parametrize("players", [2, 5])
def test_replaying_the_log_rebuilds_the_state(players):
    g, actions = play(players, 40 + players, "random")
    replayed = kt.setup(players, {}, 40 + players)
    for seat, option in actions:
        replayed = kt.apply(replayed, seat, option)
    assert kt.dump(replayed) == kt.dump(g)
    assert kt.dump(kt.load(json.loads(json.dumps(kt.dump(g))))) == kt.dump(g)


def test_unlisted_choices_are_refused_and_change_nothing():
    g = kt.setup(3, {}, 17)
    rng = random.Random(3)
    for step in range(400):
        seat = rng.choice(sorted(kt.to_act(g)))
        listed = [o.id for o in kt.options(g, seat)]
        if step % 4 == 0:
            before = json.dumps(kt.dump(g), sort_keys=True)
            others = [s for s in range(3) if s != seat]
            foreign = {o.id for s in others for o in kt.options(g, s)} - set(listed)
            for bogus in sorted(foreign)[:3] + ["tile:12a", "pay:gold", "order:9", "bid:999", ""]:
                if bogus in listed:
                    continue
                with pytest.raises(IllegalAction):
                    kt.apply(g, seat, bogus)
            for s in others:
                if s not in kt.to_act(g):
                    with pytest.raises(IllegalAction, match="nothing to choose"):
                        kt.apply(g, s, listed[0])
            assert json.dumps(kt.dump(g), sort_keys=True) == before
        g = kt.apply(g, seat, rng.choice([i for i in listed if i != "cancel"] or listed))


def test_views_do_not_change_the_state():
    g, _ = play(2, 5, "bot")
    before = json.dumps(kt.dump(g), sort_keys=True)
    for seat in (None, 0, 1):
        kt.view(g, seat)
    assert json.dumps(kt.dump(g), sort_keys=True) == before


def test_the_log_names_seats_only_by_placeholder():
    g, _ = play(3, 9, "bot")
    assert any("{seat2}" in line for line in g.log)
    assert not any("Player " in line or "seat 1" in line for line in g.log)
    law_names = {c.name for c in rules.LAWS.values()}
    played_names = {rules.LAWS[c].name for c in g.played}
    for line in g.log:
        for name in law_names - played_names:
            assert name not in line


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_two_player_bot_game_lasts_about_a_dozen_rounds(seed):
    g, actions = play(2, seed, "bot")
    assert 9 <= g.round <= 15, g.round
    assert len(actions) < 600


def test_the_bot_buys_a_tile_whenever_it_can():
    g, actions = play(2, 11, "bot")
    replay = kt.setup(2, {}, 11)
    for seat, option in actions:
        if replay.pending is None and replay.phase == rules.ACTIONS and seat in kt.to_act(replay):
            tiles = [o.id for o in kt.options(replay, seat) if o.id.startswith("tile:")]
            assert not tiles or option in tiles, (option, tiles)
        replay = kt.apply(replay, seat, option)


def shared_containers(a, b, path="game"):
    """Paths where ``a`` and ``b`` hold the very same dict or list (a copy must not)."""
    if isinstance(a, (dict, list)) and a is b:
        return [path]
    if isinstance(a, dict) and isinstance(b, dict):
        return [p for k in a if k in b for p in shared_containers(a[k], b[k], f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in shared_containers(x, y, f"{path}[{i}]")]
    return []


def test_clone_is_a_whole_copy_sharing_nothing_mutable():
    """The hand-made copy equals the generic one at every step of a random game (auction,
    payments and law choices in progress included) and shares no dict or list with it but
    the cottages, which a step copies before it changes one."""
    from dataclasses import fields

    from app.games.plainstate import clone_game
    g = kt.setup(5, {}, 7)
    rng = random.Random(7)
    seen = set()
    for _ in range(RANDOM_CAP):
        if kt.result(g) is not None:
            break
        copy = rules.clone(g)
        assert copy == g and kt.dump(copy) == kt.dump(clone_game(g))
        assert set(vars(copy)) == {f.name for f in fields(rules.Game)}
        assert all(set(vars(p)) == {f.name for f in fields(rules.Player)} for p in copy.players)
        shared_on_purpose = ("players", "log", "cottages")  # cottages: copied when changed (own_cottage)
        raw = {k: v for k, v in vars(g).items() if k not in shared_on_purpose}
        raw_copy = {k: v for k, v in vars(copy).items() if k not in shared_on_purpose}
        assert not shared_containers(raw, raw_copy)
        assert not shared_containers([vars(p) for p in g.players], [vars(p) for p in copy.players])
        assert copy.log.recent is not g.log.recent
        seen |= {k for k, v in raw.items() if v}
        seat = rng.choice(sorted(kt.to_act(g)))
        listed = [o.id for o in kt.options(g, seat)]
        g = kt.apply(g, seat, rng.choice([i for i in listed if i != "cancel"] or listed))
    assert {"pending", "auction", "activation", "effects", "fences"} <= seen  # the nested parts were tried


@pytest.mark.parametrize("players, seed, chooser", [(2, 3, "random"), (5, 4, "random"), (3, 8, "bot"), (5, 3, "bot")])
def test_no_step_changes_a_game_it_was_given(players, seed, chooser):
    """Copies share what a step leaves alone (the cottages): through a whole game, every game
    kept along the way, and every game a different choice branched from, still dumps as it
    did when it was made. Cottages placed, moved by a law or by fences and turned into houses
    are among the steps (checked at the end)."""
    g = kt.setup(players, {}, seed)
    rng, bot_rng = random.Random(seed), Rng(seed)
    kept: list[tuple[object, dict]] = []
    for _ in range(RANDOM_CAP):
        if kt.result(g) is not None:
            break
        kept.append((g, kt.dump(g)))
        seat = rng.choice(sorted(kt.to_act(g)))
        listed = [o.id for o in kt.options(g, seat)]
        branch = kt.apply(g, seat, rng.choice(listed))  # another choice from the same game
        kt.apply(branch, next(iter(sorted(kt.to_act(branch)))), kt.options(branch, min(kt.to_act(branch)))[0].id) \
            if kt.result(branch) is None else None
        pick = bot.choose(g, seat, bot_rng) if chooser == "bot" else rng.choice([i for i in listed if i != "cancel"] or listed)
        g = kt.apply(g, seat, pick)
    changed = [i for i, (game, dumped) in enumerate(kept) if kt.dump(game) != dumped]
    assert not changed, f"steps changed earlier games: {changed[:5]}"
    assert sum(c["gap"] is not None for c in g.cottages.values()) >= 3 * players  # cottages were placed
    assert any(c["house"] for c in g.cottages.values()) or chooser == "random"  # seeds where the bot builds one


def test_apply_after_the_bot_listed_still_refuses_what_was_not_listed():
    """``apply`` checks a bot's pick against the options the bot listed for that very game
    and seat: anything else is still refused, another seat or another game lists anew."""
    g = kt.setup(3, {}, 5)
    seat = next(iter(kt.to_act(g)))
    pick = bot.choose(g, seat, Rng(5))
    with pytest.raises(IllegalAction):
        kt.apply(g, seat, "pass")  # not an option in set-up
    bot.choose(g, seat, Rng(5))
    with pytest.raises(IllegalAction):
        kt.apply(g, (seat + 1) % 3, pick)  # not that seat's turn
    bot.choose(g, seat, Rng(5))
    other = rules.clone(g)
    other.drawn = None  # the cottage step: the field places listed for ``g`` are no options here
    with pytest.raises(IllegalAction):
        kt.apply(other, seat, pick)
    after = kt.apply(g, seat, pick)
    assert after.fields != g.fields and kt.dump(g) == kt.dump(rules.clone(g))
