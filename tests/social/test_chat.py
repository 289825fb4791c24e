"""The game's chat: who writes and reads (the host's choice for spectators), escaping,
limits, the rate limit per sender, keeping it with the game, the table's "chat" event,
and lines arriving live over the websocket. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from app.table.chat import MAX_CHAT
from app.table.events import TableEvent
from tests.conftest import LiveServer

from ..hosting.support import SAME_SITE, bearer, create, table_of


async def say(client, game, token, text):
    return await client.post(f"/api/games/{game['id']}/chat", json={"text": text},
                              headers=bearer(token) if token else {})


async def test_seats_and_the_host_write_spectators_and_open_seats_do_not(client):
    game = await create(client, ["Ann", "Bob", None])
    ann, bob, open_seat = (s["token"] for s in game["seats"])
    first = await say(client, game, ann, "  good   luck\n all ")
    assert first.status_code == 201, first.text
    assert (first.json()["seat"], first.json()["name"], first.json()["text"]) == (0, "Ann", "good luck all")
    host = await say(client, game, game["host_token"], "welcome")
    assert host.status_code == 201 and host.json()["seat"] is None and host.json()["name"] == "Ann (host)"
    spectator = await say(client, game, None, "hi")
    assert spectator.status_code == 403 and "players and the host" in spectator.json()["detail"]
    unclaimed = await say(client, game, open_seat, "hi")
    assert unclaimed.status_code == 403 and "Take this seat first" in unclaimed.json()["detail"]
    stranger = await say(client, game, "x" * 32, "hi")
    assert stranger.status_code == 403
    for token in (bob, None):  # a seat, and a spectator (the host lets them read by default)
        lines = (await client.get(f"/api/games/{game['id']}/chat", headers=bearer(token) if token else {})).json()
        assert lines["policy"] == "read"
        assert [(line["name"], line["text"]) for line in lines["lines"]] == [("Ann", "good luck all"),
                                                                               ("Ann (host)", "welcome")]


async def test_the_host_may_keep_the_chat_to_the_players(client):
    game = await create(client, ["Ann", "Bob"], chat_policy="hidden")
    ann = game["seats"][0]["token"]
    assert (await say(client, game, ann, "secret plans")).status_code == 201
    spectator = await client.get(f"/api/games/{game['id']}/chat")
    assert spectator.status_code == 403 and "keeps this game's chat to the players" in spectator.json()["detail"]
    watch_page = (await client.get(f"/g/{game['id']}")).text
    assert 'id="chat"' not in watch_page and "secret plans" not in watch_page
    assert "secret plans" in (await client.get(f"/g/{game['id']}/seat/{ann}")).text
    # Only the host changes it (a seat's link cannot), from the API or the host page.
    refused = await client.put(f"/api/games/{game['id']}/chat/policy", json={"policy": "read"}, headers=bearer(ann))
    assert refused.status_code == 403
    done = await client.put(f"/api/games/{game['id']}/chat/policy", json={"policy": "read"},
                            headers=bearer(game["host_token"]))
    assert done.status_code == 204
    assert (await client.get(f"/api/games/{game['id']}/chat")).status_code == 200
    assert "secret plans" in (await client.get(f"/g/{game['id']}")).text
    page = await client.post(f"/g/{game['id']}/host/{game['host_token']}/chat-policy", data={"policy": "hidden"},
                             headers=SAME_SITE)
    assert page.status_code == 303
    assert (await client.get(f"/api/games/{game['id']}/chat")).status_code == 403
    bad = await client.put(f"/api/games/{game['id']}/chat/policy", json={"policy": "everyone"},
                           headers=bearer(game["host_token"]))
    assert bad.status_code == 422


async def test_the_new_game_form_can_hide_the_chat_from_spectators(client):
    form = {"seats": "2", "name0": "Ann", "name1": "Bob", "chat_hidden": "on"}
    made = await client.post("/new/tiny-towns", data=form, headers=SAME_SITE)
    assert made.status_code == 303
    game_id = made.headers["location"].split("/")[2]
    assert (await client.get(f"/api/games/{game_id}/chat")).status_code == 403


async def test_lines_are_text_never_html(client):
    game = await create(client, ["Ann", "Bob"])
    ann, bob = (s["token"] for s in game["seats"])
    nasty = '<script>alert("x")</script> & <b onclick=1>bold</b>'
    assert (await say(client, game, ann, nasty)).json()["text"] == nasty  # kept as written
    for url in (f"/g/{game['id']}/seat/{bob}", f"/g/{game['id']}", f"/g/{game['id']}/host/{game['host_token']}"):
        page = (await client.get(url)).text
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;b onclick=1&gt;bold&lt;/b&gt;" in page, url
        assert "<script>alert" not in page and "<b onclick" not in page


async def test_empty_long_and_control_lines_are_refused_and_nothing_is_kept(client):
    game = await create(client, ["Ann", "Bob"])
    ann = game["seats"][0]["token"]
    empty = await say(client, game, ann, "   \n ")
    assert empty.status_code == 422 and empty.json()["detail"] == "Type something to send."
    long = await say(client, game, ann, "x" * (MAX_CHAT + 1))
    assert long.status_code == 422
    assert long.json()["detail"] == f"A chat message can be at most {MAX_CHAT} characters (this one has {MAX_CHAT + 1})."
    huge = await say(client, game, ann, "x" * 5000)
    assert huge.status_code == 422
    control = await say(client, game, ann, "bell\x07")
    assert control.status_code == 422 and "control characters" in control.json()["detail"]
    not_text = await client.post(f"/api/games/{game['id']}/chat", json={"text": 5}, headers=bearer(ann))
    assert not_text.status_code == 422
    assert (await say(client, game, ann, "x" * MAX_CHAT)).status_code == 201  # the limit itself is fine
    lines = (await client.get(f"/api/games/{game['id']}/chat", headers=bearer(ann))).json()["lines"]
    assert [len(line["text"]) for line in lines] == [MAX_CHAT]


async def test_a_sender_who_writes_too_fast_gets_a_429_and_the_others_can_still_write(client):
    game = await create(client, ["Ann", "Bob"])
    ann, bob = (s["token"] for s in game["seats"])
    burst = client._transport.app.state.settings.chat_burst  # type: ignore[attr-defined]
    for n in range(burst):
        assert (await say(client, game, ann, f"line {n}")).status_code == 201
    refused = await say(client, game, ann, "one more")
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("You are sending chat messages too fast; try again in ")
    assert (await say(client, game, bob, "my turn to talk")).status_code == 201
    assert (await say(client, game, game["host_token"], "and the host")).status_code == 201
    texts = [line["text"] for line in (await client.get(f"/api/games/{game['id']}/chat")).json()["lines"]]
    assert "one more" not in texts and len(texts) == burst + 2


async def test_lines_are_kept_in_the_database_and_published_as_a_chat_event(client):
    table = table_of(client)
    heard: list[TableEvent] = []
    table.events.subscribe(heard.append)
    game = await create(client, ["Ann", "Bob"])
    await say(client, game, game["seats"][1]["token"], "gg")
    assert [(e.kind, e.game_id, e.seat, e.version) for e in heard if e.kind == "chat"] == [("chat", game["id"], 1, None)]
    table.chat.forget(None)  # not from this process's memory: from the database
    lines = (await client.get(f"/api/games/{game['id']}/chat")).json()["lines"]
    assert [(line["seat"], line["name"], line["text"]) for line in lines] == [(1, "Bob", "gg")]
    assert lines[0]["at"].endswith("Z")


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request):
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    with LiveServer(url) as live:
        yield live


async def next_chat(ws, timeout=10.0):
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if "chat" in frame:
            return frame


async def test_a_line_arrives_live_at_the_other_seats_and_readers_only(server):
    async with httpx.AsyncClient(base_url=server.url) as http:
        game = await create(http, ["Ann", "Bob"], chat_policy="hidden")
        ann, bob = (s["token"] for s in game["seats"])
        base = server.url.replace("http://", "ws://") + f"/ws/games/{game['id']}"
        async with websockets.connect(f"{base}?token={bob}") as bob_ws, websockets.connect(base) as watcher:
            await bob_ws.recv()
            await watcher.recv()  # the views at connect
            assert (await say(http, game, ann, "<i>hello</i> Bob")).status_code == 201
            frame = await next_chat(bob_ws)
            assert [(line["name"], line["text"]) for line in frame["chat"]] == [("Ann", "<i>hello</i> Bob")]
            # The spectator of a game whose chat is the players' gets nothing of it; once the
            # host lets spectators read, the lines come.
            with pytest.raises(asyncio.TimeoutError):
                await next_chat(watcher, timeout=1.0)
            await http.put(f"/api/games/{game['id']}/chat/policy", json={"policy": "read"},
                           headers=bearer(game["host_token"]))
            shown = await next_chat(watcher)
            assert [line["text"] for line in shown["chat"]] == ["<i>hello</i> Bob"]
