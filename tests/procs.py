"""Real server processes (``python -m app``) for multi-process and crash tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from .conftest import free_port
from . import oneshot

ROOT = Path(__file__).resolve().parent.parent


class ServerProcess:
    def __init__(self, database_url: str, workers: int = 1, port: int | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.database_url = database_url
        self.extra_env = env or {}
        self.workers = workers
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> "ServerProcess":
        env = {**os.environ, "DATABASE_URL": self.database_url, "PORT": str(self.port),
               "HOST": "127.0.0.1", "WORKERS": str(self.workers), "CREATE_BURST": "100000",
               "CREATE_PER_MINUTE": "100000",
               # Tests play bots far faster than people and all from 127.0.0.1; tests of
               # the limits themselves pass their own values in env.
               "ACTIONS_PER_MINUTE": "1000000", "ACTIONS_BURST": "1000000",
               "WEBSOCKETS_PER_ADDRESS": "100000", "CONNECTIONS_PER_ADDRESS": "100000", **self.extra_env}
        self.proc = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server exited: " + self.proc.stderr.read().decode()[-2000:])  # type: ignore[union-attr]
            try:
                if oneshot.get(f"{self.url}/api/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not start in 30 s")

    def kill(self) -> None:
        """SIGKILL the whole process group: no shutdown, no flush."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> "ServerProcess":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
