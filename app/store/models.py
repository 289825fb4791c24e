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
    # per seat, then the spectator: the version at which what they see last changed
    view_versions: Mapped[list | None] = mapped_column(JSON, nullable=True)
    players: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="active")  # active | finished
    version: Mapped[int] = mapped_column(Integer, default=0)  # = number of actions applied
    snapshot: Mapped[str] = mapped_column(Text)  # JSON dump of the state at `version`
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # hash of the host link's secret; seat links are derived from it (app/table/hosting.py)
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True, index=True)
    host_name: Mapped[str | None] = mapped_column(String(40), nullable=True)  # who the invite page names


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)  # None: open seat
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa.false())
    link_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # +1 per replaced link
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Action(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1-based; game.version after it
    seat: Mapped[int] = mapped_column(Integer)
    option: Mapped[str] = mapped_column(String(120))
    log: Mapped[list | None] = mapped_column(JSON, nullable=True)  # the lines this action wrote
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableLine(Base):
    """A log line the table writes (a claim, the host's changes), placed after the title's
    log line number ``at_line``; the title's own log lives in the game state."""

    __tablename__ = "table_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at_line: Mapped[int] = mapped_column(Integer)
    line: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
