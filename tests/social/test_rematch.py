"""Play again: one new game however often or by however many it is asked for, with the same
title, options and seats and a new secret; each seat reaches its own new seat only through
its own old link. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import re

import sqlalchemy as sa

from app.store.models import Game, Seat

from ..hosting.support import SAME_SITE, bearer, create, play_to_the_end, table_of


async def finished(client, players, **extra):
    game = await create(client, players, options={"monuments": False}, **extra)
    conceded = await client.post(f"/api/games/{game['id']}/concede", headers=bearer(game["seats"][0]["token"]))
    assert conceded.status_code == 204
    return game


async def stored(client, game_id):
    table = table_of(client)
    async with table.db.read() as session:
        game = (await session.execute(sa.select(Game).where(Game.id == game_id))).scalar_one()
        seats = (await session.execute(sa.select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat))).scalars().all()
    return game, seats


async def count_games(client) -> int:
    async with table_of(client).db.read() as session:
        return (await session.execute(sa.select(sa.func.count()).select_from(Game))).scalar_one()


async def test_a_rematch_keeps_title_options_and_seats_with_a_new_secret(client):
    game = await finished(client, ["Ann", {"bot": "strong"}, "Cy"], chat_policy="hidden")
    made = await client.post(f"/api/games/{game['id']}/rematch", headers=bearer(game["seats"][2]["token"]))
    assert made.status_code == 200, made.text
    again = made.json()
    assert again["seat"] == 2 and again["url"].endswith(f"/g/{again['id']}/seat/{again['token']}")
    old, old_seats = await stored(client, game["id"])
    new, new_seats = await stored(client, again["id"])
    assert old.rematch_id == new.id
    assert (new.title, new.options, new.players, new.status, new.version, new.chat_policy) == (
        old.title, old.options, 3, "active", 0, "hidden")
    assert [(s.name, s.bot, s.bot_level) for s in new_seats] == [(s.name, s.bot, s.bot_level) for s in old_seats]
    assert new.secret and new.secret != old.secret and new.seed is None and not new.seed_given
    # Cy's new link opens Cy's new seat, and plays.
    view = (await client.get(f"/api/games/{new.id}", headers=bearer(again["token"]))).json()
    assert view["seat"] == 2 and view["status"] == "active" and view["result"] is None


async def test_each_old_page_links_to_its_own_new_seat_and_no_other(client):
    game = await finished(client, ["Ann", "Bob", "Cy"])
    ann, bob, cy = (s["token"] for s in game["seats"])
    before = (await client.get(f"/g/{game['id']}/seat/{bob}")).text
    assert "Play again" in before and "Your seat in the new game" not in before
    pressed = await client.post(f"/g/{game['id']}/seat/{ann}/rematch", headers=SAME_SITE)
    assert pressed.status_code == 303
    ann_new = pressed.headers["location"]
    links = {}
    for name, token in (("Ann", ann), ("Bob", bob), ("Cy", cy)):
        page = (await client.get(f"/g/{game['id']}/seat/{token}")).text
        found = re.findall(r'href="(/g/[a-z0-9]+/seat/[^"]+)">Your seat in the new game', page)
        assert len(found) == 1, name
        links[name] = found[0]
        assert "Play again</button>" not in page
    assert links["Ann"] == ann_new
    assert len(set(links.values())) == 3
    for seat, name in enumerate(("Ann", "Bob", "Cy")):
        token = links[name].rsplit("/", 1)[1]
        assert token not in {ann, bob, cy}
        view = (await client.get(f"/api/games/{links[name].split('/')[2]}", headers=bearer(token))).json()
        assert view["seat"] == seat
        # Another seat's old link never shows this one (each page showed only its own, above),
        # and neither does a spectator's page nor the new game's host page.
        assert token not in (await client.get(f"/g/{game['id']}")).text
    spectator = (await client.get(f"/g/{game['id']}")).text
    assert "Watch the new game" in spectator
    host = (await client.get(f"/g/{game['id']}/host/{game['host_token']}")).text
    new_host = re.findall(r'href="(/g/[a-z0-9]+/host/[^"]+)">Host page of the new game', host)
    assert len(new_host) == 1
    host_page = (await client.get(new_host[0])).text
    assert all(links[n].rsplit("/", 1)[1] not in host_page for n in links)
    # The same page asked again gives the same link.
    assert links["Bob"] in (await client.get(f"/g/{game['id']}/seat/{bob}")).text


async def test_pressing_twice_or_together_makes_one_rematch(client):
    game = await finished(client, ["Ann", "Bob"])
    ann, bob = (s["token"] for s in game["seats"])
    games = await count_games(client)
    answers = await asyncio.gather(
        client.post(f"/api/games/{game['id']}/rematch", headers=bearer(ann)),
        client.post(f"/api/games/{game['id']}/rematch", headers=bearer(bob)),
        client.post(f"/api/games/{game['id']}/rematch", headers=bearer(ann)),
        client.post(f"/api/games/{game['id']}/rematch", headers=bearer(game["host_token"])),
    )
    assert [a.status_code for a in answers] == [200] * 4
    assert len({a.json()["id"] for a in answers}) == 1
    assert await count_games(client) == games + 1
    assert answers[0].json()["token"] == answers[2].json()["token"]  # Ann's own link, both times
    assert answers[0].json()["token"] != answers[1].json()["token"]
    assert answers[3].json()["seat"] is None and "/host/" in answers[3].json()["url"]


async def test_open_seats_stay_open_with_an_invite_from_the_new_host_page(client):
    game = await create(client, ["Ann", None], options={"monuments": False})
    await client.post(f"/api/games/{game['id']}/abandon", headers=bearer(game["host_token"]))
    made = await client.post(f"/g/{game['id']}/host/{game['host_token']}/rematch", headers=SAME_SITE)
    assert made.status_code == 303 and "/host/" in made.headers["location"]
    new_host = made.headers["location"].rsplit("/", 1)[1]
    new_id = made.headers["location"].split("/")[2]
    hosted = (await client.get(f"/api/games/{new_id}/host", headers=bearer(new_host))).json()
    assert [(s["name"], s["open"], s["token"] is not None) for s in hosted["seats"]] == [
        ("Ann", False, False), (None, True, True)]
    claim = await client.post(f"/g/{new_id}/seat/{hosted['seats'][1]['token']}/claim", data={"name": "Dee"},
                              headers=SAME_SITE)
    assert claim.status_code == 303


async def test_who_may_play_again_and_when(client):
    game = await create(client, ["Ann", "Bob"])
    ann = game["seats"][0]["token"]
    early = await client.post(f"/api/games/{game['id']}/rematch", headers=bearer(ann))
    assert early.status_code == 422 and "not over yet" in early.json()["detail"]
    await client.post(f"/api/games/{game['id']}/concede", headers=bearer(ann))
    assert (await client.post(f"/api/games/{game['id']}/rematch")).status_code == 401
    stranger = await client.post(f"/api/games/{game['id']}/rematch", headers=bearer("y" * 32))
    assert stranger.status_code == 403


async def test_a_game_its_rules_ended_can_be_played_again(client):
    game = await create(client, ["Ann", "Bob"], options={"monuments": False, "buildings": "first_game"})
    await play_to_the_end(table_of(client), game["id"])
    page = (await client.get(f"/g/{game['id']}/seat/{game['seats'][1]['token']}")).text
    assert "Final scores" in page and "Play again" in page
    made = await client.post(f"/api/games/{game['id']}/rematch", headers=bearer(game["seats"][1]["token"]))
    assert made.status_code == 200 and made.json()["seat"] == 1
