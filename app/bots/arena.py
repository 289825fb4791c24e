"""Bots against bots through the rules alone (no server, no database), for tests and bench/.

A view-based level is handed what the API hands a seat's link — the same projection the
table builds (``app.table.service.view_core``), passed through JSON as a client gets it —
and nothing else; a state-based bot (a title's ``choose(state, seat, rng)``) is handed the
true state, as tests and benches have always done. Everything is seeded.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import orjson

from app.games import get_title
from app.games.playout import bot_module
from app.games.protocol import State, Title, validate_options
from app.games.rng import Rng
from app.table.service import view_core

from . import levels

# A player: given the title, the state and its seat, one option id. Only the "state" kind
# looks at ``state`` itself; the view kinds look at the seat's view built from it.
Player = Callable[[Title, State, int], str]


def seat_view(title_id: str, title: Title, state: State, seat: int) -> dict[str, Any]:
    """What a seat's link gets from the API (less the table's names and ids), as JSON does."""
    core = view_core(title, state, seat)
    core.pop("log", None)  # a bot reads the board, not the story (and the log only grows)
    body = {"title": title_id, "seat": seat, "status": "active", **core}
    return orjson.loads(orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS))


@dataclass
class Timer:
    """Decision times (seconds of this process's CPU) of one player."""
    times: list[float] = field(default_factory=list)


def view_player(title_id: str, level: str, rng: random.Random, timer: Timer | None = None) -> Player:
    def play(title: Title, state: State, seat: int) -> str:
        view = seat_view(title_id, title, state, seat)
        start = time.process_time()
        chosen = levels.choose(level, view, rng)
        if timer is not None:
            timer.times.append(time.process_time() - start)
        return chosen
    return play


def state_player(title_id: str, seed: int) -> Player:
    """Today's per-title bot, on the true state."""
    bot = bot_module(title_id)
    assert bot is not None, f"{title_id} has no bot"
    rng = Rng(seed)
    return lambda title, state, seat: bot.choose(state, seat, rng)


@dataclass
class Match:
    winners: list[int]  # empty: the game did not finish within the cap
    decisions: int
    scores: list[int]


def play_match(title_id: str, players: list[Player], seed: int, options: dict[str, Any] | None = None,
               max_steps: int = 6000) -> Match:
    """One game, seat i played by ``players[i]``; who acts among several is drawn from the seed."""
    title = get_title(title_id)
    state = title.setup(len(players), validate_options(title.TITLE, options or {}, len(players)), seed)
    order = random.Random(seed ^ 0xA12E7A)
    for step in range(max_steps):
        over = title.result(state)
        if over is not None:
            break
        seat = order.choice(sorted(title.to_act(state)))
        state = title.apply(state, seat, players[seat](title, state, seat))
    over = title.result(state)
    if over is None:
        return Match([], max_steps, [])
    data = over.as_json()
    scores = [s.get("score", 0) for s in sorted(data.get("scores", []), key=lambda s: s.get("seat", 0))]
    return Match(list(data["winners"]), step, scores)
