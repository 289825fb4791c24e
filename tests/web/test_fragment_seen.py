"""The game page's live part, asked again after a frame: drawn from the game the process
holds when that is at least as new as the frame's view, read from the database otherwise."""

from __future__ import annotations

from ..spy import record_calls


async def _game_and_action(client):  # type: ignore[no-untyped-def]
    created = (await client.post("/api/games", json={"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 5,
                                                     "options": {"monuments": False}})).json()
    auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    view = (await client.get(f"/api/games/{created['id']}", headers=auth)).json()
    acted = await client.post(f"/api/games/{created['id']}/actions", headers=auth,
                              json={"option": view["options"][0]["id"], "version": view["version"]})
    assert acted.status_code == 200, acted.text
    return created["id"], auth, acted.json()


async def test_a_fragment_after_a_frame_is_drawn_without_reading_the_game(client):
    game_id, auth, acted = await _game_and_action(client)
    table = client._transport.app.state.table  # type: ignore[attr-defined]
    reads = record_calls(table, "load_stored")

    seen = await client.get(f"/g/{game_id}/fragment?seen={acted['version']}", headers=auth)
    assert seen.status_code == 200 and f'data-version="{acted["version"]}"' in seen.text
    assert reads == [], "the process holds that version: no read"

    ahead = await client.get(f"/g/{game_id}/fragment?seen={acted['version'] + 5}", headers=auth)
    assert ahead.status_code == 200 and reads == [game_id], "a version this process lacks is read"

    plain = await client.get(f"/g/{game_id}/fragment", headers=auth)
    assert plain.status_code == 200 and reads == [game_id, game_id], "without seen: read as before"
    assert plain.text == seen.text


async def test_a_bad_seen_gets_a_readable_422(client):
    game_id, auth, _ = await _game_and_action(client)
    refused = await client.get(f"/g/{game_id}/fragment?seen=soon", headers=auth)
    assert refused.status_code == 422 and "seen" in refused.text
