"""Time limits per decision, driven by a fake clock: the reminder at half time (once, through
the seat's notifications), each thing the host may choose when the time runs out, the
clocks surviving a restart, two processes running each clock step once, and refusals."""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator

import httpx
import pytest
from sqlalchemy import delete, select

from app.bots.config import BotConfig
from app.bots.tables import SEAT_CLOCKS
from app.main import create_app
from app.settings import Settings

from ..notify.conftest import Receiver, quiet_config
from .conftest import Clock, auth

HOUR = 3600
SAME_SITE = {"Origin": "http://testserver"}


class TimedTable:
    """An app with bots and notifications that act only when the test says, on one clock."""

    def __init__(self, url: str, clock: Clock) -> None:
        self.app = create_app(Settings(database_url=url), migrate=False)
        self.app.state.bot_config = BotConfig(delay=0, tick=1, background=False, clock=clock)
        self.app.state.notify_config = quiet_config(clock)
        self.clock = clock

    async def __aenter__(self) -> "TimedTable":
        self._lifespan = self.app.router.lifespan_context(self.app)
        await self._lifespan.__aenter__()
        self.http = httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app), base_url="http://testserver")
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.aclose()
        await self._lifespan.__aexit__(None, None, None)

    @property
    def clocks(self) -> Any:
        return self.app.state.bots.clocks

    async def later(self, seconds: float) -> int:
        """Let time pass; one pass of the bots and clocks, then of the notifier."""
        self.clock.advance(seconds)
        moved = await self.app.state.bots.run_until_idle()
        await self.app.state.notifier.run_once()
        return moved

    async def new_game(self, time_limit: Any, players: list[Any] | None = None) -> dict[str, Any]:
        body = {"title": "tiny-towns", "players": players or ["Ann", "Bob"], "seed": 3,
                "options": {"monuments": False}, "time_limit": time_limit}
        response = await self.http.post("/api/games", json=body)
        assert response.status_code == 201, response.text
        await self.app.state.bots.settle()
        return response.json()

    async def public(self, game: dict[str, Any]) -> dict[str, Any]:
        return (await self.http.get(f"/api/games/{game['id']}")).json()

    async def clocks_of(self, game: dict[str, Any]) -> dict[str, Any]:
        return (await self.http.get(f"/api/games/{game['id']}/clocks")).json()

    async def step(self, game: dict[str, Any], seat: int) -> None:
        mine = (await self.http.get(f"/api/games/{game['id']}", headers=auth(game["seats"][seat]["token"]))).json()
        option = next(o["id"] for o in mine["options"] if o["id"] != "cancel")
        response = await self.http.post(f"/api/games/{game['id']}/actions", headers=auth(game["seats"][seat]["token"]),
                                        json={"option": option, "version": mine["version"]})
        assert response.status_code == 200, response.text
        await self.app.state.bots.settle()


@pytest.fixture(params=["sqlite", "postgresql"])
async def timed(request: pytest.FixtureRequest, clock: Clock) -> AsyncIterator[TimedTable]:
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    async with TimedTable(url, clock) as table:
        yield table


@pytest.fixture
def receiver() -> Any:
    r = Receiver()
    yield r
    r.close()


def day(on_timeout: str) -> dict[str, Any]:
    return {"seconds": 24 * HOUR, "on_timeout": on_timeout}


async def test_no_limit_by_default_and_no_clock_runs(timed):
    game = await timed.new_game(None)
    assert await timed.clocks_of(game) == {"time_limit": None, "clocks": []}
    await timed.later(400 * HOUR)
    assert not any("time ran out" in line for line in (await timed.public(game))["log"])


async def test_the_reminder_goes_out_once_at_half_time(timed, receiver):
    game = await timed.new_game(day("wait"))
    first = (await timed.public(game))["to_act"]
    assert first == [0]
    put = await timed.http.put(f"/api/games/{game['id']}/notifications", json={"urls": [receiver.url()]},
                               headers=auth(game["seats"][0]["token"]))
    assert put.status_code == 200, put.text
    assert (await timed.clocks_of(game))["clocks"] == [{"seat": 0, "left_seconds": 24 * HOUR, "expired": False}]
    await timed.later(12 * HOUR - 60)
    assert timed.clocks.reminders == 0
    turn_messages = len(receiver.received)
    await timed.later(120)
    assert timed.clocks.reminders == 1
    reminders = [m for m in receiver.received if "Half your time is gone" in m["title"]]
    assert len(reminders) == 1 and "11 h 59 min left" in reminders[0]["message"]
    assert "the game waits for you" in reminders[0]["message"]
    for _ in range(3):  # never again for this decision
        await timed.later(HOUR)
    assert timed.clocks.reminders == 1
    assert len([m for m in receiver.received if "Half your time" in m["title"]]) == 1
    assert len(receiver.received) >= turn_messages + 1


