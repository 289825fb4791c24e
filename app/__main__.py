"""``python -m app``: upgrade the database, then serve (see the README's configuration table).
``python -m app export|import|backup``: the host's commands (``app/cli.py``)."""

from __future__ import annotations

import os
import resource
import sys
from typing import Any

import uvicorn

from app.api.connections import guarded_protocol
from app.settings import Settings, get_settings
from app.store.migrate import upgrade


def server_options(settings: Settings) -> dict[str, Any]:
    """How uvicorn runs Keydom; tests start their servers with the same options."""
    return dict(
        host=settings.host,
        port=settings.port,
        http=guarded_protocol(os.environ.get("HTTP", "auto")),  # per-address cap, request timeout
        # The app applies X-Forwarded-For itself (FORWARDED_ALLOW_IPS, see app.main).
        proxy_headers=False,
        # MAX_CONNECTIONS is kept by the guard, fairly (app.api.connections); uvicorn's own
        # cap would answer 503 to everyone once slow clients filled it.
        limit_concurrency=None,
        # The guard answers an over-long head with 431 first; h11's own limit stays behind it.
        h11_max_incomplete_event_size=settings.max_header_bytes + 1024,
        timeout_keep_alive=settings.keep_alive_timeout,
        access_log=os.environ.get("ACCESS_LOG", "0") == "1",  # seat tokens are redacted (app.logs)
        ws=os.environ.get("WS", "auto"),
        # Each compressed socket keeps zlib state (tens of KB); views are small anyway.
        ws_per_message_deflate=os.environ.get("WS_DEFLATE", "0") == "1",
        ws_max_size=64 * 1024,  # clients only ever send tiny frames
    )


def allow_open_files(wanted: int) -> None:
    """Every connection is a file descriptor; the usual soft limit (1024) would refuse
    honest clients long before MAX_CONNECTIONS. Raise it as far as the hard limit allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def where_friends_connect(settings: Settings) -> str:
    """The lines ``make run`` prints under its address: which addresses friends can use."""
    from app.reach import friends_can_use, is_loopback

    if settings.public_url:
        return f"Links are made with PUBLIC_URL: {settings.public_url}"
    if is_loopback(settings.host):
        then = friends_can_use("http", settings.port, "0.0.0.0")
        return (f"Only this computer can open it (HOST={settings.host}). To let friends in, start it with "
                "HOST=0.0.0.0 make run" + ("; they can then use:\n" + "\n".join(f"  {line}" for line in then)
                                           if then else "."))
    found = friends_can_use("http", settings.port, settings.host)
    if not found:
        return "This computer has no address another device could use (no network, or only its own)."
    return "Friends can use:\n" + "\n".join(f"  {line}" for line in found) + \
        "\n(the host page lets you choose which one links are made with)"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in ("export", "import", "backup", "-h", "--help"):
        from app.cli import main as host_command  # export, import, backup (app/cli.py)

        raise SystemExit(host_command(sys.argv[1:]))
    # Python's own allocator (the default): ~14% less CPU per action and ~8% less memory
    # per connected seat than PYTHONMALLOC=malloc, which gives more memory back after a
    # crowd of websockets leaves (docs/benchmarks.md, "Allocator").
    settings = get_settings()
    upgrade(settings.database_url)
    os.environ["KEYDOM_MIGRATED"] = "1"  # the worker processes need not migrate again
    allow_open_files(settings.max_connections + 256)  # plus database, log and listener files
    print(f"Keydom is serving on http://{settings.host}:{settings.port}", flush=True)
    print(where_friends_connect(settings), flush=True)
    uvicorn.run("app.main:create_app", factory=True, workers=settings.workers, **server_options(settings))


if __name__ == "__main__":
    main()
