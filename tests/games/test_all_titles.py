"""The same machine checks for every playable title (parametrised over the registry).

"Games finish" is checked with the title's bot (``app/games/<title>/bot.py``), which makes
progress, so no check depends on how long random play happens to wander. A few purely
random games are kept for the odd corners they reach: past their cap the bot finishes
them, and only a game that cannot be finished fails. Every seed is fixed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.games import LISTINGS, get_title, playout
from app.games.playout import MAX_STEPS, Playout, bot_module, bot_playout, random_playout
from app.games.protocol import IllegalAction, validate_options

PLAYABLE = [listing.id for listing in LISTINGS if listing.module]


ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def replayable(play, title_id: str, players: int, seed: int, options: dict | None = None) -> Playout:
    """A playout; if it fails, a replayable dump (title, players, options, seed, actions so
    far) is saved under test-artifacts/ and named in the error."""
    try:
        return play(title_id, players, seed, options)
    except Exception as failure:
        dump = ARTIFACTS / f"playout-{title_id}-{players}p-seed{seed}.json"
        ARTIFACTS.mkdir(exist_ok=True)
        dump.write_text(json.dumps({"title": title_id, "players": players, "seed": seed, "options": options or {},
                                    "actions": getattr(failure, "actions", None), "error": repr(failure)}))
        raise AssertionError(f"{failure!r}; replay with the dump in {dump}") from failure


def assert_finished(p: Playout) -> None:
    result = p.title.result(p.state)
    assert result is not None and result.winners
    assert {s.seat for s in result.scores} == set(range(p.players))
    assert p.title.to_act(p.state) == frozenset()


@pytest.mark.parametrize("title_id", PLAYABLE)
def test_bot_games_finish_for_every_player_count(title_id):
    spec = get_title(title_id).TITLE
    for players in range(spec.min_players, spec.max_players + 1):
        p = replayable(bot_playout, title_id, players, seed=players * 101)
        assert_finished(p)
        assert p.random_steps == 0


@pytest.mark.parametrize("title_id", PLAYABLE)
def test_random_games_can_always_be_finished(title_id):
    """Pure random play for a generous cap; a game still running is handed to the bot,
    which must end it."""
    spec = get_title(title_id).TITLE
    for players in sorted({spec.min_players, spec.max_players}):
        p = replayable(random_playout, title_id, players, seed=players * 7 + 1)
        assert_finished(p)
        assert 0 < p.random_steps <= MAX_STEPS


def test_a_random_game_past_its_cap_is_finished_by_the_bot():
    p = random_playout("keythedral", 2, seed=3, max_steps=50)
    assert p.random_steps == 50 and len(p.actions) > 50
    assert_finished(p)


def test_a_game_that_cannot_end_fails(monkeypatch):
    title = get_title("keythedral")
    monkeypatch.setattr(title, "apply", lambda state, seat, option: state)  # a game that never moves on
    with pytest.raises(AssertionError, match="did not finish"):
        bot_playout("keythedral", 2, seed=1, max_steps=30)
    with pytest.raises(AssertionError, match=r"did not finish in 20000 decisions by the bot \(after 20 random"):
        random_playout("keythedral", 2, seed=1, max_steps=20)


def test_a_title_without_a_bot_is_played_at_random(monkeypatch):
    assert bot_module("keythedral") is not None and bot_module("tiny-towns") is not None
    with pytest.raises(KeyError):
        bot_module("no-such-title")
    with_bot = bot_playout("keythedral", 2, seed=4)
    monkeypatch.setattr(playout, "bot_module", lambda title_id: None)
    without = bot_playout("keythedral", 2, seed=4)
    assert_finished(without)
    assert without.actions != with_bot.actions and len(without.actions) > 2 * len(with_bot.actions)


@pytest.mark.parametrize("title_id", PLAYABLE)
def test_the_same_seed_plays_the_same_game(title_id):
    a = bot_playout(title_id, 2, seed=21)
    b = bot_playout(title_id, 2, seed=21)
    assert a.actions == b.actions and a.title.dump(a.state) == b.title.dump(b.state)


@pytest.mark.parametrize("title_id", PLAYABLE)
def test_replay_from_the_log_equals_the_state(title_id):
    for play in (bot_playout, random_playout):
        p = replayable(play, title_id, 3, seed=5)
        replayed = p.title.setup(3, p.options, 5)
        for seat, option in p.actions:
            replayed = p.title.apply(replayed, seat, option)
        assert p.title.dump(replayed) == p.title.dump(p.state)
        assert p.title.dump(p.title.load(json.loads(json.dumps(p.title.dump(p.state))))) == p.title.dump(p.state)


@pytest.mark.parametrize("title_id", PLAYABLE)
def test_unlisted_options_are_refused_and_change_nothing(title_id):
    title = get_title(title_id)
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
    p = replayable(bot_playout, title_id, 2, seed=13)
    before = json.dumps(p.title.dump(p.state), sort_keys=True)
    assert p.title.view(p.state, None).get("private") is None
    for seat in range(2):
        p.title.view(p.state, seat)
    assert json.dumps(p.title.dump(p.state), sort_keys=True) == before
