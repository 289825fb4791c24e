"""Websocket frames as changes (``?frames=changes``): after the first whole view, each frame
holds only what changed, and applying every frame in order gives exactly the view the
API serves at that version."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import websockets
from hypothesis import given, settings
from hypothesis import strategies as st

from app.table.changes import apply_changes, shared_changes, view_changes
from app.wire import encode
from .. import oneshot

leaves = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text("ab", max_size=2))
texts = st.lists(st.sampled_from(["a", "b", "c"]), max_size=8)  # a log: lines may repeat
trees = st.recursive(st.one_of(leaves, texts), lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                     st.dictionaries(st.sampled_from(["p", "q", "r", "s", "id"]), kids, max_size=4)),
                     max_leaves=25)
views = st.dictionaries(st.sampled_from(["public", "private", "log", "options", "seats"]), trees, max_size=5)


@settings(max_examples=300, deadline=None)
@given(views, views, st.integers(0, 9), st.integers(0, 9))
def test_applying_the_changes_gives_the_new_view(old, new, v_old, v_new):
    old, new = {**old, "version": v_old}, {**new, "version": v_new}
    frame = json.loads(encode(view_changes(old, new)))  # through JSON, as a client gets it
    assert frame["base"] == v_old
    assert apply_changes(json.loads(encode(old)), frame) == json.loads(encode(new))


@settings(max_examples=300, deadline=None)
@given(views, views, st.integers(0, 9), st.integers(0, 9))
def test_shared_parts_give_the_same_frame_as_comparing_everything(old, new, v_old, v_new):
    old, new = {**old, "version": v_old}, {**new, "version": v_new}
    whole = view_changes(old, new)
    shared = view_changes(old, new, ("public", "log"))
    assert sorted(map(repr, shared["set"])) == sorted(map(repr, whole["set"]))
    assert sorted(map(repr, shared["unset"])) == sorted(map(repr, whole["unset"]))
    again = view_changes(old, new, ("public", "log"))  # from the kept changes this time
    assert again == shared


def test_a_shared_part_is_compared_once_for_every_viewer_of_a_version():
    before = {"players": [{"town": [[None] * 4 for _ in range(4)]} for _ in range(4)]}
    after = json.loads(json.dumps(before))
    after["players"][1]["town"][0][0] = "brick"
    first = shared_changes(before, after, "public")
    assert first == ([[["public", "players", 1, "town", 0, 0], "brick"]], [], [])
    assert shared_changes(before, after, "public")[0] is first[0]  # kept: not compared again
    # Equal but other objects (another version): compared afresh, not taken for the kept pair.
    copy = json.loads(json.dumps(after))
    copy["players"][2]["town"][3][3] = "glass"
    assert shared_changes(before, copy, "public")[0] == [[["public", "players", 1, "town", 0, 0], "brick"],
                                                         [["public", "players", 2, "town", 3, 3], "glass"]]
    assert shared_changes(after, after, "public") == ([], [], [])


def test_a_value_that_changes_type_is_sent_even_when_python_calls_it_equal():
    old, new = {"version": 1, "done": 1}, {"version": 2, "done": True}
    assert [["done"], True] in view_changes(old, new)["set"]


def test_an_option_in_the_place_of_another_is_sent_whole_and_a_changed_one_by_its_changes():
    first = {"id": "place:a1", "label": "Place at A1", "kind": "place", "target": "cell:a1"}
    other = {"id": "warehouse:store", "label": "Store on a Warehouse", "kind": "warehouse"}
    relabelled = dict(first, label="Place brick at A1")
    frame = view_changes({"version": 1, "options": [first, first]}, {"version": 2, "options": [other, relabelled]})
    assert frame["set"] == [[["version"], 2], [["options", 0], other], [["options", 1, "label"], "Place brick at A1"]]
    assert frame["unset"] == []


def test_only_the_changed_part_of_a_list_of_players_is_sent():
    towns = [{"name": n, "town": [[None] * 4 for _ in range(4)]} for n in "abcd"]
    old = {"version": 3, "public": {"players": towns}}
    moved = json.loads(json.dumps(towns))
    moved[2]["town"][1][3] = "wood"
    frame = view_changes(old, {"version": 4, "public": {"players": moved}})
    assert frame["set"] == [[["version"], 4], [["public", "players", 2, "town", 1, 3], "wood"]]
    assert frame["unset"] == []


def test_lines_written_to_a_growing_log_are_sent_alone():
    old = {"version": 1, "log": [f"line {n}" for n in range(1, 21)]}
    new = {"version": 2, "log": [f"line {n}" for n in range(1, 23)]}
    frame = view_changes(old, new)
    assert frame["set"] == [[["version"], 2], [["log", 20], "line 21"], [["log", 21], "line 22"]]
    assert apply_changes(json.loads(encode(old)), json.loads(encode(frame))) == new


def test_a_log_window_moving_on_drops_its_oldest_lines_and_appends_the_new():
    old = {"version": 1, "log": [f"line {n}" for n in range(1, 51)]}
    new = {"version": 2, "log": [f"line {n}" for n in range(3, 53)]}
    frame = view_changes(old, new)
    assert frame["drop"] == [[["log"], 2]]
    assert frame["set"] == [[["version"], 2], [["log", 48], "line 51"], [["log", 49], "line 52"]]
    assert apply_changes(json.loads(encode(old)), json.loads(encode(frame))) == new
    # Lines that repeat: the drop found is one that gives the new window.
    old = {"version": 1, "log": ["a", "b", "a", "b", "c"]}
    new = {"version": 2, "log": ["a", "b", "c", "d", "e"]}
    frame = view_changes(old, new)
    assert frame["drop"] == [[["log"], 2]]
    assert apply_changes(json.loads(encode(old)), json.loads(encode(frame))) == new


def create(base: str) -> dict:
    body = {"title": "tiny-towns", "players": ["Ann", "Bob", "Cy"], "seed": 5, "options": {"monuments": True}}
    response = oneshot.post(f"{base}/api/games", json=body)
    assert response.status_code == 201
    return response.json()


def ws_url(server, game, token: str, frames: str) -> str:
    return server.url.replace("http://", "ws://") + f"/ws/games/{game['id']}?token={token}&frames={frames}"


async def test_changes_applied_in_order_equal_the_served_view_through_a_game(live_server):
    game = create(live_server.url)
    tokens = [s["token"] for s in game["seats"]]
    rng = random.Random(7)
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        sockets = [await websockets.connect(ws_url(live_server, game, t, "changes")) for t in tokens]
        try:
            held = [json.loads(await asyncio.wait_for(ws.recv(), 5)) for ws in sockets]
            assert all("base" not in v for v in held)  # the first frame is the whole view
            sizes = {"changes": [], "whole": []}
            for _ in range(40):
                served = [(await http.get(f"/api/games/{game['id']}", headers={"Authorization": f"Bearer {t}"})).json()
                          for t in tokens]
                if served[0]["status"] == "finished":
                    break
                seat = rng.choice(served[0]["to_act"])
                option = rng.choice([o["id"] for o in served[seat]["options"] if o["id"] != "cancel"])
                answer = await http.post(f"/api/games/{game['id']}/actions",
                                         json={"option": option, "version": served[seat]["version"]},
                                         headers={"Authorization": f"Bearer {tokens[seat]}"})
                assert answer.status_code == 200, answer.text
                for n, ws in enumerate(sockets):
                    now = (await http.get(f"/api/games/{game['id']}",
                                          headers={"Authorization": f"Bearer {tokens[n]}"})).json()
                    while held[n]["version"] < now["version"]:
                        raw = await asyncio.wait_for(ws.recv(), 5)
                        frame = json.loads(raw)
                        assert frame["base"] == held[n]["version"]
                        held[n] = apply_changes(held[n], frame)
                        sizes["changes"].append(len(raw))
                        sizes["whole"].append(len(encode(now)))
                    assert held[n] == now
            assert sizes["changes"] and sum(sizes["changes"]) < sum(sizes["whole"]) / 2
        finally:
            for ws in sockets:
                await ws.close()


async def test_a_catch_up_is_sent_whole(live_server):
    game = create(live_server.url)
    async with websockets.connect(ws_url(live_server, game, game["seats"][0]["token"], "changes")) as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), 5))
        await ws.send(json.dumps({"since": -1}))
        again = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert "base" not in again and again == first


async def test_an_unknown_frames_kind_is_refused_with_a_reason(live_server):
    game = create(live_server.url)
    async with websockets.connect(ws_url(live_server, game, game["seats"][0]["token"], "bits")) as ws:
        try:
            await asyncio.wait_for(ws.recv(), 5)
            raise AssertionError("the socket should have been closed")
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd.code == 4403 and "frames" in closed.rcvd.reason
