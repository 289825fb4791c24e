"""Whole games through the protocol alone, for tests, fuzzing and benchmarks.

Two ways to play: ``bot_playout`` lets the title's own bot choose (``app/games/<title>/bot.py``
with ``choose(state, seat, rng)``), so the game makes progress and ends in a sensible
number of decisions; ``random_playout`` chooses uniformly among the listed options, which
reaches odd corners but can wander for a long time, so after its cap the bot takes over
and only a game that still cannot end is a failure. Everything is seeded: the same call
plays the same game.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable

from . import LISTINGS, get_title
from .protocol import State, Title, validate_options
from .rng import Rng

MAX_STEPS = 5000  # random decisions before the bot takes over
BOT_MAX_STEPS = 20000  # a bot game longer than this is a bug, not bad luck

Chooser = Callable[[State, int], str]


@dataclass
class Playout:
    title: Title
    options: dict[str, Any]
    seed: int
    players: int
    state: State
    actions: list[tuple[int, str]]
    random_steps: int = 0  # decisions made at random (the rest by the bot)

    @property
    def rounds(self) -> int | None:
        """The round the game ended in, if the title's public view counts rounds."""
        value = self.title.view(self.state, None)["public"].get("round")
        return value if isinstance(value, int) else None


def bot_module(title_id: str) -> ModuleType | None:
    """The title's bot (its package's ``bot`` module), or None when it has none."""
    get_title(title_id)  # refuses unknown titles
    listing = next(entry for entry in LISTINGS if entry.id == title_id)
    name = f"{listing.module}.bot"
    return importlib.import_module(name) if importlib.util.find_spec(name) else None


def random_chooser(title: Title, rng: random.Random) -> Chooser:
    """Uniform among the listed options, never "cancel" while anything else is listed."""
    def choose(state: State, seat: int) -> str:
        ids = [o.id for o in title.options(state, seat)]
        assert ids, f"seat {seat} is to act but has no options"
        assert len(ids) == len(set(ids)), "option ids must be unique"
        return rng.choice([i for i in ids if i != "cancel"] or ids)
    return choose


def bot_chooser(title_id: str, title: Title, seed: int) -> Chooser:
    """The title's bot with its own seeded Rng; uniform random for a title without one."""
    bot = bot_module(title_id)
    if bot is None:
        return random_chooser(title, random.Random(seed ^ 0x5EED))
    rng = Rng(seed)
    return lambda state, seat: bot.choose(state, seat, rng)


def bot_playout(title_id: str, players: int, seed: int, options: dict[str, Any] | None = None,
                max_steps: int = BOT_MAX_STEPS) -> Playout:
    """A whole game chosen by the title's bot; AssertionError if it does not end within
    max_steps decisions."""
    title, chosen, state = _start(title_id, players, seed, options)
    playout = Playout(title, chosen, seed, players, state, [])
    seats = random.Random(seed)
    _guard(playout, lambda: _play(playout, bot_chooser(title_id, title, seed), seats, max_steps, "the bot"))
    return playout


def random_playout(title_id: str, players: int, seed: int, options: dict[str, Any] | None = None,
                   max_steps: int = MAX_STEPS) -> Playout:
    """Uniformly random choices for up to max_steps decisions; a game still running then
    is finished by the bot, and only a game the bot cannot end either fails
    (AssertionError). ``random_steps`` tells how many decisions were random."""
    title, chosen, state = _start(title_id, players, seed, options)
    playout = Playout(title, chosen, seed, players, state, [])
    rng = random.Random(seed)

    def play() -> None:
        if _play(playout, random_chooser(title, rng), rng, max_steps, None):
            return
        _play(playout, bot_chooser(title_id, title, seed), rng, BOT_MAX_STEPS,
              f"the bot (after {max_steps} random decisions)")
    _guard(playout, play)
    return playout


def _start(title_id: str, players: int, seed: int, options: dict[str, Any] | None) -> tuple[Title, dict[str, Any], State]:
    title = get_title(title_id)
    chosen = validate_options(title.TITLE, options or {}, players)
    return title, chosen, title.setup(players, chosen, seed)


def _guard(playout: Playout, play: Callable[[], None]) -> None:
    try:
        play()
    except Exception as failure:
        failure.actions = list(playout.actions)  # type: ignore[attr-defined]  # for a replayable dump
        raise


def _play(playout: Playout, choose: Chooser, seats: random.Random, max_steps: int, who: str | None) -> bool:
    """Up to max_steps decisions; True once the game is over. ``who`` names the player for
    the error when the game must end within the cap; None lets the cap pass quietly."""
    title = playout.title
    for _ in range(max_steps):
        if title.result(playout.state) is not None:
            return True
        acting = sorted(title.to_act(playout.state))
        assert acting, "nobody to act but no result"
        seat = seats.choice(acting)
        pick = choose(playout.state, seat)
        playout.state = title.apply(playout.state, seat, pick)
        playout.actions.append((seat, pick))
        if who is None:
            playout.random_steps += 1
    if title.result(playout.state) is not None:
        return True
    if who is not None:
        raise AssertionError(f"{title.TITLE.id} with {playout.players} players did not finish in "
                             f"{max_steps} decisions by {who} (seed {playout.seed})")
    return False
