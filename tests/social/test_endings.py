"""Conceding and abandoning: the result records it, nobody is asked anything any more, no
action is taken, the log says so; refusals are clear. On SQLite and PostgreSQL."""

from __future__ import annotations

from app.table.events import TableEvent
from app.table.service import Viewer

from ..hosting.support import SAME_SITE, bearer, create, table_of


async def view_of(client, game, token=None):
    response = await client.get(f"/api/games/{game['id']}", headers=bearer(token) if token else {})
    assert response.status_code == 200, response.text
    return response.json()


async def test_with_two_players_the_other_wins_when_one_concedes(client):
    table = table_of(client)
    heard: list[TableEvent] = []
    table.events.subscribe(heard.append)
    game = await create(client, ["Ann", "Bob"])
    ann, bob = (s["token"] for s in game["seats"])
    before = await view_of(client, game, bob)
    done = await client.post(f"/api/games/{game['id']}/concede", headers=bearer(bob))
    assert done.status_code == 204, done.text
    for token in (ann, bob, None):
        view = await view_of(client, game, token)
        assert view["status"] == "finished"
        assert view["result"] == {"scores": [], "winners": [0], "reason": "Bob conceded: Ann wins.",
                                  "ended": "conceded", "conceded": [1]}
        assert view["to_act"] == [] and view["options"] == []
        assert "Bob conceded." in view["log"]
    assert (await view_of(client, game, bob))["version"] == before["version"] + 1  # pages are sent the end
    assert [(e.kind, e.seat, e.finished) for e in heard if e.kind == "ended"] == [("ended", 1, True)]
    # Nothing more happens: no action, no second ending.
    master = before["to_act"][0]
    mine = await view_of(client, game, game["seats"][master]["token"])
    acted = await client.post(f"/api/games/{game['id']}/actions", headers=bearer(game["seats"][master]["token"]),
                              json={"option": before["options"][0]["id"] if before["options"] else "x",
                                    "version": mine["version"]})
    assert acted.status_code == 422
    again = await client.post(f"/api/games/{game['id']}/concede", headers=bearer(ann))
    assert again.status_code == 422 and again.json()["detail"] == "This game is already over."
    page = (await client.get(f"/g/{game['id']}/seat/{ann}")).text
    assert "Game over — Ann wins!" in page and "Bob conceded: Ann wins." in page
    assert "Concede the game" not in page
    assert await table.replay_matches_snapshot(game["id"])  # the rules' state is untouched


async def test_with_three_players_the_conceder_is_last_and_the_others_share_the_win(client):
    game = await create(client, ["Ann", "Bob", "Cy"])
    page = (await client.get(f"/g/{game['id']}/seat/{game['seats'][0]['token']}")).text
    assert "Concede the game" in page and "you are ranked last and the others share the win" in page
    done = await client.post(f"/g/{game['id']}/seat/{game['seats'][0]['token']}/concede", headers=SAME_SITE)
    assert done.status_code == 303
    view = await view_of(client, game)
    assert view["result"]["winners"] == [1, 2] and view["result"]["conceded"] == [0]
    assert view["result"]["reason"] == ("Ann conceded and is ranked last; the game ended there, "
                                        "and Bob and Cy share the win.")
    page = (await client.get(f"/g/{game['id']}")).text
    assert "Game over — shared victory: Bob, Cy." in page


async def test_who_may_concede(client):
    game = await create(client, ["Ann", None])
    no_token = await client.post(f"/api/games/{game['id']}/concede")
    assert no_token.status_code == 401
    open_seat = await client.post(f"/api/games/{game['id']}/concede", headers=bearer(game["seats"][1]["token"]))
    assert open_seat.status_code == 403 and "Take this seat first" in open_seat.json()["detail"]
    host = await client.post(f"/api/games/{game['id']}/concede", headers=bearer(game["host_token"]))
    assert host.status_code == 403
    assert (await view_of(client, game))["status"] == "active"
    solo = await client.post("/api/games", json={"title": "tiny-towns", "players": ["Sol"], "seed": 3})
    refused = await client.post(f"/api/games/{solo.json()['id']}/concede",
                                headers=bearer(solo.json()["seats"][0]["token"]))
    assert refused.status_code == 422 and "solo game" in refused.json()["detail"]


