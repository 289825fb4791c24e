"""Views that do not grow with the game, and private steps that stay private.

- A title keeps only its recent log lines in the state; each action's lines are stored
  with the action, and ``Table.log_page`` pages back through the whole history from there.
  So neither the snapshot nor a view grows as the game goes on.
- Every viewer (each seat, then the spectator) has its own view version: the game version
  at which what it sees last changed. One seat's private step moves nothing the others
  see, and they act on with the version they hold.
"""

from __future__ import annotations

import json
import random

import pytest
from sqlalchemy import select, update

import app.games.keythedral as kt
from app.games import LISTINGS, get_title, is_playable
from app.games.gamelog import GameLog
from app.games.keythedral.notation import position
from app.games.protocol import VIEW_LOG, lines_written, validate_options
from app.hub.local import Hub
from app.store.db import Database
from app.store.models import Action, Game
from app.table.errors import BadRequest, StaleVersion
from app.table.changes import view_changes
from app.table.service import ACTIONS, GAMES, Table, Viewer
from tests.games.keythedral.support import LAND, give
from tests.games.tiny_towns.support import EMPTY, first_game, with_towns
from tests.table.positions import install

TOWN_BLACK = ["cottage", "farm", "well", "chapel", "tavern", "theater"]


# --- Helpers ---

def endless_choice(options: list[dict], rng: random.Random) -> str:
    """A random choice that never buys a Keythedral building tile, so the game (and its
    log) goes on as long as we like: the log is the part that used to grow."""
    ids = [o["id"] for o in options]
    return rng.choice([i for i in ids if not i.startswith("tile:")] or ids)


async def play(table: Table, game_id: str, actions: int, rng: random.Random) -> None:
    """``actions`` actions through Table.act (fewer if the game ends), chosen from the
    state the table caches."""
    title = get_title((await table.view(Viewer(game_id, None)))["title"])
    for _ in range(actions):
        snap = table.cache.get(game_id, 0)
        assert snap is not None
        if snap.status != "active":
            return
        seat = rng.choice(sorted(title.to_act(snap.state)))
        options = [o.as_json() for o in title.options(snap.state, seat)]
        await table.act(Viewer(game_id, seat), endless_choice(options, rng), snap.view_version(seat))


def full_log(title_id: str, players: int, options: dict, seed: int, actions: list[tuple[int, str]]) -> list[str]:
    """Every line of a game's log, by playing it again (no table involved)."""
    title = get_title(title_id)
    state = title.setup(players, options, seed)
    lines = list(state.log)
    assert state.log.total == len(lines)
    for seat, option in actions:
        before, state = state, title.apply(state, seat, option)
        lines += lines_written(before, state)
    return lines


async def stored_view_versions(table: Table, game_id: str) -> list[int] | None:
    async with table.db.read() as session:
        return (await session.execute(select(Game.view_versions).where(Game.id == game_id))).scalar_one()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    """Every test here runs on both databases (PostgreSQL skipped where none answers)."""
    return request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")


@pytest.fixture
async def table(database_url):
    t = Table(Database(database_url, synchronous="NORMAL"), Hub())  # NORMAL: SQLite only, for speed
    yield t
    await t.db.dispose()


# --- The log: recent lines in the view, the rest on request ---

async def test_a_view_carries_the_newest_lines_and_how_many_there_are(table):
    game = await table.create_game("keythedral", ["Ann", "Bob"], seed=5)
    await play(table, game.id, 300, random.Random(1))
    assert len(await table.action_log(game.id)) == 300
    everything = full_log("keythedral", 2, {"length": "full", "strategic": False}, 5,
                          await table.action_log(game.id))
    named = [line.replace("{seat0}", "Ann").replace("{seat1}", "Bob") for line in everything]
    for seat in (0, 1, None):
        view = await table.view(Viewer(game.id, seat))
        assert view["log_total"] == len(everything) > 300
        assert view["log"] == named[-VIEW_LOG:]
        assert view["log_first"] == len(everything) - VIEW_LOG + 1


