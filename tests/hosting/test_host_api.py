"""The host link over the API: every seat's link again, replace, rename, re-open, last seen.
Every test runs on SQLite and on PostgreSQL (the ``client`` fixture)."""

from __future__ import annotations

from sqlalchemy import text

from .support import SAME_SITE, bearer, create, hosted, table_of


async def test_the_host_link_shows_every_seat_link_again(client):
    game = await create(client, ["Ann", None, "Cy"])
    assert game["host_url"].endswith(f"/g/{game['id']}/host/{game['host_token']}")
    host = await hosted(client, game)
    assert [s["token"] for s in host["seats"]] == [s["token"] for s in game["seats"]]
    assert [s["url"] for s in host["seats"]] == [s["url"] for s in game["seats"]]
    assert [s["name"] for s in host["seats"]] == ["Ann", None, "Cy"]
    assert [s["open"] for s in host["seats"]] == [False, True, False]
    assert host["host_name"] == "Ann" and host["title_name"] == "Tiny Towns"
    assert host["spectator_url"].endswith(f"/g/{game['id']}")


async def test_secrets_are_stored_only_as_hashes(client):
    game = await create(client, ["Ann", None])
    secrets = [game["host_token"], *(s["token"] for s in game["seats"])]
    async with table_of(client).db.read() as session:
        rows = [str(row) for table in ("games", "seats", "table_log", "actions")
                for row in (await session.execute(text(f"SELECT * FROM {table}"))).all()]
    assert rows and not any(secret in row for secret in secrets for row in rows)


async def test_the_host_page_needs_the_host_secret(client):
    game = await create(client, ["Ann", "Bob"])
    other = await create(client, ["Cy", "Di"])
    url = f"/api/games/{game['id']}/host"
    missing = await client.get(url)
    assert missing.status_code == 401 and "host token" in missing.json()["detail"]
    seat = await client.get(url, headers=bearer(game["seats"][0]["token"]))
    assert seat.status_code == 403 and "host link does not belong" in seat.json()["detail"]
    foreign = await client.get(url, headers=bearer(other["host_token"]))
    assert foreign.status_code == 403
    nowhere = await client.get("/api/games/nosuchgame/host", headers=bearer(game["host_token"]))
    assert nowhere.status_code == 404 and "no game" in nowhere.json()["detail"]
    # A host secret opens no seat.
    as_seat = await client.get(f"/api/games/{game['id']}", headers=bearer(game["host_token"]))
    assert as_seat.status_code == 403


async def test_a_replaced_link_stops_at_once_and_the_new_one_plays(client):
    game = await create(client, ["Ann", "Bob"])
    old = game["seats"][1]["token"]
    view_url = f"/api/games/{game['id']}"
    assert (await client.get(view_url, headers=bearer(old))).status_code == 200  # now remembered in memory
    replaced = await client.post(f"/api/games/{game['id']}/host/seats/1/new-link", headers=bearer(game["host_token"]))
    assert replaced.status_code == 200
    new = replaced.json()["token"]
    assert new != old and replaced.json()["url"].endswith(f"/seat/{new}")
    refused = await client.get(view_url, headers=bearer(old))
    assert refused.status_code == 403 and "does not belong" in refused.json()["detail"]
    acting = await client.post(f"{view_url}/actions", json={"option": "x", "version": 0}, headers=bearer(old))
    assert acting.status_code == 403
    mine = (await client.get(view_url, headers=bearer(new))).json()
    assert mine["seat"] == 1 and mine["seats"][1]["name"] == "Bob"
    assert "The host gave seat 2 a new link" in mine["log"]
    host = await hosted(client, game)
    assert host["seats"][1]["token"] == new and host["seats"][0]["token"] == game["seats"][0]["token"]
    # Replaced twice: the first new link stops as well.
    again = await client.post(f"/api/games/{game['id']}/host/seats/1/new-link", headers=bearer(game["host_token"]))
    assert (await client.get(view_url, headers=bearer(new))).status_code == 403
    assert (await client.get(view_url, headers=bearer(again.json()["token"]))).status_code == 200


async def test_rename_a_seat_and_name_an_open_one(client):
    game = await create(client, ["Ann", None])
    host_auth = bearer(game["host_token"])
    renamed = await client.put(f"/api/games/{game['id']}/host/seats/0/name", json={"name": "  Annie  "}, headers=host_auth)
    assert renamed.status_code == 200 and renamed.json()["seats"][0]["name"] == "Annie"
    seated = await client.put(f"/api/games/{game['id']}/host/seats/1/name", json={"name": "Bob"}, headers=host_auth)
    seat = seated.json()["seats"][1]
    assert seat["name"] == "Bob" and not seat["open"] and seat["claimed_at"] is not None
    view = (await client.get(f"/api/games/{game['id']}")).json()
    assert [s["name"] for s in view["seats"]] == ["Annie", "Bob"]
    assert "The host renamed Ann (seat 1) to Annie" in view["log"]
    assert "The host seated Bob at seat 2" in view["log"]
    # Bob's link now plays at once: no invite page.
    page = await client.get(f"/g/{game['id']}/seat/{game['seats'][1]['token']}")
    assert "You are <strong>Bob</strong>" in page.text


