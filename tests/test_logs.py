"""Seat tokens never reach a log line."""

from __future__ import annotations

import logging

from app.logs import RedactTokens


def test_websocket_accept_line_is_redacted():
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s" [accepted]',
                               ("127.0.0.1:5555", "/ws/games/abc?token=Zk3-secret_token"), None)
    RedactTokens().filter(record)
    line = record.getMessage()
    assert "Zk3-secret_token" not in line and "token=…" in line


def test_seat_page_path_is_redacted_in_the_message_itself():
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, "GET /g/abc/seat/SECRET123 200", (), None)
    RedactTokens().filter(record)
    assert "SECRET123" not in record.getMessage()