@pytest.mark.parametrize("title_id,players,options,limit", [
    ("keythedral", 2, {"length": "full", "strategic": False}, 37),
    ("tiny-towns", 3, {"monuments": True}, 200),
])
async def test_the_history_pages_back_to_the_first_line(table, title_id, players, options, limit):
    game = await table.create_game(title_id, [f"P{i}" for i in range(players)], seed=8, options=options)
    await play(table, game.id, 250, random.Random(2))
    everything = full_log(title_id, players, options, 8, await table.action_log(game.id))
    pages, before = [], None
    while before != 1:
        page = await table.log_page(game.id, before, limit)
        assert page["total"] == len(everything)
        assert len(page["lines"]) == min(limit, (before or page["total"] + 1) - 1)
        pages.insert(0, page["lines"])
        before = page["first"]
    named = [line.replace("{seat0}", "P0").replace("{seat1}", "P1").replace("{seat2}", "P2") for line in everything]
    assert [line for page in pages for line in page] == named
    # a page that starts among the lines dealt at set-up, before any action
    first = await table.log_page(game.id, 3, 5)
    times = first.pop("times")
    assert first == {"total": len(everything), "first": 1, "lines": named[:2], "table_lines": []}
    assert len(times) == 2 and all(times)  # set-up's lines: when the game was made


async def test_the_tables_own_lines_are_paged_with_the_lines_around_them(table):
    """A seat taken by its invite link writes a line of the table's own; paging back
    finds it between the same two lines the view showed it between."""
    game = await table.create_game("keythedral", ["Ann", None], seed=5)
    await table.claim_seat(game.id, game.seats[1].token, "Bob")
    early = await table.view(Viewer(game.id, None))
    assert early["log"][-1] == "Bob takes seat 2" and early["log_total"] == 1
    await play(table, game.id, 150, random.Random(6))
    late = await table.view(Viewer(game.id, None))
    assert "Bob takes seat 2" not in late["log"]
    pages, before = [], late["log_first"]
    while before != 1:
        page = await table.log_page(game.id, before, 40)
        pages.insert(0, page)
        before = page["first"]
    found = [t for page in pages for t in page["table_lines"]]
    assert [{"after": t["after"], "line": t["line"]} for t in found] == [{"after": 1, "line": "Bob takes seat 2"}]
    assert found[0]["at"].endswith("Z")
    assert pages[0]["lines"][0] == early["log"][0]  # line 1, which the claim came after


async def test_a_game_stored_before_actions_kept_their_lines_is_paged_by_replaying_it(table):
    game = await table.create_game("keythedral", ["Ann", "Bob"], seed=9)
    await play(table, game.id, 150, random.Random(3))
    expected = [(await table.log_page(game.id, before, 40)) for before in (None, 120, 61, 7)]
    async with table.db.write() as session:
        await session.execute(update(ACTIONS).where(ACTIONS.c.game_id == game.id).values(log=None))
    # Such games come from before an upgrade: a process started since, which took none of
    # their actions itself (it remembers the times of the lines it saw written).
    started = Table(table.db, Hub())
    replayed = [(await started.log_page(game.id, before, 40)) for before in (None, 120, 61, 7)]
    # The lines come back by replaying; their times are unknown then (only stored lines tell).
    assert all(time is None for page in replayed for time in page.pop("times"))
    for page in expected:
        page.pop("times")
    assert replayed == expected


async def test_log_page_refuses_what_is_not_a_page(table):
    game = await table.create_game("tiny-towns", ["Ann", "Bob"], seed=1)
    for before, limit in ((0, 10), (None, 0), (None, 201), (-3, 5)):
        with pytest.raises(BadRequest):
            await table.log_page(game.id, before, limit)
    page = await table.log_page(game.id, 10_000, 10)  # past the end: the newest lines
    assert page["lines"] == (await table.log_page(game.id, None, 10))["lines"]


async def test_each_action_stores_the_lines_it_wrote_and_replay_checks_them(table):
    game = await table.create_game("keythedral", ["Ann", "Bob"], seed=5)
    await play(table, game.id, 40, random.Random(4))
    async with table.db.read() as session:
        stored = (await session.execute(
            select(Action.log).where(Action.game_id == game.id).order_by(Action.seq))).scalars().all()
    title = get_title("keythedral")
    state, written = title.setup(2, {"length": "full", "strategic": False}, 5), []
    for seat, option in await table.action_log(game.id):
        before, state = state, title.apply(state, seat, option)
        written.append(lines_written(before, state))
    assert stored == written and any(written)
    assert await table.replay_matches_snapshot(game.id)
    async with table.db.write() as session:
        await session.execute(update(ACTIONS).where(ACTIONS.c.game_id == game.id, ACTIONS.c.seq == 3)
                              .values(log=["a line nobody wrote"]))
    assert not await table.replay_matches_snapshot(game.id)


