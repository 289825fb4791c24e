"""Hosting: the host link, seat links shown again or replaced, seats renamed or re-opened,
when each seat last looked, the table's own log lines, and "my games".

The host link carries a secret of its own. The server keeps only its hash, and every seat's
link secret is derived from it (``tokens.derived_token``). So the host page can show each
seat's link again, while the database holds hashes only: a copy of it opens no seat. A
replaced link is the seat's next generation; the old hash is overwritten, so the old link
stops at once (this process forgets it now, other processes on the "seats changed" notice).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Sequence

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.games import get_title
from app.store.models import Game, Seat, TableLine, utcnow

from .errors import BadRequest, Forbidden, NotFound, StaleVersion
from .seats import Viewer, clean_name
from .tokens import derived_token, same_hash, token_hash

if TYPE_CHECKING:
    from .service import Table

log = logging.getLogger("keydom.hosting")

MAX_MY_GAMES = 100  # links one "my games" request may ask about
MAX_LINK = 200  # longer strings are not links of ours
SEEN_EVERY = 60.0  # seconds: a seat's "last looked" is written at most this often per process
KEEP_TABLE_LINES = 50  # table lines a view carries (the newest)
SEATS = Seat.__table__
GAMES = Game.__table__

TableLines = Sequence[tuple[int, str]]  # (title log lines before it, text)


@dataclass(frozen=True)
class HostedSeat:
    """One seat as the host sees it: its link again, who took it and when they last looked."""

    seat: int
    name: str | None
    token: str
    claimed_at: datetime | None
    seen_at: datetime | None
    awaited: bool  # play waits for this seat's choice now

    @property
    def open(self) -> bool:
        return self.name is None


@dataclass(frozen=True)
class HostedGame:
    id: str
    title: str
    title_name: str
    status: str
    host_name: str | None
    seats: list[HostedSeat]
    winners: list[str] | None  # once the game is over
    created_at: datetime
    updated_at: datetime

    @property
    def awaited(self) -> list[HostedSeat]:
        return [s for s in self.seats if s.awaited]

    @property
    def waiting_on_open(self) -> list[HostedSeat]:
        """Open seats whose choice play waits for: their invite links are what the host must send."""
        return [s for s in self.seats if s.open and s.awaited]


@dataclass(frozen=True)
class Invitation:
    """What an invite page tells a friend before they take a seat."""

    game_id: str
    title: str
    title_name: str
    host_name: str | None
    seat: int
    seated: list[str]
    status: str


@dataclass(frozen=True)
class MyGame:
    """One link this browser holds, as the home page lists it (public facts only)."""

    token: str
    role: str  # "seat" or "host"
    id: str
    title: str
    title_name: str
    seat: int | None
    you: str | None
    seats: list[dict[str, Any]]
    to_act: list[int]
    your_turn: bool
    waiting_on_open: bool
    status: str
    winners: list[str] | None
    updated_at: datetime

    def sort_key(self) -> tuple[int, int, float]:
        """Your turn first, then games still running, newest change first."""
        return (not self.your_turn, self.status == "finished", -self.updated_at.timestamp())


class Hosting:
    def __init__(self, table: "Table") -> None:
        self.table = table
        self.lines: dict[str, list[tuple[int, str]]] = {}  # per game, filled when the game is loaded
        self._seen_written: dict[tuple[str, int], float] = {}

    # --- The table's own log lines ---
    async def load_lines(self, session: AsyncSession, game_id: str) -> None:
        """Read a game's table lines (called where the game's seat names are read)."""
        rows = (await session.execute(
            select(TableLine.at_line, TableLine.line).where(TableLine.game_id == game_id)
            .order_by(TableLine.id.desc()).limit(KEEP_TABLE_LINES)
        )).all()
        if len(self.lines) > 4096:
            self.lines.clear()
        self.lines[game_id] = [(at, line) for at, line in reversed(rows)]

    async def write_line(self, session: AsyncSession, game_id: str, line: str) -> None:
        """Add a line to the game's log after the title's current last line; it is a change
        of the game, so its "last change" moves too."""
        now = utcnow()
        await session.execute(insert(TableLine).values(
            game_id=game_id, at_line=await self._log_total(game_id), line=line[:200], created_at=now))
        await session.execute(update(GAMES).where(GAMES.c.id == game_id).values(updated_at=now))
        self.lines.pop(game_id, None)

    async def _log_total(self, game_id: str) -> int:
        snap, _ = await self.table.load_stored(game_id)
        game_log = getattr(snap.state, "log", [])
        return int(getattr(game_log, "total", len(game_log)))

    async def seat_claimed(self, session: AsyncSession, game_id: str, seat: int, name: str) -> None:
        """A friend took an open seat by its invite link: when, and a line in the log."""
        await session.execute(
            update(SEATS).where(SEATS.c.game_id == game_id, SEATS.c.seat == seat).values(claimed_at=utcnow()))
        await self.write_line(session, game_id, f"{name} takes seat {seat + 1}")

    # --- Who looked when ---
    async def saw(self, game_id: str, seat: int) -> None:
        """A seat's link was used: note when (at most once a minute per seat and process, and
        never at the cost of the request that used it)."""
        key = (game_id, seat)
        now = time.monotonic()
        last = self._seen_written.get(key)
        if last is not None and now - last < SEEN_EVERY:
            return
        if len(self._seen_written) > 100_000:
            self._seen_written.clear()
        self._seen_written[key] = now
        try:
            async with self.table.db.write() as session:
                await session.execute(
                    update(SEATS).where(SEATS.c.game_id == game_id, SEATS.c.seat == seat).values(seen_at=utcnow()))
        except Exception:  # a busy database must not turn a look at the game into an error
            log.warning("could not note when seat %s of game %s looked", seat, game_id, exc_info=True)
            self._seen_written.pop(key, None)

    # --- The host page ---
    async def hosted(self, game_id: str, host_token: str) -> HostedGame:
        async with self.table.db.read() as session:
            game = await _game_for_host(session, game_id, host_token)
            seats = (await session.execute(
                select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat))).scalars().all()
        view = await self.table.view(_spectator(game_id))
        awaited = set(view["to_act"])
        return HostedGame(
            id=game_id, title=game.title, title_name=get_title(game.title).TITLE.name, status=view["status"],
            host_name=game.host_name, created_at=_utc(game.created_at), updated_at=_utc(game.updated_at),
            winners=[view["seats"][w]["name"] for w in view["result"]["winners"]] if view["result"] else None,
            seats=[HostedSeat(s.seat, s.name, derived_token(host_token, game_id, s.seat, s.link_generation),
                              _utc(s.claimed_at), _utc(s.seen_at), s.seat in awaited and view["status"] == "active")
                   for s in seats],
        )

    async def replace_link(self, game_id: str, host_token: str, seat: int) -> str:
        """A new link for a seat (lost or leaked): the old one stops working at once."""
        async with self.table.db.write() as session:
            await _game_for_host(session, game_id, host_token)
            row = await _seat_row(session, game_id, seat)
            token = derived_token(host_token, game_id, seat, row.link_generation + 1)
            replaced = await session.execute(
                update(SEATS).where(SEATS.c.id == row.id, SEATS.c.link_generation == row.link_generation)
                .values(token_hash=token_hash(token), link_generation=row.link_generation + 1))
            if replaced.rowcount != 1:
                raise StaleVersion("This seat was changed at the same moment. Reload the host page and try again.")
            await self.write_line(session, game_id, f"The host gave seat {seat + 1} a new link")
            await self.table.hub.notify_in_transaction(session, game_id, -1)
        await self._seats_changed(game_id)
        return token

    async def rename(self, game_id: str, host_token: str, seat: int, name: Any) -> None:
        """Rename a seat's player, or put a name on an open seat (its link then plays at once)."""

        cleaned = clean_name(name)
        if not cleaned:
            raise BadRequest(f"Type a name for seat {seat + 1}, or re-open the seat instead.")
        async with self.table.db.write() as session:
            await _game_for_host(session, game_id, host_token)
            row = await _seat_row(session, game_id, seat)
            if row.name == cleaned:
                return
            values: dict[str, Any] = {"name": cleaned}
            if row.name is None:
                values["claimed_at"] = utcnow()
            await session.execute(update(SEATS).where(SEATS.c.id == row.id).values(**values))
            await self.write_line(session, game_id, f"The host seated {cleaned} at seat {seat + 1}" if row.name is None
                                  else f"The host renamed {row.name} (seat {seat + 1}) to {cleaned}")
            await self.table.hub.notify_in_transaction(session, game_id, -1)
        await self._seats_changed(game_id)

    async def reopen(self, game_id: str, host_token: str, seat: int) -> None:
        """Free a seat whose player left: its link becomes an invite again (replace the link
        too if the one who left should not take it back)."""
        async with self.table.db.write() as session:
            await _game_for_host(session, game_id, host_token)
            row = await _seat_row(session, game_id, seat)
            if row.name is None:
                raise BadRequest(f"Seat {seat + 1} is already open.")
            await session.execute(update(SEATS).where(SEATS.c.id == row.id).values(name=None, claimed_at=None))
            await self.write_line(session, game_id, f"The host re-opened seat {seat + 1} ({row.name} left)")
            await self.table.hub.notify_in_transaction(session, game_id, -1)
        await self._seats_changed(game_id)

    async def _seats_changed(self, game_id: str) -> None:
        await self.table.hub.publish(game_id, -1)  # also makes every Table here forget the seats
        self.table.forget_seats(game_id)

    # --- The invite page ---
    async def invitation(self, game_id: str, seat: int) -> Invitation:
        async with self.table.db.read() as session:
            game = (await session.execute(
                select(Game.title, Game.status, Game.host_name).where(Game.id == game_id))).one_or_none()
            if game is None:
                raise NotFound("There is no game with that id.")
            seated = (await session.execute(
                select(Seat.name).where(Seat.game_id == game_id, Seat.name.is_not(None)).order_by(Seat.seat)
            )).scalars().all()
        return Invitation(game_id, game.title, get_title(game.title).TITLE.name, game.host_name, seat,
                          list(seated), game.status)

    # --- My games ---
    async def my_games(self, tokens: list[str]) -> list[MyGame]:
        """One entry per link this browser holds that opens a seat or a host page; anything
        else is skipped without a word (the server learns nothing it did not know)."""
        if len(tokens) > MAX_MY_GAMES:
            raise BadRequest(f"Ask about at most {MAX_MY_GAMES} links at once (you sent {len(tokens)}).")
        by_hash = {token_hash(t): t for t in dict.fromkeys(tokens) if isinstance(t, str) and 0 < len(t) <= MAX_LINK}
        if not by_hash:
            return []
        async with self.table.db.read() as session:
            seats = (await session.execute(
                select(Seat.game_id, Seat.seat, Seat.token_hash).where(Seat.token_hash.in_(list(by_hash))))).all()
            hosts = (await session.execute(
                select(Game.id, Game.host_hash).where(Game.host_hash.in_(list(by_hash))))).all()
            held = [(g, s, h, "seat") for g, s, h in seats] + [(g, None, h, "host") for g, h in hosts]
            games = {row.id: row for row in (await session.execute(
                select(Game.id, Game.version, Game.updated_at).where(Game.id.in_({g for g, *_ in held})))).all()}
        entries = []
        for game_id, seat, digest, role in held:
            if game_id not in games:
                continue
            view = await self.table.view(_spectator(game_id), known_version=games[game_id].version)
            entries.append(_my_game(by_hash[digest], role, seat, view, games[game_id].updated_at))
        return sorted(entries, key=MyGame.sort_key)


