"""A takeback request is a notification for the players asked to answer it."""

from __future__ import annotations

from .conftest import bearer


async def test_the_players_asked_about_a_takeback_are_told(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")])
    await table.set_channels(game, 0, urls=[receiver.url("ann")])
    await table.step(game, 0)  # Ann names a resource
    await table.step(game, 1)  # Bob places it: Ann saw him act, so she must ask
    ann = (await table.http.get(f"/api/games/{game['id']}", headers=bearer(game, 0))).json()
    assert ann["takeback"]["ask"]
    asked = await table.http.post(f"/api/games/{game['id']}/takeback", headers=bearer(game, 0),
                                  json={"version": ann["version"]})
    assert asked.status_code == 200, asked.text
    await table.later(10)
    notices = [m for m in receiver.to("bob") if "take back" in m["title"]]
    assert len(notices) == 1
    assert notices[0]["title"] == "Ann asks to take back a move — Tiny Towns"
    assert "Accept or decline" in notices[0]["message"] and game["seats"][1]["token"] in notices[0]["message"]
    assert not [m for m in receiver.to("ann") if "take back" in m["title"]]  # the asker is not told
