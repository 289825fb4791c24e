"""The cheap paths of a bot decision answer as the plain ones do, at every step of
seeded games in every variant: the ids listed without making the options
(``rules.option_ids``' usual placement), and who places (``Game.waiting``, kept beside the
placements for ``to_act``)."""

from __future__ import annotations

import pytest

import app.games.tiny_towns as tt
from app.games.playout import bot_playout, random_playout
from app.games.tiny_towns import rules

VARIANTS = [{}, {"cavern": True}, {"town_hall": True}, {"town_hall": True, "cavern": True, "monuments": False},
            {"buildings": "first_game", "monuments": False}]


def every_state(players, options, seed, play):
    """Each state of a seeded game, from setup to the end."""
    game = play("tiny-towns", players, seed=seed, options=options)
    state = tt.setup(players, options, seed)
    yield state
    for seat, choice in game.actions:
        state = tt.apply(state, seat, choice)
        yield state


GAMES = [(players, options, seed, play) for players in range(1, 7) for n, options in enumerate(VARIANTS)
         if not (players == 1 and options.get("town_hall")) for seed, play in ((n, bot_playout), (n + 7, random_playout))]


@pytest.mark.parametrize("players,options,seed,play", GAMES)
def test_listed_ids_are_the_options_ids(players, options, seed, play):
    usual = 0
    for state in every_state(players, options, seed, play):
        for seat in range(players):
            made = [o.id for o in tt.options(state, seat)]
            assert list(rules.option_ids(state, seat)) == made, (seat, state.phase)
            usual += rules.usual_placement_ids(state, seat) is not None if state.phase == rules.PLACE else 0
    assert usual or options.get("cavern")  # the shortcut was taken (with Cavern, only the Master Builder's own naming takes it)


@pytest.mark.parametrize("players,options,seed,play", GAMES)
def test_who_acts_is_every_seat_that_acts(players, options, seed, play):
    for state in every_state(players, options, seed, play):
        for game in (state, tt.load(tt.dump(state))):
            acting = frozenset(p.seat for p in game.players if rules.acts(game, p))
            assert tt.to_act(game) == acting, game.phase
            assert game.waiting == rules.waiting_seats(game)
