"""The golden playthrough (see golden.py): a fixed bot game's transcript is unchanged."""

from __future__ import annotations

from .golden import GOLDEN, transcript


def test_the_golden_two_player_game_plays_out_as_recorded():
    assert transcript() == GOLDEN.read_text(), (
        "the 2-player golden game changed; if the change is meant, rewrite it with "
        "`.venv/bin/python -m tests.games.key_harvest.golden` and review the diff")
