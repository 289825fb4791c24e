"""Whole games: random and bot games finish for 2–6 players, replay equals the snapshot,
and no view shows another seat's hidden cards."""

from __future__ import annotations

import json

import pytest

import app.games.key_flow as kf
from app.games.playout import bot_playout, random_playout

from ..twins import leaves


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_finish(players):
    p = random_playout("key-flow", players, seed=40 + players)
    r = kf.result(p.state)
    assert r is not None and r.winners and len(r.scores) == players
    assert p.random_steps == len(p.actions)  # random play alone reached the end


@pytest.mark.parametrize("players", [2, 6])
def test_bot_games_finish_and_replay_to_the_same_snapshot(players):
    p = bot_playout("key-flow", players, seed=players)
    state = kf.setup(players, {}, players)
    for seat, option in p.actions:
        state = kf.apply(state, seat, option)
    assert kf.dump(state) == kf.dump(p.state)
    assert kf.dump(kf.load(json.loads(json.dumps(kf.dump(state))))) == kf.dump(state)
    assert kf.result(state).as_json() == kf.result(p.state).as_json()
    final = kf.view(state, None)["public"]["final"]
    for row, score in zip(final, kf.result(state).scores):
        assert row["score"] == score.score
        assert sum(line["points"] for line in row["allocation"]) == row["breakdown"]["winter cards"] + \
            row["breakdown"]["gold"]


def secrets_of(g, seat):
    p = g.players[seat]
    out = set(p.hand) | set(p.winter_k) | set(p.under_store) | set(g.box) | set(g.decks.get("winter", []))
    for deck in g.decks.values():
        out |= set(deck)
    if p.chosen:
        out.add(p.chosen["card"])
    if p.choosing:
        out.add(p.choosing)
    return out


def test_no_view_shows_another_seats_hidden_cards():
    p = bot_playout("key-flow", 3, seed=9)
    state = kf.setup(3, {}, 9)
    checked = 0
    for step, (seat, option) in enumerate(p.actions):
        if step % 5 == 0 and state.phase != "over":
            for owner in range(3):
                hidden = secrets_of(state, owner)
                for viewer in [None] + [s for s in range(3) if s != owner]:
                    seen = set(leaves(kf.view(state, viewer)))
                    seen |= {t.split(":", 1)[1] for t in seen if t.startswith("hand:")}
                    leaked = hidden & seen
                    assert not leaked, f"step {step}: viewer {viewer} sees {leaked} of seat {owner}"
                    checked += 1
        state = kf.apply(state, seat, option)
    assert checked > 100


def test_waiting_count_says_how_many_still_choose_not_what():
    g = kf.setup(4, {}, 3)
    g = kf.apply(g, 2, f"pick:{g.players[2].hand[0]}")
    g = kf.apply(g, 2, "discard")
    pub = kf.view(g, 0)["public"]
    assert pub["waiting"] == 3 and pub["chosen"] == [2] and pub["to_act"] == [0, 1, 3]
    assert kf.view(g, 2)["private"]["chosen"]["use"] == "discard"
    assert kf.view(g, 0)["private"]["chosen"] is None


def test_clone_copies_every_field_and_shares_nothing_mutable():
    from dataclasses import fields

    from app.games.key_flow.rules import Game, Player, clone, own_card
    p = bot_playout("key-flow", 3, seed=2)
    g = p.state
    copy = clone(g)
    assert kf.dump(copy) == kf.dump(g)
    assert {f.name for f in fields(Game)} == set(vars(copy)) and {f.name for f in fields(Player)} == set(
        vars(copy.players[0]))
    # the village cards are shared until a step changes one: it changes a copy of its own
    assert copy.players[0].village[0] is g.players[0].village[0]
    assert copy.players[0].village is not g.players[0].village
    # as the rules change them: a card's lists and dicts and the decks are replaced, not changed
    mine = own_card(copy.players[0], copy.players[0].village[0])
    assert mine is copy.players[0].village[0] is not g.players[0].village[0]
    assert own_card(copy.players[0], mine) is mine  # the step's own card already
    mine["res"] = {"gold": 99}
    mine["tiles"] = ["house"]
    copy.decks = {**copy.decks, "spring": ["x"]}
    copy.log.append("x")
    assert kf.dump(copy) != kf.dump(g) and g.players[0].village[0]["res"].get("gold") != 99
    assert "x" not in g.log.recent and g.decks.get("spring") != ["x"] and g.players[0].village[0]["tiles"] != ["house"]
    # a later copy shares that card: it is no step's own any more
    again = clone(copy)
    assert own_card(again.players[0], again.players[0].village[0]) is not mine
    assert copy.players[0].village[0] is mine and mine["res"] == {"gold": 99}


