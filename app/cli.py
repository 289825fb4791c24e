"""The host's command line: ``python -m app export|import|backup`` (``python -m app`` alone serves).

    python -m app export GAME_ID [-o game.json]    one game as a document (stdout by default)
    python -m app export --all -d exports/          every game, one file each
    python -m app import game.json                  a new game from a document; prints its links
    python -m app backup keydom-backup.db           a consistent copy of the SQLite database

They work on the database the server uses (``DATABASE_URL``), and may run while it serves.
Whoever runs them holds the database, so no link is asked for; a running game's export
still leaves out its secret, as the API's does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any, Sequence

from sqlalchemy import select

from app.hub.local import Hub
from app.settings import get_settings
from app.store.db import Database
from app.store.migrate import upgrade
from app.store.models import Game
from app.table.archive import Archive
from app.table.errors import TableError
from app.table.service import Table

COMMANDS = ("export", "import", "backup")


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m app", description="Keydom's host commands.")
    commands = parser.add_subparsers(dest="command", required=True)
    export = commands.add_parser("export", help="write a game (or every game) as a keydom-game document")
    export.add_argument("game", nargs="?", help="the game's id (the part after /g/ in its links)")
    export.add_argument("--all", action="store_true", help="every game, one file each, into --dir")
    export.add_argument("-o", "--out", help="the file to write (standard output if left out)")
    export.add_argument("-d", "--dir", default="exports", help="where --all writes (default: exports/)")
    imported = commands.add_parser("import", help="make a new game from a document; prints the new links")
    imported.add_argument("file", help="a file written by export (or GET /api/games/{id}/export)")
    imported.add_argument("--url", default="", help="the address to put in the printed links (default: PUBLIC_URL)")
    backup = commands.add_parser("backup", help="a consistent copy of the SQLite database, taken while it serves")
    backup.add_argument("file", help="the copy to write")
    args = parser.parse_args(list(argv))
    try:
        if args.command == "backup":
            return backup_sqlite(args.file)
        return asyncio.run(_with_table(args))
    except (TableError, OSError, ValueError) as problem:
        print(f"python -m app {args.command}: {getattr(problem, 'message', problem)}", file=sys.stderr)
        return 1


async def _with_table(args: argparse.Namespace) -> int:
    settings = get_settings()
    await asyncio.to_thread(upgrade, settings.database_url)
    db = Database(settings.database_url)
    try:
        archive = Archive(Table(db, Hub()))
        if args.command == "export":
            return await _export(archive, db, args)
        return await _import(archive, args, settings.public_url or f"http://{settings.host}:{settings.port}")
    finally:
        await db.dispose()


async def _export(archive: Archive, db: Database, args: argparse.Namespace) -> int:
    if args.all:
        async with db.read() as session:
            ids = (await session.execute(select(Game.id).order_by(Game.created_at))).scalars().all()
        folder = Path(args.dir)
        folder.mkdir(parents=True, exist_ok=True)
        for game_id in ids:
            _write(await archive.export(game_id, None, trusted=True), folder / f"{game_id}.json")
        print(f"{len(ids)} games written to {folder}/", file=sys.stderr)
        return 0
    if not args.game:
        raise ValueError("name a game id, or --all")
    document = await archive.export(args.game, None, trusted=True)
    if args.out:
        _write(document, Path(args.out))
    else:
        print(json.dumps(document, ensure_ascii=False, indent=1))
    return 0


async def _import(archive: Archive, args: argparse.Namespace, root: str) -> int:
    try:
        document: Any = json.loads(Path(args.file).read_text())
    except json.JSONDecodeError as problem:
        raise ValueError(f"{args.file} is not JSON ({problem.msg}, line {problem.lineno})") from None
    created = await archive.import_game(document)
    root = (args.url or root).rstrip("/")
    print(f"Imported as game {created.id} ({created.title}).")
    print(f"  host page: {root}/g/{created.id}/host/{created.host_token}")
    for link in created.seats:
        print(f"  seat {link.seat + 1} ({link.name or 'open'}): {root}/g/{created.id}/seat/{link.token}")
    return 0


def _write(document: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n")


def backup_sqlite(target: str) -> int:
    """SQLite's online backup: a consistent copy even while the server writes. For
    PostgreSQL, pg_dump does the same (printed here, since it needs the server's tools)."""
    url = get_settings().database_url
    if not url.startswith("sqlite"):
        print("This server uses PostgreSQL: back it up with its own tool while it serves, e.g.\n"
              "  pg_dump --format=custom --file=keydom.dump \"$DATABASE_URL\"\n"
              "and restore into an empty database with\n"
              "  pg_restore --dbname=\"$DATABASE_URL\" keydom.dump", file=sys.stderr)
        return 2
    source_path = url.split(":///", 1)[1]
    if Path(target).exists():
        raise ValueError(f"{target} exists already; name a new file")
    copy_sqlite(source_path, target)
    print(f"Backed up {source_path} to {target}.", file=sys.stderr)
    return 0


def copy_sqlite(source_path: str | Path, target: str | Path) -> None:
    """A consistent copy of a SQLite database file, by SQLite's online backup (the same
    pages, even while another connection writes)."""
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    copy = sqlite3.connect(target)
    try:
        with copy:
            source.backup(copy)
    finally:
        copy.close()
        source.close()
