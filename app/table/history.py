"""History and replay: a game played again from its secret and actions, step by step, as
one viewer saw it.

A replay shows a viewer only what they could see at each moment: a seat its own screen,
a spectator the public view. Its steps are the moments **that viewer's** view changed,
not the game's versions: another seat's private steps (choosing a tile, adding counters)
change nothing the viewer sees, so they are no step of the viewer's replay, and the
number of steps tells nothing about them (the twin-games law, tests/table/test_history.py).

Once the game is over the screens are lifted: anyone with a link of the game may replay
it as any seat, over every one of the game's versions.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Sequence

from sqlalchemy import select

from app.games import get_title
from app.games.protocol import State, Title
from app.store.models import Action, Game, Seat

from .errors import BadRequest, NotFound
from .seats import Viewer
from .service import Table, name_seats, seat_names, setup_seed, view_core

CHECKPOINT = 32  # a state is kept every this many versions; the rest are played again
KEEP_GAMES = 8  # games whose replays are kept in memory


@dataclass
class Played:
    """A game's states at every CHECKPOINT-th version, and what it takes to reach the others."""

    title: Title
    version: int
    finished: bool
    seed_given: bool
    names: list[str | None]
    checkpoints: list[State]
    actions: list[tuple[int, str]]

    def state_at(self, version: int) -> State:
        state = self.checkpoints[version // CHECKPOINT]
        for seat, option in self.actions[version - version % CHECKPOINT:version]:
            state = self.title.apply(state, seat, option)
        return state


def viewer_steps(title: Title, states: Sequence[State], seat: int | None) -> list[int]:
    """The indexes of ``states`` at which what ``seat`` (None: a spectator) sees changed,
    starting with 0: the steps of that viewer's replay."""
    steps: list[int] = []
    last: str | None = None
    for index, state in enumerate(states):
        seen = json.dumps(view_core(title, state, seat), sort_keys=True, default=str)
        if seen != last:
            steps.append(index)
            last = seen
    return steps


class History:
    """Replays of the games of one table (kept for the few games being looked at)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._played: OrderedDict[str, Played] = OrderedDict()
        self._steps: dict[tuple[str, int, int | None, bool], list[int]] = {}

    async def view_at(self, viewer: Viewer, at: int | None, as_seat: int | None = None) -> dict[str, Any]:
        """The view of step ``at`` (None: the last) of the viewer's replay. After the game,
        ``as_seat`` replays any seat's screen over every version of the game."""
        played = await self._played_game(viewer.game_id)
        seat, every_version = viewer.seat, False
        if as_seat is not None:
            if not played.finished:
                raise BadRequest("Other seats' screens can be replayed once the game is over.")
            if not 0 <= as_seat < len(played.names):
                raise BadRequest("This game has no such seat.")
            seat, every_version = as_seat, True
        steps = self._steps_for(viewer.game_id, played, seat, every_version)
        index = len(steps) - 1 if at is None else at
        if not 0 <= index < len(steps):
            raise BadRequest(f"This replay has steps 0 to {len(steps) - 1}.")
        version = steps[index]
        state = played.state_at(version)
        core = view_core(played.title, state, seat)
        display = seat_names(played.names)
        return {
            "id": viewer.game_id,
            "title": played.title.TITLE.id,
            "status": "finished" if core["result"] is not None else "active",
            "version": index,
            "seed_given": played.seed_given,
            "seat": seat,
            "seats": [{"seat": i, "name": display[i], "open": n is None} for i, n in enumerate(played.names)],
            **core,
            "options": [],  # a replay is looked at, not played
            "log": [name_seats(line, display) for line in core["log"]],
            "log_first": core["log_total"] - len(core["log"]) + 1,
            "replay": {"at": index, "steps": len(steps), "every_version": every_version,
                       "revealable": played.finished, "as_seat": as_seat},
        }

    async def _played_game(self, game_id: str) -> Played:
        async with self.table.db.read() as session:
            game = await session.get(Game, game_id)
            if game is None:
                raise NotFound("There is no game with that id.")
            cached = self._played.get(game_id)
            if cached is not None and cached.version == game.version:
                self._played.move_to_end(game_id)
                return cached
            actions = [(a.seat, a.option) for a in (await session.execute(
                select(Action.seat, Action.option).where(Action.game_id == game_id).order_by(Action.seq))).all()]
            names = list((await session.execute(
                select(Seat.name).where(Seat.game_id == game_id).order_by(Seat.seat))).scalars().all())
        title = get_title(game.title)
        state = title.setup(game.players, game.options, setup_seed(game))
        checkpoints = [state]
        for n, (seat, option) in enumerate(actions, 1):
            state = title.apply(state, seat, option)
            if n % CHECKPOINT == 0:
                checkpoints.append(state)
        played = Played(title, game.version, game.status == "finished", game.seed_given, names, checkpoints, actions)
        self._played[game_id] = played
        for key in [k for k in self._steps if k[0] == game_id]:
            del self._steps[key]
        while len(self._played) > KEEP_GAMES:
            gone, _ = self._played.popitem(last=False)
            for key in [k for k in self._steps if k[0] == gone]:
                del self._steps[key]
        return played

    def _steps_for(self, game_id: str, played: Played, seat: int | None, every_version: bool) -> list[int]:
        key = (game_id, played.version, seat, every_version)
        if key not in self._steps:
            if every_version:
                self._steps[key] = list(range(len(played.actions) + 1))  # takebacks leave gaps in versions
            else:
                self._steps[key] = viewer_steps(played.title, _all_states(played), seat)
        return self._steps[key]


def _all_states(played: Played) -> list[State]:
    states, state = [], played.checkpoints[0]
    states.append(state)
    for seat, option in played.actions:
        state = played.title.apply(state, seat, option)
        states.append(state)
    return states
