"""Seat and host secrets must never reach a log: redact them wherever a path, a query or a
traceback is printed, whether written plainly or percent-encoded (``?%74oken=%56%59…``)."""

from __future__ import annotations

import logging
import re

# Any letter may arrive as %XX, and the separators as %3D / %2F.
def _spelled(word: str) -> str:
    return "".join(f"(?:{ch}|%{ord(ch):02x})" for ch in word)


_EQUALS = "(?:=|%3d)"
_SLASH = "(?:/|%2f)"
# A query value runs to the next parameter, a space, a quote or the end; a path part to
# the next slash (or an encoded one), '?', '#', a space or a quote; a doubled slash before it
# (/seat//…, a 404) hides nothing. Seat numbers
# (/host/…/seat/2/name) and the API's /host/seats/ are no secrets and stay readable.
_TOKEN_IN_PATH = re.compile(
    rf"((?<![a-z0-9_]){_spelled('token')}{_EQUALS})[^&\s\"'<>#]+"
    rf"|({_SLASH}(?:{_spelled('seat')}|{_spelled('host')})(?:{_SLASH})+)(?!seats(?:/|%2f))(?!\d{{1,3}}(?:/|%2f|[\s?\"]|$))(?:(?!%2f)[^/?\s\"'<>#])+",
    re.IGNORECASE,
)
# In tracebacks a token can also appear bare (an argument's repr): seat tokens are 32
# URL-safe characters, game ids 10, so long runs of that alphabet go too.
_BARE_TOKEN = re.compile(r"(?<![A-Za-z0-9_\-])[A-Za-z0-9_\-]{32,}(?![A-Za-z0-9_\-])")


def redact(text: str) -> str:
    """
    >>> redact('"WebSocket /ws/games/abc?token=s3cr3t-T0ken" [accepted]')
    '"WebSocket /ws/games/abc?token=…" [accepted]'
    >>> redact("GET /g/abc/seat/s3cr3t HTTP/1.1")
    'GET /g/abc/seat/… HTTP/1.1'
    >>> redact("GET /ws/games/abc?x=1&%74oken=%56%59%2Dz HTTP/1.1")
    'GET /ws/games/abc?x=1&%74oken=… HTTP/1.1'
    >>> redact("GET /g/abc%2Fseat%2F%41bc/claim")
    'GET /g/abc%2Fseat%2F…/claim'
    >>> redact("POST /g/abc/host/H0st-secret/seat/1/reopen")
    'POST /g/abc/host/…/seat/1/reopen'
    >>> redact("GET /g/abc/seat//s3cr3t HTTP/1.1")
    'GET /g/abc/seat//… HTTP/1.1'
    >>> redact("PUT /api/games/abc/host/seats/1/name")
    'PUT /api/games/abc/host/seats/1/name'
    """
    return _TOKEN_IN_PATH.sub(lambda m: (m.group(1) or m.group(2)) + "…", text)


def redact_traceback(text: str) -> str:
    return _BARE_TOKEN.sub("…", redact(text))


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            if isinstance(record.args, dict):
                record.args = {k: _redacted(v) for k, v in record.args.items()}
            else:
                record.args = tuple(_redacted(a) for a in record.args)
        record.msg = redact(str(record.msg))
        if record.exc_info and not record.exc_text:
            # Format the traceback now, redacted; handlers print exc_text as it is.
            record.exc_text = redact_traceback(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = redact_traceback(record.exc_text)
        if record.stack_info:
            record.stack_info = redact_traceback(record.stack_info)
        return True


def _redacted(value: object) -> object:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, bytes):
        return redact(value.decode("latin-1"))
    return value


WATCHED = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "fastapi", "keydom")


def install() -> None:
    """Redact every log record as it is made, whichever logger or handler it goes through
    (a filter on a logger misses the records its children propagate, and Python's
    last-resort handler has none); the request loggers get the filter as well."""
    make = logging.getLogRecordFactory()
    if not getattr(make, "redacts_tokens", False):
        redactor = RedactTokens()

        def redacted_record(*args: object, **kwargs: object) -> logging.LogRecord:
            record = make(*args, **kwargs)
            redactor.filter(record)
            return record

        redacted_record.redacts_tokens = True  # type: ignore[attr-defined]
        logging.setLogRecordFactory(redacted_record)
    for name in WATCHED:
        logger = logging.getLogger(name)
        for target in [logger, *logger.handlers]:
            if not any(isinstance(f, RedactTokens) for f in target.filters):
                target.addFilter(RedactTokens())
