"""The strong bot from a seat's view alone (``choose_from_view``, what app/bots' "strong"
level calls): it finishes games, chooses what the state bot chooses, and beats random play."""

from __future__ import annotations

import random

import app.games.key_flow as kf
from app.bots.levels import choose as level_choose
from app.games.key_flow.bot import choose, choose_from_view
from app.games.rng import Rng


def seat_view(g, seat: int) -> dict:
    """What the table gives a seat: the title's view, its options, title and seat."""
    return {**kf.view(g, seat), "options": [o.as_json() for o in kf.options(g, seat)], "title": "key-flow",
            "seat": seat}


def play(players: int, seed: int, strong: set[int]) -> kf.Game:
    """Seats in ``strong`` play from their views; the others play at random."""
    g = kf.setup(players, {}, seed)
    order, rng = Rng(seed), random.Random(seed)
    while kf.result(g) is None:
        seat = order.choice(sorted(kf.to_act(g)))
        view = seat_view(g, seat)
        option = level_choose("strong" if seat in strong else "random", view, rng)
        g = kf.apply(g, seat, option)
    return g


def test_the_view_bot_finishes_games_from_views_only():
    g = play(3, 5, strong={0, 1, 2})
    result = kf.result(g)
    assert result is not None and len(result.scores) == 3


def test_the_view_bot_chooses_what_the_state_bot_chooses():
    """Rebuilt from the view, the game gives the bot everything it reads: the same choice
    at every decision of a whole game."""
    g = kf.setup(3, {}, 11)
    order = Rng(11)
    checked = 0
    while kf.result(g) is None:
        seat = order.choice(sorted(kf.to_act(g)))
        view = seat_view(g, seat)
        from_view = choose_from_view(view, view["options"], Rng(checked))
        from_state = choose(g, seat, Rng(checked))
        assert from_view == from_state, f"decision {checked}: {from_view} from the view, {from_state} from the state"
        g = kf.apply(g, seat, from_state)
        checked += 1
    assert checked > 200


def test_the_view_bot_beats_random_play_in_most_two_player_games():
    wins = 0
    for seed in range(6):
        strong = seed % 2  # it plays either seat
        result = kf.result(play(2, seed, strong={strong}))
        wins += result.winners == [strong]
    assert wins >= 5, f"the strong bot won {wins} of 6 games against random play"