async def test_wait_the_log_says_so_and_the_game_waits(timed):
    game = await timed.new_game(day("wait"))
    await timed.later(24 * HOUR + 1)
    view = await timed.public(game)
    assert "Ann's time ran out: the game waits for them" in view["log"]
    assert view["to_act"] == [0] and await timed.app.state.table.action_log(game["id"]) == []
    assert (await timed.clocks_of(game))["clocks"] == [{"seat": 0, "left_seconds": 0, "expired": True}]
    await timed.later(48 * HOUR)  # it ran out once: no second line
    assert [line for line in (await timed.public(game))["log"] if "time ran out" in line] == \
        ["Ann's time ran out: the game waits for them"]
    # Ann plays at last: her next decision (or Bob's) has its own full time.
    await timed.step(game, 0)
    clocks = (await timed.clocks_of(game))["clocks"]
    assert clocks and all(c["left_seconds"] == 24 * HOUR and not c["expired"] for c in clocks)


async def test_bot_move_a_bot_plays_that_decision_and_the_seat_stays_the_players(timed):
    game = await timed.new_game(day("bot-move"))
    await timed.later(24 * HOUR + 1)
    view = await timed.public(game)
    assert "Ann's time ran out: a bot plays this decision for them" in view["log"]
    played = await timed.app.state.table.action_log(game["id"])
    assert len(played) == 1 and played[0][0] == 0
    assert (await timed.app.state.bots.bot_seats(game["id"])) == {}  # nobody hands Ann's seat to a bot
    # The next decision (whoever owes it) has a fresh clock; the bot played only once.
    clocks = (await timed.clocks_of(game))["clocks"]
    assert clocks and all(c["left_seconds"] == 24 * HOUR for c in clocks)
    await timed.later(HOUR)
    assert len(await timed.app.state.table.action_log(game["id"])) == 1


async def test_bot_seat_a_bot_plays_until_the_player_comes_back(timed):
    game = await timed.new_game(day("bot-seat"))
    await timed.later(24 * HOUR + 1)
    view = await timed.public(game)
    assert "Ann's time ran out: a strong bot plays seat 1 until they come back" in view["log"]
    assert (await timed.app.state.bots.bot_seats(game["id"])) == {0: "strong"}
    played = await timed.app.state.table.action_log(game["id"])
    assert played and {seat for seat, _ in played} == {0}
    assert (await timed.clocks_of(game))["clocks"] == [] or 0 not in {
        c["seat"] for c in (await timed.clocks_of(game))["clocks"]}
    # Ann opens her link and takes her seat back; her clock starts again when she owes.
    token = game["seats"][0]["token"]
    assert "I'm back" in (await timed.http.get(f"/g/{game['id']}/seat/{token}")).text
    back = await timed.http.post(f"/g/{game['id']}/seat/{token}/back", headers=SAME_SITE)
    assert back.status_code == 303
    await timed.app.state.bots.settle()
    assert "Ann is back and plays seat 1 again" in (await timed.public(game))["log"]
    assert (await timed.app.state.bots.bot_seats(game["id"])) == {}


async def test_the_host_changes_the_limit_and_the_log_says_so(timed):
    game = await timed.new_game(None)
    host = auth(game["host_token"])
    url = f"/api/games/{game['id']}/host/time-limit"
    assert (await timed.http.put(url, json={"time_limit": day("wait")},
                                 headers=auth(game["seats"][0]["token"]))).status_code == 403
    set_ = await timed.http.put(url, json={"time_limit": {"seconds": 3 * 86400, "on_timeout": "bot-move"}}, headers=host)
    assert set_.status_code == 200, set_.text
    assert set_.json()["time_limit"] == {"seconds": 3 * 86400, "on_timeout": "bot-move"}
    assert set_.json()["clocks"] == [{"seat": 0, "left_seconds": 3 * 86400, "expired": False}]
    assert "The host set a time limit: 3 days per decision; when it runs out, a bot plays that decision" in \
        (await timed.public(game))["log"]
    off = await timed.http.put(url, json={"time_limit": None}, headers=host)
    assert off.json() == {"time_limit": None, "clocks": []}
    await timed.later(4 * 86400)
    assert await timed.app.state.table.action_log(game["id"]) == []


