"""A second process follows a game by applying the action a notice carries (Table.follow)
instead of reading the game back: what it then caches and shows must equal what the
database holds, for every title, through private steps, an undo and a game's end."""

from __future__ import annotations

import pytest

from app.games import LISTINGS, get_title
from app.games.rng import Rng
from app.hub.local import Hub, Moved, notice
from app.store.db import Database
from app.table.service import Table, Viewer

from ..games.twins import bot_for

PLAYABLE = [listing.id for listing in LISTINGS if listing.module]


class Wire(Hub):
    """This process's hub, which also hands every notice to another process's hub as the
    PostgreSQL hub would (as text, after the commit)."""

    def __init__(self) -> None:
        super().__init__()
        self.others: list[Hub] = []
        self.sent: list[str] = []

    async def publish(self, game_id: str, version: int, moved: Moved | None = None) -> None:
        await super().publish(game_id, version, moved)
        self.sent.append(notice(game_id, version, "here", moved))
        for other in self.others:
            other.deliver_notice(self.sent[-1], "there")


def _stored(table: Table, game_id: str) -> tuple:  # type: ignore[type-arg]
    snap = table.cache.get(game_id, 0)
    assert snap is not None
    title = get_title(snap.title)
    return (snap.version, snap.status, title.dump(snap.state), snap.view_versions, snap.view_changed_at, snap.takeback)


@pytest.mark.parametrize("title_id", PLAYABLE)
async def test_a_followed_game_equals_the_stored_game_after_every_step(title_id, sqlite_url):
    spec = get_title(title_id).TITLE
    players = min(spec.max_players, 3)
    here_hub = Wire()
    there_hub = Hub()
    here_hub.others.append(there_hub)
    here = Table(Database(sqlite_url, synchronous="NORMAL"), here_hub)
    there = Table(Database(sqlite_url, synchronous="NORMAL"), there_hub)
    fresh = Table(Database(sqlite_url, synchronous="NORMAL"), Hub())  # reads the game anew each time
    try:
        game = await here.create_game(title_id, [f"P{i}" for i in range(players)], seed=7)
        viewers = [Viewer(game.id, s) for s in range(players)] + [Viewer(game.id, None)]
        await there.view(viewers[-1])  # the other process has seen the game once
        rng, choose = Rng(7), bot_for(title_id)
        followed = undone = 0
        for step in range(100):
            state = here.cache.get(game.id, 0).state
            public = await here.view(viewers[-1])
            if public["result"] is not None:
                break
            seat = rng.choice(public["to_act"])
            mine = await here.view(viewers[seat])
            option = choose(state, seat, rng) if choose else rng.choice(mine["options"])["id"]
            acted = await here.act(viewers[seat], option, mine["version"])
            kept = there.cache.get(game.id, 0)
            if kept is not None and kept.version == here.cache.get(game.id, 0).version:
                followed += 1
                fresh.forget_seats(None)
                await fresh.view(viewers[-1])
                assert _stored(there, game.id) == _stored(fresh, game.id), f"{title_id}: step {step} ({option!r})"
                for viewer in viewers:
                    assert await there.view(viewer) == await fresh.view(viewer)
            if not undone and step >= 5 and acted["takeback"]["undo"]:
                # An undo is no action a notice carries: the other process reads the game again.
                await here.takebacks.undo(viewers[seat], acted["version"])
                undone += 1
                assert there.cache.get(game.id, here.cache.get(game.id, 0).version) is None
                await there.view(viewers[-1])
        assert undone == 1 and followed >= 20, f"{title_id}: the other process followed only {followed} steps"
        assert all(":" in text for text in here_hub.sent)
    finally:
        for table in (here, there, fresh):
            await table.db.dispose()


async def test_a_notice_carries_an_option_with_colons_and_malformed_ones_are_ignored():
    hub = Hub()
    seen: list[tuple[str, int, Moved]] = []
    hub.on_moved.append(lambda game_id, version, moved: seen.append((game_id, version, moved)))
    with hub.subscribe("g") as sub:
        moved = Moved(2, 1764170000.123456, "build:cottage:a1:b2", (3, 4, 4))
        hub.deliver_notice(notice("g", 9, "far", moved), "near")
        assert seen == [("g", 9, moved)] and sub.newest == 9
        hub.deliver_notice(notice("g", 10, "near", moved), "near")  # our own: skipped
        hub.deliver_notice(notice("g", 11, "far"), "near")  # no action (an undo): wakes only
        assert len(seen) == 1 and sub.newest == 11
        for bad in ("g:x:far", "g:12:far:one:2.0:1,2:o", "g:12:far:1:soon:1,2:o", "g:12:far:1:2.0:x,2:o",
                    "g:12:far:1:2.0", "g"):
            hub.deliver_notice(bad, "near")
        assert len(seen) == 1 and sub.newest == 11
