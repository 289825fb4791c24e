"""Fan-out of game changes to websockets.

One process (the SQLite default): ``local.Hub``. With PostgreSQL, every process listens
for NOTIFY, so any number of server processes can share one database. With REDIS_URL
set, Redis pub/sub carries the notices instead.
"""

from __future__ import annotations

from app.settings import Settings

from .local import Hub


def make_hub(settings: Settings) -> Hub:
    if settings.redis_url:
        from .redis import RedisHub

        return RedisHub(settings.redis_url)
    if settings.database_url.startswith("postgresql"):
        from .postgres import PostgresHub

        return PostgresHub(settings.database_url)
    return Hub()
