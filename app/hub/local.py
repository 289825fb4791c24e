"""Fan-out of "game G changed" to the websockets this process holds.

A notification carries only the game id and version; each socket then reads its own
seat's view. A slow socket never holds up the others: its queue keeps only the newest
notice, because the view it will fetch is the newest anyway.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from contextlib import contextmanager
from typing import Iterator


class Subscription:
    def __init__(self) -> None:
        self._queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)

    def notify(self, version: int) -> None:
        if self._queue.full():
            try:
                self._queue.get_nowait()
            except asyncio.QueueEmpty:
                pass
        self._queue.put_nowait(version)

    async def next(self) -> int:
        return await self._queue.get()


class Hub:
    """In-process hub. Subclasses also tell other processes (see ``app.hub.postgres``)."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = defaultdict(set)

    @contextmanager
    def subscribe(self, game_id: str) -> Iterator[Subscription]:
        sub = Subscription()
        self._subs[game_id].add(sub)
        try:
            yield sub
        finally:
            self._subs[game_id].discard(sub)
            if not self._subs[game_id]:
                del self._subs[game_id]

    def deliver(self, game_id: str, version: int) -> None:
        """Wake every local socket watching this game."""
        for sub in list(self._subs.get(game_id, ())):
            sub.notify(version)

    async def publish(self, game_id: str, version: int) -> None:
        """Called after a commit. Version -1 means "seats changed" (a name was claimed)."""
        self.deliver(game_id, version)

    async def notify_in_transaction(self, session: object, game_id: str, version: int) -> None:
        """Tell other processes, atomically with the commit (a no-op with one process)."""

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    def connection_count(self) -> int:
        return sum(len(s) for s in self._subs.values())
