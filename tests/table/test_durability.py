"""Durable by default on SQLite, with group commit.

- Every connection runs with ``synchronous=FULL``: a commit waits until the WAL is on the
  disk, so an acknowledged action survives a power cut, not only a killed process.
- The action writer commits the actions of different games that wait at the same moment
  in one transaction, each in its own SAVEPOINT: a stale action (or one whose write fails
  halfway) is rolled back alone and the others still commit; nobody is answered before
  the COMMIT has returned.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from typing import Callable

import pytest
from sqlalchemy import text, update
from sqlalchemy.exc import IntegrityError, OperationalError

from app.hub.local import Hub
from app.store.db import Database
from app.table.errors import StaleVersion
from app.table.service import GAMES as GAMES_TABLE, Table, Viewer

GAMES = 24
ACTIONS_PER_GAME = 12


def sqlite_path(url: str) -> str:
    return url.split("///", 1)[1]


async def new_table(url: str) -> Table:
    return Table(Database(url), Hub())


def count_commits(db: Database) -> "Callable[[], int]":
    """The action writer's transactions committed since this call (a SAVEPOINT release is
    not one), counted by the writer itself: its COMMIT goes straight to the driver."""
    writer = db.writer
    assert writer is not None
    start = writer.transactions
    return lambda: writer.transactions - start


async def choose(table: Table, game_id: str, rng: random.Random) -> tuple[int, str, int] | None:
    """A seat to act, one of its options and the version it sees; None when finished."""
    public = await table.view(Viewer(game_id, None))
    if public["status"] == "finished":
        return None
    seat = rng.choice(public["to_act"])
    mine = await table.view(Viewer(game_id, seat))
    ids = [o["id"] for o in mine["options"] if o["id"] != "cancel"] or [o["id"] for o in mine["options"]]
    return seat, rng.choice(ids), mine["version"]


async def until_waiting(db: Database, count: int) -> None:
    """Until ``count`` actions have been handed to the writer and not yet answered."""
    while db.actions_waiting < count:
        await asyncio.sleep(0.001)


class WriteLockHeld:
    """Another connection holds SQLite's write lock, so the action writer's next BEGIN
    IMMEDIATE waits and the actions sent meanwhile pile up for one transaction."""

    def __init__(self, url: str) -> None:
        self.conn = sqlite3.connect(sqlite_path(url), isolation_level=None, check_same_thread=False)
        self.conn.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.conn.execute("COMMIT")
        self.conn.close()


async def in_one_batch(table, sqlite_url: str, games: list[str], picks: list[tuple[int, str, int]]) -> list:
    """Send one action per game while the write lock is held, so they share one
    transaction; their outcomes (a view, or the exception), in order."""
    lock = WriteLockHeld(sqlite_url)
    try:
        tasks = [asyncio.create_task(table.act(Viewer(g, s), o, v)) for g, (s, o, v) in zip(games, picks)]
        await until_waiting(table.db, len(tasks))
    finally:
        lock.release()
    return await asyncio.gather(*tasks, return_exceptions=True)


async def test_every_sqlite_connection_syncs_each_commit_to_disk(sqlite_url):
    db = Database(sqlite_url)
    try:
        async with db.read() as session:
            assert (await session.execute(text("PRAGMA synchronous"))).scalar_one() == 2  # FULL
            assert (await session.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
        assert db.action_engine is not None

        def writer_pragma(conn) -> int:  # type: ignore[no-untyped-def]
            return conn.exec_driver_sql("PRAGMA synchronous").scalar_one()

        assert await db.commit_action(writer_pragma, None) == 2  # type: ignore[arg-type]
    finally:
        await db.dispose()


async def test_concurrent_actions_on_many_games_all_land_and_replay(sqlite_url):
    table = await new_table(sqlite_url)
    try:
        games = [(await table.create_game("tiny-towns", ["A", "B", "C"], seed=g)).id for g in range(GAMES)]
        commits = count_commits(table.db)
        acknowledged = {g: 0 for g in games}

        async def bot(game_id: str, seed: int) -> None:
            rng = random.Random(seed)
            for _ in range(ACTIONS_PER_GAME):
                chosen = await choose(table, game_id, rng)
                if chosen is None:
                    return
                seat, option, version = chosen
                await table.act(Viewer(game_id, seat), option, version)  # one bot per game: never stale
                acknowledged[game_id] += 1

        await asyncio.gather(*(bot(g, i) for i, g in enumerate(games)))
        total = sum(acknowledged.values())
        assert total == GAMES * ACTIONS_PER_GAME
        for game_id in games:
            assert len(await table.action_log(game_id)) == acknowledged[game_id]
            assert await table.replay_matches_snapshot(game_id), f"{game_id} does not replay to its snapshot"
        assert commits() < total, f"{total} actions took {commits()} commits: no two shared a transaction"
    finally:
        await table.db.dispose()


async def test_a_stale_action_in_a_batch_fails_alone(sqlite_url):
    table = await new_table(sqlite_url)
    try:
        games = [(await table.create_game("tiny-towns", ["A", "B"], seed=g)).id for g in range(4)]
        rng = random.Random(9)
        picks = [await choose(table, g, rng) for g in games]
        commits = count_commits(table.db)
        lock = WriteLockHeld(sqlite_url)
        try:
            # The writer takes the first action and waits for the lock; the next four
            # (two of them on one game at one version) queue up behind it together.
            first = asyncio.create_task(table.act(Viewer(games[0], picks[0][0]), picks[0][1], picks[0][2]))
            await until_waiting(table.db, 1)
            seat, option, version = picks[1]
            racing = [asyncio.create_task(table.act(Viewer(games[1], seat), option, version)) for _ in range(2)]
            others = [asyncio.create_task(table.act(Viewer(g, s), o, v)) for g, (s, o, v) in zip(games[2:], picks[2:])]
            await until_waiting(table.db, 5)
        finally:
            lock.release()
        await first
        outcomes = await asyncio.gather(*racing, return_exceptions=True)
        for task in others:
            await task  # answered done
        assert commits() <= 2, "the four queued actions should have shared one transaction"
        stale = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(stale) == 1 and isinstance(stale[0], StaleVersion), outcomes
        assert stale[0].status == 409
        for game_id in games:
            assert len(await table.action_log(game_id)) == 1
            assert await table.replay_matches_snapshot(game_id)
    finally:
        await table.db.dispose()


async def test_a_write_that_fails_halfway_leaves_its_game_untouched_and_the_batch_commits(sqlite_url):
    """The version update of one action succeeds but its log row cannot be written: its
    SAVEPOINT takes the update back too, so no game is ever half-applied."""
    table = await new_table(sqlite_url)
    try:
        games = [(await table.create_game("tiny-towns", ["A", "B"], seed=g)).id for g in range(3)]
        rng = random.Random(3)
        picks = [await choose(table, g, rng) for g in games]
        broken = games[1]
        with sqlite3.connect(sqlite_path(sqlite_url)) as raw:  # a stray log row where seq 1 will go
            raw.execute("INSERT INTO actions (game_id, seq, seat, option, created_at) "
                        "VALUES (?, 1, 0, 'stray', '2026-01-01')", (broken,))
        outcomes = await in_one_batch(table, sqlite_url, games, picks)
        assert isinstance(outcomes[1], IntegrityError), outcomes
        assert isinstance(outcomes[0], dict) and isinstance(outcomes[2], dict), outcomes
        with sqlite3.connect(sqlite_path(sqlite_url)) as raw:
            versions = dict(raw.execute("SELECT id, version FROM games").fetchall())
        assert versions == {games[0]: 1, broken: 0, games[2]: 1}
    finally:
        await table.db.dispose()


async def test_a_failed_commit_acknowledges_no_action_of_its_batch(sqlite_url):
    """If COMMIT itself fails (disk full, I/O error), every action of that transaction is
    refused and none is stored or cached; the next batch commits normally."""
    table = await new_table(sqlite_url)
    try:
        games = [(await table.create_game("tiny-towns", ["A", "B"], seed=g)).id for g in range(3)]
        rng = random.Random(5)
        picks = [await choose(table, g, rng) for g in games]
        assert table.db.action_engine is not None
        failing = {"on": True}

        writer = table.db.writer
        assert writer is not None
        commit = writer._end

        def disk_full(dbapi) -> None:  # type: ignore[no-untyped-def]
            if failing["on"]:
                raise sqlite3.OperationalError("database or disk is full")
            commit(dbapi)

        writer._end = disk_full  # type: ignore[method-assign]
        outcomes = await in_one_batch(table, sqlite_url, games, picks)
        failing["on"] = False
        assert all(isinstance(o, sqlite3.OperationalError) for o in outcomes), outcomes
        for game_id, (seat, option, version) in zip(games, picks):
            assert await table.action_log(game_id) == []
            assert table.cache.get(game_id, 1) is None, "a refused action's state was cached"
            await table.act(Viewer(game_id, seat), option, version)
            assert await table.action_log(game_id) == [(seat, option)]
    finally:
        await table.db.dispose()


@pytest.mark.parametrize("level", ["NORMAL", "FULL"])
async def test_the_synchronous_level_can_be_chosen_for_benchmarks(sqlite_url, level):
    db = Database(sqlite_url, synchronous=level)
    try:
        async with db.read() as session:
            assert (await session.execute(text("PRAGMA synchronous"))).scalar_one() == {"NORMAL": 1, "FULL": 2}[level]
    finally:
        await db.dispose()


@pytest.mark.postgres
async def test_postgresql_commits_wait_for_the_disk_even_if_the_server_default_does_not(pg_url):
    """A host may set ``synchronous_commit = off`` for speed; our connections turn it on."""
    import psycopg

    plain = pg_url.replace("postgresql+asyncpg", "postgresql")
    with psycopg.connect(plain, autocommit=True) as admin:
        name = admin.execute("SELECT current_database()").fetchone()[0]
        admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
        try:
            with psycopg.connect(plain) as other:  # what any other client now gets
                assert other.execute("SHOW synchronous_commit").fetchone()[0] == "off"
            db = Database(pg_url)
            try:
                async with db.write() as session:
                    assert (await session.execute(text("SHOW synchronous_commit"))).scalar_one() == "on"
            finally:
                await db.dispose()
        finally:
            admin.execute(f'ALTER DATABASE "{name}" RESET synchronous_commit')


async def test_a_write_that_loses_the_whole_transaction_fails_its_whole_batch(sqlite_url):
    """Some SQLite errors (a full disk, an I/O error) roll back the whole transaction, not
    just the statement: then the actions before it in the batch are gone too, and none of
    them may be answered as done. Whatever is answered done is stored, and nothing else."""
    table = await new_table(sqlite_url)
    db = table.db
    try:
        games = [(await table.create_game("tiny-towns", ["A", "B"], seed=g)).id for g in range(3)]
        plug_running, plug_go = threading.Event(), threading.Event()

        def plug(_conn) -> None:  # type: ignore[no-untyped-def]
            plug_running.set()
            plug_go.wait(30)

        def bump(game_id: str):  # type: ignore[no-untyped-def]
            def write(conn) -> str:  # type: ignore[no-untyped-def]
                conn.execute(update(GAMES_TABLE).where(GAMES_TABLE.c.id == game_id).values(version=1))
                return game_id
            return write

        def disk_full(conn) -> None:  # type: ignore[no-untyped-def]
            conn.exec_driver_sql("ROLLBACK")  # what SQLite does on SQLITE_FULL
            raise OperationalError("UPDATE", {}, sqlite3.OperationalError("database or disk is full"))

        # The writer is busy with the plug while the next three queue up behind it.
        plugged = asyncio.create_task(db.commit_action(plug, None))  # type: ignore[arg-type]
        await asyncio.to_thread(plug_running.wait, 30)
        tasks = [asyncio.create_task(db.commit_action(w, None))  # type: ignore[arg-type]
                 for w in (bump(games[0]), disk_full, bump(games[2]))]
        await until_waiting(db, 4)
        plug_go.set()
        await plugged
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        with sqlite3.connect(sqlite_path(sqlite_url)) as raw:
            versions = dict(raw.execute("SELECT id, version FROM games").fetchall())
        for game_id, outcome in zip((games[0], games[2]), (outcomes[0], outcomes[2])):
            answered_done = not isinstance(outcome, BaseException)
            assert answered_done == (versions[game_id] == 1), (game_id, outcome, versions)
        assert all(isinstance(o, OperationalError) for o in outcomes), outcomes
        assert await db.commit_action(bump(games[1]), None) == games[1]  # type: ignore[arg-type]
    finally:
        await db.dispose()


async def test_an_action_refused_alone_in_its_transaction_leaves_nothing_behind(sqlite_url):
    """A batch of one runs without a savepoint: a write refused after its first statement
    (here through SQLAlchemy, as the clocks write) is rolled back whole, and the writer goes
    on committing, through the driver or through SQLAlchemy, on the same connection."""
    table = await new_table(sqlite_url)
    db = table.db
    try:
        games = [(await table.create_game("tiny-towns", ["A", "B"], seed=g)).id for g in range(2)]

        def set_version(game_id: str, version: int, then_refuse: bool):  # type: ignore[no-untyped-def]
            def write(conn) -> int:  # type: ignore[no-untyped-def]
                conn.execute(update(GAMES_TABLE).where(GAMES_TABLE.c.id == game_id).values(version=version))
                if then_refuse:
                    raise StaleVersion("refused after its first statement")
                return version
            return write

        def raw_version(game_id: str, version: int):  # type: ignore[no-untyped-def]
            def write(conn) -> int:  # type: ignore[no-untyped-def]
                conn.connection.dbapi_connection.execute("UPDATE games SET version = ? WHERE id = ?", (version, game_id))
                return version
            return write

        commits = count_commits(db)
        with pytest.raises(StaleVersion):
            await db.commit_action(set_version(games[0], 7, True), None)  # type: ignore[arg-type]
        assert await db.commit_action(set_version(games[1], 3, False), None) == 3  # type: ignore[arg-type]
        assert await db.commit_action(raw_version(games[0], 5), None) == 5  # type: ignore[arg-type]
        with pytest.raises(StaleVersion):
            await db.commit_action(set_version(games[1], 9, True), None)  # type: ignore[arg-type]
        with sqlite3.connect(sqlite_path(sqlite_url)) as raw:
            versions = dict(raw.execute("SELECT id, version FROM games").fetchall())
        assert versions == {games[0]: 5, games[1]: 3}
        assert commits() == 2, "only the two accepted writes committed"
    finally:
        await db.dispose()
