"""Who is at the table: a viewer, and the one rule for a seat's name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import BadRequest

MAX_NAME = 40
BOT_LEVELS = ("random", "strong")  # who may play a seat instead of a person (app/bots)


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a seat (with its token checked) or a spectator (seat None)."""

    game_id: str
    seat: int | None


def clean_name(name: Any) -> str | None:
    """A name as stored: spaces folded, at most MAX_NAME printable characters; None (or
    blank) for an open seat.

    >>> clean_name("  Ann   Lee ")
    'Ann Lee'
    >>> clean_name("   ") is None
    True
    """
    if name is None:
        return None
    if not isinstance(name, str):
        raise BadRequest("Each player name must be text (or null for an open seat).")
    cleaned = " ".join(name.split())
    if len(cleaned) > MAX_NAME:
        raise BadRequest(f"Names can be at most {MAX_NAME} characters.")
    if any(not ch.isprintable() for ch in cleaned):
        raise BadRequest("Names may not contain control characters.")
    return cleaned or None


def bot_level(entry: Any) -> str | None:
    """A player entry ``{"bot": "random"}`` or ``{"bot": "strong"}``: that level; anything
    else is a name (or None) for ``clean_name``."""
    if not isinstance(entry, dict):
        return None
    level = entry.get("bot")
    if set(entry) != {"bot"} or level not in BOT_LEVELS:
        raise BadRequest(f"A bot seat is written {{\"bot\": \"random\"}} or {{\"bot\": \"strong\"}}; got {str(entry)[:60]}.")
    return level


def bot_name(level: str, number: int) -> str:
    """What pages call a seat a bot was given at creation: "Bot 1 (strong)"."""
    return f"Bot {number} ({level})"
