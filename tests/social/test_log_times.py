"""Each log line shows when it was written: on the game page (the recent lines) and in the
paged log ("Earlier…" loads more, with their times). On SQLite and PostgreSQL."""

from __future__ import annotations

import re

import sqlalchemy as sa

from app.store.models import Action, Game
from app.table.logtimes import stamp
from app.table.service import Viewer

from ..hosting.support import SAME_SITE, create, table_of


async def play(table, game_id, steps):
    for _ in range(steps):
        view = await table.view(Viewer(game_id, None))
        seat = view["to_act"][0]
        mine = await table.view(Viewer(game_id, seat))
        await table.act(Viewer(game_id, seat), mine["options"][0]["id"], mine["version"])


async def test_each_line_has_the_time_of_the_action_that_wrote_it(client):
    table = table_of(client)
    game = await create(client, ["Ann", None], options={"monuments": False})
    await play(table, game["id"], 1)
    claim = await client.post(f"/g/{game['id']}/seat/{game['seats'][1]['token']}/claim", data={"name": "Bob"},
                              headers=SAME_SITE)
    assert claim.status_code == 303
    await play(table, game["id"], 4)
    page = (await client.get(f"/api/games/{game['id']}/log")).json()
    assert len(page["times"]) == len(page["lines"]) and all(page["times"])
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", t) for t in page["times"])
    assert page["times"] == sorted(page["times"])
    assert [t["at"] is not None for t in page["table_lines"]] == [True]
    async with table.db.read() as session:
        made = (await session.execute(sa.select(Game.created_at).where(Game.id == game["id"]))).scalar_one()
        actions = (await session.execute(sa.select(Action.seq, Action.log, Action.created_at)
                                         .where(Action.game_id == game["id"]).order_by(Action.seq))).all()
    # Numbered from the end: the newest action wrote the last lines of the log.
    expected: list[str | None] = []
    for _, lines, at in actions:
        expected += [stamp(at)] * len(lines)
    set_up = page["total"] - len(expected)
    assert page["times"] == [stamp(made)] * set_up + expected
    # A part of the log only: the same times.
    part = (await client.get(f"/api/games/{game['id']}/log?before={page['total']}&limit=3")).json()
    assert part["times"] == page["times"][page["total"] - 4:page["total"] - 1]


async def test_the_game_page_shows_each_recent_lines_time(client):
    table = table_of(client)
    game = await create(client, ["Ann", None], options={"monuments": False})
    await play(table, game["id"], 1)
    await client.post(f"/g/{game['id']}/seat/{game['seats'][1]['token']}/claim", data={"name": "Bob"},
                      headers=SAME_SITE)
    view = await table.view(Viewer(game["id"], None))
    for url in (f"/g/{game['id']}", f"/g/{game['id']}/fragment"):
        html = (await client.get(url)).text
        log = html[html.index('<section class="log"'):]
        log = log[:log.index("</section>")]
        items = re.findall(r"<li>(.*?)</li>", log)
        assert len(items) == len(view["log"]) > 3
        times = [re.match(r'<time datetime="([^"]+)">(\d\d:\d\d)</time> ', item) for item in items]
        assert all(times), items
        assert all(t.group(1)[11:16] == t.group(2) for t in times)
        assert any("Bob takes seat 2" in item for item in items)


async def test_times_stay_right_through_a_takeback_and_a_later_move(client, monkeypatch):
    """The newest lines' times are remembered as actions are taken; a taken-back action's
    lines are written again by the next one, whose time must replace theirs."""
    import datetime as dt

    import app.table.service as service

    table = table_of(client)
    game = await create(client, ["Ann", "Bob"], options={"monuments": False})  # Ann names a resource first
    auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    mine = (await client.get(f"/api/games/{game['id']}", headers=auth)).json()
    acted = await client.post(f"/api/games/{game['id']}/actions", headers=auth,
                              json={"option": mine["options"][0]["id"], "version": mine["version"]})
    assert acted.status_code == 200, acted.text
    asked = await client.post(f"/api/games/{game['id']}/takeback", headers=auth, json={"version": acted.json()["version"]})
    assert asked.status_code == 200, asked.text
    bob = {"Authorization": f"Bearer {game['seats'][1]['token']}"}
    taken = await client.post(f"/api/games/{game['id']}/takeback/answer", headers=bob,
                              json={"request": asked.json()["takeback"]["request"]["id"], "accept": True})
    assert taken.status_code == 200, taken.text
    later = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None) + dt.timedelta(hours=3)
    monkeypatch.setattr(service, "utcnow", lambda: later)
    mine = (await client.get(f"/api/games/{game['id']}", headers=auth)).json()
    again = await client.post(f"/api/games/{game['id']}/actions", headers=auth,
                              json={"option": mine["options"][1]["id"], "version": mine["version"]})
    assert again.status_code == 200, again.text
    page = (await client.get(f"/api/games/{game['id']}/log")).json()
    async with table.db.read() as session:
        made = (await session.execute(sa.select(Game.created_at).where(Game.id == game["id"]))).scalar_one()
        actions = (await session.execute(sa.select(Action.log, Action.created_at)
                                         .where(Action.game_id == game["id"]).order_by(Action.seq))).all()
    expected = [t for lines, at in actions for t in [stamp(at)] * len(lines)]
    assert actions and actions[-1][0] and stamp(actions[-1][1]) == stamp(later)
    assert page["times"] == [stamp(made)] * (page["total"] - len(expected)) + expected
    html = (await client.get(f"/g/{game['id']}/fragment", headers=auth)).text
    log = html[html.index('<section class="log"'):]
    assert f'<time datetime="{stamp(later)}">' in log, (log[:1500], page)


async def test_a_game_read_back_from_the_database_forgets_the_times_it_remembered(client):
    """Another process may take lines back and write them again unseen: once this one reads
    the game back (its cached state was behind), the times come from the stored actions."""
    import datetime as dt

    table = table_of(client)
    game = await create(client, ["Ann", "Bob"], options={"monuments": False})
    await play(table, game["id"], 3)
    total = (await table.view(Viewer(game["id"], None)))["log_total"]
    wrong = dt.datetime(2001, 1, 1)
    table.log_times.wrote(game["id"], total, total, wrong)  # as if remembered before lines were rewritten
    assert (await client.get(f"/api/games/{game['id']}/log")).json()["times"][-1] == stamp(wrong)
    table.cache.drop(game["id"])
    await table.load_stored(game["id"])
    times = (await client.get(f"/api/games/{game['id']}/log")).json()["times"]
    assert stamp(wrong) not in times and all(times)
