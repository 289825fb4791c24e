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

import orjson

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


def _canon(view: dict[str, Any]) -> bytes:
    """The view as the bytes a seat would get, keys sorted: 1 and 1.0, True and 1 differ, as
    they would on the wire. orjson, not ``json.dumps``: a fifth of the twin games' time."""
    return orjson.dumps(view, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)


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


# --- Through the table: versions, frames and the games list too ---
#
# The rules-level check above compares views. What surrounds a view must not tell either:
# its ``version``, whether a frame goes out, and the "last change" of the games list. So
# the same pair is driven through the table (two stored games, the same actions), and after
# every act in either game each observer's whole table view (version included), whether
# its websocket would get a frame, and its games-list entry must be the same in both.
#
# Twins with the same actions take the same private steps. The pair that differs in how
# many private steps a seat took is ``private_detours``: in game b the holder now and then
# takes a choice and takes it back (a round trip nobody else sees), between two steps.

ROUND_TRIP_TRIES = 10  # options of each step tried when looking for a private round trip
MAX_DETOURS = 4


@dataclass
class TableRun:
    compared: int  # acts after which both games were compared
    detours: int  # private round trips the holder took in game b only
    ended_by: str
    taken_back: int = 0  # moves taken back in both games (``takebacks``)


def _seen_by(title: Title, state: State, seat: Seat | None) -> str:
    """Everything the rules show one viewer, as one comparable string."""
    options = [o.as_json() for o in title.options(state, seat)] if seat is not None else []
    result = title.result(state)
    return _canon({"view": title.view(state, seat), "options": options, "to_act": sorted(title.to_act(state)),
                   "result": result and result.as_json()})


def private_round_trip(title: Title, state: State, seat: Seat, players: int) -> tuple[str, str] | None:
    """Two choices of ``seat`` that lead back to the very same game and that nobody else
    saw in between: a choice taken and taken back (a building picked, then "cancel")."""
    viewers: list[Seat | None] = [None, *range(players)]
    others = [v for v in viewers if v != seat]
    before = {v: _seen_by(title, state, v) for v in viewers}
    listed = [o.id for o in title.options(state, seat)]
    for first in listed[:ROUND_TRIP_TRIES]:
        try:
            middle = title.apply(state, seat, first)
        except Exception:  # noqa: BLE001 - a listed option the rules refuse fails elsewhere
            continue
        if any(_seen_by(title, middle, v) != before[v] for v in others):
            continue  # not private
        back = sorted((o.id for o in title.options(middle, seat)), key=lambda i: "cancel" not in i)
        for second in back[:ROUND_TRIP_TRIES]:
            after = title.apply(middle, seat, second)
            if _canon(title.dump(after)) == _canon(title.dump(state)):  # the very same game again
                return first, second
    return None


def private_detours(title_id: str, seed: int) -> Twins:
    """Two copies of one new game; in game b, seat 1 takes private round trips (see
    ``drive_through_table``). What is secret is how many steps seat 1 took."""
    from app.games.protocol import validate_options

    title = get_title(title_id)
    players = max(3, title.TITLE.min_players) if title.TITLE.max_players >= 3 else title.TITLE.max_players
    state = title.setup(players, validate_options(title.TITLE, {}, players), seed)
    return Twins(title_id, players, state, title.load(title.dump(state)), holder=1,
                 hidden=lambda a, b: True, what="how many private steps seat 1 took", steps=120)


