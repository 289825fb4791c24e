"""Tables: games, seats, actions. The action log is the truth; the snapshot is a cache."""

from __future__ import annotations

from datetime import datetime, timezone

import sqlalchemy as sa
from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    pass


class Game(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    title: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict] = mapped_column(JSON)
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)  # only when given on purpose
    secret: Mapped[str | None] = mapped_column(String(64), nullable=True)  # hex; hidden draws come from it
    seed_given: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa.true())
    # per seat, then the spectator: how many times what they see has changed (their view's
    # version; it tells nothing of steps they cannot see), and when it last did (epoch seconds)
    view_versions: Mapped[list | None] = mapped_column(JSON, nullable=True)
    view_changed_at: Mapped[list | None] = mapped_column(JSON, nullable=True)
    players: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="active")  # active | finished
    version: Mapped[int] = mapped_column(Integer, default=0)  # = number of actions applied
    snapshot: Mapped[str] = mapped_column(Text)  # JSON dump of the state at `version`
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)  # last public change
    # hash of the host link's secret; seat links are derived from it (app/table/hosting.py)
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True, index=True)
    host_name: Mapped[str | None] = mapped_column(String(40), nullable=True)  # who the invite page names
    # "host who plays": each seat's link is shown on the host page only until its player
    # opens it and gets a private one (app/table/hosting.py)
    host_plays: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa.false())
    # what spectators see of the chat: "read" or "hidden" (app/table/chat.py)
    chat_policy: Mapped[str] = mapped_column(String(8), default="read", server_default="read")
    rematch_id: Mapped[str | None] = mapped_column(String(16), nullable=True)  # the game "Play again" made
    # ended by the table, not its rules: {"kind": "abandoned" | "conceded", ...} (app/table/endings.py)
    ending: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    # what each seat may take back now, and the open takeback request (app/table/takeback.py)
    takeback: Mapped[dict | None] = mapped_column(JSON, nullable=True)


class Seat(Base):
    __tablename__ = "seats"
    # Two seats of a game never share a name, however it is spelled (name_key: app/table/hosting.py).
    __table_args__ = (UniqueConstraint("game_id", "seat"), UniqueConstraint("game_id", "name_key", name="uq_seats_game_id_name_key"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)  # None: open seat
    name_key: Mapped[str | None] = mapped_column(String(40), nullable=True)  # the name without case or spaces
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa.false())  # made as a bot's seat
    # who plays the seat now when not its player: "random" | "strong" (app/bots); None: its player
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    link_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # +1 per replaced link
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The link is one the host page shows and this is a "host who plays" game: it opens
    # nothing until its player swaps it for a private link.
    must_open: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa.false())
    # a rematch seat whose link is worked out from its old link when that is next opened (app/table/rematch.py)
    awaits_link: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa.false())


class Action(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1-based; game.version after it
    seat: Mapped[int] = mapped_column(Integer)
    option: Mapped[str] = mapped_column(String(120))
    log: Mapped[list | None] = mapped_column(JSON, nullable=True)  # the lines this action wrote
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Takeback(Base):
    """An undo (``status`` "undone"), or a request for a takeback and how it ended:
    "pending", "accepted", "declined" or "withdrawn". ``action_seq``: the seat's action
    it takes back (with every action after it); ``answers``: seat -> accepted."""

    __tablename__ = "takebacks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    action_seq: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    answers: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    asked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    settled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TakenBackAction(Base):
    """An action a takeback removed from the game's log, kept as it was stored."""

    __tablename__ = "taken_back_actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    option: Mapped[str] = mapped_column(String(120))
    log: Mapped[list | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    takeback_id: Mapped[int] = mapped_column(ForeignKey("takebacks.id", ondelete="CASCADE"))


class TableLine(Base):
    """A log line the table writes (a claim, the host's changes), placed after the title's
    log line number ``at_line``; the title's own log lives in the game state."""

    __tablename__ = "table_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at_line: Mapped[int] = mapped_column(Integer)
    line: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    """One line of a game's chat, by a seat (``seat``) or the host (``seat`` None)."""

    __tablename__ = "chat_messages"
    __table_args__ = (sa.Index("ix_chat_messages_game_id", "game_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(60))
    text: Mapped[str] = mapped_column(String(400))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SpentLink(Base):
    """A seat link that no longer opens its seat, kept (as a hash) so that whoever follows
    it is told why: its invite was used (``claimed``), its player swapped it for a private
    link (``opened``), the host gave the seat a new one (``replaced``) or re-opened it
    (``reopened``)."""

    __tablename__ = "spent_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))
    spent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ServerSetting(Base):
    """Settings the server keeps for itself (the address links are made with)."""

    __tablename__ = "server_settings"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(400))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
