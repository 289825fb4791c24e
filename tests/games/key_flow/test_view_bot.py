"""The strong bot from a seat's view alone (``choose_from_view``, what app/bots' "strong"
level calls): it finishes games, rebuilds from the view what the state bot reads, looks
ahead in winter, and beats random play."""

from __future__ import annotations

import random

import app.games.key_flow as kf
from app.bots.levels import choose as level_choose
from app.games.key_flow.bot import DENY, choose, choose_from_view, denial, final_worth, state_from_view, use_worth, uses
from app.games.key_flow.rules import score_player
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


def test_the_game_rebuilt_from_a_view_gives_the_state_bot_everything_it_reads():
    """The state bot chooses alike on the true state and on the game rebuilt from the seat's
    view, at every decision of a whole game (the strong bot builds on that rebuild)."""
    g = kf.setup(3, {}, 11)
    order = Rng(11)
    checked = 0
    while kf.result(g) is None:
        seat = order.choice(sorted(kf.to_act(g)))
        view = seat_view(g, seat)
        rebuilt, _ = state_from_view(view)
        from_view = choose(rebuilt, seat, Rng(checked), [o["id"] for o in view["options"]])
        from_state = choose(g, seat, Rng(checked))
        assert from_view == from_state, f"decision {checked}: {from_view} from the view, {from_state} from the state"
        g = kf.apply(g, seat, from_state)
        checked += 1
    assert checked > 200


def test_in_winter_the_strong_bot_weighs_its_pick_above_the_state_bots():
    """Every winter card choice of a whole 2-player game: by the strong bot's measure (the
    final score its card and use leave, less the most the opponent gains from the cards
    passed on) its pick is at least the state bot's, and above it sometimes."""
    g = kf.setup(2, {}, 23)
    order = Rng(23)
    compared = better = 0
    while kf.result(g) is None:
        seat = order.choice(sorted(kf.to_act(g)))
        view = seat_view(g, seat)
        if g.phase == "draft" and g.season == 3 and g.players[seat].choosing is None:
            rebuilt, _ = state_from_view(view)
            denied = denial(rebuilt, seat, list(rebuilt.players[seat].hand))

            def measure(cid: str) -> float:
                return max(use_worth(rebuilt, seat, cid, u) for u in uses(rebuilt, seat, cid)) - DENY * denied[cid]
            pick = choose_from_view(view, view["options"], Rng(0)).removeprefix("pick:")
            state_pick = choose(g, seat, Rng(0)).removeprefix("pick:")
            assert measure(pick) >= measure(state_pick), f"winter turn {g.turn}: {pick} below {state_pick}"
            compared += 1
            better += measure(pick) > measure(state_pick)
        g = kf.apply(g, seat, choose(g, seat, Rng(compared)))
    assert compared >= 20 and better >= 1


def test_the_view_bot_beats_random_play_in_most_two_player_games():
    wins = 0
    for seed in range(6):
        strong = seed % 2  # it plays either seat
        result = kf.result(play(2, seed, strong={strong}))
        wins += result.winners == [strong]
    assert wins >= 5, f"the strong bot won {wins} of 6 games against random play"


def test_the_strong_bots_final_worth_is_the_final_score_the_rules_give():
    """Its lookahead scores a village as the rules' final scoring does (its allocation is
    searched group by group with a cache), at every step of seeded games."""
    compared = 0
    for players, seed in ((2, 3), (4, 8)):
        g = kf.setup(players, {}, seed)
        order = Rng(seed)
        while kf.result(g) is None:
            seat = order.choice(sorted(kf.to_act(g)))
            g = kf.apply(g, seat, choose(g, seat, Rng(compared)))
            for p in g.players:
                if not any(e["keyples"] for e in p.village):  # on buildings they count as under the store
                    assert final_worth(p) == score_player(p)["score"], f"seat {p.seat}, step {compared}"
                    compared += 1
    assert compared > 300