@pytest.mark.parametrize("bad", [
    {"seconds": 5}, {"seconds": 40 * 86400}, {"seconds": "soon"}, {"seconds": 3600, "on_timeout": "explode"},
    {"seconds": 3600, "extra": 1}, {"on_timeout": "wait"}, 3600,
])
async def test_bad_time_limits_are_refused_with_a_reason(timed, bad):
    response = await timed.http.post("/api/games", json={
        "title": "tiny-towns", "players": ["Ann", "Bob"], "time_limit": bad})
    assert response.status_code == 422
    assert "time_limit" in response.json()["detail"]
    if isinstance(bad, dict) and bad.get("seconds") in (5, 40 * 86400):
        assert "from 60 seconds (1 minute) to 2592000 seconds (30 days)" in response.json()["detail"]


async def test_the_new_game_form_takes_a_limit_and_refuses_a_bad_one(timed):
    form = {"seats": "2", "name0": "Ann", "name1": "Bob", "time_limit": "43200", "on_timeout": "bot-seat"}
    made = await timed.http.post("/new/tiny-towns", data=form, headers=SAME_SITE)
    assert made.status_code == 303
    game_id = made.headers["location"].split("/")[2]
    assert (await timed.http.get(f"/api/games/{game_id}/clocks")).json()["time_limit"] == \
        {"seconds": 43200, "on_timeout": "bot-seat"}
    host_page = (await timed.http.get(made.headers["location"])).text
    assert "12 hours per decision; when it runs out, a bot plays the seat until its player comes back" in host_page
    assert "12 hours left" in host_page
    refused = await timed.http.post("/new/tiny-towns", data={**form, "time_limit": "5"}, headers=SAME_SITE)
    assert refused.status_code == 422 and "from 1 minute to 30 days" in refused.text
    refused = await timed.http.post("/new/tiny-towns", data={**form, "on_timeout": "x"}, headers=SAME_SITE)
    assert refused.status_code == 422 and "When the time runs out is one of" in refused.text
    assert "No limit" in (await timed.http.get("/new/tiny-towns")).text


async def test_time_left_shows_on_the_game_page_and_in_your_games(timed):
    game = await timed.new_game(day("wait"))
    await timed.later(2 * HOUR + 10 * 60)
    ann, bob = game["seats"][0]["token"], game["seats"][1]["token"]
    assert "21 h 50 min left" in (await timed.http.get(f"/g/{game['id']}/seat/{ann}")).text
    bob_page = (await timed.http.get(f"/g/{game['id']}/seat/{bob}")).text
    assert "Ann:</span> <span class=\"left\">21 h 50 min left" in bob_page
    fragment = (await timed.http.get(f"/g/{game['id']}/fragment", headers=auth(ann))).text
    assert "21 h 50 min left" in fragment
    assert "21 h 50 min left" in (await timed.http.get(f"/g/{game['id']}")).text  # spectators too
    mine = (await timed.http.post("/api/my-games", json={"tokens": [ann]})).json()
    assert mine[0]["clocks"] == [{"seat": 0, "left_seconds": 21 * HOUR + 50 * 60, "expired": False}]
    untimed = await timed.new_game(None)
    assert (await timed.http.post("/api/my-games", json={"tokens": [untimed["seats"][0]["token"]]})).json()[0]["clocks"] == []


async def test_clocks_survive_a_restart_and_lost_ones_are_started_again(sqlite_url, clock):
    async with TimedTable(sqlite_url, clock) as first:
        game = await first.new_game(day("wait"))
        lost = await first.new_game(day("wait"))
    # The process died after the second game's event but before its clock was written.
    async with TimedTable(sqlite_url, clock) as gone:
        async with gone.app.state.table.db.write() as session:
            await session.execute(delete(SEAT_CLOCKS).where(SEAT_CLOCKS.c.game_id == lost["id"]))
    clock.advance(25 * HOUR)  # the server was down through the end of the first game's clock
    async with TimedTable(sqlite_url, clock) as second:
        await second.later(0)
        assert "Ann's time ran out: the game waits for them" in (await second.public(game))["log"]
        assert (await second.clocks_of(lost))["clocks"] == [{"seat": 0, "left_seconds": 24 * HOUR, "expired": False}]


