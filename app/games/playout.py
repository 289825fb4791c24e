"""Random full games through the protocol alone: for tests, fuzzing and benchmarks."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from . import get_title
from .protocol import State, Title, validate_options

MAX_STEPS = 5000


@dataclass
class Playout:
    title: Title
    options: dict[str, Any]
    seed: int
    players: int
    state: State
    actions: list[tuple[int, str]]


def random_playout(title_id: str, players: int, seed: int, options: dict[str, Any] | None = None,
                   max_steps: int = MAX_STEPS) -> Playout:
    """Choose uniformly among the listed options (never "cancel" when anything else is
    listed) until the game ends; AssertionError if it does not end within max_steps."""
    title = get_title(title_id)
    chosen = validate_options(title.TITLE, options or {}, players)
    state = title.setup(players, chosen, seed)
    rng = random.Random(seed)
    actions: list[tuple[int, str]] = []
    try:
        return _play(title, chosen, seed, players, state, rng, actions, max_steps)
    except Exception as failure:
        failure.actions = list(actions)  # type: ignore[attr-defined]  # for a replayable dump
        raise


def _play(title: Title, chosen: dict[str, Any], seed: int, players: int, state: State, rng: random.Random,
          actions: list[tuple[int, str]], max_steps: int) -> Playout:
    for _ in range(max_steps):
        if title.result(state) is not None:
            return Playout(title, chosen, seed, players, state, actions)
        seats = sorted(title.to_act(state))
        assert seats, "nobody to act but no result"
        seat = rng.choice(seats)
        ids = [o.id for o in title.options(state, seat)]
        assert ids, f"seat {seat} is to act but has no options"
        assert len(ids) == len(set(ids)), "option ids must be unique"
        pick = rng.choice([i for i in ids if i != "cancel"] or ids)
        state = title.apply(state, seat, pick)
        actions.append((seat, pick))
    raise AssertionError(f"{title.TITLE.id} with {players} players did not finish in {max_steps} steps (seed {seed})")
