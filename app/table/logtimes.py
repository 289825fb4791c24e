"""When each log line was written: the time of the action that wrote it (set-up's lines: the
game's creation; the table's own lines keep their own time).

A line's time is as public as the line: it is when an action everyone sees in the log was
taken. Lines are numbered as in the log (from 1); an action's stored lines are the last of
the log at its version, so walking the actions back from the newest numbers their lines.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from app.store.models import Action, Game, TableLine

from .hosting import KEEP_TABLE_LINES, merge_table_lines

if TYPE_CHECKING:
    from .service import Table

BATCH = 100  # actions read at a time, walking back
KEEP_WRITTEN = 200  # line times remembered per game (a view shows the last 50 lines)
GAMES_WRITTEN = 4096  # games whose line times are remembered


def stamp(moment: datetime | None) -> str | None:
    """An ISO time in UTC, as pages and the API give it ("…Z"); None for unknown."""
    if moment is None:
        return None
    if moment.tzinfo is None:  # SQLite gives back naive times, written in UTC
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


class LogTimes:
    """Line times for pages and the API. The newest lines' times are remembered per game as
    this process takes (or follows) the actions that write them (``wrote``), so a page drawn
    after an action does not walk the game's actions back in the database; lines it does not
    know (set-up's, a game loaded from the database) are read once, then remembered too."""

    def __init__(self, table: "Table") -> None:
        self.table = table
        self._views: OrderedDict[tuple[Any, ...], list[str | None]] = OrderedDict()
        self._written: OrderedDict[str, dict[int, datetime]] = OrderedDict()  # per game: line number -> time

    def wrote(self, game_id: str, total: int, count: int, at: datetime) -> None:
        """An action wrote the log's lines ``total - count + 1`` to ``total`` at ``at``. After a
        takeback the same numbers are written again, and their new times replace the old."""
        if count:
            self._remember(game_id, {n: at for n in range(total - count + 1, total + 1)}, total)

    def forget(self, game_id: str) -> None:
        """The game was read back from the database: another process may have taken its
        lines back and written them again, unseen here."""
        self._written.pop(game_id, None)

    def _remember(self, game_id: str, times: dict[int, datetime], total: int) -> None:
        known = self._written.get(game_id)
        if known is None:
            known = self._written[game_id] = {}
            while len(self._written) > GAMES_WRITTEN:
                self._written.popitem(last=False)
        known.update(times)
        if len(known) > 2 * KEEP_WRITTEN:
            for n in [n for n in known if n <= total - KEEP_WRITTEN]:
                del known[n]

    async def line_times(self, game_id: str, start: int, end: int, log_total: int | None = None) -> list[str | None]:
        """The times of lines ``start`` to ``end - 1`` (None where unknown: a game stored
        before actions kept their lines). ``log_total``: the log's length in the view being
        timed; a game this process holds with that log is walked back without reading it again."""
        known = self._written.get(game_id)
        if known is not None and all(n in known for n in range(start, end)):
            return [stamp(known[n]) for n in range(start, end)]
        snap = self.table.cache.get(game_id, 0) if log_total is not None else None
        if snap is None or snap.state.log.total != log_total:
            snap, _ = await self.table.load_stored(game_id)
        found: dict[int, datetime] = {}
        last, seq = snap.state.log.total, snap.version
        async with self.table.db.read() as session:
            while seq > 0 and last >= start:
                rows = (await session.execute(
                    select(Action.seq, Action.log, Action.created_at)
                    .where(Action.game_id == game_id, Action.seq <= seq).order_by(Action.seq.desc()).limit(BATCH)
                )).all()
                if not rows:
                    break
                for row_seq, lines, at in rows:
                    if lines is None:
                        return [stamp(found.get(n)) for n in range(start, end)]
                    first = last - len(lines) + 1
                    found.update((n, at) for n in range(max(first, start), min(last, end - 1) + 1))
                    last, seq = first - 1, row_seq - 1
                    if last < start:
                        break
            if last >= start:  # set-up's lines
                made = (await session.execute(select(Game.created_at).where(Game.id == game_id))).scalar_one()
                found.update((n, made) for n in range(start, last + 1))
        self._remember(game_id, found, snap.state.log.total)
        return [stamp(found.get(n)) for n in range(start, end)]

    async def view_times(self, view: dict[str, Any]) -> list[str | None] | None:
        """The time of each line of a view's ``log`` (the title's recent lines with the
        table's lines put in), in the same order; None if they could not be matched."""
        first, total = view["log_first"], view["log_total"]
        key = (view["id"], total, first, len(view["log"]))
        known = self._views.get(key)
        if known is not None:
            return known
        titled = await self.line_times(view["id"], first, total + 1, log_total=total)
        rows = self.table.hosting.line_times.get(view["id"])  # read with the table's lines
        if rows is None:
            async with self.table.db.read() as session:
                rows = list(reversed((await session.execute(
                    select(TableLine.at_line, TableLine.created_at).where(TableLine.game_id == view["id"])
                    .order_by(TableLine.id.desc()).limit(KEEP_TABLE_LINES))).all()))
        table_times = [(at, stamp(when) or "") for at, when in rows]
        merged = merge_table_lines([t or "" for t in titled], total, table_times)
        if len(merged) != len(view["log"]):
            return None
        times = [t or None for t in merged]
        self._views[key] = times
        while len(self._views) > 1024:
            self._views.popitem(last=False)
        return times