@pytest.mark.postgres
async def test_two_processes_run_each_clock_step_exactly_once(pg_url, clock, receiver):
    """Two apps (each its own process id, engine and claims) on one PostgreSQL database,
    passing over the same due clocks at the same moment."""
    async with TimedTable(pg_url, clock) as a, TimedTable(pg_url, clock) as b:
        assert a.app.state.bots.process != b.app.state.bots.process
        games = [await a.new_game(day("bot-move")) for _ in range(3)] + [await b.new_game(day("wait")) for _ in range(3)]
        for game in games:
            await a.http.put(f"/api/games/{game['id']}/notifications", json={"urls": [receiver.url()]},
                             headers=auth(game["seats"][0]["token"]))
        for hours in (12, 12):
            clock.advance(hours * HOUR + 1)
            await asyncio.gather(a.app.state.bots.run_once(), b.app.state.bots.run_once(),
                                 a.app.state.bots.run_once(), b.app.state.bots.run_once())
            await asyncio.gather(a.app.state.bots.run_until_idle(), b.app.state.bots.run_until_idle())
        assert a.clocks.reminders + b.clocks.reminders == len(games)
        assert a.clocks.expired + b.clocks.expired == len(games)
        for game in games:
            log = (await a.public(game))["log"]
            assert len([line for line in log if "time ran out" in line]) == 1, log
        for game in games[:3]:  # one bot move each, by one process
            assert len(await a.app.state.table.action_log(game["id"])) == 1
        for game in games[3:]:
            assert await a.app.state.table.action_log(game["id"]) == []
        async with a.app.state.table.db.read() as session:
            stages = (await session.execute(select(SEAT_CLOCKS.c.game_id, SEAT_CLOCKS.c.stage))).all()
        assert {g for g, stage in stages if stage == "expired"} == {g["id"] for g in games[3:]}


async def test_the_host_page_sets_and_takes_off_the_limit(timed):
    game = await timed.new_game(None)
    page = f"/g/{game['id']}/host/{game['host_token']}"
    assert "No limit: the game waits as long as it takes." in (await timed.http.get(page)).text
    sent = await timed.http.post(f"{page}/time-limit", data={"time_limit": "86400", "on_timeout": "wait"},
                                 headers=SAME_SITE)
    assert sent.status_code == 303
    shown = (await timed.http.get(sent.headers["location"])).text
    assert "The time limit is changed" in shown and "24 hours per decision; when it runs out, the game waits" in shown
    assert "24 hours left" in shown
    refused = await timed.http.post(f"{page}/time-limit", data={"time_limit": "59", "on_timeout": "wait"},
                                    headers=SAME_SITE)
    assert refused.status_code == 422 and "from 1 minute to 30 days" in refused.text
    wrong_host = await timed.http.post(f"/g/{game['id']}/host/{'x' * 32}/time-limit", data={"time_limit": ""},
                                       headers=SAME_SITE)
    assert wrong_host.status_code == 403
    off = await timed.http.post(f"{page}/time-limit", data={"time_limit": ""}, headers=SAME_SITE)
    assert off.status_code == 303
    assert "The host took the time limit off" in " ".join((await timed.public(game))["log"])


async def test_bot_move_leaves_alone_a_decision_the_player_made_meanwhile(timed):
    game = await timed.new_game(day("bot-move"))
    timed.app.state.bots.config.delay = 60  # the bot would play a minute after the time ran out
    await timed.later(24 * HOUR + 1)
    assert "Ann's time ran out: a bot plays this decision for them" in (await timed.public(game))["log"]
    await timed.step(game, 0)  # Ann is back in time to play it herself
    await timed.later(120)
    assert [seat for seat, _ in await timed.app.state.table.action_log(game["id"])] == [0]


async def test_the_bot_loop_sleeps_until_the_next_clock_it_can_run(timed):
    # The loop's tick only bounds its sleep (for rows another process writes): it must wake
    # for a clock due sooner, so a clock's due time counts, unless another process holds it.
    driver = timed.app.state.bots
    assert await driver._next_due() is None
    game = await timed.new_game(day("wait"))
    async with driver.db.read() as session:
        half_time = (await session.execute(select(SEAT_CLOCKS.c.due_at).where(
            SEAT_CLOCKS.c.game_id == game["id"]))).scalar()
    assert half_time == timed.clock.now + 12 * HOUR
    assert await driver._next_due() == half_time
    async with driver.db.write() as session:  # another process claimed it
        await session.execute(SEAT_CLOCKS.update().values(claimed_by="elsewhere", claimed_until=timed.clock.now + 60))
    assert await driver._next_due() is None
    timed.clock.advance(61)  # ... and its lease ran out
    assert await driver._next_due() == half_time
