"""A game's chat: short lines by its seats and its host, kept with the game.

Who writes: a seat that has a player (its link), or the host (the host link). Who reads:
the seats and the host always; spectators only while the host's ``chat_policy`` is
"read" ("hidden": they see nothing of it). A line is plain text — pages escape it and
scripts set it as text — folded to one line, at most ``MAX_CHAT`` characters. How often a
sender may write is the transport's limiter (``app.api.chat``), keyed by the sender.

After a line commits, the hub carries a "chat changed" notice (no text: each process reads
the lines again) and the table publishes a "chat" event on its seam.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select, update

from app.hub.local import CHAT_CHANGED
from app.store.models import ChatMessage, Game, utcnow

from .errors import BadRequest, Forbidden, NotFound
from .events import TableEvent
from .tokens import same_hash, token_hash

if TYPE_CHECKING:
    from .service import Table

MAX_CHAT = 300  # characters of one chat line
KEEP_CHAT = 50  # the newest lines a page and a socket are given
POLICIES = {"read": "Spectators can read the chat", "hidden": "Spectators see no chat"}
CHAT = ChatMessage.__table__
GAMES = Game.__table__


@dataclass(frozen=True)
class ChatLine:
    id: int
    seat: int | None  # None: the host
    name: str
    text: str
    at: datetime

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "seat": self.seat, "name": self.name, "text": self.text,
                "at": self.at.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")}


@dataclass(frozen=True)
class Writer:
    """Who sends a line: a seat, or the host (``seat`` None)."""

    game_id: str
    seat: int | None
    name: str

    @property
    def key(self) -> str:
        """The limiter's key: one budget per sender and game."""
        return f"{self.game_id}:{'host' if self.seat is None else self.seat}"


@dataclass(frozen=True)
class GameChat:
    """What this process last read of a game's chat: the policy, the newest lines, and the
    rematch made from the game (so one notice can also tell old pages about it)."""

    policy: str
    lines: tuple[ChatLine, ...]
    rematch_id: str | None

    def for_viewer(self, spectator: bool) -> list[ChatLine] | None:
        """The lines this viewer may read; None: nothing of the chat at all."""
        if spectator and self.policy != "read":
            return None
        return list(self.lines)


def clean_text(text: Any) -> str:
    """A chat line as kept: one line, spaces folded, printable, 1 to MAX_CHAT characters.

    >>> clean_text("  hi\\n  there ")
    'hi there'
    """
    if not isinstance(text, str):
        raise BadRequest("A chat message must be text.")
    cleaned = " ".join(text.split())
    if not cleaned:
        raise BadRequest("Type something to send.")
    if len(cleaned) > MAX_CHAT:
        raise BadRequest(f"A chat message can be at most {MAX_CHAT} characters (this one has {len(cleaned)}).")
    if any(not ch.isprintable() for ch in cleaned):
        raise BadRequest("Chat messages may not contain control characters.")
    return cleaned


class Chat:
    def __init__(self, table: "Table") -> None:
        self.table = table
        self._games: OrderedDict[str, GameChat] = OrderedDict()
        table.hub.on_chat_changed.append(self.forget)

    def forget(self, game_id: str | None) -> None:
        if game_id is None:
            self._games.clear()
        else:
            self._games.pop(game_id, None)

    # --- Reading ---
    async def game_chat(self, game_id: str) -> GameChat:
        """The game's chat as stored (cached until a "chat changed" notice)."""
        known = self._games.get(game_id)
        if known is not None:
            return known
        async with self.table.db.read() as session:
            game = (await session.execute(
                select(Game.chat_policy, Game.rematch_id).where(Game.id == game_id))).one_or_none()
            if game is None:
                raise NotFound("There is no game with that id.")
            rows = (await session.execute(
                select(ChatMessage).where(ChatMessage.game_id == game_id)
                .order_by(ChatMessage.id.desc()).limit(KEEP_CHAT))).scalars().all()
        lines = tuple(ChatLine(r.id, r.seat, r.name, r.text, _aware(r.created_at)) for r in reversed(rows))
        found = GameChat(game.chat_policy, lines, game.rematch_id)
        self._games[game_id] = found
        while len(self._games) > 4096:
            self._games.popitem(last=False)
        return found

    async def visible(self, game_id: str, spectator: bool) -> list[ChatLine] | None:
        return (await self.game_chat(game_id)).for_viewer(spectator)

    # --- Writing ---
    async def writer(self, game_id: str, token: str | None) -> Writer:
        """The sender a link names: a seat with a player, or the host. Spectators cannot write."""
        if not token:
            raise Forbidden("Only the players and the host can write in this chat.")
        try:
            viewer = await self.table.viewer(game_id, token)
        except Forbidden as not_a_seat:
            host = await self._host(game_id, token)
            if host is None:
                raise not_a_seat
            return host
        assert viewer.seat is not None
        _, names = await self.table.load_stored(game_id)
        name = names[viewer.seat]
        if name is None:
            raise Forbidden("Take this seat first: type your name on your invite page.")
        return Writer(game_id, viewer.seat, name)

    async def _host(self, game_id: str, token: str) -> Writer | None:
        async with self.table.db.read() as session:
            game = (await session.execute(
                select(Game.host_hash, Game.host_name).where(Game.id == game_id))).one_or_none()
        if game is None or game.host_hash is None or not same_hash(game.host_hash, token_hash(token)):
            return None
        return Writer(game_id, None, f"{game.host_name} (host)" if game.host_name else "The host")

    async def post(self, writer: Writer, text: Any) -> ChatLine:
        """Keep one line and tell every page that may read it."""
        cleaned = clean_text(text)
        now = utcnow()
        async with self.table.db.write() as session:
            new_id = (await session.execute(
                insert(CHAT).values(game_id=writer.game_id, seat=writer.seat, name=writer.name[:60], text=cleaned,
                                    created_at=now).returning(CHAT.c.id))).scalar_one()
            await self.table.hub.notify_in_transaction(session, writer.game_id, CHAT_CHANGED)
        await self._changed(writer.game_id)
        self.table.events.publish(TableEvent("chat", writer.game_id, None, writer.seat))
        return ChatLine(new_id, writer.seat, writer.name, cleaned, now)

    async def set_policy(self, game_id: str, host_token: str, policy: str) -> None:
        """The host's choice: may spectators read the chat?"""
        if policy not in POLICIES:
            raise BadRequest(f"The chat policy is one of: {', '.join(POLICIES)}.")
        if await self._host(game_id, host_token) is None:
            raise Forbidden("That host link does not belong to this game.")
        async with self.table.db.write() as session:
            await session.execute(update(GAMES).where(GAMES.c.id == game_id).values(chat_policy=policy))
            await self.table.hub.notify_in_transaction(session, game_id, CHAT_CHANGED)
        await self._changed(game_id)

    async def _changed(self, game_id: str) -> None:
        self.forget(game_id)
        await self.table.hub.publish(game_id, CHAT_CHANGED)


def check_policy(policy: Any) -> str:
    if policy not in POLICIES:
        raise BadRequest(f"The chat policy is one of: {', '.join(POLICIES)}.")
    return str(policy)


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive times (stored as UTC)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
