"""The "could any monument fit" test (``rules.any_fits``, remembered per town pattern)
answers exactly as searching every monument's layouts in the town does."""

from __future__ import annotations

import pytest

import app.games.tiny_towns as tt
from app.games.playout import bot_playout
from app.games.tiny_towns.content import MONUMENTS
from app.games.tiny_towns.rules import any_fits, layouts_in_town


@pytest.mark.parametrize("seed", range(4))
def test_any_fits_agrees_with_searching_every_layout_at_every_step(seed):
    playout = bot_playout("tiny-towns", 2 + seed % 3, seed, {"monuments": True, "buildings": "random"})
    g = tt.setup(playout.players, playout.options, seed)
    checked = fits = 0
    for seat, option in playout.actions:
        g = tt.apply(g, seat, option)
        for p in g.players:
            for card in MONUMENTS:
                expected = bool(layouts_in_town(g, p, card))
                assert any_fits(p, [card]) == expected, (seat, option, p.seat, card)
                checked += 1
                fits += expected
            assert any_fits(p, list(MONUMENTS)) == any(layouts_in_town(g, p, m) for m in MONUMENTS)
    assert checked and fits, "the games must reach towns where some monument fits"
