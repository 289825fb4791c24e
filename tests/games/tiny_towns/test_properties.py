"""Machine checks over seeded random games played by the bot: every game finishes,
replay equals the snapshot, dump/load round-trips, apply never mutates, unlisted options
are refused, and no view shows another seat's secrets."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import app.games.tiny_towns as tt
from app.games.protocol import IllegalAction
from app.games.rng import Rng
from app.games.tiny_towns import bot
from app.games.tiny_towns.content import ALL_CARDS, LETTER_OF, MONUMENTS, RESOURCES
from app.games.tiny_towns.notation import format_game, parse_town

from .support import town_notation

MAX_ROUNDS = 150
MAX_ACTIONS = 4000

COMBOS = [dict(zip(("monuments", "buildings", "cavern", "town_hall"), values))
          for values in itertools.product((True, False), ("random", "first_game"), (True, False), (False, True))]


def cases():
    """Each player count with a spread of option combinations (Town Hall needs 2+)."""
    out = []
    for players in range(1, 7):
        combos = [c for c in COMBOS if players > 1 or not c["town_hall"]]
        for k in range(4):
            out.append((players, combos[(players * 5 + k * 3) % len(combos)], players * 100 + k))
    return out


def play(players, options, seed, check=None):
    """A bot game; ``check(state)`` runs before every choice. Returns (final, actions)."""
    state = tt.setup(players, options, seed)
    rng, actions = Rng(seed ^ 0x5EED), []
    while tt.to_act(state):
        assert state.round <= MAX_ROUNDS and len(actions) <= MAX_ACTIONS, format_game(state)
        if check:
            check(state)
        for seat in tt.to_act(state):
            check_options_are_well_formed(tt.options(state, seat))
        seat = sorted(tt.to_act(state))[rng.randrange(len(tt.to_act(state)))]
        option = bot.choose(state, seat, rng)
        actions.append((seat, option))
        state = tt.apply(state, seat, option)
    return state, actions


def check_options_are_well_formed(offered):
    """Unique ids; targets name a square, a card or a resource, as the page expects."""
    assert offered, "a seat to act always has a choice"
    assert len({o.id for o in offered}) == len(offered)
    for o in offered:
        kind, _, what = (o.target or ":").partition(":")
        if kind == "cell":
            assert all(0 <= int(x) < 4 for x in what.split(",")), o
        elif kind == "card":
            assert what in ALL_CARDS, o
        elif kind == "resource":
            assert what in RESOURCES, o
        else:
            assert o.target is None, o
        assert o.label and o.kind


def test_cases_cover_every_player_count_and_option():
    cs = cases()
    assert {p for p, _, _ in cs} == {1, 2, 3, 4, 5, 6}
    for key in ("monuments", "cavern", "town_hall"):
        assert {o[key] for _, o, _ in cs} == {True, False}
    assert {o["buildings"] for _, o, _ in cs} == {"random", "first_game"}


@pytest.mark.parametrize("players,options,seed", cases())
def test_random_game_finishes_and_replays_identically(players, options, seed):
    final, actions = play(players, options, seed)
    assert final.phase == "over" and tt.to_act(final) == frozenset()
    result = tt.result(final)
    assert result is not None and result.winners
    assert all(p.complete for p in final.players)
    assert json.loads(json.dumps(tt.dump(final))) == tt.dump(final)
    replay = tt.setup(players, options, seed)
    for seat, option in actions:
        replay = tt.apply(replay, seat, option)
    assert tt.dump(replay) == tt.dump(final)
    if players == 1:
        assert result.scores[0].note.startswith("Solo rating: ")


def check_round_trip_and_refusals(state):
    raw = tt.dump(state)
    assert json.loads(json.dumps(raw)) == raw  # plain JSON: no tuples, no sets
    loaded = tt.load(raw)
    assert tt.dump(loaded) == raw
    assert tt.to_act(loaded) == tt.to_act(state)
    for seat in range(len(state.players)):
        assert tt.options(loaded, seat) == tt.options(state, seat)
        offered = {o.id for o in tt.options(state, seat)}
        for bad in ("nonsense", "place:9,9", "name:gold", "done", "cancel", "keep:archive"):
            if bad not in offered:
                with pytest.raises(IllegalAction):
                    tt.apply(state, seat, bad)
    assert tt.dump(state) == raw  # neither refusals nor loading touched it


@pytest.mark.parametrize("players,options,seed", cases()[::4])
def test_dump_load_round_trips_and_unlisted_options_are_refused(players, options, seed):
    play(players, options, seed, check_round_trip_and_refusals)


# --- No view leaks ---

def scrub(state, viewer):
    """The same game with every secret the viewer must not know changed."""
    other = tt.load(tt.dump(state))
    other.rng = Rng(987_654_321).state  # another stream of draws
    other.deck = list(reversed(other.deck))
    other.discard = list(reversed(other.discard))
    ids = list(MONUMENTS)
    swap = {m: ids[(i + 1) % len(ids)] for i, m in enumerate(ids)}  # a different monument
    for p in other.players:
        if p.seat == viewer:
            continue
        if other.pending[p.seat]:
            other.pending[p.seat] = {"kind": "place", "resource": "stone", "cell": [3, 3]}
        if other.placing[p.seat]:
            other.placing[p.seat] = {"resource": "stone", "switch": "glass", "take": None}
        if p.monument and p.monument_round is None:
            p.monument = swap[p.monument]
        p.dealt = [swap[m] for m in p.dealt]
        p.construction = None
        p.cavern = ["stone"] * len(p.cavern)
    return other


def check_no_leaks(state):
    viewers = [None, *range(len(state.players))]
    for viewer in viewers:
        seen = json.dumps(tt.view(state, viewer), sort_keys=True)
        assert seen == json.dumps(tt.view(scrub(state, viewer), viewer), sort_keys=True), viewer
        for p in state.players:
            if p.seat == viewer:
                continue
            secret = list(p.dealt) + ([p.monument] if p.monument and p.monument_round is None else [])
            assert not any(f'"{m}"' in seen for m in secret), (viewer, p.seat, secret)
            pending = state.pending[p.seat]
            if pending and "cell" in pending:
                r, c = pending["cell"]
                public = tt.view(state, viewer)["public"]["players"][p.seat]
                assert public["town"][r][c] is None or pending["kind"] == "statue"
    if any(state.pending):
        mine = [tt.view(state, p.seat)["private"]["pending"] for p in state.players]
        assert mine == state.pending


@pytest.mark.parametrize("players,options,seed", [(3, {"cavern": True}, 7), (4, {"town_hall": True}, 8),
                                                  (6, {"buildings": "first_game", "cavern": True}, 9),
                                                  (2, {}, 10), (1, {}, 11)])
def test_no_view_shows_another_seats_secrets(players, options, seed):
    play(players, options, seed, check_no_leaks)


def test_apply_never_mutates_its_input():
    state = tt.setup(3, {"cavern": True}, 5)
    rng = Rng(5)
    while tt.to_act(state):
        seat = min(tt.to_act(state))
        before = tt.dump(state)
        nxt = tt.apply(state, seat, bot.choose(state, seat, rng))
        assert tt.dump(state) == before
        state = nxt


@settings(max_examples=12, deadline=None, derandomize=True)
@given(players=st.integers(1, 6), seed=st.integers(0, 2**32), combo=st.sampled_from(COMBOS))
def test_any_seed_finishes(players, seed, combo):
    if players == 1:
        combo = {**combo, "town_hall": False}
    final, _ = play(players, combo, seed)
    assert tt.result(final) is not None


# --- Every monument in play ---

BLACK = ("bank", "factory", "trading_post", "warehouse")


def monument_game(monument: str, index: int):
    """3 players; seat 0 keeps ``monument`` with its layout already in town, builds it in
    the first construction step; everything after is the bot's."""
    state = tt.setup(3, {"monuments": True, "cavern": index % 2 == 0}, 1000 + index)
    state.cards = ["cottage", "farm", "shed", "chapel", "tavern", "theater", BLACK[index % 4]]
    others = [m for m in MONUMENTS if m != monument]
    state.players[0].dealt = [monument, others[0]]
    state.players[1].dealt, state.players[2].dealt = others[1:3], others[3:5]
    rows = [["."] * 4 for _ in range(4)]
    for r, c, resource in ALL_CARDS[monument].shape:
        rows[r][c] = LETTER_OF[resource]
    state.players[0].town = parse_town(town_notation(rows))
    return state


