"""Server-rendered pages: home, new game, links, claiming a seat, game page, errors."""

from __future__ import annotations

import re


async def test_home_lists_every_title_and_links_the_playable_one(client):
    page = await client.get("/")
    assert page.status_code == 200
    for name in ["Tiny Towns", "Keythedral", "Key Harvest", "Keyper", "Key Flow"]:
        assert name in page.text
    assert 'href="/new/tiny-towns"' in page.text
    assert 'href="/new/key-flow"' in page.text and 'href="/new/keyper"' in page.text


async def test_pages_send_security_headers(client):
    page = await client.get("/")
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["x-content-type-options"] == "nosniff"
    assert "script-src 'self'" in page.headers["content-security-policy"]


async def test_new_game_form_offers_every_option(client):
    page = await client.get("/new/tiny-towns")
    assert page.status_code == 200
    for key in ["monuments", "buildings", "cavern", "town_hall", "seats"]:
        assert f'name="{key}"' in page.text
    assert "(solo)" in page.text


async def create_by_form(client, **fields):
    form = {"seats": "2", "name0": "Ann", "name1": "", "monuments": "on", "buildings": "random", **fields}
    return await client.post("/new/tiny-towns", data=form, headers={"Origin": "http://testserver"})


async def host_page_by_form(client, **fields):
    """Creating answers with a redirect to the host page (post/redirect/get)."""
    created = await create_by_form(client, **fields)
    assert created.status_code == 303, created.text
    return await client.get(created.headers["location"])


async def test_creating_by_form_shows_one_private_link_per_seat_and_a_spectator_link(client):
    page = await host_page_by_form(client)
    assert page.status_code == 200
    links = set(re.findall(r'value="(http://testserver/g/[a-z0-9]+/seat/[^"]+)"', page.text))
    assert len(links) == 2
    assert re.search(r'value="http://testserver/g/[a-z0-9]+"', page.text)
    # two seats, the spectators, and the open seat's invite link again (play waits for it)
    assert page.text.count('class="button copy"') == 4
    assert "waiting for a player" in page.text and "Open seat" not in page.text


async def test_form_errors_are_shown_in_the_page(client):
    page = await create_by_form(client, seats="9")
    assert page.status_code == 422
    assert "1–6 players" in page.text
    page = await create_by_form(client, seats="1", town_hall="on")
    assert page.status_code == 422
    assert 'role="alert"' in page.text


async def test_cross_site_form_post_is_refused(client):
    page = await client.post("/new/tiny-towns", data={"seats": "2"}, headers={"Origin": "http://evil.example"})
    assert page.status_code == 403
    assert "another site" in page.text


async def test_open_seat_is_claimed_by_typing_a_name(client):
    page = await host_page_by_form(client)
    open_link = re.search(r'id="seat-1"[^>]*>[\s\S]*?value="http://testserver(/g/[a-z0-9]+/seat/[^"]+)"', page.text)[1]
    invite = await client.get(open_link)
    assert "Type your name" in invite.text
    empty = await client.post(open_link + "/claim", data={"name": "  "}, headers={"Origin": "http://testserver"})
    assert empty.status_code == 422 and "type a name" in empty.text
    claimed = await client.post(open_link + "/claim", data={"name": "Zoë"}, headers={"Origin": "http://testserver"})
    assert claimed.status_code == 303 and claimed.headers["location"].endswith("/yours")
    private = claimed.headers["location"].removesuffix("/yours")
    game_page = await client.get(private)
    assert "You are <strong>Zoë</strong>" in game_page.text
    spent = await client.get(open_link)  # the invite is spent: it says who took the seat
    assert spent.status_code == 403 and "Zoë took seat 2" in spent.text
    again = await client.post(open_link + "/claim", data={"name": "Mallory"}, headers={"Origin": "http://testserver"})
    assert again.status_code == 403


async def test_game_page_for_seat_and_spectator(client):
    created = (await client.post("/api/games", json={"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 1})).json()
    seat_page = await client.get(f"/g/{created['id']}/seat/{created['seats'][0]['token']}")
    assert seat_page.status_code == 200
    assert 'data-option="' in seat_page.text  # her choices are clickable
    assert seat_page.headers["cache-control"] == "no-store"
    watch = await client.get(f"/g/{created['id']}")
    assert watch.status_code == 200 and "Watching" in watch.text
    assert 'data-option="' not in watch.text


async def test_unknown_game_and_bad_seat_link_show_error_pages(client):
    missing = await client.get("/g/doesnotexist")
    assert missing.status_code == 404 and "no game" in missing.text
    created = (await client.post("/api/games", json={"title": "tiny-towns", "players": ["Ann", "Bob"]})).json()
    wrong = await client.get(f"/g/{created['id']}/seat/not-a-token")
    assert wrong.status_code == 403 and "This link is cut short" in wrong.text
    nowhere = await client.get("/no/such/page")
    assert nowhere.status_code == 404 and "<html" in nowhere.text


async def test_rules_page(client):
    page = await client.get("/rules/tiny-towns")
    assert page.status_code == 200 and "Master Builder" in page.text
    from app.games import LISTINGS  # titles still being built have no rules page yet
    for title_id in [listing.id for listing in LISTINGS if not listing.module] + ["no-such-title"]:
        assert (await client.get(f"/rules/{title_id}")).status_code == 404


async def test_openapi_docs_are_served(client):
    assert (await client.get("/docs")).status_code == 200
    schema = (await client.get("/openapi.json")).json()
    assert "/api/games/{game_id}/actions" in schema["paths"]
