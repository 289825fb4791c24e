"""Hosting: the host link, seat links shown again or replaced, seats renamed or re-opened,
when each seat last looked, the table's own log lines, and "my games".

The host link carries a secret of its own. The server keeps only its hash, and every seat's
link secret is derived from it (``tokens.derived_token``). So the host page can show each
seat's link again, while the database holds hashes only: a copy of it opens no seat. A
replaced link is the seat's next generation; the old hash is overwritten, so the old link
stops at once (this process forgets it now, other processes on the "seats changed" notice).

A link posted in a group chat must not hand a seat to whoever clicks next, and a host who
plays must not be able to read the others' screens. So a seat taken from its invite gets a
fresh random link that only its player ever sees (not derived: the host page cannot show it
again), and in a "host who plays" game every derived link must first be *opened* the same
way before it shows a seat. The links a seat leaves behind are kept as hashes in
``spent_links`` with the reason, so whoever follows one is told what happened to it.
"""

from __future__ import annotations

import logging
import re
import time
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Sequence

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.games import get_title
from app.store.models import Game, Seat, ServerSetting, SpentLink, TableLine, utcnow

from .errors import BadRequest, Forbidden, NotFound, StaleVersion
from .events import TableEvent
from .seats import BOT_LEVELS, Viewer, clean_name
from .tokens import TOKEN_LENGTH, derived_token, new_token, same_hash, token_hash

if TYPE_CHECKING:
    from .service import Table

log = logging.getLogger("keydom.hosting")

MAX_MY_GAMES = 100  # links one "my games" request may ask about
MAX_LINK = 200  # longer strings are not links of ours
SEEN_EVERY = 60.0  # seconds: a seat's "last looked" is written at most this often per process
KEEP_TABLE_LINES = 50  # table lines a view carries (the newest)
LINK_ADDRESS = "link_address"  # the server_settings row: the address the host chose for links
LINK_ADDRESS_EVERY = 10.0  # seconds: how long a process trusts the link address it last read
SEATS = Seat.__table__
GAMES = Game.__table__
SPENT = SpentLink.__table__
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]+")


class LinkToOpen(Forbidden):
    """A "host who plays" game's seat link that its player has not opened yet: it shows
    the seat only after being swapped for a private link (``Hosting.open_seat``)."""


def name_key(name: str) -> str:
    """What two names must not share: case, spaces and Unicode look-alike forms ignored.

    >>> name_key(" Ann  Lee ") == name_key("annlee") == name_key("ＡＮＮ LEE")
    True
    """
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())[:40]


def check_distinct(names: Sequence[str | None]) -> None:
    """Players tell each other apart by name: refuse a list where two seats share one."""
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        if not name:
            continue
        other = seen.setdefault(name_key(name), seat)
        if other != seat:
            raise BadRequest(f"Seats {other + 1} and {seat + 1} are both called “{names[other]}”: "
                             "give each player a name the others can tell apart.")


def _name_taken(name: str, by: str) -> BadRequest:
    return BadRequest(f"“{name}” is too close to {by}, who already sits at this table: "
                      "choose a name the others can tell apart (add an initial, say).")


async def check_name_free(session: AsyncSession, game_id: str, seat: int, name: str) -> None:
    """Refuse a name another seat of the game already has (however it is spelled)."""
    key = name_key(name)
    for other, other_name in (await session.execute(
            select(Seat.seat, Seat.name).where(Seat.game_id == game_id, Seat.name.is_not(None)))).all():
        if other != seat and name_key(other_name) == key:
            raise _name_taken(name, other_name)


def name_clash(error: IntegrityError, name: str) -> BadRequest | None:
    """Two claims with one name at the same moment: the database's unique (game, name_key)
    lets one through; the other gets the same refusal as if it had come second."""
    return _name_taken(name, "another player") if "name_key" in str(error.orig) or "uq_seats" in str(error.orig) else None