async def test_the_snapshot_and_views_stay_the_same_size_as_the_log_grows(table):
    """Sizes, not times (bench/action_cost.py times it): at 2,000 actions the stored
    snapshot and every view are about as big as at 100, where a kept log would be ~20×."""
    game = await table.create_game("keythedral", ["Ann", "Bob"], seed=5)
    rng = random.Random(5)

    async def sizes() -> tuple[int, int, int]:
        async with table.db.read() as session:
            snapshot = (await session.execute(select(Game.snapshot).where(Game.id == game.id))).scalar_one()
        views = [len(json.dumps(await table.view(Viewer(game.id, seat)))) for seat in (0, 1, None)]
        return len(snapshot), max(views), (await table.view(Viewer(game.id, None)))["log_total"]

    await play(table, game.id, 100, rng)
    snapshot_100, view_100, lines_100 = await sizes()
    await play(table, game.id, 1_900, rng)
    assert len(await table.action_log(game.id)) == 2_000
    snapshot_2000, view_2000, lines_2000 = await sizes()
    assert lines_2000 > 10 * lines_100  # the log itself grew many times over
    assert snapshot_2000 < 1.25 * snapshot_100
    assert view_2000 < 1.5 * view_100
    state = table.cache.get(game.id, 0).state
    assert isinstance(state.log, GameLog) and len(state.log) <= 60


# --- View versions: private steps stay private ---

def factory_town() -> object:
    """Three players; Bob's Factory holds brick, so when brick is named he may place
    another resource instead: a choice in two steps, the first one private."""
    g = first_game(3, seed=3)
    g.cards = TOWN_BLACK + ["factory"]
    return with_towns(g, EMPTY, "Fc+B . . . / . . . . / . . . . / . . . .", EMPTY)


async def factory_game(url: str) -> tuple[Table, str]:
    setup = Table(Database(url), Hub())
    try:
        game = await setup.create_game("tiny-towns", ["Ann", "Bob", "Cy"], seed=3,
                                       options={"monuments": False, "buildings": "first_game"})
    finally:
        await setup.db.dispose()
    await install(url, game.id, factory_town(), "tiny-towns")
    return Table(Database(url), Hub()), game.id


async def versions(table: Table, game_id: str) -> list[int]:
    return [(await table.view(Viewer(game_id, seat)))["version"] for seat in (0, 1, 2, None)]


async def test_a_private_step_moves_only_its_own_seats_view(database_url):
    table, game_id = await factory_game(database_url)
    try:
        await table.act(Viewer(game_id, 0), "name:brick", 0)
        assert await versions(table, game_id) == [1, 1, 1, 1]
        spectator, ann = await table.view(Viewer(game_id, None)), await table.view(Viewer(game_id, 0))
        mine = await table.act(Viewer(game_id, 1), "factory:glass", 1)
        assert mine["version"] == 2 and mine["options"][-1]["id"] == "cancel"
        assert await versions(table, game_id) == [1, 2, 1, 1]
        assert await stored_view_versions(table, game_id) == [1, 2, 1, 1]
        assert await table.view(Viewer(game_id, None)) == spectator
        assert await table.view(Viewer(game_id, 0)) == ann
        # Ann acts with the version she holds (version 1, while the game is at 2).
        await table.act(Viewer(game_id, 0), "place:0,0", 1)
        # Ann is done: everyone sees it, and each count moves by one (nobody but Bob can
        # tell from it that Bob took a step meanwhile)
        assert await versions(table, game_id) == [2, 3, 2, 2]
        with pytest.raises(StaleVersion):
            await table.act(Viewer(game_id, 1), "place:2,2", 2)
        await table.act(Viewer(game_id, 1), "place:2,2", 3)
    finally:
        await table.db.dispose()


async def test_view_versions_survive_a_restart_and_old_games_start_from_the_game_version(database_url):
    table, game_id = await factory_game(database_url)
    try:
        await table.act(Viewer(game_id, 0), "name:brick", 0)
        await table.act(Viewer(game_id, 1), "factory:glass", 1)
    finally:
        await table.db.dispose()
    cold = Table(Database(database_url), Hub())  # a fresh process: no cache, no views kept
    try:
        assert await versions(cold, game_id) == [1, 2, 1, 1]
        await cold.act(Viewer(game_id, 1), "cancel", 2)  # private again: back to the choice
        assert await versions(cold, game_id) == [1, 3, 1, 1]
        async with cold.db.write() as session:  # as stored before view versions existed
            await session.execute(update(GAMES).where(GAMES.c.id == game_id).values(view_versions=None))
    finally:
        await cold.db.dispose()
    old = Table(Database(database_url), Hub())
    try:
        assert await versions(old, game_id) == [3, 3, 3, 3]
        await old.act(Viewer(game_id, 1), "factory:wood", 3)
        assert await versions(old, game_id) == [3, 4, 3, 3]
    finally:
        await old.db.dispose()


