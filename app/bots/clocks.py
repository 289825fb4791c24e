"""Time limits per decision: games that do not stall.

The host chooses, per game, no limit (no ``game_clocks`` row) or a limit per decision and
what happens when a seat runs out of it. A seat that owes a decision in such a game has a
row in ``seat_clocks``: started when it came to owe the decision (or made its last step),
due first at half its time (a reminder, through the notifications the seat set), then at
its end (the host's choice: wait, a bot plays that decision, or a bot plays the seat until
its player comes back). Rows are written after the table's events, each in its own short
transaction; the driver's loop runs the due ones, each claimed by one process
(``app.background.claim``), so a restart resumes them and several processes run each once.

Who owes a decision is public, and so is when a seat came to owe it: nothing here depends
on a secret.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite

from app.background import Background, claim, unclaimed
from app.store.models import Game
from app.table.errors import BadRequest
from app.table.events import TableEvent
from app.table.seats import Viewer

from .tables import GAME_CLOCKS, SEAT_CLOCKS

if TYPE_CHECKING:
    from .driver import BotDriver

log = logging.getLogger("keydom.bots")
BATCH = 50

ON_TIMEOUT = {  # what happens when a seat's time runs out, in the host's words
    "wait": "the game waits",
    "bot-move": "a bot plays that decision",
    "bot-seat": "a bot plays the seat until its player comes back",
}
IN_THE_LOG = {"wait": "the game waits for them", "bot-move": "a bot plays this decision for them"}
TO_THE_PLAYER = {"wait": "the game waits for you", "bot-move": "a bot plays this decision for you",
                 "bot-seat": "a bot plays your seat until you come back (open your link and say so)"}
MIN_SECONDS = 60
MAX_SECONDS = 30 * 86400
CHOICES = [(12 * 3600, "12 hours"), (24 * 3600, "24 hours"), (3 * 86400, "3 days"), (7 * 86400, "7 days")]
STAND_IN = "strong"  # the bot that plays for a seat whose time ran out
_UNKNOWN = object()


@dataclass(frozen=True)
class Limit:
    seconds: int
    on_timeout: str

    def describe(self) -> str:
        return f"{duration(self.seconds)} per decision; when it runs out, {ON_TIMEOUT[self.on_timeout]}"


def check_limit(seconds: Any, on_timeout: Any) -> Limit | None:
    """A limit from a form or the API; None (or 0, or empty) is no limit. Bad input: a
    BadRequest saying what is allowed."""
    if seconds in (None, "", 0, "0"):
        return None
    try:
        if isinstance(seconds, bool):
            raise ValueError
        value = int(seconds)
    except (TypeError, ValueError):
        raise BadRequest("The time limit is a whole number of seconds.") from None
    if not MIN_SECONDS <= value <= MAX_SECONDS:
        raise BadRequest(f"A time limit per decision is from 1 minute to 30 days ({MIN_SECONDS} to {MAX_SECONDS} "
                         f"seconds); got {value}.")
    if on_timeout not in ON_TIMEOUT:
        raise BadRequest(f"When the time runs out is one of: {', '.join(ON_TIMEOUT)}.")
    return Limit(value, on_timeout)


def duration(seconds: float) -> str:
    """A span in the words a player reads at a glance: "3 days", "2 d 5 h", "36 hours",
    "23 h 10 min", "4 min"."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400) if seconds >= 2 * 86400 else (0, seconds)  # up to 2 days: in hours
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days and not hours:
        return f"{days} day{'s' if days != 1 else ''}"
    if days:
        return f"{days} d {hours} h"
    if hours and not minutes:
        return f"{hours} hour{'s' if hours != 1 else ''}"
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min"
    return "under a minute"


@dataclass(frozen=True)
class SeatClock:
    """What pages show of a seat's clock."""

    seat: int
    left: float  # seconds (0 once it ran out)
    expired: bool

    @property
    def text(self) -> str:
        return "time ran out" if self.expired or self.left <= 0 else f"{duration(self.left)} left"