@dataclass(frozen=True)
class TakenSeat:
    seat: int
    private: str  # the seat's new link secret, which only its player gets


@dataclass(frozen=True)
class BrokenLink:
    """Why a link opens nothing, and what its holder can do about it."""

    kind: str  # no-game | cut-short | too-long | claimed | opened | replaced | reopened | unknown | not-host | live
    heading: str
    message: str
    advice: str
    game_id: str | None = None
    title_name: str | None = None
    finished: bool = False

TableLines = Sequence[tuple[int, str]]  # (title log lines before it, text)


@dataclass(frozen=True)
class HostedSeat:
    """One seat as the host sees it: its link again, who took it and when they last looked."""

    seat: int
    name: str | None
    token: str | None  # None: the seat's link is its player's own, which the host page cannot show
    claimed_at: datetime | None
    seen_at: datetime | None
    awaited: bool  # play waits for this seat's choice now
    must_open: bool = False  # a "host who plays" link its player has not opened yet
    bot_level: str | None = None  # a bot plays the seat now ("random" | "strong"; app/bots)
    made_for_bot: bool = False  # the seat was given to a bot when the game was made

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
    host_plays: bool = False

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
    name: str | None = None  # the seat's player, when the host named them
    host_plays: bool = False


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
        self.line_times: dict[str, list[tuple[int, datetime]]] = {}  # and when each was written (logtimes.py)
        self._seen_written: dict[tuple[str, int], float] = {}
        # The address the host chose for links ("" for none: the request's own), as last read.
        self.link_address = ""
        self._link_address_read = float("-inf")

    # --- The address links are made with ---
    async def link_address_now(self) -> str:
        """The chosen link address, read again when this process's copy is older than a few
        seconds (another process may have changed it)."""
        if time.monotonic() - self._link_address_read >= LINK_ADDRESS_EVERY:
            async with self.table.db.read() as session:
                value = (await session.execute(
                    select(ServerSetting.value).where(ServerSetting.key == LINK_ADDRESS))).scalar_one_or_none()
            self.link_address, self._link_address_read = value or "", time.monotonic()
        return self.link_address

    async def choose_link_address(self, game_id: str, host_token: str, address: str) -> None:
        """Make every link with ``address`` ("" again: with the address each page was opened
        with). The web layer checks it is one of this machine's own."""
        async with self.table.db.write() as session:
            await _game_for_host(session, game_id, host_token)
            await session.execute(delete(ServerSetting).where(ServerSetting.key == LINK_ADDRESS))
            if address:
                await session.execute(insert(ServerSetting).values(key=LINK_ADDRESS, value=address, updated_at=utcnow()))
        self.link_address, self._link_address_read = address, time.monotonic()

    # --- The table's own log lines ---
    async def load_lines(self, session: AsyncSession, game_id: str) -> None:
        """Read a game's table lines (called where the game's seat names are read)."""
        rows = (await session.execute(
            select(TableLine.at_line, TableLine.line, TableLine.created_at).where(TableLine.game_id == game_id)
            .order_by(TableLine.id.desc()).limit(KEEP_TABLE_LINES)
        )).all()
        if len(self.lines) > 4096:
            self.lines.clear()
            self.line_times.clear()
        self.lines[game_id] = [(at, line) for at, line, _ in reversed(rows)]
        self.line_times[game_id] = [(at, when) for at, _, when in reversed(rows)]

    async def write_line(self, session: AsyncSession, game_id: str, line: str) -> None:
        """Add a line to the game's log after the title's current last line; it is a change
        of the game, so its "last change" moves too."""
        now = utcnow()
        await session.execute(insert(TableLine).values(
            game_id=game_id, at_line=await self._log_total(game_id), line=line[:200], created_at=now))
        await session.execute(update(GAMES).where(GAMES.c.id == game_id).values(updated_at=now))
        self.lines.pop(game_id, None)
        self.line_times.pop(game_id, None)

    async def _log_total(self, game_id: str) -> int:
        snap, _ = await self.table.load_stored(game_id)
        game_log = getattr(snap.state, "log", [])
        return int(getattr(game_log, "total", len(game_log)))

    # --- Taking a seat ---
    async def take_seat(self, session: AsyncSession, game_id: str, token: str, name: str) -> TakenSeat:
        """A friend names an open seat from its invite link. The seat gets a fresh random
        link that only they see; the invite is spent (it then says who took the seat).
        Returns the seat and its new link's secret."""
        try:
            seat = await self.table._seat_for_token(session, game_id, token)
        except Forbidden:
            taken = (await session.execute(
                select(Seat.name).join(SpentLink, (Seat.game_id == SpentLink.game_id) & (Seat.seat == SpentLink.seat))
                .where(SpentLink.token_hash == token_hash(token), SpentLink.game_id == game_id,
                       SpentLink.reason == "claimed"))).scalar_one_or_none()
            if taken:  # someone claimed it a moment earlier (or long ago)
                raise Forbidden(f"This seat is already taken by {taken}.") from None
            raise
        if seat.name:
            raise Forbidden(f"This seat is already taken by {seat.name}.")
        status = (await session.execute(select(Game.status).where(Game.id == seat.game_id))).scalar_one()
        if status == "finished":
            raise BadRequest("This game is over: there is no seat to take any more.")
        await check_name_free(session, seat.game_id, seat.seat, name)
        private = new_token()
        # Conditional on the seat still being open: of two claims at the same moment
        # (on PostgreSQL both may have read it open) exactly one matches.
        claimed = await session.execute(
            update(SEATS).where(SEATS.c.id == seat.id, SEATS.c.name.is_(None))
            .values(name=name, name_key=name_key(name), token_hash=token_hash(private), must_open=False,
                    claimed_at=utcnow()))
        if claimed.rowcount != 1:
            taken = (await session.execute(select(Seat.name).where(Seat.id == seat.id))).scalar_one()
            raise Forbidden(f"This seat is already taken by {taken}.")
        await _spend(session, seat.token_hash, seat.game_id, seat.seat, "claimed")
        await self.write_line(session, seat.game_id, f"{name} takes seat {seat.seat + 1}")
        return TakenSeat(seat.seat, private)

    async def open_seat(self, game_id: str, token: str) -> str:
        """In a "host who plays" game, a player swaps the link the host sent for a private
        one (the host page then no longer shows it). Returns the new link's secret."""
        private = new_token()
        async with self.table.db.write() as session:
            seat = (await session.execute(select(Seat).where(Seat.token_hash == token_hash(token)))).scalar_one_or_none()
            if seat is None or seat.game_id != game_id or not seat.must_open:
                raise Forbidden("This link has nothing to open: it is not a seat link of this game waiting to be opened.")
            opened = await session.execute(
                update(SEATS).where(SEATS.c.id == seat.id, SEATS.c.token_hash == seat.token_hash)
                .values(token_hash=token_hash(private), must_open=False))
            if opened.rowcount != 1:
                raise StaleVersion("This seat was changed at the same moment. Open your link again.")
            await _spend(session, seat.token_hash, game_id, seat.seat, "opened")
            await self.table.hub.notify_in_transaction(session, game_id, -1)
        await self._seats_changed(game_id)
        return private

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
            seats=[HostedSeat(s.seat, s.name, _shown_link(host_token, s), _utc(s.claimed_at), _utc(s.seen_at),
                              s.seat in awaited and view["status"] == "active", s.must_open, s.bot_level, s.bot)
                   for s in seats],
            host_plays=game.host_plays,
        )

    async def replace_link(self, game_id: str, host_token: str, seat: int) -> str:
        """A new link for a seat (lost or leaked): the old one stops working at once."""
        async with self.table.db.write() as session:
            game = await _game_for_host(session, game_id, host_token)
            row = await _seat_row(session, game_id, seat)
            token = derived_token(host_token, game_id, seat, row.link_generation + 1)
            replaced = await session.execute(
                update(SEATS).where(SEATS.c.id == row.id, SEATS.c.link_generation == row.link_generation)
                .values(token_hash=token_hash(token), link_generation=row.link_generation + 1,
                        must_open=game.host_plays))
            if replaced.rowcount != 1:
                raise StaleVersion("This seat was changed at the same moment. Reload the host page and try again.")
            await _spend(session, row.token_hash, game_id, seat, "replaced")
            await self.write_line(session, game_id, f"The host gave seat {seat + 1} a new link")
            await self.table.hub.notify_in_transaction(session, game_id, -1)
        await self._seats_changed(game_id)
        return token

    async def rename(self, game_id: str, host_token: str, seat: int, name: Any) -> None:
        """Rename a seat's player, or put a name on an open seat (its link then plays at once)."""

        cleaned = clean_name(name)
        if not cleaned:
            raise BadRequest(f"Type a name for seat {seat + 1}, or re-open the seat instead.")
        try:
            async with self.table.db.write() as session:
                await _game_for_host(session, game_id, host_token)
                row = await _seat_row(session, game_id, seat)
                if row.name == cleaned:
                    return
                await check_name_free(session, game_id, seat, cleaned)
                values: dict[str, Any] = {"name": cleaned, "name_key": name_key(cleaned)}
                if row.name is None:
                    values["claimed_at"] = utcnow()
                await session.execute(update(SEATS).where(SEATS.c.id == row.id).values(**values))
                await self.write_line(session, game_id, f"The host seated {cleaned} at seat {seat + 1}"
                                      if row.name is None else f"The host renamed {row.name} (seat {seat + 1}) to {cleaned}")
                await self.table.hub.notify_in_transaction(session, game_id, -1)
        except IntegrityError as error:
            raise name_clash(error, cleaned) or error from None
        await self._seats_changed(game_id)

    async def reopen(self, game_id: str, host_token: str, seat: int) -> None:
        """Free a seat whose player left: its link becomes an invite again (replace the link
        too if the one who left should not take it back)."""
        async with self.table.db.write() as session:
            game = await _game_for_host(session, game_id, host_token)
            row = await _seat_row(session, game_id, seat)
            if row.name is None:
                raise BadRequest(f"Seat {seat + 1} is already open.")
            # The invite is the link the host page shows; a private link the player who
            # left had (from taking or opening the seat) stops, and says why.
            invite = token_hash(derived_token(host_token, game_id, seat, row.link_generation))
            if row.token_hash != invite:
                await _spend(session, row.token_hash, game_id, seat, "reopened")
                await session.execute(delete(SPENT).where(SPENT.c.token_hash == invite))
            await session.execute(update(SEATS).where(SEATS.c.id == row.id).values(
                name=None, name_key=None, claimed_at=None, bot=False, bot_level=None, token_hash=invite, must_open=game.host_plays))
            await self.write_line(session, game_id, f"The host re-opened seat {seat + 1} ({row.name} left)")
            await self.table.hub.notify_in_transaction(session, game_id, -1)
        await self._seats_changed(game_id)

    # --- Bots standing in (app/bots drives them; the table only records who plays) ---
    async def hand_to_bot(self, game_id: str, host_token: str, seat: int, level: str | None) -> bool:
        """The host hands a seat to a bot (``level``) while its player is away, or back (None)."""
        async with self.table.db.read() as session:
            await _game_for_host(session, game_id, host_token)
        return await self.hand_seat(game_id, seat, level, by="host")

    async def hand_seat(self, game_id: str, seat: int, level: str | None, by: str) -> bool:
        """Who plays a seat from now on: a bot of ``level``, or (None) its player again. ``by``
        says why, for the log: "host", "clock" (its time ran out) or "player" (back at the
        table). False when nothing changed (already so)."""
        if level is not None and level not in BOT_LEVELS:
            raise BadRequest(f"A bot's level is one of {', '.join(BOT_LEVELS)}.")
        async with self.table.db.write() as session:
            row = (await session.execute(
                select(Seat.id, Seat.name, Seat.bot, Seat.bot_level).where(Seat.game_id == game_id, Seat.seat == seat)
            )).one_or_none()
            if row is None:
                raise NotFound(f"This game has no seat {seat + 1}.")
            if row.name is None:
                raise BadRequest(f"Seat {seat + 1} is open: seat a player (or let a friend take it) first.")
            if row.bot and level is None:
                raise BadRequest(f"Seat {seat + 1} was made for a bot; it has no player to hand it back to.")
            if row.bot_level == level:
                return False
            changed = await session.execute(update(SEATS).where(
                SEATS.c.id == row.id, SEATS.c.bot_level.is_(None) if row.bot_level is None
                else SEATS.c.bot_level == row.bot_level).values(bot_level=level))
            if changed.rowcount != 1:
                raise StaleVersion("This seat was changed at the same moment. Reload the page and try again.")
            who = f"a {level} bot" if level else row.name
            line = {
                ("host", True): f"The host hands seat {seat + 1} to {who} while {row.name} is away",
                ("host", False): f"The host hands seat {seat + 1} back to {row.name}",
                ("clock", True): f"{row.name}'s time ran out: {who} plays seat {seat + 1} until they come back",
                ("player", False): f"{row.name} is back and plays seat {seat + 1} again",
            }.get((by, level is not None), f"Seat {seat + 1} is played by {who}")
            await self.write_line(session, game_id, line)
            await self.table.hub.notify_in_transaction(session, game_id, -1)
        await self._seats_changed(game_id)
        self.table.events.publish(TableEvent("handover", game_id, None, seat))
        return True

    async def check_host(self, game_id: str, host_token: str) -> None:
        """Refuse (403/404) unless ``host_token`` is this game's host link."""
        async with self.table.db.read() as session:
            await _game_for_host(session, game_id, host_token)

    async def note(self, game_id: str, line: str) -> None:
        """A line from outside the rules in the game's log (a seat's time ran out), shown on
        every open page."""
        async with self.table.db.write() as session:
            await self.write_line(session, game_id, line)
            await self.table.hub.notify_in_transaction(session, game_id, -1)
        await self._seats_changed(game_id)

    async def _seats_changed(self, game_id: str) -> None:
        await self.table.hub.publish(game_id, -1)  # also makes every Table here forget the seats
        self.table.forget_seats(game_id)

    # --- The invite page ---
    async def invitation(self, game_id: str, seat: int | None, token: str | None = None) -> Invitation:
        """What the invite page (or a "host who plays" seat link waiting to be opened) shows;
        with ``token`` instead of a seat number, the seat that link belongs to."""
        async with self.table.db.read() as session:
            game = (await session.execute(
                select(Game.title, Game.status, Game.host_name, Game.host_plays).where(Game.id == game_id))).one_or_none()
            if game is None:
                raise NotFound("There is no game with that id.")
            if seat is None:
                seat = (await session.execute(select(Seat.seat).where(
                    Seat.game_id == game_id, Seat.token_hash == token_hash(token or "")))).scalar_one()
            seats = (await session.execute(
                select(Seat.seat, Seat.name).where(Seat.game_id == game_id).order_by(Seat.seat))).all()
        return Invitation(game_id, game.title, get_title(game.title).TITLE.name, game.host_name, seat,
                          [n for _, n in seats if n], game.status, dict(seats).get(seat), game.host_plays)

    # --- Links that open nothing ---
    async def explain_link(self, game_id: str, token: str, role: str = "seat") -> BrokenLink:
        """Why a seat (or host) link opens nothing, in the words its holder needs: which
        game, what happened to the link, who to ask."""
        async with self.table.db.read() as session:
            game = (await session.execute(
                select(Game.title, Game.status, Game.host_name).where(Game.id == game_id))).one_or_none()
            spent = live = None
            if game is not None and role == "seat":
                live = (await session.execute(select(Seat.seat, Seat.name, Seat.must_open).where(
                    Seat.token_hash == token_hash(token), Seat.game_id == game_id))).one_or_none()
                spent = (await session.execute(
                    select(SpentLink.seat, SpentLink.reason, SpentLink.spent_at, Seat.name)
                    .join(Seat, (Seat.game_id == SpentLink.game_id) & (Seat.seat == SpentLink.seat))
                    .where(SpentLink.token_hash == token_hash(token), SpentLink.game_id == game_id))).one_or_none()
        host = game.host_name if game is not None and game.host_name else "the host"
        ask = f"ask {host} for it" if game is not None and game.host_name else "ask the host for it"
        if game is None:
            return BrokenLink("no-game", "No such game here",
                              f"This server has no game “{game_id[:20]}”.",
                              "Check that the whole link arrived (copy it again from the message you got). "
                              "If the game was made on another server, the link must name that server's address.")
        about = dict(game_id=game_id, title_name=get_title(game.title).TITLE.name, finished=game.status == "finished")
        what = "host link" if role == "host" else "seat link"
        shape = _shape_problem(token)
        if shape == "short":
            return BrokenLink("cut-short", "This link is cut short",
                              f"The {what} you followed is shorter than a whole link: its last characters are missing "
                              "(links get cut when a message wraps or a chat shortens them).",
                              "Copy the whole link again from the message you got, or " + ask + ".", **about)
        if shape == "long":
            return BrokenLink("too-long", "This link has extra characters",
                              f"The {what} you followed is longer than a whole link: something was added at its end "
                              "(a full stop, a bracket or a word the chat joined to it).",
                              "Remove what follows the link's last 32 characters after the last “/”, or copy it again.",
                              **about)
        if role == "host":
            return BrokenLink("not-host", "Not this game's host link",
                              f"This is not the host link of game {game_id}: it may be mistyped, or a seat's link "
                              "with “host” in place of “seat”.",
                              "Open the host link you bookmarked when you made the game; nobody else can show it again.",
                              **about)
        if live is not None:  # a link that works, used for something it does not do
            return BrokenLink("live", f"This is seat {live.seat + 1}'s link",
                              f"This link opens seat {live.seat + 1}"
                              + (f" ({live.name})" if live.name else "") + ": there is nothing else to do with it here.",
                              "Open the link itself (without anything after it) to "
                              + ("take the seat." if live.name is None else "open the seat."),
                              **about)
        if spent is not None:
            n = spent.seat + 1
            if spent.reason == "claimed" and spent.name:
                return BrokenLink("claimed", f"Seat {n} is taken",
                                  f"This invite was used: {spent.name} took seat {n}. The invite no longer opens "
                                  "the seat; the one who took it got a private link of their own.",
                                  f"If you are {spent.name}, open the link you got when you took the seat (this "
                                  "browser keeps it under “Your games” on the home page if you used it). Otherwise "
                                  f"{ask.replace(' for it', '')} for another seat, or watch the game.", **about)
            if spent.reason == "opened" and spent.name:
                return BrokenLink("opened", f"Seat {n} was opened",
                                  f"{spent.name} opened seat {n} with this link and got a private link of their own; "
                                  "this one no longer opens the seat.",
                                  f"If you are {spent.name}, use your private link (this browser keeps it under "
                                  f"“Your games” if you opened it here). If you lost it, the host can give seat {n} "
                                  f"a new link — {ask}.", **about)
            if spent.reason == "reopened":
                return BrokenLink("reopened", f"Seat {n} was re-opened",
                                  f"The host re-opened seat {n} for another player; this link no longer opens it.",
                                  f"If you should still be playing, {ask.replace(' for it', '')} for a new link.", **about)
            return BrokenLink("replaced", f"Seat {n} has a new link",
                              f"The host gave seat {n} a new link, so this one stopped working.",
                              f"The host gave this seat a new link — {ask}.", **about)
        return BrokenLink("unknown", "This link opens no seat",
                          f"Game {game_id} exists, but this link's key is not one of its seats: a character may be "
                          "wrong, or it belongs to another game.",
                          f"Copy the whole link again from the message you got, or {ask}.", **about)

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
                select(Game.id, Game.version, Game.updated_at, Game.view_changed_at)
                .where(Game.id.in_({g for g, *_ in held})))).all()}
        entries = []
        for game_id, seat, digest, role in held:
            if game_id not in games:
                continue
            view = await self.table.view(_spectator(game_id), known_version=games[game_id].version)
            game = games[game_id]  # each seat's own last change: others' private steps move nothing
            entries.append(_my_game(by_hash[digest], role, seat, view,
                                    seen_changed_at(game.updated_at, game.view_changed_at, seat)))
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


