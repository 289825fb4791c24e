"""``python -m app``: upgrade the database, then serve (HOST, PORT, DATABASE_URL)."""

from __future__ import annotations

import os

import uvicorn

from app.settings import get_settings
from app.store.migrate import upgrade


def main() -> None:
    settings = get_settings()
    upgrade(settings.database_url)
    os.environ["KEYDOM_MIGRATED"] = "1"  # the worker processes need not migrate again
    print(f"Keydom is serving on http://{settings.host}:{settings.port}", flush=True)
    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=int(os.environ.get("WORKERS", "1")),
        proxy_headers=True,
        access_log=False,  # request paths contain seat tokens
        ws=os.environ.get("WS", "auto"),
        # Each compressed socket keeps zlib state (tens of KB); views are small anyway.
        ws_per_message_deflate=os.environ.get("WS_DEFLATE", "0") == "1",
        ws_max_size=64 * 1024,  # clients only ever send tiny frames
    )


if __name__ == "__main__":
    main()