class Clocks:
    def __init__(self, driver: BotDriver, notifier: Any = None) -> None:
        self.driver = driver
        self.table = driver.table
        self.db = driver.db
        self.notifier = notifier  # app.notify's Notifier: the half-time reminder goes through it
        self.reminders = 0  # reminders this process queued (tests)
        self.expired = 0  # clocks this process ran out (tests)
        self._limits: dict[str, Limit | None] = {}  # per game, as last read (None: no limit)
        self._syncing: dict[str, asyncio.Future[None]] = {}
        self._background = Background(log, "start a seat's clock")  # sync() wakes the driver when it wrote
        self.table.hub.on_seats_changed.append(self.forget)

    def now(self) -> float:
        return self.driver.now()

    # --- The game's limit ---
    def forget(self, game_id: str | None) -> None:
        """The limit may have changed (possibly in another process): read it again."""
        if game_id is None:
            self._limits.clear()
        else:
            self._limits.pop(game_id, None)

    async def limit(self, game_id: str) -> Limit | None:
        known = self._limits.get(game_id, _UNKNOWN)
        if known is _UNKNOWN:
            async with self.db.read() as session:
                row = (await session.execute(select(GAME_CLOCKS).where(GAME_CLOCKS.c.game_id == game_id))).first()
            known = None if row is None else Limit(row.decision_seconds, row.on_timeout)
            if len(self._limits) > 50_000:
                self._limits.clear()
            self._limits[game_id] = known
        return known  # type: ignore[return-value]

    def writer(self, limit: Limit | None) -> Callable[[Any, str], Awaitable[None]] | None:
        """For ``Table.create_game(also=...)``: the new game's limit, in its own transaction."""
        if limit is None:
            return None

        async def write(session: Any, game_id: str) -> None:
            await session.execute(GAME_CLOCKS.insert().values(
                game_id=game_id, decision_seconds=limit.seconds, on_timeout=limit.on_timeout))
            self._limits[game_id] = limit

        return write

    async def set_limit(self, game_id: str, host_token: str, limit: Limit | None) -> bool:
        """The host changes the game's limit (None: no limit): every running clock starts again
        from now under it, and the log says so. False when nothing changed."""
        await self.table.hosting.check_host(game_id, host_token)
        view = await self.table.view(Viewer(game_id, None))
        if view["status"] != "active":
            raise BadRequest("This game is over: it has no clocks any more.")
        if await self.limit(game_id) == limit:
            return False
        async with self.db.write() as session:
            await session.execute(delete(GAME_CLOCKS).where(GAME_CLOCKS.c.game_id == game_id))
            await session.execute(delete(SEAT_CLOCKS).where(SEAT_CLOCKS.c.game_id == game_id))
            if limit is not None:
                await session.execute(GAME_CLOCKS.insert().values(
                    game_id=game_id, decision_seconds=limit.seconds, on_timeout=limit.on_timeout))
        self._limits[game_id] = limit
        await self.sync(game_id, set(view["to_act"]), self.now())
        await self.table.hosting.note(game_id, f"The host set a time limit: {limit.describe()}" if limit
                                      else "The host took the time limit off: no limit per decision")
        return True

    # --- Events: whose clock starts, goes on, or stops ---
    def on_event(self, event: TableEvent) -> None:
        """Called by the driver after each table event; cheap for a game without a limit."""
        if self._limits.get(event.game_id, _UNKNOWN) is None:
            return  # the common case: no limit, nothing to write
        restart = set(event.newly_to_act)
        if event.seat is not None and event.kind in ("action", "claim", "handover"):
            restart.add(event.seat)  # the seat made a step (its next one has its own time), took the seat, or is back
        self._spawn_sync(event.game_id, restart, self.now(), event.version)

    def _spawn_sync(self, game_id: str, restart: set[int], now: float, version: int | None) -> None:
        previous = self._syncing.get(game_id)

        async def run() -> None:
            if previous is not None:  # one game's syncs run in the order of its events
                await asyncio.gather(previous, return_exceptions=True)
            await self.sync(game_id, restart, now, version)

        task = asyncio.ensure_future(run())
        self._syncing[game_id] = task
        task.add_done_callback(lambda done: self._syncing.pop(game_id, None) if self._syncing.get(game_id) is done else None)
        self._background.spawn(task)

    async def settle(self, game_id: str | None = None) -> None:
        """Wait for clocks being started after events (one game's, or all): a page drawn
        right after an action shows the new clock, not the old one."""
        if game_id is None:
            await self._background.settle()
        elif game_id in self._syncing:
            await asyncio.gather(self._syncing[game_id], return_exceptions=True)

    async def sync(self, game_id: str, restart: set[int], now: float, version: int | None = None) -> None:
        """The game's clocks match who owes a decision now: a clock for each seated human
        seat that owes one (a new one for ``restart`` and for seats without), none for others.
        ``version``: the game's version after the event (its view then comes from the cache)."""
        limit = await self.limit(game_id)
        if limit is None:
            return
        view = await self.table.view(Viewer(game_id, None), version)  # from the cache after an action
        driven = await self.driver.bot_seats(game_id)
        owing = set(view["to_act"]) if view["status"] == "active" else set()
        timed = {s for s in owing if not view["seats"][s]["open"] and s not in driven}
        since = view["version"]
        # No read before writing; a new clock for restarted seats, a running one goes on. On
        # SQLite this rides in the action writer's thread, committed with other games' actions.
        statements = [delete(SEAT_CLOCKS).where(SEAT_CLOCKS.c.game_id == game_id,
                                                SEAT_CLOCKS.c.seat.not_in(sorted(timed)))]
        statements += [self._upsert(game_id, seat, since, now, limit, seat in restart) for seat in sorted(timed)]

        def write(conn: Any) -> None:
            for statement in statements:
                conn.execute(statement)

        async def write_async(conn: Any) -> None:
            for statement in statements:
                await conn.execute(statement)

        await self.db.commit_action(write, write_async)
        self.driver._wake.set()

    def _upsert(self, game_id: str, seat: int, since: int, now: float, limit: Limit, restart: bool) -> Any:
        dialect = sqlite if self.db.is_sqlite else postgresql
        row = {"game_id": game_id, "seat": seat, "since": since, "started_at": now,
               "expires_at": now + limit.seconds, "stage": "running", "due_at": now + limit.seconds / 2,
               "claimed_by": None, "claimed_until": None}
        stmt = dialect.insert(SEAT_CLOCKS).values(**row)
        if not restart:
            return stmt.on_conflict_do_nothing(index_elements=[SEAT_CLOCKS.c.game_id, SEAT_CLOCKS.c.seat])
        return stmt.on_conflict_do_update(
            index_elements=[SEAT_CLOCKS.c.game_id, SEAT_CLOCKS.c.seat],
            set_={k: v for k, v in row.items() if k not in ("game_id", "seat")})

    async def resume(self) -> None:
        """At start-up: running games with a limit whose clocks an event may not have
        started (a process died between an action and its event) get them now."""
        async with self.db.read() as session:
            games = list((await session.execute(select(GAME_CLOCKS.c.game_id).join(
                Game, Game.id == GAME_CLOCKS.c.game_id).where(Game.status == "active"))).scalars())
        for game_id in games:
            try:
                await self.sync(game_id, set(), self.now())
            except Exception:
                log.exception("could not resume the clocks of game %s", game_id)

    # --- Running due clocks (from the driver's loop) ---
    async def run_due(self, now: float) -> int:
        """Remind or run out every due clock this process claims. Returns the steps taken."""
        async with self.db.read() as session:
            due = (await session.execute(
                select(SEAT_CLOCKS).where(SEAT_CLOCKS.c.due_at <= now, SEAT_CLOCKS.c.stage != "expired",
                                          unclaimed(SEAT_CLOCKS, now))
                .order_by(SEAT_CLOCKS.c.due_at).limit(BATCH))).all()
        steps = 0
        for row in due:
            mine = (SEAT_CLOCKS.c.game_id == row.game_id, SEAT_CLOCKS.c.seat == row.seat,
                    SEAT_CLOCKS.c.started_at == row.started_at, SEAT_CLOCKS.c.stage == row.stage)
            if not await claim(self.db, SEAT_CLOCKS, mine, self.driver.process, now, self.driver.config.lease):
                continue
            try:
                await self._step(row, now)
                steps += 1
            except Exception:
                log.exception("the clock of seat %s in game %s failed", row.seat, row.game_id)
        return steps

    async def _step(self, row: Any, now: float) -> None:
        mine = (SEAT_CLOCKS.c.game_id == row.game_id, SEAT_CLOCKS.c.seat == row.seat,
                SEAT_CLOCKS.c.started_at == row.started_at, SEAT_CLOCKS.c.claimed_by == self.driver.process)
        limit = await self.limit(row.game_id)
        view = await self.table.view(Viewer(row.game_id, None))
        if limit is None or view["status"] != "active" or row.seat not in view["to_act"]:
            async with self.db.write() as session:  # nothing owed any more (an event will say so too)
                await session.execute(delete(SEAT_CLOCKS).where(*mine))
            return
        name = view["seats"][row.seat]["name"]
        if row.stage == "running":  # half the time is gone
            if self.notifier is not None and await self.notifier.time_running_out(
                    row.game_id, row.seat, duration(row.expires_at - now), TO_THE_PLAYER[limit.on_timeout]):
                self.reminders += 1
            values: dict[str, Any] = {"stage": "reminded", "due_at": row.expires_at}
        else:  # the time ran out: the host's choice, then the clock stays "ran out" until the seat acts
            if limit.on_timeout == "bot-seat":
                await self.table.hosting.hand_seat(row.game_id, row.seat, STAND_IN, by="clock")
            else:
                await self.table.hosting.note(row.game_id, f"{name}'s time ran out: {IN_THE_LOG[limit.on_timeout]}")
                if limit.on_timeout == "bot-move":
                    await self.driver.schedule(row.game_id, {row.seat}, mode="decision", force=True)
            self.expired += 1
            values = {"stage": "expired"}
        async with self.db.write() as session:
            await session.execute(update(SEAT_CLOCKS).where(*mine).values(
                claimed_by=None, claimed_until=None, **values))

    async def ran_out(self, game_id: str, seat: int) -> bool:
        """The seat's time for its current decision ran out (a bot may play that decision)."""
        await self.settle(game_id)
        async with self.db.read() as session:
            stage = (await session.execute(select(SEAT_CLOCKS.c.stage).where(
                SEAT_CLOCKS.c.game_id == game_id, SEAT_CLOCKS.c.seat == seat))).scalar()
        return stage == "expired"

    # --- What pages show ---
    async def shown(self, game_id: str) -> list[SeatClock]:
        """The game's running clocks, by seat ([] for a game without a limit: no query)."""
        if await self.limit(game_id) is None:
            return []
        await self.settle(game_id)
        async with self.db.read() as session:
            rows = (await session.execute(select(SEAT_CLOCKS).where(
                SEAT_CLOCKS.c.game_id == game_id).order_by(SEAT_CLOCKS.c.seat))).all()
        return self._shown(rows)

    async def shown_for(self, game_ids: list[str]) -> dict[str, list[SeatClock]]:
        """Several games' clocks in one query (the home page's "Your games")."""
        if not game_ids:
            return {}
        async with self.db.read() as session:
            rows = (await session.execute(select(SEAT_CLOCKS).where(
                SEAT_CLOCKS.c.game_id.in_(sorted(set(game_ids)))).order_by(SEAT_CLOCKS.c.seat))).all()
        by_game: dict[str, list[Any]] = {}
        for row in rows:
            by_game.setdefault(row.game_id, []).append(row)
        return {g: self._shown(r) for g, r in by_game.items()}

    def _shown(self, rows: list[Any]) -> list[SeatClock]:
        now = self.now()
        return [SeatClock(r.seat, max(0.0, r.expires_at - now), r.stage == "expired") for r in rows]