@pytest.mark.parametrize("index,monument", list(enumerate(MONUMENTS)))
def test_every_monument_can_be_built_and_the_game_goes_on(index, monument):
    start = monument_game(monument, index)
    state, rng, actions, lines = start, Rng(index), [], list(start.log)

    def choose(seat):
        ids = [o.id for o in tt.options(state, seat)]
        if seat == 0 and state.players[0].monument_round is None and state.round == 1 and state.phase == "build":
            return next(i for i in ids if i == f"build:{monument}" or i.startswith(("pick:", "site:")))
        if seat == 0 and state.phase == "keep":
            return f"keep:{monument}"
        return bot.choose(state, seat, rng)

    while tt.to_act(state):
        assert len(actions) <= MAX_ACTIONS, format_game(state)
        check_no_leaks(state)
        check_round_trip_and_refusals(state)
        for seat in tt.to_act(state):
            check_options_are_well_formed(tt.options(state, seat))
        seat = sorted(tt.to_act(state))[rng.randrange(len(tt.to_act(state)))]
        option = choose(seat)
        actions.append((seat, option))
        before, state = state, tt.apply(state, seat, option)
        lines += state.log.lines_since(before.log.total)  # the state keeps only recent lines
    assert state.players[0].monument_round == 1
    assert any(f"builds the monument {ALL_CARDS[monument].name}" in line for line in lines)
    assert tt.result(state) is not None
    replay = start
    for seat, option in actions:
        replay = tt.apply(replay, seat, option)
    assert tt.dump(replay) == tt.dump(state)
