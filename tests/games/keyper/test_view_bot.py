"""Keyper's strong level (``bot.choose_from_view``, in ``strong.py``): it plays from the
seat's view alone, on a game rebuilt from that view that holds all the state bot reads; it
finishes games and beats the random level and the state bot."""

from __future__ import annotations

import random

import pytest

import app.games.keyper as kp
from app.bots import arena
from app.games.keyper.bot import choose, choose_from_view, game_from_view, mirror_from_view
from app.games.rng import Rng


@pytest.mark.parametrize("players", [2, 3])
def test_the_game_rebuilt_from_a_view_holds_all_the_state_bot_reads(players):
    """At every decision of a bot game the state bot's judgement on the game rebuilt from
    the seat's view, given the same draws, picks the same option as on the true game."""
    g = kp.setup(players, {}, 7)
    a, b = Rng(7), Rng(7)
    steps = 0
    while kp.result(g) is None:
        seat = min(kp.to_act(g))
        view = arena.seat_view("keyper", kp, g, seat)
        expected = choose(g, seat, a)
        assert mirror_from_view(view, view["options"], b) == expected, f"step {steps}: {view['public']['pending']}"
        g = kp.apply(g, seat, expected)
        steps += 1
    assert steps > 150


def test_the_view_bot_finishes_games_and_beats_random_in_most_two_player_games():
    games, won = 8, 0
    for seed in range(games):
        strong = arena.view_player("keyper", "strong", random.Random(seed))
        weak = arena.view_player("keyper", "random", random.Random(seed + 100))
        match = arena.play_match("keyper", [strong, weak] if seed % 2 == 0 else [weak, strong], seed=seed)
        assert match.winners, "the game did not finish"
        won += match.winners == [seed % 2]
    assert won >= 6, f"{won} of {games}"


def test_the_strong_bot_beats_the_state_bot_in_most_two_player_games():
    """The yardstick of bench/bot_strength.py, in small: one turn of lookahead judged by the
    estimated final score beats the state bot's fixed values."""
    games, won = 6, 0
    for seed in range(games):
        strong = arena.view_player("keyper", "strong", random.Random(seed))
        state = arena.state_player("keyper", seed + 100)
        match = arena.play_match("keyper", [strong, state] if seed % 2 == 0 else [state, strong], seed=seed)
        assert match.winners, "the game did not finish"
        won += match.winners == [seed % 2]
    assert won >= 4, f"{won} of {games}"


def test_the_strong_bot_reads_no_secret_of_the_view_it_is_not_given():
    """Its choice depends on the view alone: the same view twice, with the same draws, gives
    the same choice; and the others' face-down fairs never enter the rebuilt game."""
    g = kp.setup(2, {}, 3)
    rng = Rng(3)
    for _ in range(60):
        seat = min(kp.to_act(g))
        view = arena.seat_view("keyper", kp, g, seat)
        assert choose_from_view(view, view["options"], random.Random(5)) == \
            choose_from_view(view, view["options"], random.Random(5))
        g = kp.apply(g, seat, choose(g, seat, rng))
    view = arena.seat_view("keyper", kp, g, 0)
    rebuilt, _ = game_from_view(view)
    assert rebuilt.players[0].fairs and not rebuilt.players[1].fairs
    assert rebuilt.bag == [] and rebuilt.fair_pool == []
