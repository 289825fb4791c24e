"""Undo by policy and takebacks with consent (app/table/takeback.py), through the API, on
SQLite and PostgreSQL: what may be taken back, the requests and answers, the refusals, and
that a takeback is exact (the restored game is what replaying the remaining actions gives)
and only ever moves versions forward."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import select

from app.store.models import Action, TableLine, Takeback, TakenBackAction
from app.table.service import Viewer

from ..hosting.support import bearer, table_of


async def new_game(client: httpx.AsyncClient, players: list[Any] | None = None) -> tuple[str, list[str]]:
    created = await client.post("/api/games", json={"title": "tiny-towns", "players": players or ["Ann", "Bob"],
                                                    "seed": 7})
    assert created.status_code == 201, created.text
    body = created.json()
    return body["id"], [s["token"] for s in body["seats"]]


async def view(client: httpx.AsyncClient, game_id: str, token: str | None) -> dict[str, Any]:
    got = await client.get(f"/api/games/{game_id}", headers=bearer(token) if token else {})
    assert got.status_code == 200, got.text
    return got.json()


async def act(client: httpx.AsyncClient, game_id: str, token: str, index: int = 0) -> dict[str, Any]:
    mine = await view(client, game_id, token)
    done = await client.post(f"/api/games/{game_id}/actions", headers=bearer(token),
                             json={"option": mine["options"][index]["id"], "version": mine["version"]})
    assert done.status_code == 200, done.text
    return done.json()


async def post(client: httpx.AsyncClient, game_id: str, path: str, token: str | None, body: dict[str, Any]) -> httpx.Response:
    return await client.post(f"/api/games/{game_id}/{path}", headers=bearer(token) if token else {}, json=body)


def same_screen(a: dict[str, Any], b: dict[str, Any]) -> None:
    """Two views show the same game (whatever their versions and takeback offers)."""
    for key in ("to_act", "public", "private", "options", "result", "log_total"):
        assert a[key] == b[key], key


async def stored_equals_replay(client: httpx.AsyncClient, game_id: str) -> None:
    table = table_of(client)
    assert await table.replay_matches_snapshot(game_id)


async def test_a_qualifying_step_is_undone_at_once_and_versions_move_forward(client):
    game_id, (ann, bob) = await new_game(client)
    before_ann, before_bob, before_watch = [await view(client, game_id, t) for t in (ann, bob, None)]
    assert before_ann["takeback"] == {"undo": False, "ask": False, "request": None}
    acted = await act(client, game_id, ann)  # Ann keeps a monument; Bob has not chosen yet
    assert acted["takeback"]["undo"] is True
    undone = await post(client, game_id, "undo", ann, {"version": acted["version"]})
    assert undone.status_code == 200, undone.text
    after = undone.json()
    same_screen(after, before_ann)
    assert after["version"] > acted["version"] > before_ann["version"]  # never an old number again
    bob_now, watch_now = await view(client, game_id, bob), await view(client, game_id, None)
    same_screen(bob_now, before_bob)
    same_screen(watch_now, before_watch)
    assert bob_now["version"] > before_bob["version"]  # Bob saw Ann's choice made (whose turn), then undone
    await stored_equals_replay(client, game_id)
    table = table_of(client)
    async with table.db.read() as session:
        assert (await session.execute(select(Action).where(Action.game_id == game_id))).first() is None
        kept = (await session.execute(select(TakenBackAction).where(TakenBackAction.game_id == game_id))).scalars().all()
        assert [(a.seat, a.option) for a in kept] == [(0, before_ann["options"][0]["id"])]
        record = (await session.execute(select(Takeback).where(Takeback.game_id == game_id))).scalar_one()
        assert (record.seat, record.status) == (0, "undone")
    assert any("takes back their last move" in line for line in watch_now["log"])
    again = await act(client, game_id, ann, 1)  # play goes on from the restored game
    assert again["version"] > after["version"]
    await stored_equals_replay(client, game_id)


async def test_after_another_players_move_a_takeback_needs_consent_and_restores_exactly(client):
    game_id, (ann, bob) = await new_game(client)
    start_ann = await view(client, game_id, ann)
    await act(client, game_id, ann)
    await act(client, game_id, bob)  # Bob's choice shows both monuments kept: the round moves on
    ann_view = await view(client, game_id, ann)
    assert ann_view["takeback"] == {"undo": False, "ask": True, "request": None}
    refused = await post(client, game_id, "undo", ann, {"version": ann_view["version"]})
    assert refused.status_code == 422 and "ask" in refused.json()["detail"]
    asked = await post(client, game_id, "takeback", ann, {"version": ann_view["version"]})
    assert asked.status_code == 200, asked.text
    request = asked.json()["takeback"]["request"]
    assert request["yours"] and request["waiting"] == ["Bob"]
    bob_view = await view(client, game_id, bob)
    assert bob_view["takeback"]["request"]["to_answer"] is True
    assert "Ann asks to take back their last move" in " ".join(bob_view["log"])
    # While the request is open nobody plays on, and nobody asks again.
    if bob_view["options"]:
        blocked = await client.post(f"/api/games/{game_id}/actions", headers=bearer(bob),
                                    json={"option": bob_view["options"][0]["id"], "version": bob_view["version"]})
        assert blocked.status_code == 409
    again = await post(client, game_id, "takeback", ann, {"version": ann_view["version"]})
    assert again.status_code == 422 and "already" in again.json()["detail"]
    own = await post(client, game_id, "takeback/answer", ann, {"request": request["id"], "accept": True})
    assert own.status_code == 422
    accepted = await post(client, game_id, "takeback/answer", bob, {"request": request["id"], "accept": True})
    assert accepted.status_code == 200, accepted.text
    ann_after = await view(client, game_id, ann)
    # Ann's move is taken back, and Bob's after it: the game is at the version before it (the start).
    table = table_of(client)
    assert ann_after["takeback"]["request"] is None
    assert ann_after["version"] > ann_view["version"]
    same_screen(ann_after, start_ann)
    await stored_equals_replay(client, game_id)
    snap, _ = await table.load_stored(game_id)
    assert snap.version > 2
    async with table.db.read() as session:
        assert (await session.execute(select(Action).where(Action.game_id == game_id))).first() is None
        statuses = (await session.execute(select(Takeback.status).where(Takeback.game_id == game_id))).scalars().all()
        assert statuses == ["accepted"]
        lines = (await session.execute(select(TableLine.line).where(TableLine.game_id == game_id))).scalars().all()
    assert any("everyone agreed" in line for line in lines)


async def test_a_declined_or_withdrawn_request_changes_nothing_but_the_log(client):
    game_id, (ann, bob) = await new_game(client)
    await act(client, game_id, ann)
    await act(client, game_id, bob)
    ann_view = await view(client, game_id, ann)
    bob_before = await view(client, game_id, bob)
    request = (await post(client, game_id, "takeback", ann, {"version": ann_view["version"]})).json()["takeback"]["request"]
    declined = await post(client, game_id, "takeback/answer", bob, {"request": request["id"], "accept": False})
    assert declined.status_code == 200, declined.text
    bob_after = declined.json()
    same_screen(bob_after, bob_before)
    assert bob_after["version"] == bob_before["version"]  # nothing Bob plays with changed
    assert "declines" in " ".join(bob_after["log"])
    late = await post(client, game_id, "takeback/answer", bob, {"request": request["id"], "accept": True})
    assert late.status_code == 404
    # Asked again and withdrawn: play goes on.
    ann_view = await view(client, game_id, ann)
    request = (await post(client, game_id, "takeback", ann, {"version": ann_view["version"]})).json()["takeback"]["request"]
    stranger = await post(client, game_id, "takeback/withdraw", bob, {"request": request["id"]})
    assert stranger.status_code == 403
    wrong = await post(client, game_id, "takeback/withdraw", ann, {"request": request["id"] + 99})
    assert wrong.status_code == 409
    withdrawn = await post(client, game_id, "takeback/withdraw", ann, {"request": request["id"]})
    assert withdrawn.status_code == 200
    assert withdrawn.json()["takeback"]["ask"] is True
    await act(client, game_id, bob) if (await view(client, game_id, bob))["options"] else None
    async with table_of(client).db.read() as session:
        statuses = (await session.execute(select(Takeback.status).where(Takeback.game_id == game_id)
                                          .order_by(Takeback.id))).scalars().all()
    assert statuses == ["declined", "withdrawn"]


async def test_refusals_are_clear_and_change_nothing(client):
    game_id, (ann, bob) = await new_game(client)
    fresh = await view(client, game_id, ann)
    nothing = await post(client, game_id, "undo", ann, {"version": fresh["version"]})
    assert nothing.status_code == 422 and "not made a move" in nothing.json()["detail"]
    nothing = await post(client, game_id, "takeback", ann, {"version": fresh["version"]})
    assert nothing.status_code == 422
    acted = await act(client, game_id, ann)
    spectator = await post(client, game_id, "undo", None, {"version": acted["version"]})
    assert spectator.status_code == 401
    stale = await post(client, game_id, "undo", ann, {"version": acted["version"] - 1})
    assert stale.status_code == 409
    needless = await post(client, game_id, "takeback", ann, {"version": acted["version"]})
    assert needless.status_code == 422 and "at once" in needless.json()["detail"]
    no_request = await post(client, game_id, "takeback/answer", bob, {"request": 1, "accept": True})
    assert no_request.status_code == 404
    bad = await post(client, game_id, "takeback/answer", bob, {"request": "x", "accept": "maybe"})
    assert bad.status_code == 422
    stranger = await post(client, game_id, "undo", "not-a-token", {"version": acted["version"]})
    assert stranger.status_code == 403
    still = await view(client, game_id, ann)
    same_screen(still, acted)
    assert still["version"] == acted["version"] and still["takeback"]["undo"] is True


async def test_bots_accept_a_takeback_at_once(client):
    game_id, (ann, _bot) = await new_game(client, ["Ann", {"bot": "random"}])
    table = table_of(client)
    bots = client._transport.app.state.bots  # type: ignore[attr-defined]
    await act(client, game_id, ann)
    await bots.run_until_idle()
    ann_view = await view(client, game_id, ann)
    if ann_view["takeback"]["undo"]:  # the bot has not moved in a way Ann saw: undo instead
        return
    assert ann_view["takeback"]["ask"]
    asked = await post(client, game_id, "takeback", ann, {"version": ann_view["version"]})
    assert asked.status_code == 200, asked.text
    assert asked.json()["takeback"]["request"] is None  # nobody to wait for: taken back already
    await stored_equals_replay(client, game_id)
    assert Viewer(game_id, 0) and (await table.action_log(game_id)) == []
