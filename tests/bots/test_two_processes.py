"""Two server processes on one PostgreSQL database drive each bot move exactly once."""

from __future__ import annotations

import re
import threading
import time

import pytest

from ..procs import ServerProcess
from .. import oneshot

MOVE = re.compile(r"bot (move|refused): game (\w+) seat (\d+) version (\d+) .*process (\w+)")


class Lines:
    """Reads a process's stderr as it comes (a full pipe would stall the server)."""

    def __init__(self, server: ServerProcess) -> None:
        self.lines: list[str] = []
        self.thread = threading.Thread(target=self._read, args=(server,), daemon=True)
        self.thread.start()

    def _read(self, server: ServerProcess) -> None:
        for raw in server.proc.stderr:  # type: ignore[union-attr]
            self.lines.append(raw.decode(errors="replace"))


@pytest.mark.postgres
def test_two_processes_play_each_bot_move_exactly_once(pg_url):
    env = {"BOT_DELAY_SECONDS": "0", "BOT_TICK_SECONDS": "0.2", "BOT_LOG": "1"}
    with ServerProcess(pg_url, env=env) as a, ServerProcess(pg_url, env=env) as b:
        logs = [Lines(a), Lines(b)]
        created = [oneshot.post(f"{server.url}/api/games", json={
            "title": "tiny-towns", "players": [{"bot": "strong"}, {"bot": "random"}],
            "options": {"monuments": False}}).json() for server in (a, b)]
        games = [game["id"] for game in created]
        deadline = time.monotonic() + 300
        views = {}
        while time.monotonic() < deadline:
            views = {g: oneshot.get(f"{a.url}/api/games/{g}").json() for g in games}
            if all(v["status"] == "finished" for v in views.values()):
                break
            time.sleep(0.5)
        stored = sum(len(oneshot.get(f"{a.url}/api/games/{game['id']}/export",
                                     headers={"Authorization": f"Bearer {game['host_token']}"}).json()["actions"])
                     for game in created)
    assert all(v["status"] == "finished" for v in views.values()), "the bots did not finish their games"
    moves, refused = [], []
    for log in logs:
        log.thread.join(timeout=5)
        for line in log.lines:
            found = MOVE.search(line)
            if found and found.group(2) in games:
                (moves if found.group(1) == "move" else refused).append(found.groups()[1:])
    # Every action of both games is one logged bot move, by one process.
    assert len(moves) == stored
    made = {(g, s, v) for g, s, v, _ in moves}
    assert len(made) == len(moves), "a bot acted twice on one version"
    # A refused attempt is a bot choosing on a view that then changed, never a second
    # process playing a turn the first one played. (One process may be refused and then
    # move at the same view version: the other seat's private step moved the game, not
    # this seat's view.)
    mover = {(g, s, v): p for g, s, v, p in moves}
    assert not [r for r in refused if tuple(r[:3]) in made and mover[tuple(r[:3])] != r[3]], refused
    print(f"moves by process: { {p: sum(1 for *_, q in moves if q == p) for p in {m[3] for m in moves}} }")
