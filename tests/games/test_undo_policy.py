"""Each title's declaration of the steps a seat may undo at once (``Title.undoable``):
a step that drew randomness never qualifies, nor one that showed the seat something hidden
from it (found with the twin games: the seat's view of the two games parts at that step),
and in play some steps do qualify. The table's side (undo through the API, the steps
after another player's move) is in tests/table/test_takeback_titles.py."""

from __future__ import annotations

import json

import pytest

from app.games import LISTINGS, get_title
from app.games.protocol import validate_options
from app.games.rng import Rng

from .twins import _pick, bot_for, cases_for, observers

PLAYABLE = [(listing.id, listing.module.rsplit(".", 1)[1]) for listing in LISTINGS if listing.module]


def _players(title_id: str) -> int:
    spec = get_title(title_id).TITLE
    return max(spec.min_players, min(3, spec.max_players))


@pytest.mark.parametrize("title_id,package", PLAYABLE)
def test_steps_that_draw_randomness_never_qualify_and_some_steps_do(title_id, package):
    title = get_title(title_id)
    players = _players(title_id)
    qualified = drew = 0
    for seed in range(4):
        state = title.setup(players, validate_options(title.TITLE, {}, players), seed)
        rng, choose = Rng(seed), bot_for(title_id)
        for _ in range(400):
            if title.result(state) is not None:
                break
            seat = rng.choice(sorted(title.to_act(state)))
            option = choose(state, seat, rng) if choose and rng.randrange(3) else rng.choice(title.options(state, seat)).id
            after = title.apply(state, seat, option)
            undoable = title.undoable(state, seat, option, after)
            if state.rng != after.rng:
                drew += 1
                assert not undoable, f"{title_id}: seat {seat}'s {option!r} drew randomness but may be undone"
            qualified += undoable
            state = after
    assert qualified, f"{title_id}: no step of play may ever be undone"
    del drew  # some titles draw everything at set-up; that is fine


@pytest.mark.parametrize("title_id,package", PLAYABLE)
def test_a_step_that_shows_the_seat_a_secret_never_qualifies(title_id, package):
    """Twin games differ in one thing hidden from a seat. The step after which that seat's
    view of the two games differs showed it the secret: it must not be undoable (else the
    seat could look and take it back)."""
    title = get_title(title_id)
    revealing = 0
    for case in cases_for(package):
        for seed in range(2):
            twins = case(seed)
            rng, choose = Rng(seed), bot_for(title_id)
            a, b = twins.a, twins.b
            watching = [s for s in observers(twins) if s is not None]
            for _ in range(twins.steps):
                if title.result(a) is not None or not twins.hidden(a, b):
                    break
                seat = rng.choice(sorted(title.to_act(a)))
                option = _pick(title, choose, a, b, seat, twins.holder, rng)
                if option is None:
                    break
                na, nb = title.apply(a, seat, option), title.apply(b, seat, option)
                if seat in watching and _seen(title, a, seat) == _seen(title, b, seat) and \
                        _seen(title, na, seat) != _seen(title, nb, seat):
                    revealing += 1
                    assert not title.undoable(a, seat, option, na), (
                        f"{title_id}, {twins.what}: seat {seat}'s {option!r} showed it the secret but may be undone")
                    assert not title.undoable(b, seat, option, nb)
                    break
                a, b = na, nb
    if not revealing:
        pytest.skip(f"{title_id}: no twin case showed its secret to a seat by that seat's own step")


def _seen(title, state, seat) -> str:
    return json.dumps([title.view(state, seat), [o.as_json() for o in title.options(state, seat)]],
                      sort_keys=True, default=str)