def seen_changed_at(updated_at: datetime, view_changed_at: list[float | None] | None,
                    seat: int | None) -> datetime:
    """The last change of a game that this seat (None: anyone) could see: the last public
    change (``games.updated_at``: an action everyone saw, a seat taken) or the last step
    that changed what the seat itself sees, whichever is later. Another seat's private
    steps move neither."""
    if updated_at.tzinfo is None:  # SQLite hands back naive times; all were written in UTC
        updated_at = updated_at.replace(tzinfo=timezone.utc)
    if seat is None or not view_changed_at or not 0 <= seat < len(view_changed_at) - 1:
        return updated_at
    own = view_changed_at[seat]
    if own is None:
        return updated_at
    return max(updated_at, datetime.fromtimestamp(own, timezone.utc))


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
        select(Game.id, Game.title, Game.status, Game.host_hash, Game.host_name, Game.host_plays,
               Game.created_at, Game.updated_at)
        .where(Game.id == game_id)
    )).one_or_none()
    if game is None:
        raise NotFound("There is no game with that id.")
    if not host_token or game.host_hash is None or not same_hash(game.host_hash, token_hash(host_token)):
        raise Forbidden("That host link does not belong to this game.")
    return game


async def _seat_row(session: AsyncSession, game_id: str, seat: int) -> Any:
    row = (await session.execute(
        select(Seat.id, Seat.name, Seat.link_generation, Seat.token_hash).where(Seat.game_id == game_id, Seat.seat == seat)
    )).one_or_none()
    if row is None:
        raise NotFound(f"This game has no seat {seat + 1}.")
    return row


