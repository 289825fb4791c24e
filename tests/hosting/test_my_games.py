"""POST /api/my-games: one entry per link this browser holds, your turn first."""

from __future__ import annotations

from .support import bearer, create, play_to_the_end, table_of


async def my_games(client, tokens):
    answer = await client.post("/api/my-games", json={"tokens": tokens})
    assert answer.status_code == 200, answer.text
    return answer.json()


async def test_one_entry_per_valid_link_and_unknown_ones_skipped(client):
    game = await create(client, ["Ann", None])
    ann, open_seat = game["seats"][0]["token"], game["seats"][1]["token"]
    entries = await my_games(client, [ann, "not-a-link", game["host_token"], open_seat, ann, "x" * 500])
    assert sorted((e["role"], e["seat"]) for e in entries) == [("host", None), ("seat", 0), ("seat", 1)]
    by_token = {e["token"]: e for e in entries}
    assert by_token[ann]["you"] == "Ann" and by_token[ann]["url"].endswith(f"/g/{game['id']}/seat/{ann}")
    assert by_token[open_seat]["you"] is None
    assert by_token[game["host_token"]]["url"].endswith(f"/g/{game['id']}/host/{game['host_token']}")
    for entry in entries:
        assert entry["title_name"] == "Tiny Towns" and entry["status"] == "active" and entry["winners"] is None
        assert [s["name"] for s in entry["seats"]] == ["Ann", "Seat 2 (waiting for a player)"]
        assert entry["waiting_on_open"] and entry["updated_at"]
    assert await my_games(client, ["nobody", "knows", "these"]) == []
    assert await my_games(client, []) == []


async def test_your_turn_first_then_running_games_then_finished(client):
    table = table_of(client)
    waiting = await create(client, ["Ann", "Bob"])
    finished = await create(client, ["Ann"])
    await play_to_the_end(table, finished["id"])
    # In `waiting` Ann chooses her monument; once she has, only Bob is left to choose.
    ann = bearer(waiting["seats"][0]["token"])
    mine = (await client.get(f"/api/games/{waiting['id']}", headers=ann)).json()
    monument = next(o["id"] for o in mine["options"])
    chosen = await client.post(f"/api/games/{waiting['id']}/actions", json={"option": monument, "version": mine["version"]},
                               headers=ann)
    assert chosen.status_code == 200
    assert 0 not in chosen.json()["to_act"] and 1 in chosen.json()["to_act"]
    your_turn = await create(client, ["Ann", "Cy"])
    tokens = [finished["seats"][0]["token"], waiting["seats"][0]["token"], your_turn["seats"][0]["token"]]
    entries = await my_games(client, tokens)
    assert [e["id"] for e in entries] == [your_turn["id"], waiting["id"], finished["id"]]
    assert [e["your_turn"] for e in entries] == [True, False, False]
    assert entries[1]["to_act"] == [1] and not entries[1]["waiting_on_open"]
    assert entries[2]["status"] == "finished" and entries[2]["to_act"] == [] and entries[2]["winners"] == ["Ann"]


async def test_a_replaced_link_drops_out_of_the_list(client):
    game = await create(client, ["Ann", "Bob"])
    old = game["seats"][1]["token"]
    replaced = await client.post(f"/api/games/{game['id']}/host/seats/1/new-link", headers=bearer(game["host_token"]))
    new = replaced.json()["token"]
    entries = await my_games(client, [old, new])
    assert [e["token"] for e in entries] == [new]


async def test_the_list_size_is_capped_with_a_readable_refusal(client):
    game = await create(client, ["Ann", "Bob"])
    too_many = await client.post("/api/my-games", json={"tokens": [game["seats"][0]["token"]] * 101})
    assert too_many.status_code == 422
    assert too_many.json()["detail"] == "Ask about at most 100 links at once (you sent 101)."
    assert len(await my_games(client, [game["seats"][0]["token"]] * 100)) == 1
    not_a_list = await client.post("/api/my-games", json={"tokens": "abc"})
    assert not_a_list.status_code == 422 and "tokens" in not_a_list.json()["detail"]
    not_text = await client.post("/api/my-games", json={"tokens": [1, 2]})
    assert not_text.status_code == 422 and "tokens" in not_text.json()["detail"]
    missing = await client.post("/api/my-games", json={})
    assert missing.status_code == 422 and missing.json()["detail"] == "'tokens' is required."
