"""The host page, its forms (each answers with a redirect) and the invite page."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from app.store.models import Game

from .support import SAME_SITE, create, table_of


async def create_by_form(client, **fields):
    form = {"seats": "3", "name0": "Ann", "name1": "Bob", "name2": "", "buildings": "random", **fields}
    return await client.post("/new/tiny-towns", data=form, headers=SAME_SITE)


async def count_games(client) -> int:
    async with table_of(client).db.read() as session:
        return (await session.execute(select(func.count()).select_from(Game))).scalar_one()


async def test_creating_by_form_redirects_to_the_host_page_and_reloading_creates_nothing(client):
    created = await create_by_form(client, monuments="on")  # everyone starts by keeping a monument
    assert created.status_code == 303
    host_path = created.headers["location"]
    assert re.fullmatch(r"/g/[a-z0-9]+/host/[A-Za-z0-9_-]{32}", host_path)
    first = await client.get(host_path)
    again = await client.get(host_path)
    assert first.status_code == again.status_code == 200
    assert await count_games(client) == 1
    assert first.headers["cache-control"] == "no-store"
    links = re.findall(r'value="(http://testserver/g/[a-z0-9]+/seat/[^"]+)"', first.text)
    # three seats, and the open seat's invite link once more above them (play waits for it)
    assert len(set(links)) == 3 and len(links) == 4
    assert re.findall(r'value="(http://testserver/g/[a-z0-9]+/seat/[^"]+)"', again.text) == links
    assert "waiting for a player" in first.text and "Open seat" not in first.text
    assert 'href="/rules/tiny-towns"' in first.text


async def test_host_forms_replace_rename_and_reopen_then_redirect(client):
    host_path = (await create_by_form(client)).headers["location"]
    page = await client.get(host_path)
    bob_link = re.findall(r'value="http://testserver(/g/[a-z0-9]+/seat/[^"]+)"', page.text)[1]

    replaced = await client.post(f"{host_path}/seat/1/new-link", headers=SAME_SITE)
    assert replaced.status_code == 303 and replaced.headers["location"].startswith(host_path + "?done=link&seat=1")
    shown = await client.get(replaced.headers["location"])
    assert "Seat 2 has a new link; the old one no longer opens anything." in shown.text
    assert bob_link not in shown.text
    assert (await client.get(bob_link)).status_code == 403

    renamed = await client.post(f"{host_path}/seat/1/name", data={"name": "Robert"}, headers=SAME_SITE)
    assert renamed.status_code == 303
    assert "Robert" in (await client.get(host_path)).text

    reopened = await client.post(f"{host_path}/seat/1/reopen", headers=SAME_SITE)
    assert reopened.status_code == 303
    page = await client.get(reopened.headers["location"])
    assert "Seat 2 is open again" in page.text


async def test_host_form_refusals_show_the_page_again(client):
    host_path = (await create_by_form(client)).headers["location"]
    blank = await client.post(f"{host_path}/seat/0/name", data={"name": " "}, headers=SAME_SITE)
    assert blank.status_code == 422 and 'role="alert"' in blank.text and "Type a name for seat 1" in blank.text
    open_again = await client.post(f"{host_path}/seat/2/reopen", headers=SAME_SITE)
    assert open_again.status_code == 422 and "Seat 3 is already open." in open_again.text
    cross_site = await client.post(f"{host_path}/seat/0/new-link", headers={"Origin": "http://evil.example"})
    assert cross_site.status_code == 403 and "another site" in cross_site.text
    wrong = await client.get(host_path[:-4] + "abcd")
    assert wrong.status_code == 403 and "This is not the host link of game" in wrong.text
    no_seat = await client.post(f"{host_path}/seat/9/reopen", headers=SAME_SITE)
    assert no_seat.status_code == 404 and "no seat 10" in no_seat.text


async def test_the_invite_page_names_game_title_host_seated_players_and_rules(client):
    game = await create(client, ["Ann", "Bob", None])
    invite = await client.get(f"/g/{game['id']}/seat/{game['seats'][2]['token']}")
    assert invite.status_code == 200
    text = invite.text
    assert "Ann invites you to play Tiny Towns" in text
    assert f"game {game['id']}" in text
    assert '<dd class="seated">Ann, Bob</dd>' in text
    assert 'href="/rules/tiny-towns"' in text
    assert "Seat 3 is waiting for a player" in text and "Type your name" in text
    nameless = await create(client, [None, None])
    invite = await client.get(f"/g/{nameless['id']}/seat/{nameless['seats'][0]['token']}")
    assert "You are invited to play Tiny Towns" in invite.text and "nobody yet" in invite.text
