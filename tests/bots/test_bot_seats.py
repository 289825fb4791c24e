"""Bot seats made with the game: they play from the server, through the same path as a
player, from their seat's own view only."""

from __future__ import annotations

import pytest

from app.bots import levels
from app.games import LISTINGS

from ..spy import record_calls
from .conftest import auth

PLAYABLE = [entry.id for entry in LISTINGS if entry.module]


async def new_game(http, title: str, players: list, seed: int | None = 5, options: dict | None = None) -> dict:
    body = {"title": title, "players": players, **({"seed": seed} if seed is not None else {}),
            **({"options": options} if options else {})}
    response = await http.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


async def test_bot_entries_name_their_seats_and_bad_ones_are_refused(bots):
    game = await new_game(bots.http, "tiny-towns", ["Ann", {"bot": "random"}, {"bot": "strong"}])
    assert [s["name"] for s in game["seats"]] == ["Ann", "Bot 1 (random)", "Bot 2 (strong)"]
    for bad in ({"bot": "genius"}, {"bot": "random", "name": "x"}, {"robot": "random"}):
        refused = await bots.http.post("/api/games", json={"title": "tiny-towns", "players": ["Ann", bad]})
        assert refused.status_code == 422, bad
        assert "detail" in refused.json()


@pytest.mark.parametrize("level", ["random", "strong"])
async def test_a_table_of_bots_plays_a_whole_game(bots, level):
    game = await new_game(bots.http, "tiny-towns", [{"bot": level}, {"bot": level}], options={"monuments": False})
    await bots.play_bots()
    view = (await bots.http.get(f"/api/games/{game['id']}")).json()
    assert view["status"] == "finished", view["to_act"]
    assert view["result"]["winners"]
    # Every move is in the action log, as a player's would be, and replays to the snapshot.
    table = bots.app.state.table
    # (A view's version counts what that viewer saw change, not the actions.)
    assert len(await table.action_log(game["id"])) >= view["version"] > 0
    assert await table.replay_matches_snapshot(game["id"])


@pytest.mark.parametrize("title", [t for t in PLAYABLE if t != "tiny-towns"])
async def test_bots_play_every_title_through_the_table(bots, title):
    """Other titles' games are long (hundreds of decisions): 40 moves show the bots keep
    playing them through the table."""
    game = await new_game(bots.http, title, [{"bot": "strong"}, {"bot": "random"}])
    moved = 0
    for _ in range(200):
        moved += await bots.driver.run_once()
        if moved >= 40:
            break
    assert moved >= 40
    log = await bots.app.state.table.action_log(game["id"])
    assert len(log) == moved and {seat for seat, _ in log} == {0, 1}
    assert await bots.app.state.table.replay_matches_snapshot(game["id"])


async def test_a_bot_waits_for_the_player_and_answers_their_moves(bots):
    game = await new_game(bots.http, "tiny-towns", ["Ann", {"bot": "strong"}], options={"monuments": False})
    ann = auth(game["seats"][0]["token"])
    for _ in range(6):
        view = (await bots.http.get(f"/api/games/{game['id']}", headers=ann)).json()
        assert view["status"] == "active"
        if 0 in view["to_act"]:
            option = next(o["id"] for o in view["options"] if o["id"] != "cancel")
            response = await bots.http.post(f"/api/games/{game['id']}/actions", headers=ann,
                                            json={"option": option, "version": view["version"]})
            assert response.status_code == 200, response.text
        await bots.play_bots()
        spectator = (await bots.http.get(f"/api/games/{game['id']}")).json()
        assert 1 not in spectator["to_act"], "the bot left its turn unplayed"
    seats = {seat for seat, _ in await bots.app.state.table.action_log(game["id"])}
    assert seats == {0, 1}


