"""Does a greedy client hurt everyone else? A real server; one address (127.0.0.2) opens
many connections that never finish their headers, while a normal client (127.0.0.1) keeps
asking for /api/titles on fresh connections. Prints the normal client's latency without and
with the greedy one, and what the greedy one got.

    .venv/bin/python bench/connections.py                      # 1,100 slow connections
    .venv/bin/python bench/connections.py --slow 3000 --requests 300
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def latencies_ms(base: str, requests: int) -> list[float]:
    out = []
    for _ in range(requests):
        start = time.perf_counter()
        response = httpx.get(f"{base}/api/titles", headers={"Connection": "close"}, timeout=30)
        out.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
    return out


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered):.1f} ms, p99 {p99:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slow", type=int, default=1100, help="connections the greedy client opens")
    parser.add_argument("--requests", type=int, default=200, help="normal requests per measurement")
    parser.add_argument("--port", type=int, default=8767)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.slow + 1000)), hard))
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/conn.db", "PORT": str(args.port), "HOST": "127.0.0.1"}
        server = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
        base = f"http://127.0.0.1:{args.port}"
        greedy: list[socket.socket] = []
        try:
            for _ in range(100):
                try:
                    httpx.get(f"{base}/api/healthz")
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            print(f"normal client alone: {summary(latencies_ms(base, args.requests))}")
            refused = 0
            for _ in range(args.slow):
                sock = socket.socket()
                sock.bind(("127.0.0.2", 0))
                sock.connect(("127.0.0.1", args.port))
                sock.sendall(b"GET /api/titles HTTP/1.1\r\nHost: keydom\r\n")
                greedy.append(sock)
            time.sleep(0.5)  # let the refusals arrive, then look without waiting
            for sock in greedy:
                sock.setblocking(False)
                try:
                    if sock.recv(16).startswith(b"HTTP/1.1 429"):
                        refused += 1
                except (BlockingIOError, OSError):
                    pass
            print(f"greedy client: {args.slow} slow connections, {refused} refused at once with 429, "
                  f"{args.slow - refused} held until REQUEST_TIMEOUT")
            print(f"normal client meanwhile: {summary(latencies_ms(base, args.requests))}")
        finally:
            for sock in greedy:
                sock.close()
            os.killpg(server.pid, 15)
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
