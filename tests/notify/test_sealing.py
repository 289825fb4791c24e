"""Seat links kept for messages are sealed: the database alone opens no seat."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from app.notify.sealing import LinkSeal, load_key

from .conftest import bearer, open_table


def test_a_sealed_token_opens_only_with_its_key_and_for_its_seat():
    seal = LinkSeal(load_key("one key", None))  # type: ignore[arg-type]
    sealed = seal.seal("g1", 2, "the-token")
    assert "the-token" not in sealed
    assert seal.open("g1", 2, sealed) == "the-token"
    assert seal.open("g1", 3, sealed) is None  # moved to another seat: refused
    assert seal.open("g2", 2, sealed) is None
    assert LinkSeal(load_key("another key", None)).open("g1", 2, sealed) is None  # type: ignore[arg-type]
    assert seal.open("g1", 2, sealed[:-2] + ("AA" if sealed[-2:] != "AA" else "BB")) is None
    assert seal.seal("g1", 2, "the-token") != sealed  # a fresh nonce each time


def test_processes_starting_together_share_one_key_file(tmp_path):
    path = tmp_path / "keydom-notify.key"
    keys: list[bytes] = []
    threads = [threading.Thread(target=lambda: keys.append(load_key("", path))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(keys)) == 1 and len(keys[0]) == 32
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert list(tmp_path.iterdir()) == [path]  # no drafts left behind


def test_an_unwritable_key_file_stops_the_server_readably(tmp_path):
    with pytest.raises(SystemExit, match="set NOTIFY_KEY"):
        load_key("", tmp_path / "missing-folder" / "key")


async def test_the_database_holds_no_seat_token(sqlite_url, clock, receiver):
    async for table in open_table(sqlite_url, clock):
        game = await table.new_game()
        await table.set_channels(game, 1, urls=[receiver.url("bob")])
        dump = "\n".join(sqlite3.connect(sqlite_url.split(":///")[1]).iterdump())
        assert game["seats"][1]["token"] not in dump
        await table.step(game, 0)
        await table.later(10)
        assert game["seats"][1]["token"] in receiver.to("bob")[0]["message"]


async def test_a_link_sealed_with_a_lost_key_is_forgotten_not_sent(sqlite_url, clock, receiver):
    async for table in open_table(sqlite_url, clock):
        game = await table.new_game()
        await table.set_channels(game, 1, urls=[receiver.url("bob")])
    async for table in open_table(sqlite_url, clock, link_key="the host changed NOTIFY_KEY"):
        test = await table.http.post(f"/api/games/{game['id']}/notifications/test", headers=bearer(game, 1))
        assert test.status_code == 422 and "save your settings again" in test.json()["detail"]
        await table.step(game, 0)
        assert await table.later(10) == 0
        assert receiver.received == []
        shown = (await table.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 1))).json()
        assert shown["urls"] == []  # the page shows them off, so the player can save again
