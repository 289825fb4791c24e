"""Work started from a synchronous callback (a table event) that must not be lost or left
running: each task is kept until it ends, a failure is logged, and a stop can wait for
them or cancel them. Used by the notifier and the bot driver alike.

Also the one way a due row (a bot turn, a seat's clock, a notification) is claimed by one
server process at a time: ``claim`` below."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable

from sqlalchemy import or_, update


class Background:
    def __init__(self, log: logging.Logger, what: str, after: Callable[[], None] = lambda: None) -> None:
        self.log = log
        self.what = what  # "could not <what>: <error>" when a task fails
        self.after = after  # called when any task ends (e.g. to wake a worker loop)
        self.tasks: set[asyncio.Task[None]] = set()

    def spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.log.error("could not %s: %s", self.what, task.exception())
        self.after()

    async def settle(self) -> None:
        """Wait until every task (and any they started) has ended."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def stop(self, grace: float = 2) -> None:
        """Give running tasks ``grace`` seconds to finish, then cancel what is left."""
        try:
            await asyncio.wait_for(self.settle(), timeout=grace)
        except (asyncio.TimeoutError, Exception):
            for task in list(self.tasks):
                task.cancel()


# --- Rows that one process claims at a time (bot turns, clocks, notification deliveries) ---

def unclaimed(table: Any, now: float) -> Any:
    """A row nobody holds: never claimed, or its claim's lease ran out (its process died)."""
    return or_(table.c.claimed_until.is_(None), table.c.claimed_until < now)


async def claim(db: Any, table: Any, where: Any, process: str, now: float, lease: float) -> bool:
    """Take one due row for ``process`` with a conditional update (``where`` names the row as
    it was read, ``... AND claimed_until IS NULL OR < now``): of several processes that saw
    it, exactly one update matches, and only that process goes on with it."""
    async with db.write() as session:
        claimed = await session.execute(
            update(table).where(*where, unclaimed(table, now))
            .values(claimed_by=process, claimed_until=now + lease))
    return claimed.rowcount == 1
