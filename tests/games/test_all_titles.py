"""The same machine checks for every playable title (parametrised over the registry)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.games import LISTINGS, get_title
from app.games.playout import random_playout
from app.games.protocol import IllegalAction

PLAYABLE = [listing.id for listing in LISTINGS if listing.module]


ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def random_game(title_id: str, players: int, seed: int, options: dict | None = None):
    """A random playout; if it fails, a replayable dump (title, players, options, seed,
    actions so far) is saved under test-artifacts/ and named in the error."""
    try:
        p = random_playout(title_id, players, seed, options)
    except Exception as failure:
        dump = ARTIFACTS / f"playout-{title_id}-{players}p-seed{seed}.json"
        ARTIFACTS.mkdir(exist_ok=True)
        dump.write_text(json.dumps({"title": title_id, "players": players, "seed": seed, "options": options or {},
                                    "actions": getattr(failure, "actions", None), "error": repr(failure)}))
        raise AssertionError(f"{failure!r}; replay with the dump in {dump}") from failure
    return p.title, p.options, p.state, p.actions


@pytest.mark.parametrize("title_id", PLAYABLE)
def test_random_games_finish_for_every_player_count(title_id):
    spec = get_title(title_id).TITLE
    for players in range(spec.min_players, spec.max_players + 1):
        title, _, state, _ = random_game(title_id, players, seed=players * 101)
        result = title.result(state)
        assert result is not None and result.winners
        assert {s.seat for s in result.scores} == set(range(players))
        assert title.to_act(state) == frozenset()


@pytest.mark.parametrize("title_id", PLAYABLE)
def test_replay_from_the_log_equals_the_state(title_id):
    title, chosen, state, actions = random_game(title_id, 3, seed=5)
    replayed = title.setup(3, chosen, 5)
    for seat, option in actions:
        replayed = title.apply(replayed, seat, option)
    assert title.dump(replayed) == title.dump(state)
    assert title.dump(title.load(json.loads(json.dumps(title.dump(state))))) == title.dump(state)


@pytest.mark.parametrize("title_id", PLAYABLE)
def test_unlisted_options_are_refused_and_change_nothing(title_id):
    title = get_title(title_id)
    from app.games.protocol import validate_options

    state = title.setup(2, validate_options(title.TITLE, {}, 2), 9)
    before = json.dumps(title.dump(state), sort_keys=True)
    for seat in range(2):
        listed = {o.id for o in title.options(state, seat)}
        for bogus in ["", "nonsense", "place:9,9", "name:gold", "build:castle", "done" if "done" not in listed else "x"]:
            if bogus in listed:
                continue
            with pytest.raises(IllegalAction):
                title.apply(state, seat, bogus)
    with pytest.raises(IllegalAction):
        title.apply(state, 7, "done")
    assert json.dumps(title.dump(state), sort_keys=True) == before


@pytest.mark.parametrize("title_id", PLAYABLE)
def test_spectators_see_no_private_part_and_views_do_not_mutate(title_id):
    title, _, state, _ = random_game(title_id, 2, seed=13)
    before = json.dumps(title.dump(state), sort_keys=True)
    assert title.view(state, None).get("private") is None
    for seat in range(2):
        title.view(state, seat)
    assert json.dumps(title.dump(state), sort_keys=True) == before