async def test_a_process_whose_cache_missed_another_seats_private_step_still_takes_the_action(database_url):
    here, game_id = await factory_game(database_url)
    there = Table(Database(database_url), Hub())
    try:
        await here.act(Viewer(game_id, 0), "name:brick", 0)
        assert (await here.view(Viewer(game_id, 0)))["version"] == 1  # cached here at game version 1
        await there.act(Viewer(game_id, 1), "factory:glass", 1)  # another process: game version 2
        # Here the cache still says version 1; the conditional update misses, the game is read
        # again, and Ann's view is still at 1: her action stands.
        answer = await here.act(Viewer(game_id, 0), "place:0,0", 1)
        assert answer["version"] == 2  # the second change Ann has seen
        await there.act(Viewer(game_id, 2), "place:0,0", 2)  # Cy is done: everyone's view moves
        with pytest.raises(StaleVersion):
            await here.act(Viewer(game_id, 1), "place:1,1", 3)  # Bob's view moved on to 4
    finally:
        await here.db.dispose()
        await there.db.dispose()


async def test_paying_cube_by_cube_moves_only_the_payers_view(database_url):
    setup = Table(Database(database_url), Hub())
    try:
        game = await setup.create_game("keythedral", ["Ann", "Bob"], seed=1)
    finally:
        await setup.db.dispose()
    g = position(LAND, 2, start=0)
    kt.rules.begin_actions(g)
    give(g, 0, "brown black green", from_supply=True)
    await install(database_url, game.id, g, "keythedral")
    table = Table(Database(database_url), Hub())
    try:
        bob, spectator = await table.view(Viewer(game.id, 1)), await table.view(Viewer(game.id, None))
        for version, step in enumerate(["craft:white", "pay:green"]):
            assert (await table.act(Viewer(game.id, 0), step, version))["version"] == version + 1
            assert await table.view(Viewer(game.id, 1)) == bob
            assert await table.view(Viewer(game.id, None)) == spectator
        assert await stored_view_versions(table, game.id) == [2, 0, 0]
        await table.act(Viewer(game.id, 0), "pay:black", 2)  # the cube is bought: everyone sees it
        assert await stored_view_versions(table, game.id) == [3, 1, 1]
        assert (await table.view(Viewer(game.id, None)))["log"][-1] == "Ann buys an ironwork cube."
    finally:
        await table.db.dispose()


@pytest.mark.parametrize("title_id", [listing.id for listing in LISTINGS if is_playable(listing.id)])
def test_every_title_keeps_its_log_as_a_game_log(title_id):
    """The table reads each action's lines from ``state.log`` (protocol.lines_written)."""
    title = get_title(title_id)
    players = max(2, title.TITLE.min_players)
    state = title.setup(players, validate_options(title.TITLE, {}, players), 1)
    assert isinstance(state.log, GameLog) and state.log.total > 0
    assert title.load(json.loads(json.dumps(title.dump(state)))).log == state.log


async def test_every_view_shares_one_list_of_seats_and_a_claim_makes_a_new_one(table):
    """The seats' list is one object for every viewer of a set of names (a frame of changes
    then passes it over at once); a name taken makes a new list, which frames carry."""
    game = await table.create_game("tiny-towns", ["Ann", None], seed=3)
    views = [await table.view(Viewer(game.id, s)) for s in (0, None)]
    assert views[0]["seats"] is views[1]["seats"]
    assert views[0]["seats"] == [{"seat": 0, "name": "Ann", "open": False},
                                 {"seat": 1, "name": "Seat 2 (waiting for a player)", "open": True}]
    await table.claim_seat(game.id, game.seats[1].token, "Bo")
    after = [await table.view(Viewer(game.id, s)) for s in (0, None)]
    assert after[0]["seats"] is after[1]["seats"]
    assert after[0]["seats"][1] == {"seat": 1, "name": "Bo", "open": False}
    assert views[0]["seats"][1]["name"] == "Seat 2 (waiting for a player)"  # what was sent is never changed
    assert [["seats", 1, "name"], "Bo"] in view_changes(views[0], after[0])["set"]
