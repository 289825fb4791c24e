"""Every playable title passes the twin-games test (see tests/games/twins.py)."""

from __future__ import annotations

import pytest

from app.games import LISTINGS

from .twins import cases_for, drive

PLAYABLE = [listing for listing in LISTINGS if listing.module]
SEEDS = range(6)


def _package(module: str) -> str:
    return module.rsplit(".", 1)[1]


@pytest.mark.parametrize("listing", PLAYABLE, ids=lambda listing: listing.id)
def test_every_title_has_twin_cases(listing):
    assert cases_for(_package(listing.module)), f"{listing.id} has no twin-games cases"


CASES = [(listing.id, case) for listing in PLAYABLE for case in cases_for(_package(listing.module))]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("title_id, case", CASES, ids=[f"{t}-{c.__name__}" for t, c in CASES])
def test_twin_games_look_the_same_to_everyone_else(title_id, case, seed):
    twins = case(seed)
    assert twins.hidden(twins.a, twins.b), "the twins must start with the difference still hidden"
    run = drive(twins, seed)
    assert run.compared >= 1
