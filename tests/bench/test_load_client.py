"""bench/load.py's Node.js client (``--client node``, bench/node/load_client.mjs): its bots
act on a real server, and the views it keeps from the frames are the server's views (a
client that lost track would act on options it does not hold, and measure nothing true)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from app.table.changes import view_changes

pytestmark = pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                                reason="the Node.js client needs node and npm")

LOAD = Path(__file__).resolve().parents[2] / "bench" / "load.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_load", LOAD)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("via, frames", [("http", "changes"), ("ws", "full")])
def test_the_node_client_acts_and_keeps_every_seats_view(live_server, via, frames):
    load = load_bench()
    load.node_client_ready()
    with httpx.Client(timeout=30) as http:
        games = load.new_games(http, [live_server.url], 3, 4, offset=11)
        client = load.NodeClient(games, {"client_cpus": "", "frames": frames, "via": via, "pages": False,
                                         "views": True}, rate_share=30, seed=1)
        assert client.recv() == "ready"
        client.send([time.time() + 0.2, 0.3, 1.5])
        result = client.recv()
        client.join(10)
        assert result["broken"] == 0 and result["refused"] == 0
        assert result["actions"] >= 10  # 30/s for 1.5 s, less a socket now and then not caught up
        assert len(result["latencies"]) >= result["actions"]  # each action brought every seat a frame
        assert len(result["frame_bytes"]) == len(result["latencies"])
        moved = 0
        for (game_id, tokens, _), kept in zip(games, result["views"]):
            for token, view in zip(tokens, kept):
                served = http.get(f"{live_server.url}/api/games/{game_id}",
                                  headers={"Authorization": f"Bearer {token}"}).json()
                assert view == served
                moved += view["version"] > 0
        assert moved  # the views compared are not only the first ones


# (old, new) views whose changes frame holds every kind of change: a set deep in a dict,
# a key gone, a list grown (appends), a list shrunk (resent whole), the log's window moving
# on (a drop, then appends), a value of another type, shared parts.
CASES = [
    ({"version": 1, "a": {"b": {"c": 1, "d": 2}}, "log": ["x", "y", "z"], "opts": [{"id": "p"}]},
     {"version": 2, "a": {"b": {"c": 5}}, "log": ["y", "z", "w", "v"], "opts": [{"id": "p"}, {"id": "q"}]}),
    ({"version": 3, "towns": [[1, 2], [3, 4]], "gone": True, "n": None},
     {"version": 4, "towns": [[1, 2], [3]], "n": {"now": "dict"}}),
    ({"version": 5, "public": {"to_act": [0, 1], "round": 2}, "hand": ["a", "b", "c"]},
     {"version": 6, "public": {"to_act": [1], "round": 3, "new": [1]}, "hand": ["b"]}),
]


def test_the_node_clients_apply_changes_is_the_servers():
    frames = [[old, view_changes(old, new, shared=("public",))] for old, new in CASES]
    assert any("drop" in f for _, f in frames) and all(f["set"] for _, f in frames)
    assert any(f["unset"] for _, f in frames)
    script = ("import { applyChanges } from './changes.mjs';"
              "let d = ''; process.stdin.on('data', (c) => d += c).on('end', () => console.log("
              "JSON.stringify(JSON.parse(d).map(([v, f]) => applyChanges(v, f)))));")
    done = subprocess.run(["node", "--input-type=module", "-e", script], input=json.dumps(frames), text=True,
                          capture_output=True, cwd=LOAD.parent / "node", check=True)
    assert json.loads(done.stdout) == [new for _, new in CASES]
