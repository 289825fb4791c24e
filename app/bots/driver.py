"""The bot driver: schedules bot seats' turns after the table's events, and plays them, once,
from any process.

Every step is its own short transaction after the action that caused it has committed. A
due turn is claimed with a conditional update (``... WHERE claimed_until IS NULL OR
claimed_until < now``): of several processes that see it, exactly one's update matches, and
only that one plays it. The move itself goes through ``Table.act`` with the seat's view
version, so a move chosen on a view that has since changed is refused there and chosen
again on the new one: a bot never acts twice on one version.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from sqlalchemy import case, delete, func, select
from sqlalchemy.dialects import postgresql, sqlite

from app.background import Background, claim, unclaimed
from app.store.models import Game, Seat
from app.table.errors import TableError
from app.table.events import TableEvent
from app.table.seats import Viewer
from app.table.service import Table

from . import levels
from .config import BotConfig
from .tables import SEAT_CLOCKS, TURNS

log = logging.getLogger("keydom.bots")
BATCH = 50  # due rows one pass takes on; the next pass takes the rest


class BotDriver:
    def __init__(self, table: Table, config: BotConfig) -> None:
        self.table = table
        self.db = table.db
        self.config = config
        self.process = secrets.token_hex(8)  # this server process, in claims
        self.rng = levels.own_rng()
        self.moves = 0  # bot moves this process made (a count for logs and tests)
        self._bot_seats: dict[str, dict[int, str]] = {}  # per game: seat -> level, as last read
        self._wake = asyncio.Event()
        self._loop_task: asyncio.Task[None] | None = None
        self._stopping = False
        # Not woken after every action: schedule() wakes the loop when it wrote a turn.
        self._background = Background(log, "schedule a bot's turn")
        self.clocks: Any = None  # app.bots.clocks.Clocks (set by hooks before start)
        table.hub.on_seats_changed.append(self.forget_seats)

    def now(self) -> float:
        return self.config.clock()

    # --- Running ---
    async def start(self) -> None:
        await self.resume()
        if self.clocks is not None:
            await self.clocks.resume()
        if self.config.background:
            self._loop_task = asyncio.create_task(self._run_forever())

    async def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        if self._loop_task:
            try:  # let the current pass finish rather than cut it off inside a transaction
                await asyncio.wait_for(asyncio.shield(self._loop_task), timeout=5)
            except (asyncio.TimeoutError, Exception):
                self._loop_task.cancel()
        await self._background.stop()
        if self.clocks is not None:
            await self.clocks._background.stop()

    async def _run_forever(self) -> None:
        while not self._stopping:
            wait = self.config.tick
            try:
                await self.run_once()
                soonest = await self._next_due()
                if soonest is not None:
                    wait = max(0.0, min(wait, soonest - self.now()))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot pass failed; trying again")
            if wait > 0:
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout=wait)
                except asyncio.TimeoutError:
                    pass
            self._wake.clear()

    async def run_once(self) -> int:
        """One pass: play every due bot turn (and run due clocks). Returns the moves made."""
        await self.settle()
        now = self.now()
        moved = 0
        if self.clocks is not None:  # a clock both half gone and out (a server down for a while) takes two steps
            while await self.clocks.run_due(now):
                await self.settle()
        async with self.db.read() as session:
            due = (await session.execute(
                select(TURNS).where(TURNS.c.due_at <= now, unclaimed(TURNS, now)).order_by(TURNS.c.due_at).limit(BATCH)
            )).all()
        for row in due:
            if await self._claim(row, now):
                moved += await self._play(row)
        return moved

    async def run_until_idle(self, limit: int = 10_000) -> int:
        """Passes until nothing is due (tests with no delay and no background loop)."""
        total = 0
        for _ in range(limit):
            moved = await self.run_once()
            total += moved
            await self.settle()
            soonest = await self._next_due()
            if moved == 0 and (soonest is None or soonest > self.now()):
                return total
        raise RuntimeError("bots still had turns to play after the limit")

    async def _next_due(self) -> float | None:
        """When the next turn or clock is due, of those no process holds: the loop sleeps
        until then (the tick only bounds the wait, for rows another process may write)."""
        now = self.now()
        async with self.db.read() as session:
            turn = (await session.execute(select(func.min(TURNS.c.due_at)).where(unclaimed(TURNS, now)))).scalar()
            clock = None
            if self.clocks is not None:
                clock = (await session.execute(select(func.min(SEAT_CLOCKS.c.due_at)).where(
                    SEAT_CLOCKS.c.stage != "expired", unclaimed(SEAT_CLOCKS, now)))).scalar()
        return min((due for due in (turn, clock) if due is not None), default=None)

    async def settle(self) -> None:
        """Wait for scheduling tasks the events started (tests, and a clean stop)."""
        await self._background.settle()
        if self.clocks is not None:
            await self.clocks.settle()

    def spawn(self, work: Any) -> None:
        self._background.spawn(work)

    # --- Events ---
    def on_event(self, event: TableEvent) -> None:
        """After an action: the seats that now owe a decision, and the one that acted (it may
        owe the next step). After a hand-over: that seat. Never raises."""
        try:
            if event.kind in ("action", "create"):
                seats = set(event.newly_to_act) | ({event.seat} if event.seat is not None else set())
                known = self._bot_seats.get(event.game_id)
                # Most games have no bot owing anything: no task to find that out again.
                if not event.finished and (known is None or not seats.isdisjoint(known)):
                    self.spawn(self.schedule(event.game_id, seats))
            elif event.kind in ("takeback", "takeback_declined"):  # play goes on (app/table/takeback.py)
                self.spawn(self.schedule_every_bot(event.game_id))
            elif event.kind == "handover" and event.seat is not None:
                self._bot_seats.pop(event.game_id, None)
                self.spawn(self.schedule(event.game_id, {event.seat}))
            if self.clocks is not None:
                self.clocks.on_event(event)
        except Exception:
            log.exception("could not look for bot turns in game %s", event.game_id)

    def forget_seats(self, game_id: str | None) -> None:
        """Seats changed (possibly in another process): read who plays them again."""
        if game_id is None:
            self._bot_seats.clear()
        else:
            self._bot_seats.pop(game_id, None)

    async def bot_seats(self, game_id: str) -> dict[int, str]:
        known = self._bot_seats.get(game_id)
        if known is None:
            async with self.db.read() as session:
                rows = (await session.execute(select(Seat.seat, Seat.bot_level).where(
                    Seat.game_id == game_id, Seat.bot_level.is_not(None), Seat.name.is_not(None)))).all()
            known = {seat: level for seat, level in rows}
            if len(self._bot_seats) > 10_000:
                self._bot_seats.clear()
            self._bot_seats[game_id] = known
        return known

    async def schedule(self, game_id: str, seats: set[int], mode: str = "seat", force: bool = False) -> None:
        """A turn row for each of ``seats`` that a bot plays (or, ``force``, that a bot is
        to play one decision of) and that owes a decision now."""
        driven = await self.bot_seats(game_id)
        candidates = set(seats) if force else {s for s in seats if s in driven}
        if not candidates:
            return
        view = await self.table.view(Viewer(game_id, None))
        if view["status"] != "active" or view["takeback"]["request"] is not None:  # a request pauses play
            return
        owing = candidates & set(view["to_act"])
        if not owing:
            return
        now = self.now()
        async with self.db.write() as session:
            for seat in sorted(owing):
                await session.execute(self._upsert(game_id, seat, mode, view["version"], now))
        self._wake.set()

    async def schedule_every_bot(self, game_id: str) -> None:
        await self.schedule(game_id, set(await self.bot_seats(game_id)))

    def _upsert(self, game_id: str, seat: int, mode: str, since: int, now: float) -> Any:
        dialect = sqlite if self.db.is_sqlite else postgresql
        row = {"game_id": game_id, "seat": seat, "mode": mode, "since": since, "due_at": now + self.config.delay,
               "claimed_by": None, "claimed_until": None}
        stmt = dialect.insert(TURNS).values(**row)
        # A process holding the row is playing the seat's next decision from its current
        # view, whichever event made the row: its claim stays (freed, another process
        # would play the same decision too), and its _play drops the row and schedules anew.
        held = TURNS.c.claimed_until >= now
        return stmt.on_conflict_do_update(
            index_elements=[TURNS.c.game_id, TURNS.c.seat],
            set_={"since": since, "due_at": row["due_at"],
                  "claimed_by": case((held, TURNS.c.claimed_by), else_=None),
                  "claimed_until": case((held, TURNS.c.claimed_until), else_=None)},
        )

    async def resume(self) -> None:
        """At start-up: every running game's bot seats that owe a decision get a turn row
        (one may have been lost with a process that died between a move and its event)."""
        async with self.db.read() as session:
            rows = (await session.execute(
                select(Seat.game_id, Seat.seat).join(Game, Game.id == Seat.game_id)
                .where(Game.status == "active", Seat.bot_level.is_not(None), Seat.name.is_not(None))
            )).all()
            pending = {(g, s) for g, s in (await session.execute(select(TURNS.c.game_id, TURNS.c.seat))).all()}
        by_game: dict[str, set[int]] = {}
        for game_id, seat in rows:
            if (game_id, seat) not in pending:
                by_game.setdefault(game_id, set()).add(seat)
        for game_id, seats in by_game.items():
            try:
                await self.schedule(game_id, seats)
            except Exception:
                log.exception("could not resume the bots of game %s", game_id)

    # --- Playing ---
    async def _claim(self, row: Any, now: float) -> bool:
        return await claim(self.db, TURNS, (TURNS.c.game_id == row.game_id, TURNS.c.seat == row.seat,
                                            TURNS.c.since == row.since, TURNS.c.due_at == row.due_at),
                           self.process, now, self.config.lease)

    async def _play(self, row: Any) -> int:
        """Play the claimed turn from the seat's own view; then drop the row and, if the
        seat still owes a decision, schedule the next."""
        moved = 0
        seat = Viewer(row.game_id, row.seat)
        level = "strong" if row.mode == "decision" else (await self.bot_seats(row.game_id)).get(row.seat)
        if row.mode == "decision" and self.clocks is not None and not await self.clocks.ran_out(row.game_id, row.seat):
            level = None  # the player made their move meanwhile: their next decision is theirs
        try:
            if level is not None:
                view = await self.table.view(seat)
                if view["status"] == "active" and row.seat in view["to_act"] and view["options"]:
                    option = levels.choose(level, view, self.rng)
                    try:
                        await self.table.act(seat, option, view["version"], answer=False)
                        moved = 1
                        self.moves += 1
                        log.info("bot move: game %s seat %s version %s option %s process %s",
                                 row.game_id, row.seat, view["version"], option, self.process)
                    except TableError as refusal:  # the view changed meanwhile: choose again on the new one
                        log.info("bot refused: game %s seat %s version %s process %s: %s",
                                 row.game_id, row.seat, view["version"], self.process, refusal.message)
        except Exception:
            log.exception("bot of seat %s in game %s could not play", row.seat, row.game_id)
        async with self.db.write() as session:  # still ours, whatever event touched it meanwhile
            await session.execute(delete(TURNS).where(
                TURNS.c.game_id == row.game_id, TURNS.c.seat == row.seat, TURNS.c.claimed_by == self.process))
        if row.mode == "seat":
            await self.schedule(row.game_id, {row.seat})
        elif not moved and level is not None:  # a decision for a player out of time, refused (its view changed): again
            await self.schedule(row.game_id, {row.seat}, mode="decision", force=True)
        return moved