async def test_the_host_ends_an_abandoned_game(client):
    game = await create(client, ["Ann", "Bob"])
    seat_token = game["seats"][0]["token"]
    refused = await client.post(f"/api/games/{game['id']}/abandon", headers=bearer(seat_token))
    assert refused.status_code == 403 and "Only the host link" in refused.json()["detail"]
    host_page = (await client.get(f"/g/{game['id']}/host/{game['host_token']}")).text
    assert "End as abandoned" in host_page and 'data-confirm="End this game as abandoned?' in host_page
    done = await client.post(f"/g/{game['id']}/host/{game['host_token']}/abandon", headers=SAME_SITE)
    assert done.status_code == 303
    view = await view_of(client, game, seat_token)
    assert view["result"]["ended"] == "abandoned" and view["result"]["winners"] == []
    assert view["status"] == "finished" and view["options"] == []
    assert "The host ended the game as abandoned." in view["log"]
    page = (await client.get(f"/g/{game['id']}/seat/{seat_token}")).text
    assert "Game over — the host ended it as abandoned." in page
    host_page = (await client.get(f"/g/{game['id']}/host/{game['host_token']}")).text
    assert "The host ended the game as abandoned: nobody wins." in host_page and "Play again" in host_page
    twice = await client.post(f"/api/games/{game['id']}/abandon", headers=bearer(game["host_token"]))
    assert twice.status_code == 422


async def test_an_ended_game_stays_ended_for_a_process_that_had_it_cached(client):
    """Another server process still holds the game, as it was, in its cache: the action it
    judges on that is refused by the conditional update (the game is no longer active),
    and judged again on the stored game it is refused as over."""
    table = table_of(client)
    game = await create(client, ["Ann", "Bob"])
    seat = (await table.view(Viewer(game["id"], None)))["to_act"][0]
    token = game["seats"][seat]["token"]
    before = await view_of(client, game, token)
    stale = table.cache.get(game["id"], 0)
    await client.post(f"/api/games/{game['id']}/abandon", headers=bearer(game["host_token"]))
    table.cache.put(stale)  # as if this process had not heard of the ending
    acted = await client.post(f"/api/games/{game['id']}/actions", headers=bearer(token),
                              json={"option": before["options"][0]["id"], "version": before["version"]})
    assert acted.status_code == 422 and acted.json()["detail"] == "This game is over: it was abandoned."
    assert await table.action_log(game["id"]) == []


async def test_a_conceded_game_exports_and_imports_as_conceded(client):
    game = await create(client, ["Ann", "Bob"])
    ann, bob = (s["token"] for s in game["seats"])
    assert (await client.post(f"/api/games/{game['id']}/concede", headers=bearer(bob))).status_code == 204
    exported = await client.get(f"/api/games/{game['id']}/export", headers=bearer(ann))
    assert exported.status_code == 200, exported.text
    document = exported.json()
    assert document["ending"]["kind"] == "conceded" and document["ending"]["seat"] == 1
    assert document["result"]["reason"] == "Bob conceded: Ann wins."
    imported = await client.post("/api/games/import", json=document)
    assert imported.status_code == 201, imported.text
    view = await view_of(client, imported.json())
    assert view["status"] == "finished" and view["result"] == document["result"] and view["to_act"] == []


async def test_an_abandoned_game_imports_as_abandoned_and_a_bad_ending_is_refused(client):
    game = await create(client, ["Ann", "Bob"])
    assert (await client.post(f"/api/games/{game['id']}/abandon", headers=bearer(game["host_token"]))).status_code == 204
    document = (await client.get(f"/api/games/{game['id']}/export", headers=bearer(game["host_token"]))).json()
    assert document["ending"]["kind"] == "abandoned"
    imported = await client.post("/api/games/import", json=document)
    assert imported.status_code == 201, imported.text
    assert (await view_of(client, imported.json()))["result"]["ended"] == "abandoned"
    for bad in ({"kind": "conceded", "seat": 5}, {"kind": "won"}, "abandoned"):
        refused = await client.post("/api/games/import", json={**document, "ending": bad, "result": None})
        assert refused.status_code == 422 and refused.json()["detail"].startswith('"ending" must be')
    changed = await client.post("/api/games/import", json={**document, "ending": {"kind": "conceded", "seat": 0}})
    assert changed.status_code == 422 and "result" in changed.text
