"""Export and import (app.table.archive): a game leaves as a document and comes back as a
new game in exactly the state its actions give, for every title; the secret leaves only
once the game is over; a bad document is refused whole."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select

from app.games import LISTINGS, get_title
from app.games.playout import bot_playout
from app.store.models import Game
from app.table.service import Viewer

from ..hosting.support import bearer, create, play_to_the_end, table_of

PLAYABLE = [listing.id for listing in LISTINGS if listing.module]
ROOT = Path(__file__).resolve().parents[2]


def document_of(title_id: str, players: int, seed: int) -> dict:
    """A finished game written by hand from a bot playout dealt from ``seed``."""
    played = bot_playout(title_id, players, seed)
    result = played.title.result(played.state)
    return {"format": "keydom-game", "version": 1, "title": title_id, "options": played.options,
            "players": [f"Player {i + 1}" for i in range(players)], "seed": seed,
            "actions": [{"seat": seat, "option": option} for seat, option in played.actions],
            "result": result.as_json() if result else None}


def without_times(document: dict) -> dict:
    return {**document, "actions": [{"seat": a["seat"], "option": a["option"]} for a in document["actions"]]}


async def game_count(client) -> int:  # type: ignore[no-untyped-def]
    async with table_of(client).db.read() as session:
        return (await session.execute(select(func.count()).select_from(Game))).scalar_one()


@pytest.mark.parametrize("title_id", PLAYABLE)
async def test_a_finished_game_round_trips_through_export_and_import(client, title_id):
    spec = get_title(title_id).TITLE
    document = document_of(title_id, spec.min_players if spec.min_players > 1 else 2, seed=11)
    imported = await client.post("/api/games/import", json=document)
    assert imported.status_code == 201, imported.text
    game = imported.json()
    table = table_of(client)
    assert await table.replay_matches_snapshot(game["id"])
    view = (await client.get(f"/api/games/{game['id']}")).json()
    assert view["status"] == "finished" and view["result"] == document["result"]

    exported = await client.get(f"/api/games/{game['id']}/export", headers=bearer(game["seats"][0]["token"]))
    assert exported.status_code == 200, exported.text
    assert without_times(exported.json()) == document
    again = (await client.post("/api/games/import", json=exported.json())).json()
    view_again = (await client.get(f"/api/games/{again['id']}")).json()
    assert view_again["public"] == view["public"] and view_again["log"] == view["log"]
    assert again["seats"][0]["token"] != game["seats"][0]["token"], "an import gets new links"


async def test_the_secret_leaves_only_once_the_game_is_over(client):
    game = await create(client, ["Ann", "Bob"], seed=None)
    table = table_of(client)
    seat = (await table.view(Viewer(game["id"], None)))["to_act"][0]
    mine = await table.view(Viewer(game["id"], seat))
    await table.act(Viewer(game["id"], seat), mine["options"][0]["id"], mine["version"])
    export_url = f"/api/games/{game['id']}/export"

    as_seat = await client.get(export_url, headers=bearer(game["seats"][0]["token"]))
    assert as_seat.status_code == 403 and "Only the host" in as_seat.json()["detail"]
    assert (await client.get(export_url)).status_code == 401
    as_host = await client.get(export_url, headers=bearer(game["host_token"]))
    assert as_host.status_code == 200
    running = as_host.json()
    assert "secret" not in running and "seed" not in running and len(running["actions"]) == 1
    refused = await client.post("/api/games/import", json=running)
    assert refused.status_code == 422 and "holds no secret" in refused.json()["detail"]

    await play_to_the_end(table, game["id"])
    finished = (await client.get(export_url, headers=bearer(game["seats"][1]["token"]))).json()
    assert len(finished["secret"]) == 64 and finished["result"] is not None
    assert finished["actions"][0]["at"]  # each action keeps its time
    copy = (await client.post("/api/games/import", json=finished)).json()
    original_view = (await client.get(f"/api/games/{game['id']}")).json()
    copy_view = (await client.get(f"/api/games/{copy['id']}")).json()
    assert copy_view["public"] == original_view["public"] and copy_view["result"] == original_view["result"]


async def test_an_import_is_refused_whole_naming_the_first_action_that_does_not_apply(client):
    document = document_of("tiny-towns", 2, seed=5)
    before = await game_count(client)
    broken = {**document, "actions": [*document["actions"][:4], {"seat": 0, "option": "no-such-choice"},
                                      *document["actions"][5:]]}
    refused = await client.post("/api/games/import", json=broken)
    assert refused.status_code == 422
    assert refused.json()["detail"].startswith("Action 5 (Player 1: 'no-such-choice') does not apply")
    changed = {**document, "result": {**document["result"], "winners": [1 - document["result"]["winners"][0]]}}
    assert "result is not what its actions give" in (await client.post("/api/games/import", json=changed)).json()["detail"]
    for bad, says in ((dict(document, format="chess-pgn"), "not a Keydom game export"),
                      (dict(document, version=2), "reads version 1"),
                      (dict(document, title="monopoly"), "no playable title"),
                      (dict(document, players=["A", "a"]), "share a name"),
                      (dict(document, seed=None, secret="xyz"), "64 hexadecimal digits")):
        answer = await client.post("/api/games/import", json=bad)
        assert answer.status_code == 422 and says in answer.json()["detail"], (says, answer.text)
    assert await game_count(client) == before, "nothing was stored"


def test_the_host_commands_export_import_and_back_up_the_database(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'keydom.db'}", "PUBLIC_URL": "http://games.test"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)

    source = tmp_path / "in.json"
    source.write_text(json.dumps(document_of("key-harvest", 2, seed=4)))
    imported = run("import", str(source))
    assert imported.returncode == 0, imported.stderr
    assert "host page: http://games.test/g/" in imported.stdout and "seat 2 (Player 2): http://games.test/g/" in imported.stdout
    game_id = imported.stdout.split("Imported as game ", 1)[1].split(" ", 1)[0]

    exported = run("export", game_id)
    assert exported.returncode == 0, exported.stderr
    assert without_times(json.loads(exported.stdout)) == json.loads(source.read_text())
    every = run("export", "--all", "-d", str(tmp_path / "all"))
    assert every.returncode == 0 and (tmp_path / "all" / f"{game_id}.json").exists()
    assert run("export", "nosuchgame").returncode == 1

    copy = tmp_path / "copy.db"
    assert run("backup", str(copy)).returncode == 0
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone() == ("finished",)
    assert "exists already" in run("backup", str(copy)).stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    refused = run("import", str(bad))
    assert refused.returncode == 1 and "is not JSON" in refused.stderr
