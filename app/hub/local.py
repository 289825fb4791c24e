"""Fan-out of "game G changed" to the websockets this process holds.

A notification carries the game id and version (and, from an action, the action itself:
``Moved``); each socket then reads its own seat's view. A slow socket never holds up the
others: its queue keeps only the newest notice, because the view it will fetch is the
newest anyway.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator

log = logging.getLogger("keydom.hub")

SEATS_CHANGED = -1  # a notice's version: the seats (or the table's own facts) changed: resend the view
CHAT_CHANGED = -2  # a notice's version: the game's chat has a new line (app/table/chat.py)


@dataclass(frozen=True)
class Moved:
    """The action that made a version. A notice carries it so that another process holding
    the version before can apply it too, instead of reading the game back and rebuilding it
    (``Table.follow``); a process without that version ignores it and reads the game."""

    seat: int
    at: float  # when it was taken: the viewers' "last change" (a Unix time)
    option: str
    view_versions: tuple[int, ...]  # each viewer's view version after it: whose view changed


def notice(game_id: str, version: int, origin: str, moved: Moved | None = None) -> str:
    """``<game>:<version>:<origin>``, then ``:<seat>:<at>:<view versions>:<option>`` for an
    action (the option last: it may hold colons)."""
    head = f"{game_id}:{version}:{origin}"
    if moved is None:
        return head
    return f"{head}:{moved.seat}:{moved.at!r}:{','.join(map(str, moved.view_versions))}:{moved.option}"


def _moved(parts: list[str]) -> Moved | None:
    """The action in a notice's parts after its origin (ValueError if malformed)."""
    if not parts:
        return None
    seat, at, versions, option = parts
    return Moved(int(seat), float(at), option, tuple(int(v) for v in versions.split(",")))


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
        # Called with another process's action (game id, version, action) before the local
        # sockets are woken, so they find the new version cached.
        self.on_moved: list[Callable[[str, int, Moved], None]] = []

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

    def deliver_notice(self, text: str, own_origin: str) -> None:
        """A notice from another process (see ``notice``); our own are skipped (this
        process already delivered them, after caching the new state)."""
        parts = text.split(":", 6)
        game_id, version, origin, *action = parts + [""] * (3 - len(parts))
        if origin == own_origin:
            return
        try:
            number = int(version)
            moved = _moved(action)
        except (ValueError, IndexError):
            log.warning("ignoring malformed notice %r", text[:80])
            return
        if moved is not None:
            for follow in self.on_moved:
                try:
                    follow(game_id, number, moved)
                except Exception:  # the sockets below still wake and read the stored game
                    log.exception("could not follow %s to version %s", game_id, number)
        self.deliver(game_id, number)

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

    async def publish(self, game_id: str, version: int, moved: Moved | None = None) -> None:
        """Called after a commit. Version -1 means "seats changed" (a name was claimed),
        -2 "the chat has a new line"; ``moved``: the action that made this version."""
        self.deliver(game_id, version)

    def notice_in_statement(self, game_id: str, version: int, moved: Moved) -> tuple[str, str] | None:
        """(channel, payload) for a PostgreSQL NOTIFY the action's own statement sends, when
        this hub listens there; None: ``publish`` tells the other processes."""
        return None

    async def notify_in_transaction(self, session: object, game_id: str, version: int) -> None:
        """Tell other processes, atomically with the commit (a no-op with one process)."""

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    def connection_count(self) -> int:
        return sum(len(s) for s in self._subs.values())
