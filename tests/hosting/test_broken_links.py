"""A link that opens nothing says which kind of broken it is and what to do, on SQLite and
PostgreSQL: cut short, extra characters, replaced, spent, unknown game, finished game."""

from __future__ import annotations

from .support import SAME_SITE, bearer, create, play_to_the_end, table_of


def path(url: str) -> str:
    return url.removeprefix("http://testserver")


async def test_a_cut_or_extended_link_says_so(client):
    game = await create(client, ["Ann", "Bob"])
    link = path(game["seats"][1]["url"])
    cut = await client.get(link[:-5])
    assert cut.status_code == 403 and "This link is cut short" in cut.text
    assert "Copy the whole link again" in cut.text and "Tiny Towns · game " + game["id"] in cut.text
    extended = await client.get(link + ").")
    assert extended.status_code == 403 and "This link has extra characters" in extended.text
    assert "Refused" not in cut.text + extended.text
    assert cut.headers["cache-control"] == "no-store"


async def test_a_replaced_link_says_the_host_gave_a_new_one(client):
    game = await create(client, ["Ann", "Bob"])
    old = path(game["seats"][1]["url"])
    await client.post(f"/api/games/{game['id']}/host/seats/1/new-link", headers=bearer(game["host_token"]))
    page = await client.get(old)
    assert page.status_code == 403 and "Seat 2 has a new link" in page.text
    assert "The host gave this seat a new link — ask Ann for it." in page.text
    assert f'href="/g/{game["id"]}"' in page.text  # watching is still possible


async def test_an_unknown_key_and_an_unknown_game_are_told_apart(client):
    game = await create(client, ["Ann", "Bob"])
    unknown = await client.get(f"/g/{game['id']}/seat/{'A' * 32}")
    assert unknown.status_code == 403 and "key is not one of its seats" in unknown.text
    nowhere = await client.get(f"/g/nosuchgame/seat/{game['seats'][0]['token']}")
    assert nowhere.status_code == 404 and "No such game here" in nowhere.text and "nosuchgame" in nowhere.text
    host = await client.get(f"/g/nosuchgame/host/{game['host_token']}")
    assert host.status_code == 404 and "No such game here" in host.text
    wrong_host = await client.get(f"/g/{game['id']}/host/{game['seats'][0]['token']}")
    assert wrong_host.status_code == 403 and "Not this game&#39;s host link" in wrong_host.text
    cut_host = await client.get(f"/g/{game['id']}/host/{game['host_token'][:20]}")
    assert "This link is cut short" in cut_host.text and "host link" in cut_host.text


async def test_a_finished_game_says_so_and_takes_no_one(client):
    game = await create(client, ["Ann", "Bob", None])
    table = table_of(client)
    await table.hosting.rename(game["id"], game["host_token"], 2, "Cy")  # bots play all three seats
    await table.hosting.reopen(game["id"], game["host_token"], 2)
    await table.hosting.rename(game["id"], game["host_token"], 2, "Cy")
    await play_to_the_end(table, game["id"])
    await table.hosting.reopen(game["id"], game["host_token"], 2)
    invite = path(game["seats"][2]["url"])
    page = await client.get(invite)
    assert "This game is over: there is no seat to take any more." in page.text and "See how it ended" in page.text
    assert "/claim" not in page.text
    refused = await client.post(invite + "/claim", data={"name": "Dee"}, headers=SAME_SITE)
    assert refused.status_code == 422 and "This game is over" in refused.text
    stale = await client.get(f"/g/{game['id']}/seat/{'B' * 32}")
    assert "this game is over" in stale.text and "See how it ended" in stale.text


async def test_a_working_link_used_for_what_it_does_not_do_says_so(client):
    game = await create(client, ["Ann", None])
    ann = path(game["seats"][0]["url"])
    claim = await client.post(ann + "/claim", data={"name": "Zed"}, headers=SAME_SITE)
    assert claim.status_code == 403 and "This link opens seat 1 (Ann)" in claim.text
    opened = await client.post(ann + "/open", headers=SAME_SITE)
    assert opened.status_code == 403 and "This link opens seat 1 (Ann)" in opened.text
    assert (await client.get(ann)).status_code == 200  # and it still plays
