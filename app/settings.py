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
    # Actions per minute per seat (and the burst allowed at once): far above any human or honest bot.
    actions_per_minute: int = field(default_factory=lambda: _int("ACTIONS_PER_MINUTE", 600))
    actions_burst: int = field(default_factory=lambda: _int("ACTIONS_BURST", 120))
    # Chat lines per minute per sender (a seat or the host of a game), and the burst at once.
    chat_per_minute: int = field(default_factory=lambda: _int("CHAT_PER_MINUTE", 12))
    chat_burst: int = field(default_factory=lambda: _int("CHAT_BURST", 6))
    # Server processes; with more than one, rate limits live in Redis or PostgreSQL.
    workers: int = field(default_factory=lambda: _int("WORKERS", 1))
    # Addresses of reverse proxies whose X-Forwarded-For is believed ("" trusts nobody,
    # "*" everybody). Comma-separated addresses or networks, e.g. "127.0.0.1,10.0.0.0/8".
    forwarded_allow_ips: str = field(default_factory=lambda: os.environ.get("FORWARDED_ALLOW_IPS", ""))
    # Open connections at once, in all, and per client address (beyond it the new connection
    # gets 429 and is closed; trusted proxies are exempt). When all are taken, a newcomer
    # takes the place of a request still arriving (the heaviest address's oldest first), then
    # of an idle kept-alive connection; only when every one is busy does it get 503.
    max_connections: int = field(default_factory=lambda: _int("MAX_CONNECTIONS", 4000))
    connections_per_address: int = field(default_factory=lambda: _int("CONNECTIONS_PER_ADDRESS", 64))
    websockets_per_address: int = field(default_factory=lambda: _int("WEBSOCKETS_PER_ADDRESS", 64))
    # Seconds a client has to send a whole request (headers and body), and to start the
    # next one on a kept-alive connection.
    request_timeout: float = field(default_factory=lambda: float(os.environ.get("REQUEST_TIMEOUT", "10")))
    keep_alive_timeout: int = field(default_factory=lambda: _int("KEEP_ALIVE_TIMEOUT", 5))
    # A request's head (request line and headers): at most this many bytes and headers (431).
    max_header_bytes: int = field(default_factory=lambda: _int("MAX_HEADER_BYTES", 16384))
    max_headers: int = field(default_factory=lambda: _int("MAX_HEADERS", 100))

    def __post_init__(self) -> None:
        self.database_url = async_database_url(self.database_url)

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def shares_rate_limits(self) -> bool:
        """Several processes must count against one bucket; one process counts in memory."""
        return self.workers > 1 and (bool(self.redis_url) or not self.is_sqlite)


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    try:
        return int(raw) if raw else default
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, not {raw!r}.") from None


def env_list(name: str) -> list[str]:
    """A setting of several values separated by commas or spaces."""
    return [part for part in os.environ.get(name, "").replace(",", " ").split() if part]


def get_settings() -> Settings:
    return Settings()
