"""One place for configuration, read from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def async_database_url(url: str) -> str:
    """Accept the URL forms hosts hand out and pick the async driver ourselves.

    >>> async_database_url("postgresql://u:p@h/db")
    'postgresql+asyncpg://u:p@h/db'
    >>> async_database_url("postgres://u@h/db")
    'postgresql+asyncpg://u@h/db'
    >>> async_database_url("sqlite:///x.db")
    'sqlite+aiosqlite:///x.db'
    """
    for prefix in ("postgresql://", "postgres://", "postgresql+psycopg://", "postgresql+psycopg2://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix):]
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://"):]
    return url


@dataclass
class Settings:
    host: str = field(default_factory=lambda: os.environ.get("HOST", "127.0.0.1"))
    port: int = field(default_factory=lambda: int(os.environ.get("PORT", "8000")))
    database_url: str = field(
        default_factory=lambda: async_database_url(
            os.environ.get("DATABASE_URL", f"sqlite:///{ROOT / 'keydom.db'}")
        )
    )
    # Where links handed to players point; empty means "the host the request came in on".
    public_url: str = field(default_factory=lambda: os.environ.get("PUBLIC_URL", "").rstrip("/"))
    # Redis pub/sub for change notices between processes (instead of PostgreSQL NOTIFY).
    redis_url: str = field(default_factory=lambda: os.environ.get("REDIS_URL", ""))
    # New games per minute per client address (and the burst allowed at once).
    create_per_minute: int = field(default_factory=lambda: int(os.environ.get("CREATE_PER_MINUTE", "30")))
    create_burst: int = field(default_factory=lambda: int(os.environ.get("CREATE_BURST", "60")))

    def __post_init__(self) -> None:
        self.database_url = async_database_url(self.database_url)

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


def get_settings() -> Settings:
    return Settings()
