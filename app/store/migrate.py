"""Apply Alembic migrations (the server does this on start)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from alembic import command
from alembic.config import Config

from app.settings import ROOT, async_database_url


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", async_database_url(url).replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    _outside_event_loop(command.upgrade, alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    _outside_event_loop(command.downgrade, alembic_config(url), revision)


def _outside_event_loop(fn: Callable[..., None], *args: object) -> None:
    """env.py runs its own event loop, which cannot nest inside a running one."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        fn(*args)
        return
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(fn, *args).result()