async def test_reopen_a_seat_turns_its_link_into_an_invite(client):
    game = await create(client, ["Ann", "Bob"])
    host_auth = bearer(game["host_token"])
    reopened = await client.post(f"/api/games/{game['id']}/host/seats/1/reopen", headers=host_auth)
    assert reopened.status_code == 200
    assert reopened.json()["seats"][1]["open"] and reopened.json()["seats"][1]["name"] is None
    view = (await client.get(f"/api/games/{game['id']}")).json()
    assert view["seats"][1] == {"seat": 1, "name": "Seat 2 (waiting for a player)", "open": True}
    assert "The host re-opened seat 2 (Bob left)" in view["log"]
    invite = await client.get(f"/g/{game['id']}/seat/{game['seats'][1]['token']}")
    assert "Type your name" in invite.text
    twice = await client.post(f"/api/games/{game['id']}/host/seats/1/reopen", headers=host_auth)
    assert twice.status_code == 422 and twice.json()["detail"] == "Seat 2 is already open."


async def test_refusals_are_readable_and_change_nothing(client):
    game = await create(client, ["Ann", "Bob"])
    host_auth = bearer(game["host_token"])
    base = f"/api/games/{game['id']}/host/seats"
    before = await hosted(client, game)
    blank = await client.put(f"{base}/0/name", json={"name": "   "}, headers=host_auth)
    assert blank.status_code == 422 and "Type a name for seat 1" in blank.json()["detail"]
    long = await client.put(f"{base}/0/name", json={"name": "x" * 41}, headers=host_auth)
    assert long.status_code == 422 and "at most 40 characters" in long.json()["detail"]
    no_seat = await client.post(f"{base}/5/new-link", headers=host_auth)
    assert no_seat.status_code == 404 and no_seat.json()["detail"] == "This game has no seat 6."
    negative = await client.post(f"{base}/-1/reopen", headers=host_auth)
    assert negative.status_code == 422 and "seat" in negative.json()["detail"]
    not_json = await client.put(f"{base}/0/name", content=b"{", headers={**host_auth, "Content-Type": "application/json"})
    assert not_json.status_code == 422 and "not valid JSON" in not_json.json()["detail"]
    wrong_host = await client.post(f"{base}/0/new-link", headers=bearer(game["seats"][0]["token"]))
    assert wrong_host.status_code == 403
    after = await hosted(client, game)
    assert before["seats"] == after["seats"]
    view = (await client.get(f"/api/games/{game['id']}")).json()
    assert not any("host" in line for line in view["log"])


async def test_a_claim_is_logged_and_timed(client):
    game = await create(client, ["Ann", None, None])
    link = f"/g/{game['id']}/seat/{game['seats'][2]['token']}"
    claimed = await client.post(link + "/claim", data={"name": "Zoë"}, headers=SAME_SITE)
    assert claimed.status_code == 303
    view = (await client.get(f"/api/games/{game['id']}")).json()
    assert view["log"][-1] == "Zoë takes seat 3"
    host = await hosted(client, game)
    assert host["seats"][2]["claimed_at"] is not None and host["seats"][1]["claimed_at"] is None
    # The claim line stays where it was written as the game goes on.
    ann = bearer(game["seats"][0]["token"])
    mine = (await client.get(f"/api/games/{game['id']}", headers=ann)).json()
    option = mine["options"][0]["id"]
    acted = (await client.post(f"/api/games/{game['id']}/actions", json={"option": option, "version": mine["version"]},
                               headers=ann))
    assert acted.status_code == 200, acted.text
    log = acted.json()["log"]
    assert log.count("Zoë takes seat 3") == 1


async def test_the_host_sees_when_each_seat_last_looked(client):
    game = await create(client, ["Ann", "Bob"])
    host = await hosted(client, game)
    assert [s["seen_at"] for s in host["seats"]] == [None, None]
    await client.get(f"/g/{game['id']}/seat/{game['seats'][1]['token']}")
    await client.get(f"/g/{game['id']}")  # a spectator is nobody's seat
    host = await hosted(client, game)
    assert host["seats"][0]["seen_at"] is None and host["seats"][1]["seen_at"] is not None
    assert host["seats"][1]["seen_at"].endswith(("+00:00", "Z"))


async def test_when_play_waits_for_an_open_seat_every_page_says_so(client):
    game = await create(client, ["Ann", None])
    host = await hosted(client, game)
    assert host["waiting_on_open"] == [1]  # choosing monuments: everyone acts, seat 2 too
    waits = "Play waits for a player to take seat 2"
    ann = await client.get(f"/g/{game['id']}/seat/{game['seats'][0]['token']}")
    spectator = await client.get(f"/g/{game['id']}")
    host_page = await client.get(f"/g/{game['id']}/host/{game['host_token']}")
    for page in (ann, spectator):
        assert waits in page.text and "Open seat" not in page.text
    assert "Play is waiting for a player to take seat 2" in host_page.text
    assert f'class="invite-callout" data-seat="1"' in host_page.text
    assert game["seats"][1]["url"] in host_page.text
    view = (await client.get(f"/api/games/{game['id']}")).json()
    assert view["seats"][1]["name"] == "Seat 2 (waiting for a player)"