async def drive_through_table(twins: Twins, seed: int, database_url: str, detours: bool = False,
                              takebacks: bool = False) -> TableRun:
    """Store both twins as games and drive them through the table with the same actions;
    with ``detours``, game b's holder also takes private round trips between steps; with
    ``takebacks``, now and then the seat that moved last takes it back in both games (at
    once when offered, else asked and accepted by everyone). After every act, compare what
    each observer gets (see the note above)."""
    from datetime import datetime, timedelta, timezone

    import app.table.service as service
    from app.hub.local import Hub
    from app.store.db import Database
    from app.table.service import Table, Viewer

    title = get_title(twins.title_id)
    names = [f"P{i}" for i in range(twins.players)]
    clock = service.utcnow
    table = Table(Database(database_url, synchronous="NORMAL"), Hub())
    try:
        games = [await table.create_game(twins.title_id, names, seed=1) for _ in (0, 1)]
        start = datetime(2030, 1, 1, tzinfo=timezone.utc)
        await _store_states(table, [g.id for g in games], [twins.a, twins.b], start)
        table = Table(table.db, Hub())  # forget the dealt games cached at creation
        tokens = [{s.seat: s.token for s in g.seats} for g in games]
        watched = observers(twins)
        sent = [{v: -1 for v in watched} for _ in games]  # the version each observer's socket holds
        rng, choose = Rng(seed), bot_for(twins.title_id)
        a, b = twins.a, twins.b
        compared = taken = 0
        previous: Seat | None = None  # who moved last, in both games
        taken_back = 0

        async def act(which: int, seat: Seat, option: str, moment: float) -> None:
            # "Last change" times come from a clock that moves one second per step
            service.utcnow = lambda: start + timedelta(seconds=moment)  # type: ignore[assignment]
            viewer = Viewer(games[which].id, seat)
            cached = table.cache.get(viewer.game_id, 0)
            await table.act(viewer, option, cached.view_version(seat) if cached else (await table.view(viewer))["version"])

        async def compare(where: str) -> None:
            nonlocal compared
            listed = [await _listed(table, tokens[i], watched) for i in (0, 1)]
            for v in watched:
                seen = [(*await _observed(table, g.id, v, sent[i]), listed[i].get(v)) for i, g in enumerate(games)]
                who = "the spectator" if v is None else f"seat {v}"
                for part, x, y in zip(("view", "frame", "games list"), seen[0], seen[1]):
                    assert x == y, f"{twins.title_id}, {twins.what}, {where}: {who}'s {part} differs:\n{x}\n{y}"
            compared += 1

        async def take_back(seat: Seat, step: int) -> bool:
            """The seat's last move taken back in both games, if both offer the same way."""
            views = [await table.view(Viewer(g.id, seat)) for g in games]
            offers = [v["takeback"] for v in views]
            if offers[0] != offers[1] or not (offers[0]["undo"] or offers[0]["ask"]):
                return False
            for which, (g, v) in enumerate(zip(games, views)):
                if offers[0]["undo"]:
                    await table.takebacks.undo(Viewer(g.id, seat), v["version"])
                else:
                    await table.takebacks.ask(Viewer(g.id, seat), v["version"])
            await compare(f"after step {step}, seat {seat} {'undid' if offers[0]['undo'] else 'asked'}")
            for g in games:
                request = (await table.view(Viewer(g.id, None)))["takeback"]["request"]
                names = [s["name"] for s in (await table.view(Viewer(g.id, None)))["seats"]]
                for waiting in list(request["waiting"]) if request else []:
                    await table.takebacks.answer(Viewer(g.id, names.index(waiting)), request["id"], True)
            await compare(f"after step {step}, seat {seat}'s takeback")
            return True

        await compare("at the start")
        for step in range(twins.steps):
            if title.result(a) is not None:
                return TableRun(compared, taken, "game over", taken_back)
            seat = rng.choice(sorted(title.to_act(a)))
            if detours and seat == twins.holder and taken < MAX_DETOURS and step % 3 == 0:
                trip = private_round_trip(title, b, seat, twins.players)
                if trip is not None:  # game b only, between two steps both games take
                    for n, option in enumerate(trip, 1):
                        await act(1, seat, option, step + n / 3)
                        b = title.apply(b, seat, option)
                        await compare(f"after step {step}, private step {n} in one game only")
                    taken += 1
            if takebacks and previous is not None and step % 3 == 1 and taken_back < 6:
                if await take_back(previous, step):
                    taken_back += 1
                    a, b = (table.cache.get(g.id, 0).state for g in games)
                    if title.result(a) is not None or not title.to_act(a):
                        return TableRun(compared, taken, "game over", taken_back)
                    seat = rng.choice(sorted(title.to_act(a)))
            option = _pick(title, choose, a, b, seat, twins.holder, rng)
            if option is None:
                return TableRun(compared, taken, "holder chose differently", taken_back)
            previous = seat
            for which in (0, 1):
                await act(which, seat, option, step + 1)
            a, b = title.apply(a, seat, option), title.apply(b, seat, option)
            if not twins.hidden(a, b):  # this step showed the secret, as the rules allow
                return TableRun(compared, taken, "revealed", taken_back)
            await compare(f"step {step}")
        return TableRun(compared, taken, "steps", taken_back)
    finally:
        service.utcnow = clock
        await table.db.dispose()


async def _store_states(table: Any, game_ids: list[str], states: list[State], created: Any) -> None:
    from sqlalchemy import update

    from app.table.service import GAMES

    async with table.db.write() as session:
        for game_id, state in zip(game_ids, states):
            title = get_title((await table.view(_viewer(game_id)))["title"])
            await session.execute(update(GAMES).where(GAMES.c.id == game_id)
                                  .values(snapshot=json.dumps(title.dump(state)), updated_at=created))


def _viewer(game_id: str) -> Any:
    from app.table.service import Viewer

    return Viewer(game_id, None)


async def _listed(table: Any, tokens: dict[Seat, str], watched: list[Seat | None]) -> dict[Seat, Any]:
    """Each watching seat's entry in its games list (what the home page shows)."""
    from dataclasses import asdict

    entries = await table.hosting.my_games([tokens[s] for s in watched if s is not None])
    return {e.seat: {k: v for k, v in asdict(e).items() if k not in ("token", "id", "url")} for e in entries}


async def _observed(table: Any, game_id: str, seat: Seat | None, sent: dict[Seat | None, int]) -> tuple[Any, Any]:
    """One observer's view (its version included), and whether its socket gets a frame now
    (as the websocket asks: changed since the version it holds)."""
    from app.table.service import Viewer

    viewer = Viewer(game_id, seat)
    cached = table.cache.get(game_id, 0)
    newest = cached.version if cached else None  # as a change notice would say: no database read
    view = await table.view(viewer, newest)
    frame = await table.view_if_changed(viewer, sent[seat], newest)
    if frame is not None:
        sent[seat] = frame["version"]
    return {k: v for k, v in view.items() if k != "id"}, frame is not None and frame["version"]
