"""A claimed invite is spent; two seats never share a name; a "host who plays" game hides
opened seats from the host link. Every test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import re

from sqlalchemy import text

from .support import SAME_SITE, bearer, create, hosted, table_of


async def claim_by_page(client, url: str, name: str):
    return await client.post(url + "/claim", data={"name": name}, headers=SAME_SITE)


async def test_a_claimed_invite_is_spent_and_the_claimer_gets_a_private_link(client):
    game = await create(client, ["Ann", None])
    invite = game["seats"][1]["url"].removeprefix("http://testserver")
    claimed = await claim_by_page(client, invite, "Cy")
    assert claimed.status_code == 303
    yours = claimed.headers["location"]
    assert re.fullmatch(rf"/g/{game['id']}/seat/[A-Za-z0-9_-]{{32}}/yours", yours)
    private = yours.removesuffix("/yours")
    assert private != invite
    # The page to bookmark shows the private link, and keeps it in "Your games".
    page = await client.get(yours)
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert f'value="http://testserver{private}"' in page.text and "Bookmark it" in page.text
    assert f'data-url="{private}"' in page.text and "/static/mygames.js" in page.text
    assert "data:image/svg+xml" in page.text  # a QR code to carry it to a phone
    # The private link plays the seat; the invite shows who took it and controls nothing.
    assert "You are <strong>Cy</strong>" in (await client.get(private)).text
    spent = await client.get(invite)
    assert spent.status_code == 403 and "Seat 2 is taken" in spent.text and "Cy took seat 2" in spent.text
    assert 'action="' not in spent.text  # no form: nothing to take or change
    token = invite.rsplit("/", 1)[1]
    api = await client.get(f"/api/games/{game['id']}", headers=bearer(token))
    assert api.status_code == 403
    acted = await client.post(f"/api/games/{game['id']}/actions", json={"option": "x", "version": 0}, headers=bearer(token))
    assert acted.status_code == 403
    again = await claim_by_page(client, invite, "Mallory")
    assert again.status_code == 403 and "Cy took seat 2" in again.text
    # The host page cannot show Cy's private link.
    host = await hosted(client, game)
    assert host["seats"][1]["name"] == "Cy" and host["seats"][1]["token"] is None and host["seats"][1]["url"] is None
    host_page = await client.get(game["host_url"].removeprefix("http://testserver"))
    assert private not in host_page.text and "Cy has a private link of their own" in host_page.text
    assert "Cy left: their private link stops, and the seat's invite link opens again." in host_page.text
    assert "Ann left: the link becomes an invite again (give it a new link too" in host_page.text


async def test_the_private_link_is_not_derived_from_the_host_secret(client):
    """A copy of the host link cannot work a claimed seat's link out: it is random, and no
    table stores it."""
    from app.table.tokens import derived_token

    game = await create(client, [None, None])
    token = game["seats"][0]["token"]
    private = (await table_of(client).claim_seat(game["id"], token, "Ann"))
    assert private not in {derived_token(game["host_token"], game["id"], 0, g) for g in range(5)}
    async with table_of(client).db.read() as session:
        rows = [str(r) for t in ("games", "seats", "spent_links", "table_log")
                for r in (await session.execute(text(f"SELECT * FROM {t}"))).all()]
    assert rows and not any(private in row or token in row for row in rows)


async def test_replace_and_reopen_still_work_after_a_claim(client):
    game = await create(client, ["Ann", None])
    host_auth = bearer(game["host_token"])
    invite = game["seats"][1]["token"]
    private = await table_of(client).claim_seat(game["id"], invite, "Cy")
    # Cy lost the link: a new one (from the host link) replaces it; the private one stops and says so.
    new = (await client.post(f"/api/games/{game['id']}/host/seats/1/new-link", headers=host_auth)).json()
    assert (await client.get(f"/api/games/{game['id']}", headers=bearer(new["token"]))).json()["seat"] == 1
    assert (await client.get(f"/api/games/{game['id']}", headers=bearer(private))).status_code == 403
    stopped = await client.get(f"/g/{game['id']}/seat/{private}")
    assert "The host gave this seat a new link — ask Ann for it" in stopped.text
    # Cy leaves: re-opening turns the link the host page shows into an invite again.
    reopened = await client.post(f"/api/games/{game['id']}/host/seats/1/reopen", headers=host_auth)
    assert reopened.status_code == 200 and reopened.json()["seats"][1]["open"]
    invite_page = await client.get(f"/g/{game['id']}/seat/{new['token']}")
    assert invite_page.status_code == 200 and "Type your name" in invite_page.text
    dee = await table_of(client).claim_seat(game["id"], new["token"], "Dee")
    assert (await client.get(f"/api/games/{game['id']}", headers=bearer(dee))).json()["seats"][1]["name"] == "Dee"
    # A private link lost to a re-opened seat explains that too.
    await client.post(f"/api/games/{game['id']}/host/seats/1/reopen", headers=host_auth)
    gone = await client.get(f"/g/{game['id']}/seat/{dee}")
    assert gone.status_code == 403 and "The host re-opened seat 2" in gone.text


async def test_two_seats_may_not_share_a_name_at_creation(client):
    for players in (["Ann", "ann"], ["Ann Lee", " ann  lee "], ["Ann Lee", "AnnLee"], ["Bo", None, "BO"]):
        refused = await client.post("/api/games", json={"title": "tiny-towns", "players": players})
        assert refused.status_code == 422, players
        assert "both called" in refused.json()["detail"] and "tell apart" in refused.json()["detail"]
    form = {"seats": "2", "name0": "Ann", "name1": "ANN", "buildings": "random"}
    page = await client.post("/new/tiny-towns", data=form, headers=SAME_SITE)
    assert page.status_code == 422 and "Seats 1 and 2 are both called" in page.text
    async with table_of(client).db.read() as session:
        assert (await session.execute(text("SELECT count(*) FROM games"))).scalar_one() == 0


async def test_a_claim_or_rename_may_not_take_another_seats_name(client):
    game = await create(client, ["Ann", "Bob", None])
    invite = game["seats"][2]["url"].removeprefix("http://testserver")
    refused = await claim_by_page(client, invite, "  BOB ")
    assert refused.status_code == 422 and "too close to Bob" in refused.text
    assert 'value="  BOB "' in refused.text and "Type your name" in refused.text  # still the invite, name kept to edit
    renamed = await client.put(f"/api/games/{game['id']}/host/seats/0/name", json={"name": "bob"},
                               headers=bearer(game["host_token"]))
    assert renamed.status_code == 422 and "too close to Bob" in renamed.json()["detail"]
    same_seat = await client.put(f"/api/games/{game['id']}/host/seats/1/name", json={"name": "BOB"},
                                 headers=bearer(game["host_token"]))
    assert same_seat.status_code == 200 and same_seat.json()["seats"][1]["name"] == "BOB"  # its own name, re-cased
    host = await hosted(client, game)
    assert [s["name"] for s in host["seats"]] == ["Ann", "BOB", None]
    view = (await client.get(f"/api/games/{game['id']}")).json()
    assert not any("takes seat" in line for line in view["log"])


async def test_the_database_refuses_a_shared_name_even_when_two_claims_race(client):
    """The unique (game, name_key) is what holds when two claims pass the check at once."""
    from sqlalchemy.exc import IntegrityError

    game = await create(client, ["Ann", None])
    table = table_of(client)
    try:
        async with table.db.write() as session:
            await session.execute(text("UPDATE seats SET name = 'ANN', name_key = 'ann' WHERE seat = 1 AND game_id = :g"),
                                  {"g": game["id"]})
    except IntegrityError:
        pass
    else:
        raise AssertionError("two seats of one game stored one name")


async def test_host_who_plays_sees_each_link_only_until_it_is_opened(client):
    created = await client.post("/api/games", json={"title": "tiny-towns", "players": ["Ann", "Bob", None],
                                                    "seed": 3, "host_plays": True})
    game = created.json()
    bob = game["seats"][1]["token"]
    # Until opened, Bob's link shows a page with one button; it opens nothing by itself.
    page = await client.get(f"/g/{game['id']}/seat/{bob}")
    assert page.status_code == 200 and "Open my seat (Bob)" in page.text and "private link" in page.text
    api = await client.get(f"/api/games/{game['id']}", headers=bearer(bob))
    assert api.status_code == 403 and "Open this link in a browser first" in api.json()["detail"]
    host = await hosted(client, game)
    assert host["host_plays"] and host["seats"][1]["token"] == bob and host["seats"][1]["must_open"]
    opened = await client.post(f"/g/{game['id']}/seat/{bob}/open", headers=SAME_SITE)
    assert opened.status_code == 303 and opened.headers["location"].endswith("/yours")
    private = opened.headers["location"].removesuffix("/yours").rsplit("/", 1)[1]
    mine = await client.get(f"/api/games/{game['id']}", headers=bearer(private))
    assert mine.status_code == 200 and mine.json()["seat"] == 1 and mine.json()["private"] is not None
    # The host link no longer shows (nor can work out) Bob's link; the old one says what happened.
    host = await hosted(client, game)
    assert host["seats"][1]["token"] is None and not host["seats"][1]["must_open"]
    host_page = await client.get(game["host_url"].removeprefix("http://testserver"))
    assert private not in host_page.text and bob not in host_page.text and "they opened the seat" in host_page.text
    spent = await client.get(f"/g/{game['id']}/seat/{bob}")
    assert spent.status_code == 403 and "Bob opened seat 2" in spent.text
    # A new link from the host must be opened again; the open seat is claimed as usual.
    new = (await client.post(f"/api/games/{game['id']}/host/seats/1/new-link", headers=bearer(game["host_token"]))).json()
    assert (await client.get(f"/api/games/{game['id']}", headers=bearer(new["token"]))).status_code == 403
    cy = await table_of(client).claim_seat(game["id"], game["seats"][2]["token"], "Cy")
    assert (await client.get(f"/api/games/{game['id']}", headers=bearer(cy))).json()["seat"] == 2


async def test_the_new_game_page_says_what_the_host_link_opens(client):
    page = await client.get("/new/tiny-towns")
    assert "whoever holds it can open every player's screen" in page.text
    assert 'name="host_plays"' in page.text
    form = {"seats": "2", "name0": "Ann", "name1": "Bob", "buildings": "random", "host_plays": "on"}
    made = await client.post("/new/tiny-towns", data=form, headers=SAME_SITE)
    host_page = await client.get(made.headers["location"])
    assert "You play too" in host_page.text
    plain = await client.post("/new/tiny-towns", data={**form, "host_plays": ""}, headers=SAME_SITE)
    assert "whoever holds it can open every seat's screen" in (await client.get(plain.headers["location"])).text