# Never changed in place (rules' module doc): a change replaces them, so copies share them.
_REPLACED = {"box", "skill_pile", "last_reveal", "hand", "winter_k", "tiles", "res", "stored", "keyples"}
# A player's fields the rules replace, never change in place (the game's own "doubles" they do
# change); its village and jobs lists are its own, but the cards in the one are shared until a
# step changes one through a copy of its own (rules.own_card), and the jobs in the other are
# replaced, never changed (rules.one_done).
_PLAYER_REPLACED = {"skills", "doubles", "under_store", "chosen"}
# The game's fields the rules replace, never change in place.
_GAME_REPLACED = {"options", "decks", "doubles"}


def _mutables(value, out: dict[int, object]) -> dict[int, object]:
    """Every list, dict, player, game and log reachable from ``value`` (by id) that the
    rules change in place (not what they only ever replace)."""
    from app.games.gamelog import GameLog
    from app.games.key_flow.rules import Game, Player
    if isinstance(value, (Game, Player)):
        out[id(value)] = value
        for name, v in vars(value).items():
            if name in ("village", "jobs"):
                out[id(v)] = v
            elif name not in _REPLACED and name not in (_PLAYER_REPLACED if isinstance(value, Player) else
                                                        _GAME_REPLACED):
                _mutables(v, out)
    elif isinstance(value, GameLog):
        out[id(value)] = value
        _mutables(value.recent, out)
    elif isinstance(value, dict):
        out[id(value)] = value
        for k, v in value.items():
            if k not in _REPLACED:
                _mutables(v, out)
    elif isinstance(value, (list, set)):
        out[id(value)] = value
        for v in value:
            _mutables(v, out)
    return out


@pytest.mark.parametrize("players, seed", [(2, 5), (3, 2)])  # games with conversions pending
def test_clone_equals_the_generic_copy_and_shares_nothing_mutable_all_game_long(players, seed):
    """Every few steps of a bot game (drafts, reveals, pending jobs with their word lists,
    tokens, winter, the end): the hand-made copy equals copy.deepcopy field for field and
    holds no list or dict of the original that the rules change in place."""
    import copy

    from app.games.key_flow.rules import clone
    played = bot_playout("key-flow", players, seed=seed)
    g = kf.setup(players, played.options, seed)
    seen_jobs = False
    for step, (seat, pick) in enumerate(played.actions + [(None, None)]):
        converting = any(j.get("gains") for p in g.players for j in p.jobs)
        if step % 5 == 0 or seat is None or converting:
            copied, generic = clone(g), copy.deepcopy(g)
            assert kf.dump(copied) == kf.dump(generic) == kf.dump(g)
            assert vars(copied).keys() == vars(generic).keys()
            assert all(vars(a).keys() == vars(b).keys() for a, b in zip(copied.players, generic.players))
            assert not _mutables(copied, {}).keys() & _mutables(g, {}).keys()
            seen_jobs |= converting
        if seat is not None:
            g = kf.apply(g, seat, pick)
    assert kf.result(g) is not None and seen_jobs


def test_listed_options_are_checked_once_and_only_for_that_game_and_seat():
    from app.games.key_flow.rules import listed
    from app.games.protocol import IllegalAction
    g = kf.setup(3, {}, 1)
    offered = listed(g, 0)
    assert offered == [o.id for o in kf.options(g, 0)]
    with pytest.raises(IllegalAction):
        kf.apply(g, 0, "discard")  # not a pick: refused against the listed options
    listed(g, 0)
    after = kf.apply(g, 1, f"pick:{g.players[1].hand[0]}")  # another seat: listed afresh
    with pytest.raises(IllegalAction):
        kf.apply(after, 0, "cancel")  # the list was used once; seat 0 has picked nothing
    assert kf.apply(g, 0, offered[0]).players[0].choosing == offered[0].removeprefix("pick:")


def _listed_decisions():
    """A pick (apply checks it alone), and the first decisions of a bot game whose choice
    apply checks against the kept listing (rules.checked_alone false): a keyple token or a
    decision after a reveal other than transport."""
    from app.games.key_flow import rules
    played = bot_playout("key-flow", 3, seed=2)
    g = kf.setup(3, played.options, 2)
    found = {"pick": (g, 0)}
    for seat, pick in played.actions:
        p = g.players[seat]
        if not rules.checked_alone(g, p):
            kind = p.jobs[0]["do"] if p.jobs else "token"
            found.setdefault(kind, (g, seat))
        g = kf.apply(g, seat, pick)
    return found


