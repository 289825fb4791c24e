"""The JSON API: its exact shape and every refusal, with nothing changed by a refusal."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

NO_MONUMENTS = {"monuments": False}


async def new_game(client: httpx.AsyncClient, players=("Ann", "Bob"), **extra) -> dict:
    body = {"title": "tiny-towns", "players": list(players), "seed": 7, **extra}
    response = await client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def look(client, game, seat=None) -> dict:
    headers = bearer(game["seats"][seat]["token"]) if seat is not None else {}
    response = await client.get(f"/api/games/{game['id']}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


async def act(client, game, seat, option, version) -> httpx.Response:
    return await client.post(
        f"/api/games/{game['id']}/actions",
        json={"option": option, "version": version},
        headers=bearer(game["seats"][seat]["token"]),
    )


async def test_titles_lists_all_five_with_player_counts(client):
    titles = (await client.get("/api/titles")).json()
    assert [t["id"] for t in titles] == ["tiny-towns", "keythedral", "key-harvest", "keyper", "key-flow"]
    tiny = titles[0]
    assert (tiny["name"], tiny["min_players"], tiny["max_players"], tiny["available"]) == ("Tiny Towns", 1, 6, True)
    assert {o["key"] for o in tiny["options"]} >= {"monuments", "buildings", "cavern", "town_hall"}


async def test_create_game_returns_links_and_long_tokens(client):
    game = await new_game(client)
    assert game["url"].endswith(f"/g/{game['id']}")
    assert [(s["seat"], s["name"]) for s in game["seats"]] == [(0, "Ann"), (1, "Bob")]
    for s in game["seats"]:
        assert len(s["token"]) >= 32
        assert s["url"].endswith(f"/g/{game['id']}/seat/{s['token']}")
    assert game["seats"][0]["token"] != game["seats"][1]["token"]


async def test_seat_view_has_private_and_options_spectator_has_neither(client):
    game = await new_game(client)
    mine = await look(client, game, 0)
    assert mine["seat"] == 0 and mine["status"] == "active" and mine["version"] == 0
    assert mine["private"] is not None
    assert mine["options"] and all({"id", "label"} <= set(o) for o in mine["options"])
    assert mine["result"] is None
    watcher = await look(client, game)
    assert watcher["seat"] is None and watcher["private"] is None and watcher["options"] == []
    assert set(watcher) >= {"id", "title", "status", "version", "to_act", "public", "private", "options", "result"}


async def test_action_applies_and_bumps_version(client):
    game = await new_game(client, options=NO_MONUMENTS)
    seat = (await look(client, game))["to_act"][0]
    option = (await look(client, game, seat))["options"][0]["id"]
    response = await act(client, game, seat, option, 0)
    assert response.status_code == 200, response.text
    assert response.json()["version"] == 1
    assert (await look(client, game))["version"] == 1


async def test_stale_version_is_409_and_changes_nothing(client):
    game = await new_game(client, options=NO_MONUMENTS)
    seat = (await look(client, game))["to_act"][0]
    option = (await look(client, game, seat))["options"][0]["id"]
    response = await act(client, game, seat, option, 5)
    assert response.status_code == 409
    assert "version" in response.json()["detail"]
    assert (await look(client, game))["version"] == 0


async def test_unoffered_option_is_422_with_message(client):
    game = await new_game(client, options=NO_MONUMENTS)
    before = await look(client, game, 0)
    response = await act(client, game, 0, "build:castle-in-the-sky", 0)
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], str) and "choices" in response.json()["detail"]
    after = await look(client, game, 0)
    assert after == before


async def test_seat_not_to_act_is_refused(client):
    game = await new_game(client, options=NO_MONUMENTS)
    view = await look(client, game)
    idle = [s for s in (0, 1) if s not in view["to_act"]]
    if not idle:
        pytest.skip("both seats act at the start")
    response = await act(client, game, idle[0], "name:wood", 0)
    assert response.status_code == 422
    assert "not your turn" in response.json()["detail"]


async def test_missing_token_is_401_wrong_token_is_403(client):
    game = await new_game(client)
    other = await new_game(client)
    url = f"/api/games/{game['id']}/actions"
    missing = await client.post(url, json={"option": "x", "version": 0})
    assert missing.status_code == 401 and "token" in missing.json()["detail"]
    malformed = await client.post(url, json={"option": "x", "version": 0}, headers={"Authorization": "Token abc"})
    assert malformed.status_code == 401
    wrong = await client.post(url, json={"option": "x", "version": 0}, headers=bearer("not-a-real-token"))
    assert wrong.status_code == 403
    foreign = await client.post(url, json={"option": "x", "version": 0}, headers=bearer(other["seats"][0]["token"]))
    assert foreign.status_code == 403
    peek = await client.get(f"/api/games/{game['id']}", headers=bearer(other["seats"][0]["token"]))
    assert peek.status_code == 403
    assert (await look(client, game))["version"] == 0


async def test_unknown_game_is_404(client):
    assert (await client.get("/api/games/nope")).status_code == 404
    game = await new_game(client)
    response = await client.post(
        "/api/games/nope/actions", json={"option": "x", "version": 0}, headers=bearer(game["seats"][0]["token"])
    )
    assert response.status_code == 404
    assert response.json() == {"detail": "There is no game with that id."}


@pytest.mark.parametrize(
    "body, fragment",
    [
        (b"{not json", "not valid JSON"),
        (b'{"version": 0}', "'option' is required"),
        (b'{"option": "x", "version": "soon"}', "version"),
        (b"\xff\xfe\x00garbage", "JSON"),
    ],
)
async def test_bad_action_bodies_get_a_readable_422(client, body, fragment):
    game = await new_game(client)
    response = await client.post(
        f"/api/games/{game['id']}/actions",
        content=body,
        headers={**bearer(game["seats"][0]["token"]), "Content-Type": "application/json"},
    )
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert isinstance(detail, str) and fragment in detail


@pytest.mark.parametrize(
    "body, status, fragment",
    [
        ({"title": "chess", "players": ["A", "B"]}, 404, "No playable title"),
        ({"title": "tiny-towns", "players": []}, 422, "1–6 players"),
        ({"title": "tiny-towns", "players": ["A"] * 7}, 422, "1–6 players"),
        ({"title": "tiny-towns", "players": ["A", "B"], "options": {"dragons": True}}, 422, "Unknown option"),
        ({"title": "tiny-towns", "players": ["A", "B"], "options": {"monuments": "yes"}}, 422, "true or false"),
        ({"title": "tiny-towns", "players": ["A" * 41, "B"]}, 422, "at most 40"),
        ({"title": "tiny-towns", "players": ["A\x07", "B"]}, 422, "control characters"),
        ({"title": "tiny-towns", "players": ["A", "B"], "seed": -1}, 422, "seed"),
        ({"title": "tiny-towns", "players": ["A", "B"], "seed": 2**31}, 422, "seed"),
        ({"title": "tiny-towns", "players": ["A", "B"], "seed": 2**70}, 422, "seed"),
        ({"title": "tiny-towns"}, 422, "'players' is required"),
    ],
)
async def test_bad_new_game_requests_are_refused_clearly(client, body, status, fragment):
    response = await client.post("/api/games", json=body)
    assert response.status_code == status, response.text
    assert fragment in response.json()["detail"]


async def test_open_seat_cannot_act_until_claimed(client):
    game = await new_game(client, players=["Ann", None], options=NO_MONUMENTS)
    assert game["seats"][1]["name"] is None
    view = await look(client, game, 1)
    assert view["seats"][1]["open"] is True
    # Placement is simultaneous, so seat 1 owes a choice at some point; find one.
    options = view["options"]
    if options:
        response = await act(client, game, 1, options[0]["id"], view["version"])
        assert response.status_code == 403 and "Take this seat" in response.json()["detail"]


async def test_tokens_are_stored_only_as_hashes(sqlite_client, sqlite_url):
    client = sqlite_client
    import sqlite3

    game = await new_game(client)
    path = sqlite_url.split("///", 1)[1]
    with sqlite3.connect(path) as conn:
        dump = "\n".join(conn.iterdump())
    for s in game["seats"]:
        assert s["token"] not in dump


async def test_concurrent_actions_exactly_one_applies(client):
    game = await new_game(client, options=NO_MONUMENTS)
    seat = (await look(client, game))["to_act"][0]
    option = (await look(client, game, seat))["options"][0]["id"]
    responses = await asyncio.gather(*(act(client, game, seat, option, 0) for _ in range(8)))
    codes = sorted(r.status_code for r in responses)
    assert codes.count(200) == 1 and codes.count(409) == 7, codes
    assert (await look(client, game))["version"] == 1


async def test_replay_of_the_log_equals_the_snapshot(client):
    import random

    game = await new_game(client, players=["Ann", "Bob", "Cy"])
    rng = random.Random(3)
    for _ in range(40):
        view = await look(client, game)
        if view["status"] == "finished":
            break
        seat = rng.choice(view["to_act"])
        mine = await look(client, game, seat)
        choice = rng.choice([o for o in mine["options"] if o["id"] != "cancel"] or mine["options"])
        response = await act(client, game, seat, choice["id"], mine["version"])
        assert response.status_code == 200, response.text
    table = client._transport.app.state.table  # type: ignore[attr-defined]
    assert (await table.action_log(game["id"]))
    assert await table.replay_matches_snapshot(game["id"])


async def test_spectator_view_never_contains_private_data(client):
    game = await new_game(client, players=["Ann", "Bob"])
    mine = await look(client, game, 0)
    theirs = await look(client, game, 1)
    watcher = await look(client, game)
    assert mine["private"] and json.dumps(mine["private"]) not in json.dumps(watcher)
    assert json.dumps(mine["private"]) not in json.dumps(theirs)


async def test_oversized_bodies_are_refused_with_413(client):
    huge = {"title": "tiny-towns", "players": ["A", "B"], "options": {"x": "y" * 100_000}}
    response = await client.post("/api/games", json=huge)
    assert response.status_code == 413
    assert "too large" in response.json()["detail"]

    async def stream():
        for _ in range(100):
            yield b"x" * 1024

    streamed = await client.post("/api/games", content=stream(), headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413


async def test_huge_option_ids_are_refused_readably(client):
    game = await new_game(client)
    response = await act(client, game, 0, "x" * 5000, 0)
    assert response.status_code == 422
    assert len(response.json()["detail"]) < 300
