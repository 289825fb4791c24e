"""Undo by policy through the table, for every title: after each step the acting seat is
offered "undo" exactly when its title says the step qualifies; an undo brings every
viewer back to what it saw before the step, under versions that only grow, and the stored
game still replays to its snapshot; once another player's step was seen, only asking is left."""

from __future__ import annotations

import pytest

from app.games import LISTINGS, get_title
from app.games.rng import Rng
from app.hub.local import Hub
from app.store.db import Database
from app.table.service import Table, Viewer

from ..games.twins import bot_for

PLAYABLE = [listing.id for listing in LISTINGS if listing.module]
SCREEN = ("to_act", "public", "private", "options", "result", "log_total")


def _players(title_id: str) -> int:
    spec = get_title(title_id).TITLE
    return max(spec.min_players, min(3, spec.max_players))


@pytest.mark.parametrize("title_id", PLAYABLE)
async def test_undo_follows_the_titles_declaration_and_restores_every_view(title_id, sqlite_url):
    title = get_title(title_id)
    players = _players(title_id)
    table = Table(Database(sqlite_url, synchronous="NORMAL"), Hub())
    try:
        game = await table.create_game(title_id, [f"P{i}" for i in range(players)], seed=5)
        viewers = [Viewer(game.id, s) for s in range(players)] + [Viewer(game.id, None)]
        rng, choose = Rng(5), bot_for(title_id)
        undone = refused_after_others = 0
        for _ in range(160):
            before = [await table.view(v) for v in viewers]
            if before[-1]["result"] is not None:
                break
            state = table.cache.get(game.id, 0).state
            seat = rng.choice(before[-1]["to_act"])
            mine = before[seat]
            option = choose(state, seat, rng) if choose and rng.randrange(3) else rng.choice(mine["options"])["id"]
            acted = await table.act(viewers[seat], option, mine["version"])
            after_state = table.cache.get(game.id, 0).state
            expected = acted["result"] is None and title.undoable(state, seat, option, after_state)
            assert acted["takeback"]["undo"] is expected, f"{title_id}: seat {seat}'s {option!r}"
            assert acted["takeback"]["ask"] is not expected or acted["result"] is not None
            # Another seat that acted before, and saw this step, may only ask now.
            for other in range(players):
                other_view = await table.view(viewers[other])
                if other != seat and other_view["version"] > before[other]["version"] and \
                        other_view["takeback"]["ask"]:
                    assert not other_view["takeback"]["undo"]
                    refused_after_others += 1
            if expected and undone < 3:
                seen_after = [await table.view(v) for v in viewers]
                restored = await table.takebacks.undo(viewers[seat], acted["version"])
                for v, old, mid in zip(viewers, before, seen_after):
                    now = await table.view(v)
                    assert {k: now[k] for k in SCREEN} == {k: old[k] for k in SCREEN}, f"{title_id}: {v}"
                    assert now["version"] >= mid["version"]  # never back to a number already seen
                    assert (now["version"] > mid["version"]) == (mid["version"] > old["version"])
                    assert now["takeback"] == old["takeback"]  # the standing is played again too
                assert restored["takeback"] == before[seat]["takeback"]
                assert await table.replay_matches_snapshot(game.id)
                undone += 1
                await table.act(viewers[seat], option, restored["version"])  # and play on as before
        assert undone, f"{title_id}: no step of this game could be undone"
        assert refused_after_others, f"{title_id}: no seat ever saw another act after its own step"
        assert await table.replay_matches_snapshot(game.id)
    finally:
        await table.db.dispose()