def _shape_problem(token: str) -> str | None:
    """Every link secret is 32 URL-safe characters; a cut or extended one says so.

    >>> _shape_problem("a" * 31), _shape_problem("a" * 32), _shape_problem("a" * 32 + ")")
    ('short', None, 'long')
    """
    if len(token) < TOKEN_LENGTH:
        return "short"
    if len(token) > TOKEN_LENGTH:
        return "long"
    return None if _TOKEN_SHAPE.fullmatch(token) else "bad"


def _shown_link(host_token: str, seat: Seat) -> str | None:
    """The seat's link as the host page may show it: the derived one, while it is still the
    seat's live link (a seat taken from its invite or opened by its player has a link of
    its own, and the host page shows none)."""
    derived = derived_token(host_token, seat.game_id, seat.seat, seat.link_generation)
    return derived if same_hash(token_hash(derived), seat.token_hash) else None


async def _spend(session: AsyncSession, digest: str, game_id: str, seat: int, reason: str) -> None:
    """Keep a link's hash with why it stopped, so following it explains itself."""
    await session.execute(delete(SPENT).where(SPENT.c.token_hash == digest))
    await session.execute(insert(SPENT).values(token_hash=digest, game_id=game_id, seat=seat, reason=reason,
                                               spent_at=utcnow()))
