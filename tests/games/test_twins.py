"""Every playable title passes the twin-games test (see tests/games/twins.py)."""

from __future__ import annotations

import pytest

from app.games import LISTINGS

from .twins import cases_for, drive, drive_through_table, private_detours

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


# --- Through the table: versions, frames, the games list ---
TABLE_SEEDS = range(2)


@pytest.mark.parametrize("seed", TABLE_SEEDS)
@pytest.mark.parametrize("title_id, case", CASES, ids=[f"{t}-{c.__name__}" for t, c in CASES])
async def test_twin_games_look_the_same_through_the_table(title_id, case, seed, sqlite_url):
    """The same twins stored and driven through the table: versions, frames and each
    seat's games-list entry are the same in both, as well as the views."""
    twins = case(seed)
    twins.steps = min(twins.steps, 120)
    run = await drive_through_table(twins, seed, sqlite_url)
    assert run.compared >= 1


@pytest.mark.parametrize("listing", PLAYABLE, ids=lambda listing: listing.id)
async def test_private_steps_leave_no_trace_in_versions_frames_or_the_games_list(listing, sqlite_url):
    """Game b's seat 1 takes choices and takes them back (nobody else sees them): the
    others' versions, frames and "last change" must not count those steps."""
    detours = 0
    for seed in TABLE_SEEDS:
        run = await drive_through_table(private_detours(listing.id, seed), seed, sqlite_url, detours=True)
        detours += run.detours
    if not detours:
        pytest.skip(f"{listing.id}: no private round trip (a choice and 'cancel') found in play")


# --- Across takebacks: an undo or an accepted takeback shows nobody anything new ---
TAKEBACK_SEEDS = range(3)


@pytest.mark.parametrize("title_id, case", CASES, ids=[f"{t}-{c.__name__}" for t, c in CASES])
async def test_twin_games_look_the_same_across_takebacks(title_id, case, sqlite_url):
    """The twins driven through the table while seats now and then take their last move
    back (at once, or asked and accepted): every observer's view, takeback offers included,
    its versions, frames and games list stay the same in both games."""
    # A secret can come out within a step or two (the last of two seats folds), so another
    # seed, with other seats, is tried before the case is said to have nothing to take back.
    for seed in TAKEBACK_SEEDS:
        twins = case(seed)
        twins.steps = min(twins.steps, 60)
        run = await drive_through_table(twins, seed, sqlite_url, takebacks=True)
        assert run.compared >= 1
        if run.taken_back:
            return
    pytest.skip(f"{title_id}: the secret came out before any move was taken back")


@pytest.mark.parametrize("listing", PLAYABLE, ids=lambda listing: listing.id)
async def test_undo_offers_do_not_tell_of_others_private_steps(listing, sqlite_url):
    """Game b's seat 1 takes private round trips nobody sees, and seats take moves back: who
    is offered "undo" (and what an undo or takeback shows) must not tell of those steps."""
    run = await drive_through_table(private_detours(listing.id, 0), 0, sqlite_url, detours=True, takebacks=True)
    assert run.taken_back >= 1, f"{listing.id}: no move was taken back"
