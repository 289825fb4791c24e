"""Bot and clock settings from the environment (see the README's configuration table)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    try:
        return float(raw) if raw else default
    except ValueError:
        raise SystemExit(f"{name} must be a number, not {raw!r}.") from None


@dataclass
class BotConfig:
    # Seconds a bot waits before it acts, so the people at the table can follow its moves.
    delay: float = field(default_factory=lambda: _float("BOT_DELAY_SECONDS", 2))
    # The longest each process's loop sleeps: it wakes when the next turn or clock it knows
    # of is due, and at its own events; the tick is for rows another process wrote (and each
    # pass costs queries: an idle server with a 1 s tick spent ~1% of a core on them).
    tick: float = field(default_factory=lambda: _float("BOT_TICK_SECONDS", 5))
    # How long a claim holds before another process may take the row over (a process died).
    lease: float = 60
    # False: no background loop; tests call ``BotDriver.run_once`` themselves.
    background: bool = True
    clock: Callable[[], float] = time.time
