"""The table's one seam: what happened, published after it committed.

The table does not know who listens. Notifications, and later bots, clocks and chat,
subscribe when the app starts (``app.main``); the table imports none of them, so no layer
reaches back up into the table. A subscriber is called in the committing task, right
after the commit: it must be quick (start background work at most) and it cannot undo or
fail what already happened — an exception is logged and the next subscriber still runs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Callable

log = logging.getLogger("keydom.table.events")


@dataclass(frozen=True)
class TableEvent:
    """``kind`` is "create" (a new game; ``newly_to_act`` owe the first decisions), "action"
    (a seat's choice applied), "claim" (an open seat taken),
    "handover" (a seat handed to a bot, or back to its player: ``Hosting.hand_seat``),
    "takeback" (the game returned to an earlier version; ``newly_to_act`` as after an action),
    "takeback_asked", "takeback_answered" or "takeback_declined" (a takeback request made,
    answered with a yes that is not the last, or ended without a takeback: play goes on);
    see ``app/table/takeback.py``.

    ``version`` is the game's version after it; ``seat`` who did it; ``newly_to_act`` the
    seats that owe a decision now and did not before; ``finished`` whether the game ended.
    """

    kind: str
    game_id: str
    version: int | None  # None: the game's version did not move (a claim)
    seat: int | None
    newly_to_act: frozenset[int] = field(default_factory=frozenset)
    finished: bool = False


Subscriber = Callable[[TableEvent], None]


class TableEvents:
    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        if subscriber in self._subscribers:
            self._subscribers.remove(subscriber)

    def publish(self, event: TableEvent) -> None:
        for subscriber in list(self._subscribers):
            try:
                subscriber(event)
            except Exception:  # what happened is committed; a listener's trouble is its own
                log.exception("a subscriber failed on %s in game %s", event.kind, event.game_id)
