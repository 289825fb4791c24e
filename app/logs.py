"""Seat tokens must never reach a log: redact them wherever uvicorn prints a path."""

from __future__ import annotations

import logging
import re

_TOKEN_IN_PATH = re.compile(r"(token=|/seat/)[A-Za-z0-9_\-]+")


def redact(text: str) -> str:
    """
    >>> redact('"WebSocket /ws/games/abc?token=s3cr3t-T0ken" [accepted]')
    '"WebSocket /ws/games/abc?token=…" [accepted]'
    >>> redact("GET /g/abc/seat/s3cr3t HTTP/1.1")
    'GET /g/abc/seat/… HTTP/1.1'
    """
    return _TOKEN_IN_PATH.sub(lambda m: m.group(1) + "…", text)


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)  # type: ignore[assignment]
        record.msg = redact(str(record.msg))
        return True


def install() -> None:
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