@pytest.mark.parametrize("kind", ["pick", "token", "upgrade", "any"])
def test_apply_after_listed_does_not_list_again(monkeypatch, kind):
    """The state bot lists the ids once per decision (or none, for a choice apply checks
    alone): ``apply`` finds its choice in them. What apply calls is the listing kept by
    ``rules._LISTED``, so that is what is made to fail."""
    from app.games.key_flow import bot, rules
    from app.games.rng import Rng
    g, seat = _listed_decisions()[kind]
    assert rules.checked_alone(g, g.players[seat]) == (kind == "pick")
    chosen = bot.choose(g, seat, Rng(5))  # lists through rules.listed unless checked alone

    def listing_again(*_):
        raise AssertionError("listed twice")
    monkeypatch.setattr(rules, "option_ids", listing_again)
    monkeypatch.setattr(rules, "options", listing_again)
    monkeypatch.setattr(rules._LISTED, "_options", listing_again)
    after = kf.apply(g, seat, chosen)
    assert after is not g and kf.dump(after) != kf.dump(g)


@pytest.mark.parametrize("players, seed", [(2, 4), (5, 1)])
def test_no_step_changes_a_game_it_was_given(players, seed):
    """A secret draft choice shares the lists and dicts of the game it was given (rules.
    chooser_copy); every later step, of either game, must leave every earlier game as it was."""
    played = bot_playout("key-flow", players, seed=seed)
    g = kf.setup(players, played.options, seed)
    history = [(g, json.dumps(kf.dump(g), sort_keys=True))]
    for seat, pick in played.actions:
        g = kf.apply(g, seat, pick)
        history.append((g, json.dumps(kf.dump(g), sort_keys=True)))
    for step, (state, dumped) in enumerate(history):
        assert json.dumps(kf.dump(state), sort_keys=True) == dumped, f"state after step {step} changed"
    # branching: a step applied to an earlier game leaves the game already played from it alone
    for state, dumped in history[: len(history) // 3]:
        for seat in sorted(kf.to_act(state)):
            kf.apply(state, seat, kf.options(state, seat)[-1].id)
        assert json.dumps(kf.dump(state), sort_keys=True) == dumped
    assert all(json.dumps(kf.dump(s), sort_keys=True) == d for s, d in history)


def test_cached_neighbours_are_the_touching_cards_in_village_order():
    import random

    from app.games.key_flow.rules import RIVER, ROAD, shape_neighbours, touching
    rng = random.Random(5)
    for _ in range(300):
        places = rng.sample([(row, col) for row in (ROAD, RIVER) for col in range(-4, 5)], rng.randint(1, 12))
        cards = [{"row": row, "col": col} for row, col in places]
        assert shape_neighbours(tuple(places)) == tuple(
            tuple(j for j, b in enumerate(cards) if j != i and touching(a, b)) for i, a in enumerate(cards))


def test_cached_spots_are_the_free_places_touching_a_card():
    import random

    from app.games.key_flow.rules import RIVER, ROAD, shape_spots, touching
    rng = random.Random(6)
    for _ in range(300):
        places = rng.sample([(row, col) for row in (ROAD, RIVER) for col in range(-4, 5)], rng.randint(1, 12))
        cards = [{"row": row, "col": col} for row, col in places]
        for row in (ROAD, RIVER):
            free = [col for col in range(-6, 7) if (row, col) not in places
                    and any(touching({"row": row, "col": col}, b) for b in cards)]
            assert shape_spots(tuple(places), row) == free


@pytest.mark.parametrize("players, seed", [(2, 7), (3, 2), (5, 3), (6, 1)])
def test_option_ids_are_the_options_ids_all_game_long(players, seed):
    """apply checks choices against option_ids: for every seat at every step of a random and
    a bot game, the same ids in the same order as options."""
    from app.games.key_flow.rules import option_ids
    for play in (random_playout, bot_playout):
        played = play("key-flow", players, seed=seed)
        g = kf.setup(players, {}, seed)
        for seat, option in played.actions + [(None, None)]:
            for s in range(players):
                assert option_ids(g, s) == [o.id for o in kf.options(g, s)]
            if seat is not None:
                g = kf.apply(g, seat, option)


@pytest.mark.parametrize("players, seed", [(2, 11), (3, 4), (6, 2)])
def test_a_transport_choice_is_checked_as_the_listing_would(players, seed):
    """apply checks a move without listing every move (rules.is_move_listed): at every
    transport decision of a random and a bot game, every move id over the village's places
    and resources, "stop" and some malformed ids are accepted exactly when option_ids lists
    them, and an unlisted one is refused with the usual words."""
    from app.games.key_flow.content import RESOURCES
    from app.games.key_flow.rules import is_move_listed, option_ids, where
    from app.games.protocol import IllegalAction
    checked = refused = 0
    for play in (random_playout, bot_playout):
        played = play("key-flow", players, seed=seed)
        g = kf.setup(players, {}, seed)
        for seat, option in played.actions:
            p = g.players[seat]
            if p.jobs and p.jobs[0]["do"] == "transport":
                listed = option_ids(g, seat)
                places = [where(e) for e in p.village] + ["road.99", "river"]
                ids = [f"move:{a}:{b}:{r}" for a in places for b in places for r in RESOURCES + ("keyple",)]
                ids += ["stop", "skip", "move:", "move:road.0:road.1", "move:road.0:road.1:wood:x", 7, None]
                for i in ids:
                    assert is_move_listed(p, i) == (i in listed), (i, listed)
                    checked += 1
                unlisted = next(i for i in ids if isinstance(i, str) and i not in listed)
                with pytest.raises(IllegalAction, match="is not one of seat"):
                    kf.apply(g, seat, unlisted)
                refused += 1
            g = kf.apply(g, seat, option)
    assert checked > 1000 and refused > 10


@pytest.mark.parametrize("players, seed", [(2, 5), (3, 9), (6, 4)])
def test_a_pick_or_its_use_is_checked_as_the_listing_would(players, seed):
    """apply checks a draft choice without listing them all (rules.is_draft_choice): at
    every draft and winter K decision of a random and a bot game, every pick of a card some
    seat holds, every keyple target and building place over the villages' columns, "discard",
    "cancel" and some malformed ids are accepted exactly when option_ids lists them, and an
    unlisted one is refused with the usual words."""
    from app.games.key_flow.rules import DRAFT, WINTER_K, is_draft_choice, option_ids
    from app.games.protocol import IllegalAction
    checked, refused, uses = 0, 0, 0
    for play in (random_playout, bot_playout):
        played = play("key-flow", players, seed=seed)
        g = kf.setup(players, {}, seed)
        for seat, option in played.actions:
            p = g.players[seat]
            if g.phase in (DRAFT, WINTER_K):
                listed = option_ids(g, seat)
                cards = {cid for q in g.players for cid in q.hand + q.winter_k}
                cols = [e["col"] for q in g.players for e in q.village]
                span = range(min(cols) - 2, max(cols) + 3)
                ids = [f"pick:{cid}" for cid in sorted(cards)] + ["pick:", "pick:nothing"]
                ids += [f"on:{owner}:{col}" for owner in range(-1, players + 1) for col in span]
                ids += [f"{row}:{col}" for row in ("road", "river") for col in span]
                ids += ["discard", "cancel", "stop", "on:01:1", "on:1:+1", "on:1", "on:x:y", "road:", "road:01",
                        "river:1.0", 7, None]
                for i in ids:
                    assert is_draft_choice(g, p, i) == (i in listed), (i, listed)
                    checked += 1
                uses += p.choosing is not None
                unlisted = next(i for i in ids if isinstance(i, str) and i not in listed)
                with pytest.raises(IllegalAction, match="is not one of seat"):
                    kf.apply(g, seat, unlisted)
                refused += 1
            g = kf.apply(g, seat, option)
    assert checked > 10000 and refused > 50 and uses > 20


def test_reachable_villages_come_from_a_table_as_lists_of_their_own():
    from app.games.key_flow.content import CARDS
    from app.games.key_flow.rules import reachable
    g = kf.setup(4, {}, 1)
    for c in (c for c in CARDS.values() if c.kind == "keyple"):
        first = reachable(g, g.players[1], c)
        assert first and all(0 <= seat < 4 for seat, _, _ in first)
        first.clear()
        assert reachable(g, g.players[1], c)


@pytest.mark.parametrize("players, seed", [(3, 5), (6, 2)])
def test_village_shape_is_each_cards_place_all_game_long(players, seed):
    """rules.village_shape keeps the last village list's shape by its length (cards are only
    ever added) and one tuple per shape: at every step, for every village, it is the cards'
    (row, column) in village order, the same object for equal shapes."""
    from app.games.key_flow.rules import village_shape
    played = bot_playout("key-flow", players, seed=seed)
    g = kf.setup(players, played.options, seed)
    seen = {}
    for seat, pick in played.actions + [(None, None)]:
        for p in g.players:
            shape = village_shape(p.village)
            assert shape == tuple((e["row"], e["col"]) for e in p.village)
            assert seen.setdefault(shape, shape) is shape
            assert village_shape(p.village) is shape
        if seat is not None:
            g = kf.apply(g, seat, pick)


def test_cards_sort_by_rank_as_by_name_then_id():
    """Hands, winter K cards and the cards under the store sort by a number per card
    (rules._by_card_order): the order of card_order's (name, id)."""
    import random

    from app.games.key_flow.content import CARDS
    from app.games.key_flow.rules import _by_card_order, card_order
    rng = random.Random(3)
    for _ in range(200):
        cards = rng.sample(sorted(CARDS), rng.randint(2, 12))
        assert sorted(cards, key=_by_card_order) == sorted(cards, key=card_order)