def merge_table_lines(lines: list[str], log_total: int, table_lines: TableLines) -> list[str]:
    """The title's recent log lines (the last ``len(lines)`` of ``log_total``) with the
    table's lines put in where they were written; table lines older than them are left out.

    >>> merge_table_lines(["a", "b", "c"], 5, [(3, "Ann takes seat 2"), (1, "too old")])
    ['a', 'Ann takes seat 2', 'b', 'c']
    """
    first = log_total - len(lines)
    merged = list(lines)
    for at, line in reversed(table_lines):  # from the newest, so earlier positions stay put
        if first <= at <= log_total:
            merged.insert(at - first, line)
    return merged


def _utc(moment: datetime | None) -> Any:
    """SQLite hands back naive times; every time here was written in UTC."""
    return moment.replace(tzinfo=timezone.utc) if moment is not None and moment.tzinfo is None else moment


def _spectator(game_id: str) -> Any:

    return Viewer(game_id, None)


def _my_game(token: str, role: str, seat: int | None, view: dict[str, Any], updated_at: datetime) -> MyGame:
    seats = view["seats"]
    to_act = view["to_act"] if view["status"] == "active" else []
    winners = [seats[w]["name"] for w in view["result"]["winners"]] if view["result"] else None
    return MyGame(
        token=token, role=role, id=view["id"], title=view["title"], title_name=get_title(view["title"]).TITLE.name,
        seat=seat, you=None if seat is None or seats[seat]["open"] else seats[seat]["name"],
        seats=seats, to_act=to_act, your_turn=seat is not None and seat in to_act,
        waiting_on_open=any(seats[s]["open"] for s in to_act), status=view["status"], winners=winners,
        updated_at=_utc(updated_at),
    )


async def _game_for_host(session: AsyncSession, game_id: str, host_token: str) -> Any:
    game = (await session.execute(
        select(Game.id, Game.title, Game.status, Game.host_hash, Game.host_name, Game.created_at, Game.updated_at)
        .where(Game.id == game_id)
    )).one_or_none()
    if game is None:
        raise NotFound("There is no game with that id.")
    if not host_token or game.host_hash is None or not same_hash(game.host_hash, token_hash(host_token)):
        raise Forbidden("That host link does not belong to this game.")
    return game


async def _seat_row(session: AsyncSession, game_id: str, seat: int) -> Any:
    row = (await session.execute(
        select(Seat.id, Seat.name, Seat.link_generation).where(Seat.game_id == game_id, Seat.seat == seat)
    )).one_or_none()
    if row is None:
        raise NotFound(f"This game has no seat {seat + 1}.")
    return row
