"""Keyper's strong level (``bot.choose_from_view``): it plays from the seat's view alone,
judges as the state bot does, finishes games and beats the random level."""

from __future__ import annotations

import random

import pytest

import app.games.keyper as kp
from app.bots import arena
from app.games.keyper.bot import choose, choose_from_view
from app.games.rng import Rng


@pytest.mark.parametrize("players", [2, 3])
def test_the_view_bot_chooses_what_the_state_bot_chooses(players):
    """The game rebuilt from a seat's view holds all the bot reads: at every decision of a
    bot game the view bot, given the same draws, picks the same option."""
    g = kp.setup(players, {}, 7)
    a, b = Rng(7), Rng(7)
    steps = 0
    while kp.result(g) is None:
        seat = min(kp.to_act(g))
        view = arena.seat_view("keyper", kp, g, seat)
        expected = choose(g, seat, a)
        assert choose_from_view(view, view["options"], b) == expected, f"step {steps}: {view['public']['pending']}"
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
