"""Twin games: the test that nothing public depends on a secret.

Two games that differ only in one hidden thing (which monument a seat kept, which law
card is in a hand, the order of a face-down pile, a seat's counters behind its screen)
are driven by the same actions. Until the secret comes out by design, every other seat
and the spectator must see exactly the same thing in both, step for step: the same view,
the same ``to_act``, the same options, the same result.

Each playable title has ``tests/games/<package>/twins.py`` with ``CASES``: functions of
a seed that return :class:`Twins`. ``tests/games/test_twins.py`` runs every case of
every title over several seeds, and fails for a title that has no cases.

Checking the whole view (not a scrubbed copy of it) is the point: a leak through a flag,
a count or an ordering is caught wherever it lives.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from app.games import get_title
from app.games.protocol import State, Title
from app.games.rng import Rng

Seat = int


@dataclass
class Twins:
    """Two states of one title that differ only in one hidden thing."""

    title_id: str
    players: int
    a: State
    b: State
    holder: Seat | None  # the seat that knows the secret; None when nobody does (a face-down pile)
    hidden: Callable[[State, State], bool]  # true while the difference is still secret
    what: str  # the hidden thing, for failure messages
    steps: int = 400  # how far to drive the pair at most
    seats_to_skip: frozenset[Seat] = field(default_factory=frozenset)  # others who may know it too


@dataclass
class TwinRun:
    compared: int  # steps at which both games were compared
    ended_by: str  # "revealed", "holder chose differently", "game over", "steps"


def observers(twins: Twins) -> list[Seat | None]:
    """The spectator and every seat that must not learn the secret."""
    return [None] + [s for s in range(twins.players) if s != twins.holder and s not in twins.seats_to_skip]


def assert_same_to_others(title: Title, twins: Twins, a: State, b: State, step: int) -> None:
    """Everything a seat other than the holder, or a spectator, can see is the same."""
    where = f"{twins.title_id}, {twins.what}, step {step}"
    assert title.to_act(a) == title.to_act(b), f"{where}: whose turn it is differs"
    ra, rb = title.result(a), title.result(b)
    assert (ra and ra.as_json()) == (rb and rb.as_json()), f"{where}: the result differs"
    for seat in observers(twins):
        va, vb = _canon(title.view(a, seat)), _canon(title.view(b, seat))
        assert va == vb, f"{where}: {'the spectator' if seat is None else f'seat {seat}'} sees a difference"
        if seat is not None:
            oa = [o.as_json() for o in title.options(a, seat)]
            ob = [o.as_json() for o in title.options(b, seat)]
            assert oa == ob, f"{where}: seat {seat}'s options differ"


def _canon(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, default=str)


def bot_for(title_id: str) -> Callable[[State, Seat, Rng], str] | None:
    """The title's own bot (``app/games/<package>/bot.py``), if it has one."""
    try:
        return importlib.import_module(f"{get_title(title_id).__name__}.bot").choose
    except ModuleNotFoundError:
        return None


def drive(twins: Twins, seed: int) -> TwinRun:
    """Drive both games with the same actions while the secret stays hidden, comparing
    everything the others see after every step."""
    title = get_title(twins.title_id)
    rng, choose = Rng(seed), bot_for(twins.title_id)
    a, b = twins.a, twins.b
    for step in range(twins.steps):
        if not twins.hidden(a, b):
            return TwinRun(step, "revealed")
        assert_same_to_others(title, twins, a, b, step)
        if title.result(a) is not None:
            return TwinRun(step + 1, "game over")
        seat = rng.choice(sorted(title.to_act(a)))
        option = _pick(title, choose, a, b, seat, twins.holder, rng)
        if option is None:
            return TwinRun(step + 1, "holder chose differently")
        a, b = title.apply(a, seat, option), title.apply(b, seat, option)
    return TwinRun(twins.steps, "steps")


def _pick(title: Title, choose: Callable[..., str] | None, a: State, b: State, seat: Seat,
          holder: Seat | None, rng: Rng) -> str | None:
    """The same action for both games: the bot's choice in game a (or a random listed
    one). The holder's options may differ; it takes a choice open in both while there is
    one, since taking one open in only one game is how it reveals its secret."""
    listed = [o.id for o in title.options(a, seat)]
    wanted = choose(a, seat, rng) if choose and rng.randrange(4) else rng.choice(listed)
    if seat != holder:
        return wanted
    common = [o for o in listed if o in {o.id for o in title.options(b, seat)}]
    if wanted in common:
        return wanted
    return rng.choice(common) if common else None


def leaves(value: Any) -> Iterator[str]:
    """Every string in a view, keys included: where to look for a secret's name."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from leaves(v)
    elif isinstance(value, str):
        yield value


def cases_for(package: str) -> list[Callable[[int], Twins]]:
    """``CASES`` of ``tests/games/<package>/twins.py`` (none if the title has no such file)."""
    try:
        module = importlib.import_module(f"tests.games.{package}.twins")
    except ModuleNotFoundError as missing:
        if missing.name != f"tests.games.{package}.twins":
            raise
        return []
    return list(module.CASES)
