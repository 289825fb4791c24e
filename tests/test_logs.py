"""Seat tokens never reach a log line."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import websockets

from app.logs import RedactTokens
from . import oneshot


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


def encoded(text: str) -> str:
    """Every character percent-encoded, as a crafted link might carry it."""
    return "".join(f"%{b:02X}" for b in text.encode())


TOKEN = "VYq3_secret-token-of-32-characters"


@pytest.mark.parametrize("line", [
    f'127.0.0.1:5 - "WebSocket /ws/games/abc?token={encoded(TOKEN)}" [accepted]',
    f'127.0.0.1:5 - "WebSocket /ws/games/abc?{encoded("token")}={encoded(TOKEN)}" [accepted]',
    f'127.0.0.1:5 - "WebSocket /ws/games/abc?x=1&TOKEN%3d{TOKEN}&y=2" [accepted]',
    f'127.0.0.1:5 - "GET /g/abc/seat/{encoded(TOKEN)}/claim HTTP/1.1" 200',
    f'127.0.0.1:5 - "GET /g/abc%2Fseat%2F{TOKEN} HTTP/1.1" 404',
    f'127.0.0.1:5 - "GET /g/abc/%73eat/{TOKEN[:5]}%5F{TOKEN[6:]} HTTP/1.1" 404',
    f'127.0.0.1:5 - "POST /g/abc/host/{TOKEN}/seat/1/reopen HTTP/1.1" 303',
    f'127.0.0.1:5 - "GET /g/abc/%68ost/{encoded(TOKEN)} HTTP/1.1" 200',
])
def test_percent_encoded_tokens_are_redacted(line):
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, "%s", (line,), None)
    RedactTokens().filter(record)
    logged = record.getMessage()
    assert TOKEN not in logged and encoded(TOKEN) not in logged and TOKEN[6:] not in logged
    assert "…" in logged


def test_tracebacks_are_redacted_too():
    try:
        raise LookupError(f"no seat for {TOKEN} at /ws/games/abc?token={encoded(TOKEN)}")
    except LookupError:
        record = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, "Exception in ASGI application",
                                   (), sys.exc_info())
    RedactTokens().filter(record)
    handler_output = logging.Formatter().format(record)
    assert "LookupError" in handler_output
    assert TOKEN not in handler_output and encoded(TOKEN) not in handler_output


def test_a_running_server_never_logs_a_token(tmp_path):
    """The real server, access log on, asked with plain and percent-encoded tokens."""
    from tests.conftest import free_port

    url = f"sqlite:///{tmp_path / 'logs.db'}"
    port = free_port()
    log_path = tmp_path / "server.log"
    env = {**os.environ, "DATABASE_URL": url, "PORT": str(port), "HOST": "127.0.0.1", "ACCESS_LOG": "1",
           "WORKERS": "1"}
    with open(log_path, "wb") as log_file:
        server = subprocess.Popen([sys.executable, "-m", "app"], cwd=Path(__file__).resolve().parent.parent, env=env,
                                  stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    if oneshot.get(f"{base}/api/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            game = oneshot.post(f"{base}/api/games", json={"title": "tiny-towns", "players": ["A", "B"]}).json()
            token = game["seats"][0]["token"]
            host = game["host_token"]
            secrets = [token, encoded(token), token[4:], host, encoded(host)]
            assert oneshot.get(f"{base}/g/{game['id']}/host/{host}").status_code == 200
            assert oneshot.get(f"{base}/g/{game['id']}/%68ost/{encoded(host)}").status_code == 200
            assert oneshot.get(f"{base}/g/{game['id']}/seat/{token}").status_code == 200
            assert oneshot.get(f"{base}/g/{game['id']}/seat/{encoded(token)}").status_code == 200
            assert oneshot.get(f"{base}/g/{game['id']}%2Fseat%2F{encoded(token)}").status_code in (200, 404)
            # A doubled slash is a 404, and its line in the access log still hides the token.
            assert oneshot.get(f"{base}/g/{game['id']}/seat//{token}").status_code == 404
            oneshot.get(f"{base}/api/games/{game['id']}?token={encoded(token)}&%74oken={token}")

            async def sockets() -> None:
                ws_base = base.replace("http://", "ws://") + f"/ws/games/{game['id']}"
                for query in (f"token={token}", f"token={encoded(token)}", f"{encoded('token')}={encoded(token)}"):
                    async with websockets.connect(f"{ws_base}?{query}") as ws:
                        await ws.recv()

            asyncio.run(sockets())
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=10)
    logged = log_path.read_text()
    assert f'"GET /g/{game["id"]}/seat/… HTTP/1.1" 200' in logged, logged[-2000:]
    assert f'"GET /g/{game["id"]}/host/… HTTP/1.1" 200' in logged
    assert "WebSocket /ws/games/" in logged and "[accepted]" in logged
    for secret in secrets:
        assert secret not in logged


def test_any_logger_of_the_app_is_redacted_even_without_handlers(caplog):
    from app.logs import install

    install()
    link = f"http://example.org/g/abc/seat/{TOKEN}"
    with caplog.at_level(logging.INFO):
        logging.getLogger("keydom.notify.sender").warning("could not deliver %s", link)
        try:
            raise ConnectionError(f"POST {link} failed")
        except ConnectionError:
            logging.getLogger("keydom.notify").exception("notification pass failed")
    assert "could not deliver" in caplog.text and "ConnectionError" in caplog.text
    assert TOKEN not in caplog.text
