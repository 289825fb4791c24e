"""The few calls the rest of the app makes into notifications. Each one is cheap, starts
background work at most, and never raises: an action or a websocket must not fail
because a notification could not be scheduled."""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the table imports this module: nothing of the table at import time
    from fastapi import FastAPI

    from app.table.service import Snapshot, Table

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
    return notifier


def notice_turns(table: Table, title: Any, before: Snapshot, after: Snapshot) -> None:
    """After an action committed: who newly owes a decision, and whether the game ended."""
    notifier: Notifier | None = getattr(table, "notifier", None)
    if notifier is None:
        return
    try:
        newly = set(title.to_act(after.state)) - set(title.to_act(before.state))
        notifier.turns_changed(after.game_id, after.version, newly, after.status == "finished")
    except Exception:
        log.exception("could not look for turns to notify in game %s", after.game_id)


def notice_claim(table: Table, game_id: str, seat: int) -> None:
    """After a seat was claimed: if play already waits for it, its new owner may be told."""
    notifier: Notifier | None = getattr(table, "notifier", None)
    if notifier is None:
        return
    try:
        notifier.seat_claimed(game_id, seat)
    except Exception:
        log.exception("could not look for turns to notify in game %s", game_id)


def page_open(app: FastAPI, game_id: str, seat: int | None) -> AbstractContextManager[None]:
    """Held while a seat's websocket is connected: that seat is not sent messages meanwhile."""
    notifier: Notifier | None = getattr(app.state, "notifier", None)
    return nullcontext() if notifier is None else notifier.page_open(game_id, seat)
