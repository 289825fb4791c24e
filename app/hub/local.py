"""Fan-out of "game G changed" to the websockets this process holds.

A notification carries only the game id and version; each socket then reads its own
seat's view. A slow socket never holds up the others: its queue keeps only the newest
notice, because the view it will fetch is the newest anyway.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from contextlib import contextmanager
from typing import Callable, Iterator

log = logging.getLogger("keydom.hub")

SEATS_CHANGED = -1  # a notice's version: the seats (or the table's own facts) changed: resend the view
CHAT_CHANGED = -2  # a notice's version: the game's chat has a new line (app/table/chat.py)


class Subscription:
    """What one websocket is owed: the newest version noticed, a forced resend, and what
    its client asked for. Notices coalesce: a slow socket only ever needs the newest view."""

    def __init__(self) -> None:
        self._wake = asyncio.Event()
        self.newest = -1  # newest version noticed and not yet handled
        self.force = False  # seats changed or the hub reconnected: resend even if same version
        self.client_since: int | None = None  # the client said which version it has
        self.client_gone = False
        self.chat = False  # the game's chat has news for this socket

    def notify(self, version: int) -> None:
        if version == CHAT_CHANGED:
            self.chat = True
        elif version < 0:
            self.force = True
        elif version > self.newest:
            self.newest = version
        self._wake.set()

    def client_asks(self, since: int | None) -> None:
        """A frame from the client: its version, or None when it has gone."""
        if since is None:
            self.client_gone = True
        else:
            self.client_since = since
        self._wake.set()

    async def wait(self) -> None:
        await self._wake.wait()
        self._wake.clear()


class Hub:
    """In-process hub. Subclasses also tell other processes (see ``app.hub.postgres``)."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = defaultdict(set)
        # Called with a game id when its seats changed (version -1), in this process or another:
        # the table forgets cached seat links, so a replaced link stops at once everywhere.
        self.on_seats_changed: list[Callable[[str | None], None]] = []  # None: every game
        # Called with a game id when its chat has a new line (None: any game's may have).
        self.on_chat_changed: list[Callable[[str | None], None]] = []

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

    def deliver_notice(self, notice: str, own_origin: str) -> None:
        """A notice from another process, ``<game>:<version>:<origin>``; our own are
        skipped (this process already delivered them, after caching the new state)."""
        game_id, version, origin = (notice.split(":") + ["", ""])[:3]
        if origin == own_origin:
            return
        try:
            self.deliver(game_id, int(version))
        except ValueError:
            log.warning("ignoring malformed notice %r", notice[:80])

    def notices_lost(self) -> None:
        """The link to other processes broke, so notices may be missing: whoever caches
        seats forgets them all (a link may have been replaced meanwhile), and every local
        socket catches up."""
        for forget in [*self.on_seats_changed, *self.on_chat_changed]:
            forget(None)
        for game_id in list(self._subs):
            self.deliver(game_id, SEATS_CHANGED)
            self.deliver(game_id, CHAT_CHANGED)

    def deliver(self, game_id: str, version: int) -> None:
        """Wake every local socket watching this game."""
        if version == CHAT_CHANGED:
            for forget in self.on_chat_changed:
                forget(game_id)
        elif version < 0:
            for forget in self.on_seats_changed:
                forget(game_id)
        for sub in list(self._subs.get(game_id, ())):
            sub.notify(version)

    async def publish(self, game_id: str, version: int) -> None:
        """Called after a commit. Version -1 means "seats changed" (a name was claimed),
        -2 "the chat has a new line"."""
        self.deliver(game_id, version)

    async def notify_in_transaction(self, session: object, game_id: str, version: int) -> None:
        """Tell other processes, atomically with the commit (a no-op with one process)."""

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    def connection_count(self) -> int:
        return sum(len(s) for s in self._subs.values())