@pytest.mark.parametrize("title", levels.strong_titles())
async def test_a_bot_is_handed_its_seats_view_and_nothing_else(bots, monkeypatch, title):
    """What the level gets is exactly what that seat's link gets from the API (for every
    title whose strong level is its own view-based bot)."""
    handed: list[tuple] = []
    real = levels.choose

    def spy(level, view, rng, *rest):
        assert not rest
        handed.append((level, view))
        return real(level, view, rng)

    monkeypatch.setattr(levels, "choose", spy)
    game = await new_game(bots.http, title, ["Ann", {"bot": "strong"}])
    bot, ann = auth(game["seats"][1]["token"]), auth(game["seats"][0]["token"])
    for _ in range(8):
        seen = (await bots.http.get(f"/api/games/{game['id']}", headers=bot)).json()
        before = len(handed)
        moved = await bots.driver.run_once()
        if moved:
            assert handed[before][1] == seen  # the seat's own projection, at the version it acts on
            assert handed[before][1]["seat"] == 1 and handed[before][1]["private"] is not None
            continue
        mine = (await bots.http.get(f"/api/games/{game['id']}", headers=ann)).json()
        if 0 not in mine["to_act"]:
            break
        option = next(o["id"] for o in mine["options"] if o["id"] != "cancel")  # Ann plays, the bot answers
        response = await bots.http.post(f"/api/games/{game['id']}/actions", headers=ann,
                                        json={"option": option, "version": mine["version"]})
        assert response.status_code == 200, response.text
    assert handed, "the bot never chose"
    # The other seat's private screen never reaches it.
    ann = (await bots.http.get(f"/api/games/{game['id']}", headers=auth(game["seats"][0]["token"]))).json()
    assert all(view["private"] != ann["private"] or ann["private"] == {} for _, view in handed)


async def test_a_bot_never_cancels_while_anything_else_is_listed():
    class Fixed:
        def choice(self, items):
            return items[0]

        def randrange(self, n):
            return 0

    view = {"title": "tiny-towns", "options": [{"id": "cancel"}, {"id": "place:1,1"}]}
    assert levels.choose("random", view, Fixed()) == "place:1,1"
    assert levels.choose("random", {"title": "tiny-towns", "options": [{"id": "cancel"}]}, Fixed()) == "cancel"


async def test_a_restart_resumes_the_bots_pending_turns(sqlite_url, clock):
    """A process that dies leaves claimed rows and maybe no row at all for a turn (it died
    between a move and its event): the next process plays on from there."""
    from sqlalchemy import delete, update

    from app.bots.tables import TURNS

    from .conftest import BotTable

    async with BotTable(sqlite_url, clock) as first:
        game = await new_game(first.http, "tiny-towns", ["Ann", {"bot": "strong"}, {"bot": "random"}],
                              options={"monuments": False})
        ann = auth(game["seats"][0]["token"])
        view = (await first.http.get(f"/api/games/{game['id']}", headers=ann)).json()
        option = next(o["id"] for o in view["options"] if o["id"] != "cancel")
        await first.http.post(f"/api/games/{game['id']}/actions", headers=ann,
                              json={"option": option, "version": view["version"]})
        await first.driver.settle()
        async with first.app.state.table.db.write() as session:  # one turn lost, one claimed by the dead process
            rows = (await session.execute(TURNS.select())).all()
            assert rows, "the bots had no turn waiting"
            await session.execute(delete(TURNS).where(TURNS.c.seat == rows[0].seat))
            await session.execute(update(TURNS).values(claimed_by="dead", claimed_until=clock.now + 60))
        owing = set((await first.http.get(f"/api/games/{game['id']}")).json()["to_act"]) - {0}
        assert owing
    async with BotTable(sqlite_url, clock) as second:
        clock.advance(61)  # the dead process's claim runs out
        await second.play_bots()
        played = {seat for seat, _ in (await second.app.state.table.action_log(game["id"]))}
        assert owing <= played


async def test_actions_in_a_game_without_bots_ask_the_driver_nothing_once_it_knows(bots):
    """The driver learns a game's bot seats once; after that, an action where no bot owes a
    decision makes no work for it (the server's hot path), while a game with a bot still does."""
    game = await new_game(bots.http, "tiny-towns", ["Ann", "Bob"], options={"monuments": False})
    await bots.driver.settle()  # the game's creation had the driver read its seats
    seats = [auth(s["token"]) for s in game["seats"]]
    scheduled = record_calls(bots.driver, "schedule")
    for _ in range(6):
        view = (await bots.http.get(f"/api/games/{game['id']}")).json()
        seat = view["to_act"][0]
        mine = (await bots.http.get(f"/api/games/{game['id']}", headers=seats[seat])).json()
        option = next(o["id"] for o in mine["options"] if o["id"] != "cancel")
        response = await bots.http.post(f"/api/games/{game['id']}/actions", headers=seats[seat],
                                        json={"option": option, "version": mine["version"]})
        assert response.status_code == 200, response.text
        await bots.driver.settle()
    assert scheduled == [], "the driver knew the game has no bot"

    with_bot = await new_game(bots.http, "tiny-towns", ["Ann", {"bot": "random"}], options={"monuments": False})
    await bots.driver.settle()
    assert with_bot["id"] in scheduled
