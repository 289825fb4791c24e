"""Where notifications meet the rest of the app: the notifier subscribes to the table's
events (``app.table.events``) when the app starts, and the websocket route says while a
seat's page is open. Each call is cheap, starts background work at most, and never
raises: an action or a websocket must not fail because a notification could not be
scheduled."""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from app.table.events import TableEvent
    from app.table.service import Table

    from .notifier import Notifier

log = logging.getLogger("keydom.notify")


async def start(app: FastAPI, table: Table) -> Notifier:
    """Start the notifier for this process (tests may set ``app.state.notify_config`` first)."""
    from .config import NotifyConfig
    from .notifier import Notifier

    config = getattr(app.state, "notify_config", None) or NotifyConfig()
    config.check()
    notifier = Notifier(table, config)
    table.notifier = notifier  # type: ignore[attr-defined]
    app.state.notifier = notifier
    await notifier.start()
    table.events.subscribe(lambda event: on_table_event(notifier, event))
    return notifier


def on_table_event(notifier: Notifier, event: TableEvent) -> None:
    """After an action or a takeback: who newly owes a decision, and whether the game ended.
    After a takeback request: the seats asked to answer it. After a claim: if play already waits for that seat, its new owner may be told.
    A new game: nobody in it has asked to be told yet."""
    try:
        if event.kind in ("action", "takeback") and event.version is not None:
            notifier.turns_changed(event.game_id, event.version, set(event.newly_to_act), event.finished)
        elif event.kind == "takeback_asked" and event.version is not None:
            notifier.takeback_asked(event.game_id, event.version)
        elif event.kind == "claim" and event.seat is not None:
            notifier.seat_claimed(event.game_id, event.seat)
        elif event.kind == "create":
            notifier.game_created(event.game_id)
    except Exception:
        log.exception("could not look for turns to notify in game %s", event.game_id)


def page_open(app: FastAPI, game_id: str, seat: int | None) -> AbstractContextManager[None]:
    """Held while a seat's websocket is connected: that seat is not sent messages meanwhile."""
    notifier: Notifier | None = getattr(app.state, "notifier", None)
    return nullcontext() if notifier is None else notifier.page_open(game_id, seat)
