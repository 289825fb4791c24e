"""Where bots meet the rest of the app: the driver subscribes to the table's events when the
app starts (``app.main``'s lifespan), as notifications do."""

from __future__ import annotations

import logging
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from app.table.service import Table

    from .driver import BotDriver


async def start(app: FastAPI, table: Table) -> BotDriver:
    """Start the bot driver for this process (tests may set ``app.state.bot_config`` first)."""
    from .clocks import Clocks
    from .config import BotConfig
    from .driver import BotDriver

    if os.environ.get("BOT_LOG") == "1":  # a line per bot move, with the process that made it
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logging.getLogger("keydom.bots").addHandler(handler)
        logging.getLogger("keydom.bots").setLevel(logging.INFO)
    config = getattr(app.state, "bot_config", None) or BotConfig()
    driver = BotDriver(table, config)
    driver.clocks = Clocks(driver, notifier=getattr(app.state, "notifier", None))
    app.state.bots = driver
    table.events.subscribe(driver.on_event)
    await driver.start()
    return driver
