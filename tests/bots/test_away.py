"""Away mode: the host hands a seat to a bot and back; the player takes it back from their
own link; the log says each."""

from __future__ import annotations

from .conftest import auth
from .test_bot_seats import new_game

SAME_SITE = {"Origin": "http://testserver"}


async def log_lines(http, game_id: str) -> list[str]:
    view = (await http.get(f"/api/games/{game_id}")).json()
    return view["log"]


async def test_the_host_hands_a_seat_to_a_bot_and_the_player_takes_it_back(bots):
    game = await new_game(bots.http, "tiny-towns", ["Ann", "Bob"], options={"monuments": False})
    gid, host = game["id"], auth(game["host_token"])
    bob = auth(game["seats"][1]["token"])
    # Refusals: not the host, a level that does not exist, an open... each changes nothing.
    assert (await bots.http.put(f"/api/games/{gid}/host/seats/1/bot", json={"bot": "strong"}, headers=bob)).status_code == 403
    assert (await bots.http.put(f"/api/games/{gid}/host/seats/1/bot", json={"bot": "genius"}, headers=host)).status_code == 422
    assert (await bots.http.put(f"/api/games/{gid}/host/seats/5/bot", json={"bot": "random"}, headers=host)).status_code == 404
    handed = await bots.http.put(f"/api/games/{gid}/host/seats/1/bot", json={"bot": "random"}, headers=host)
    assert handed.status_code == 200 and handed.json() == {"seat": 1, "bot": "random", "changed": True}
    assert "The host hands seat 2 to a random bot while Bob is away" in await log_lines(bots.http, gid)
    # The bot plays Bob's decisions (and only his) while he is away.
    await bots.play_bots()
    played = {seat for seat, _ in await bots.app.state.table.action_log(gid)}
    spectator = (await bots.http.get(f"/api/games/{gid}")).json()
    assert 1 not in spectator["to_act"] or spectator["status"] != "active"
    assert played <= {1}
    # Bob's page says so and offers the seat back; he takes it from his own link.
    page = await bots.http.get(f"/g/{gid}/seat/{game['seats'][1]['token']}")
    assert "I'm back" in page.text
    back = await bots.http.post(f"/g/{gid}/seat/{game['seats'][1]['token']}/back", headers=SAME_SITE)
    assert back.status_code == 303
    assert "Bob is back and plays seat 2 again" in await log_lines(bots.http, gid)
    assert "I'm back" not in (await bots.http.get(f"/g/{gid}/seat/{game['seats'][1]['token']}")).text
    # Now nobody plays for Bob: Ann's move leaves his next decision to him.
    before = len(await bots.app.state.table.action_log(gid))
    ann = auth(game["seats"][0]["token"])
    for _ in range(3):
        view = (await bots.http.get(f"/api/games/{gid}", headers=ann)).json()
        if 0 not in view["to_act"]:
            break
        option = next(o["id"] for o in view["options"] if o["id"] != "cancel")
        assert (await bots.http.post(f"/api/games/{gid}/actions", headers=ann,
                                     json={"option": option, "version": view["version"]})).status_code == 200
    await bots.play_bots()
    assert all(seat == 0 for seat, _ in (await bots.app.state.table.action_log(gid))[before:])


async def test_the_host_page_hands_a_seat_over_and_back(bots):
    game = await new_game(bots.http, "tiny-towns", ["Ann", "Bob", {"bot": "strong"}], options={"monuments": False})
    gid, token = game["id"], game["host_token"]
    page = (await bots.http.get(f"/g/{gid}/host/{token}")).text
    assert "Hand to a bot" in page and "A bot plays this seat." in page
    sent = await bots.http.post(f"/g/{gid}/host/{token}/seat/0/bot", data={"bot": "strong"}, headers=SAME_SITE)
    assert sent.status_code == 303
    page = (await bots.http.get(f"/g/{gid}/host/{token}")).text
    assert "A bot plays for Ann until they come back." in page and "Hand back to Ann" in page
    assert (await bots.http.post(f"/g/{gid}/host/{token}/seat/0/bot", data={"bot": ""}, headers=SAME_SITE)).status_code == 303
    assert "The host hands seat 1 back to Ann" in await log_lines(bots.http, gid)
    # A seat made for a bot has no player to hand back to.
    refused = await bots.http.put(f"/api/games/{gid}/host/seats/2/bot", json={"bot": None}, headers=auth(token))
    assert refused.status_code == 422 and "made for a bot" in refused.json()["detail"]
