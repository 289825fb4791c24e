"""The table: create games, seat players, show views and apply actions.

Every route calls exactly one function here. Applying an action: check seat, version and
option against the game's current state (cached, or read), apply the rules, then commit
one short transaction (a version update that only matches the game version just read,
the new snapshot, the action row with the log lines it wrote), then tell the hub.

Versions: the game's version counts its actions; it stays inside the server. Each viewer
(every seat, then the spectator) has its own view version, which counts the changes of
what it sees (``games.view_versions``), and the time of the last one
(``games.view_changed_at``). Views, frames, actions and the games list use the viewer's
own, so one seat's private step (a choice in several steps that nobody else sees) moves
nothing the others can see: no frame, no new version, no new "last change", no 409 for
their next action, and no jump later that would count the steps they did not see.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, Awaitable, Callable, Sequence

import orjson
from sqlalchemy import bindparam, case, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.games import UnknownTitle, get_title
from app.games.protocol import (VIEW_LOG, IllegalAction, State, Title, lines_written, shared_public_parts,
                                validate_options)
from app.hub.local import Hub, Moved
from app.store.db import Database
from app.store.models import Action, Game, Seat, TableLine, utcnow

from .changes import shared_changes
from .chat import Chat, check_policy
from .endings import Endings, ending_result
from .logtimes import LogTimes, stamp
from .memo import ByIdentity
from .rematch import Rematch
from .events import TableEvent, TableEvents
from .seats import Viewer, bot_level, bot_name, clean_name
from .errors import BadRequest, Forbidden, NotFound, NotOffered, StaleVersion, Unauthorized
from .hosting import Hosting, LinkToOpen, TableLines, check_distinct, merge_table_lines, name_clash, name_key
from .takeback import Takebacks, after_action, offer
from .tokens import derived_token, new_game_id, new_token, same_hash, token_hash

LOG_PAGE = 200  # most log lines one history request returns
KEEP_VIEWS = 256  # games whose newest views are kept for the frames an action causes
MAX_SEED = 2**31 - 1  # the seed column is a 32-bit integer on PostgreSQL
SECRET_BITS = 256  # hidden draws come from this many bits of server randomness per game
GAMES = Game.__table__
ACTIONS = Action.__table__
SEATS = Seat.__table__
_SEAT_REF = re.compile(r"\{seat(\d+)\}")
SNAPSHOT = orjson.OPT_NON_STR_KEYS  # like json.dumps: a dict keyed by seat numbers is written with string keys


def _bump(public: bool) -> Any:
    """The action's conditional version update, built once (an action only binds values):
    it matches only the game version the action was judged on. ``public``: the change is
    one everyone sees, so the games' "last change" moves too."""
    values = dict(version=bindparam("new_version"), snapshot=bindparam("new_snapshot"),
                  status=bindparam("new_status"), view_versions=bindparam("new_view_versions"),
                  view_changed_at=bindparam("new_view_changed_at"), takeback=bindparam("new_takeback"))
    if public:
        values["updated_at"] = bindparam("now")
    return (update(GAMES).where(GAMES.c.id == bindparam("game"), GAMES.c.version == bindparam("old_version"),
                                GAMES.c.status == "active")  # not a game the table ended meanwhile (endings.py)
            .values(**values))


BUMP = {True: _bump(True), False: _bump(False)}
ADD_ACTION = insert(ACTIONS).values(game_id=bindparam("game"), seq=bindparam("new_version"), seat=bindparam("seat"),
                                    option=bindparam("option"), log=bindparam("lines"), created_at=bindparam("now"))


def _act_at_once(public: bool, notify: bool) -> Any:
    """PostgreSQL: the version update, the action row and the NOTIFY in one statement (each
    part only if the update matched), so an action is one round trip, not five. It returns
    one row if the action was stored."""
    bumped = BUMP[public].returning(GAMES.c.id).cte("bumped")
    typed = [bindparam(name, type_=ACTIONS.c[column].type) for name, column in
             (("new_version", "seq"), ("seat", "seat"), ("option", "option"), ("lines", "log"), ("now", "created_at"))]
    added = (insert(ACTIONS).from_select(["game_id", "seq", "seat", "option", "log", "created_at"],
                                         select(bumped.c.id, *typed))
             .returning(ACTIONS.c.game_id).cte("added"))
    told = func.pg_notify(bindparam("channel"), bindparam("payload")) if notify else added.c.game_id
    return select(told).select_from(added)


ACT_AT_ONCE = {(public, notify): _act_at_once(public, notify) for public in (True, False) for notify in (True, False)}


@dataclass(frozen=True)
class SeatLink:
    seat: int
    name: str | None
    token: str


@dataclass(frozen=True)
class CreatedGame:
    id: str
    title: str
    seats: list[SeatLink]
    host_token: str  # the host link's secret; each seat's is derived from it (see hosting.py)


@dataclass
class Snapshot:
    """A game at one version, as this process last saw it.

    ``view_versions`` holds, for each seat and then the spectator, how many times what
    they see has changed (None: a game stored before view versions existed, whose viewers
    all start counting from ``version``).
    """

    game_id: str
    title: str
    version: int
    status: str
    state: State
    seed_given: bool = False
    view_versions: list[int] | None = None
    view_changed_at: list[float | None] | None = None
    ending: dict[str, Any] | None = None  # ended by the table, not its rules (endings.py)
    takeback: dict[str, Any] | None = None  # what each seat may take back; the open request (takeback.py)

    def view_versions_for(self, seats: int) -> list[int]:
        vv = self.view_versions
        return list(vv) if vv is not None and len(vv) == seats + 1 else [self.version] * (seats + 1)

    def view_version(self, seat: int | None) -> int:
        """What the seat (None: a spectator) knows the game as: its view's version."""
        vv = self.view_versions
        if vv is None:
            return self.version
        return vv[-1] if seat is None or not 0 <= seat < len(vv) - 1 else vv[seat]


class StateCache:
    """Recently used games by id, so a view needs neither SQL nor JSON parsing.

    Safe with several processes: an entry is used only when it is at least as new as the
    version the caller knows about (from the database, or from a change notice).
    """

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._items: OrderedDict[str, Snapshot] = OrderedDict()
        self.names: dict[str, list[str | None]] = {}

    def get(self, game_id: str, at_least: int) -> Snapshot | None:
        item = self._items.get(game_id)
        if item and item.version >= at_least:
            self._items.move_to_end(game_id)
            return item
        return None

    def drop(self, game_id: str) -> None:
        self._items.pop(game_id, None)

    def clear(self) -> None:
        self._items.clear()

    def put(self, snap: Snapshot) -> None:
        current = self._items.get(snap.game_id)
        if current and current.version > snap.version:
            return
        self._items[snap.game_id] = snap
        self._items.move_to_end(snap.game_id)
        while len(self._items) > self.size:
            gone, _ = self._items.popitem(last=False)
            self.names.pop(gone, None)


class Table:
    def __init__(self, db: Database, hub: Hub) -> None:
        self.db = db
        self.hub = hub
        self.cache = StateCache()
        # The action's statements, compiled once: SQLite's action writer runs the update and
        # the action row; PostgreSQL runs both (and the notice) as one statement.
        statements = (*BUMP.values(), ADD_ACTION) if db.is_sqlite else ACT_AT_ONCE.values()
        self._prepared = {statement: db.prepare(statement) for statement in statements}
        self._seats_by_hash: dict[str, tuple[str, int]] = {}
        # Each game's views at its newest version, built as viewers ask (see ``Views``).
        self._views: OrderedDict[str, Views] = OrderedDict()
        self.hosting = Hosting(self)
        # What happened, after it committed: notifications (and anything later) listen here.
        self.events = TableEvents()
        self.takebacks = Takebacks(self)  # undo and takeback requests (takeback.py)
        hub.on_seats_changed.append(self.forget_seats)
        hub.on_moved.append(self.follow)
        self.chat = Chat(self)  # the game's chat (chat.py)
        self.endings = Endings(self)  # abandoned and conceded games (endings.py)
        self.rematch = Rematch(self)  # "Play again" (rematch.py)
        self.log_times = LogTimes(self)  # when each log line was written (logtimes.py)

    # --- Creating a game ---
    async def create_game(
        self,
        title_id: str,
        players: list[Any],
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        host_plays: bool = False,
        also: Callable[[AsyncSession, str], Awaitable[None]] | None = None,
        chat_policy: str = "read",
    ) -> CreatedGame:
        """A new game that starts at once; a None (or blank) name leaves the seat open, and
        ``{"bot": level}`` gives the seat to a bot (app/bots plays it).
        ``host_plays``: each seat's link must be opened by its player (hosting.py).
        ``also(session, game_id)`` writes a listener's own rows for the game (its time limit,
        app/bots/clocks.py) in the same transaction: the game is made with them or not at all.
        ``chat_policy``: "read" (spectators read the chat) or "hidden" (chat.py)."""
        title = _title_or_404(title_id)
        spec = title.TITLE
        if not isinstance(players, list) or not spec.min_players <= len(players) <= spec.max_players:
            raise BadRequest(
                f"{spec.name} needs {spec.min_players}–{spec.max_players} players; got {len(players)}."
            )
        levels = [bot_level(n) for n in players]
        bots = iter(range(1, len(players) + 1))
        names = [bot_name(level, next(bots)) if level else clean_name(n) for n, level in zip(players, levels)]
        check_distinct(names)
        chat_policy = check_policy(chat_policy)
        secret: int | None = None
        if seed is None:
            secret = secrets.randbits(SECRET_BITS)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise BadRequest(f"The seed must be a whole number from 0 to {MAX_SEED}.")
        try:
            chosen = validate_options(spec, options, len(players))
            state = title.setup(len(players), chosen, seed if secret is None else secret)
        except IllegalAction as refusal:
            raise BadRequest(str(refusal)) from None
        game_id = new_game_id()
        host_token = new_token()
        links = [SeatLink(i, name, derived_token(host_token, game_id, i, 0)) for i, name in enumerate(names)]
        async with self.db.write() as session:
            session.add(Game(
                id=game_id, title=spec.id, options=chosen, players=len(players),
                seed=seed, seed_given=secret is None, secret=None if secret is None else f"{secret:064x}",
                status="active", version=0, snapshot=dump_snapshot(title, state),
                host_hash=token_hash(host_token), host_name=next((n for n in names if n), None),
                host_plays=host_plays, chat_policy=chat_policy,
            ))
            await session.flush()
            session.add_all(
                Seat(game_id=game_id, seat=link.seat, name=link.name, token_hash=token_hash(link.token),
                     name_key=name_key(link.name) if link.name else None, must_open=host_plays and level is None,
                     bot=level is not None, bot_level=level)
                for link, level in zip(links, levels)
            )
            if also is not None:
                await session.flush()
                await also(session, game_id)
        self.cache.put(Snapshot(game_id, spec.id, 0, "active", state, seed_given=secret is None))
        self.cache.names[game_id] = list(names)
        self.events.publish(TableEvent("create", game_id, 0, None, newly_to_act=frozenset(title.to_act(state))))
        return CreatedGame(game_id, spec.id, links, host_token)

    async def claim_seat(self, game_id: str, token: str, name: str) -> str:
        """An invited friend names an open seat; the seat gets a fresh link that is theirs
        alone (returned), and the invite is spent."""
        cleaned = clean_name(name)
        if not cleaned:
            raise BadRequest("Please type a name to take this seat.")
        try:
            async with self.db.write() as session:
                taken = await self.hosting.take_seat(session, game_id, token, cleaned)
                self.cache.names.pop(game_id, None)
                await self.hub.notify_in_transaction(session, game_id, -1)
        except IntegrityError as error:  # another seat took this name at the same moment
            raise name_clash(error, cleaned) or error from None
        await self.hub.publish(game_id, -1)
        self.events.publish(TableEvent("claim", game_id, None, taken.seat))
        return taken.private

    async def ping(self) -> None:
        async with self.db.read() as session:
            await session.execute(select(1))

    # --- Who is asking ---
    async def viewer(self, game_id: str, token: str | None) -> Viewer:
        """No token: a spectator. A token that is not a seat of this game: refused.

        A seat's token never changes, so a token checked once is remembered (by its hash).
        """
        if token:
            known = self._seats_by_hash.get(token_hash(token))
            if known is not None and known[0] == game_id:
                await self.hosting.saw(game_id, known[1])
                return Viewer(game_id, known[1])
        async with self.db.read() as session:
            if (await session.execute(select(Game.id).where(Game.id == game_id))).first() is None:
                raise NotFound("There is no game with that id.")
            if not token:
                return Viewer(game_id, None)
            seat = await self._seat_for_token(session, game_id, token)
            self._remember_seat(seat.token_hash, game_id, seat.seat)
        await self.hosting.saw(game_id, seat.seat)
        return Viewer(game_id, seat.seat)

    def forget_seats(self, game_id: str | None) -> None:
        """Seats changed (claimed, renamed, re-opened, a link replaced): check links and
        names against the database again, so a replaced link stops at once. None: any
        game's may have (change notices were lost)."""
        if game_id is None:
            self._seats_by_hash.clear()
            self.cache.names.clear()
            self.cache.clear()
            return
        self.cache.drop(game_id)  # the table's facts may have changed too (a game ended: endings.py)
        for digest in [d for d, (g, _) in self._seats_by_hash.items() if g == game_id]:
            del self._seats_by_hash[digest]
        self.cache.names.pop(game_id, None)

    def _remember_seat(self, digest: str, game_id: str, seat: int) -> None:
        if len(self._seats_by_hash) > 100_000:
            self._seats_by_hash.clear()
        self._seats_by_hash[digest] = (game_id, seat)

    async def _seat_for_token(self, session, game_id: str, token: str) -> Seat:  # type: ignore[no-untyped-def]
        digest = token_hash(token)
        seat = (await session.execute(
            select(Seat).where(Seat.token_hash == digest)
        )).scalar_one_or_none()
        if seat is None or seat.game_id != game_id or not same_hash(seat.token_hash, digest):
            raise Forbidden("That link or token does not belong to a seat in this game.")
        if seat.must_open and seat.name is not None:
            raise LinkToOpen(f"Open this link in a browser first: seat {seat.seat + 1} then gets a private link "
                             "of its own, which the host's page cannot open.")
        return seat

    # --- Looking at a game ---
    async def view(self, viewer: Viewer, known_version: int | None = None, seen: int | None = None) -> dict[str, Any]:
        """The viewer's view. With ``known_version`` (from a change notice) a cached game
        at least that new is used without touching the database; so it is with ``seen``, a
        version of this viewer's own view that a frame showed it (the game page asks for
        the new state after each frame: four pages per action would read the game four times)."""
        cached = self.cache.get(viewer.game_id, 0) if seen is not None else None
        if cached is not None and cached.view_version(viewer.seat) >= seen and viewer.game_id in self.cache.names:
            known_version = cached.version
        snap, names = await self._seen(viewer.game_id, known_version)
        return build_view(get_title(snap.title), snap, viewer.seat, names, self._views_of(snap).core(viewer.seat),
                          table_lines=self.hosting.lines.get(viewer.game_id, ()))

    async def view_if_changed(self, viewer: Viewer, seen: int, known_version: int | None = None) -> dict[str, Any] | None:
        """The viewer's view if it changed after view version ``seen``, else None (and no
        view is built): another seat's private step is nothing this viewer is sent."""
        snap, names = await self._seen(viewer.game_id, known_version)
        if snap.view_version(viewer.seat) <= seen:
            return None
        return build_view(get_title(snap.title), snap, viewer.seat, names, self._views_of(snap).core(viewer.seat),
                          table_lines=self.hosting.lines.get(viewer.game_id, ()))

    def _views_of(self, snap: Snapshot) -> "Views":
        """The game's views at the snapshot's version: kept from the action that made it, or
        started now (and kept, so the next viewer and the next action share them)."""
        views = self._views.get(snap.game_id)
        if views is None or views.version != snap.version or views.state is not snap.state:
            views = Views(get_title(snap.title), snap.state, snap.version)
            self._keep_views(snap.game_id, views)
        return views

    def _keep_views(self, game_id: str, views: "Views") -> None:
        current = self._views.get(game_id)
        if current is not None and current.version > views.version:
            return
        self._views[game_id] = views
        self._views.move_to_end(game_id)
        while len(self._views) > KEEP_VIEWS:
            self._views.popitem(last=False)

    async def _seen(self, game_id: str, known_version: int | None) -> tuple[Snapshot, list[str | None]]:
        snap = self.cache.get(game_id, known_version) if known_version is not None else None
        names = self.cache.names.get(game_id)
        if snap is None or names is None:
            snap, names = await self.load_stored(game_id)
        return snap, names

    async def load_stored(self, game_id: str) -> tuple[Snapshot, list[str | None]]:
        """The game as stored, and its seat names. Version and snapshot come from one
        statement: on PostgreSQL each statement sees the newest commits, so two reads could
        pair one version with the next version's state (and a race loser would be judged
        against the winner's state). The snapshot column is sent and parsed only when this
        process has no cached state at the stored version."""
        cached = self.cache.get(game_id, 0)
        async with self.db.read() as session:
            row = (await session.execute(
                select(Game.title, Game.version, Game.status, Game.seed_given, Game.view_versions,
                       Game.view_changed_at, Game.ending, Game.takeback, case((Game.version == (cached.version if cached else -1), None),
                            else_=Game.snapshot).label("snapshot"))
                .where(Game.id == game_id)
            )).one_or_none()
            if row is None:
                raise NotFound("There is no game with that id.")
            if cached is not None and row.snapshot is None:
                snap = cached
                if cached.status != row.status:  # ended by the table meanwhile (endings.py)
                    snap = Snapshot(game_id, row.title, row.version, row.status, cached.state, row.seed_given,
                                    view_versions=row.view_versions, view_changed_at=row.view_changed_at,
                                    ending=row.ending)
                    self.cache.put(snap)
            else:
                self.log_times.forget(game_id)  # not the game this process held: lines may have been rewritten
                snap = Snapshot(game_id, row.title, row.version, row.status,
                                get_title(row.title).load(orjson.loads(row.snapshot)), seed_given=row.seed_given,
                                view_versions=row.view_versions, view_changed_at=row.view_changed_at,
                                ending=row.ending, takeback=row.takeback)
                self.cache.put(snap)
            names = list((await session.execute(
                select(Seat.name).where(Seat.game_id == game_id).order_by(Seat.seat)
            )).scalars().all())
            await self.hosting.load_lines(session, game_id)
        self.cache.names[game_id] = names
        return snap, names

    # --- Taking an action ---
    async def act(self, viewer: Viewer, option_id: str, version: int, answer: bool = True) -> dict[str, Any]:
        """Check and apply one action, then commit it with a conditional update: the row
        changes only if the game is still at the version this call read, so of two racing
        actions (in any number of processes) exactly one applies and the other gets
        StaleVersion.

        ``version`` is the version of the seat's own view: the action is accepted while
        what the seat sees has not changed, even if other seats have moved the game on
        meanwhile with steps the seat cannot see (their private choices).
        """
        if viewer.seat is None:
            raise Unauthorized("Spectators cannot act: open your own seat's link to play.")
        snap, names, fresh = await self._current(viewer.game_id, viewer.seat, version)
        try:
            return await self._apply(viewer, snap, names, option_id, version, answer)
        except StaleVersion:
            if fresh:
                raise
        # The cached game was behind another process's commit: judge again on the stored one.
        snap, names = await self.load_stored(viewer.game_id)
        return await self._apply(viewer, snap, names, option_id, version, answer)

    async def _apply(self, viewer: Viewer, snap: Snapshot, names: list[str | None], option_id: str,
                     version: int, answer: bool = True) -> dict[str, Any]:
        seat = viewer.seat
        assert seat is not None
        if names[seat] is None:
            raise Forbidden("Take this seat first: type your name on your invite page.")
        if snap.ending is not None:
            raise NotOffered("This game is over: it was " + snap.ending["kind"] + ".")
        if version != snap.view_version(seat):
            raise StaleVersion(
                f"The game has moved on (you saw version {version}, it is now at "
                f"{snap.view_version(seat)}). Your page will refresh; choose again."
            )
        self.takebacks.refuse_while_asked(snap)
        title = get_title(snap.title)
        try:  # apply checks the option is listed; only a refusal needs the list here
            new_state = title.apply(snap.state, seat, option_id)
        except IllegalAction:
            offered = {o.id for o in title.options(snap.state, seat)}
            raise NotOffered(_not_offered_message(option_id, offered)) from None
        now = utcnow()
        at = now.timestamp()
        views = Views(title, new_state, snap.version + 1)
        changed = views.changed_since(self._views_of(snap), len(names))
        after = moved_on(title, snap, seat, option_id, new_state, at, changed,
                         finished=views.core(None)["result"] is not None)
        moved = Moved(seat, at, option_id, tuple(after.view_versions or ()))
        bump = BUMP[changed[-1]]  # the games' "last change" moves with public changes only
        params = dict(game=snap.game_id, old_version=snap.version, new_version=after.version,
                      new_snapshot=dump_snapshot(title, new_state), new_status=after.status,
                      new_view_versions=after.view_versions, new_view_changed_at=after.view_changed_at, now=now,
                      seat=seat, option=option_id, lines=lines_written(snap.state, new_state),
                      new_takeback=after.takeback)

        if self.db.is_sqlite:
            def write(conn):  # type: ignore[no-untyped-def]
                if self._prepared[bump].run(conn, params) != 1:
                    raise StaleVersion("Someone else acted at the same moment. Choose again.")
                self._prepared[ADD_ACTION].run(conn, params)

            await self.db.commit_action(write)
        else:  # the update, the action row and the notice in one statement
            told = self.hub.notice_in_statement(snap.game_id, after.version, moved)
            channel, payload = told or ("", "")
            stored = await self.db.commit_statement(self._prepared[ACT_AT_ONCE[changed[-1], told is not None]],
                                                    dict(params, channel=channel, payload=payload))
            if len(stored) != 1:
                raise StaleVersion("Someone else acted at the same moment. Choose again.")
        self.cache.put(after)
        self._keep_views(after.game_id, views)
        self.log_times.wrote(after.game_id, new_state.log.total, len(params["lines"]), now)
        await self.hub.publish(after.game_id, after.version, moved)
        self.events.publish(TableEvent(
            "action", after.game_id, after.version, seat,
            newly_to_act=frozenset(title.to_act(after.state)) - frozenset(title.to_act(snap.state)),
            finished=after.status == "finished"))
        # The sockets just woken send the new view before the caller answers: a player sees
        # the move by its frame (the page reads only the version from the answer).
        await asyncio.sleep(0)
        if not answer:  # the caller needs only the new version (its frames carry the view)
            return {"version": after.view_version(seat)}
        return build_view(title, after, seat, names, core=views.core(seat),
                          table_lines=self.hosting.lines.get(after.game_id, ()))

    def follow(self, game_id: str, version: int, moved: Moved) -> None:
        """Another process committed ``moved`` as the game's version ``version``. If this
        process holds the version before, it applies the action too (the rules are
        deterministic: the same state and action give the same state) and takes whose view
        changed from the notice, so its sockets and its next action need not read the game
        back and rebuild it, and no view is built here until a socket asks. Otherwise the
        next reader loads the stored game, as before."""
        snap = self.cache.get(game_id, version - 1)
        names = self.cache.names.get(game_id)
        if snap is None or snap.version != version - 1 or names is None or snap.ending is not None:
            return
        before = snap.view_versions_for(len(names))
        if len(moved.view_versions) != len(before):
            self.cache.drop(game_id)
            return
        title = get_title(snap.title)
        try:
            new_state = title.apply(snap.state, moved.seat, moved.option)
        except IllegalAction:  # cannot be, for a committed action: read the game back instead
            self.cache.drop(game_id)
            return
        changed = [new != old for new, old in zip(moved.view_versions, before)]
        self.log_times.wrote(game_id, new_state.log.total, len(lines_written(snap.state, new_state)),
                             datetime.fromtimestamp(moved.at, timezone.utc))
        self.cache.put(moved_on(title, snap, moved.seat, moved.option, new_state, moved.at, changed,
                                finished=title.result(new_state) is not None))

    async def _current(self, game_id: str, seat: int, version: int) -> tuple[Snapshot, list[str | None], bool]:
        """The game as cached if the seat's view there is at the version the player saw (a
        stale cache is then caught by the conditional update), else as stored; and whether
        it was read from the database just now."""
        snap = self.cache.get(game_id, version)
        names = self.cache.names.get(game_id)
        if snap is not None and names is not None and snap.view_version(seat) == version and all(names):
            return snap, names, False
        snap, names = await self.load_stored(game_id)
        return snap, names, True

    # --- The log's history ---
    async def log_page(self, game_id: str, before: int | None = None, limit: int = VIEW_LOG) -> dict[str, Any]:
        """Lines of the game's log, numbered from 1 (the first line ever written): the
        ``limit`` lines just before line ``before`` (none given: the newest), oldest first,
        and the table's own lines among them (``after``: the number of the line before it).

        The state keeps only recent lines, so older ones come from the lines stored with
        each action, walked back from the newest (set-up's lines from dealing again).
        """
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= LOG_PAGE:
            raise BadRequest(f"Ask for 1 to {LOG_PAGE} log lines at a time.")
        if before is not None and (isinstance(before, bool) or not isinstance(before, int) or before < 1):
            raise BadRequest("'before' is a line number of the log, counted from 1.")
        snap, names = await self.load_stored(game_id)
        log = snap.state.log
        end = log.total + 1 if before is None else min(before, log.total + 1)
        start = max(1, end - limit)
        kept_from = log.total - len(log.recent) + 1  # the oldest line the state still holds
        if start >= kept_from:
            lines = log.recent[start - kept_from:end - kept_from]
        else:
            lines = await self._stored_lines(snap, start, end)
        # The table's own lines (a seat taken...) written after line ``start - 1`` and before
        # line ``end``; a view carries the ones after the line before its oldest.
        after = TableLine.at_line < end - 1 if end <= log.total else TableLine.at_line <= log.total
        async with self.db.read() as session:
            table_lines = (await session.execute(
                select(TableLine.at_line, TableLine.line, TableLine.created_at)
                .where(TableLine.game_id == game_id, TableLine.at_line >= start - 1, after)
                .order_by(TableLine.id)
            )).all()
        display = seat_names(names)
        return {"total": log.total, "first": start, "lines": [name_seats(line, display) for line in lines],
                "times": await self.log_times.line_times(game_id, start, end),
                "table_lines": [{"after": at, "line": line, "at": stamp(when)} for at, line, when in table_lines]}

    async def _stored_lines(self, snap: Snapshot, start: int, end: int) -> list[str]:
        """Lines ``start`` to ``end - 1`` from the actions table, counting down from the
        newest line, which the newest action wrote last."""
        found: dict[int, str] = {}
        last, seq = snap.state.log.total, snap.version  # the newest line not yet passed; its action
        async with self.db.read() as session:
            while seq > 0 and last >= start:
                rows = (await session.execute(
                    select(Action.seq, Action.log)
                    .where(Action.game_id == snap.game_id, Action.seq <= seq)
                    .order_by(Action.seq.desc()).limit(500)
                )).all()
                if not rows:
                    break
                for row_seq, lines in rows:
                    if lines is None:  # stored before actions kept their lines
                        return (await self._replayed_lines(snap.game_id))[start - 1:end - 1]
                    first = last - len(lines) + 1
                    found.update((n, line) for n, line in enumerate(lines, first) if start <= n < end)
                    last, seq = first - 1, row_seq - 1
                    if last < start:
                        break
            if last >= start:  # lines written at set-up, before the first action
                game = (await session.execute(
                    select(Game.players, Game.options, Game.seed, Game.secret).where(Game.id == snap.game_id)
                )).one()
                dealt = get_title(snap.title).setup(game.players, game.options, setup_seed(game)).log
                found.update((n, line) for n, line in enumerate(dealt.recent, dealt.total - len(dealt.recent) + 1)
                             if start <= n < end)
        return [found[n] for n in range(start, end) if n in found]

    async def _replayed_lines(self, game_id: str) -> list[str]:
        """Every line of an old game's log, by playing it again from the start."""
        async with self.db.read() as session:
            game = (await session.execute(
                select(Game.title, Game.players, Game.options, Game.seed, Game.secret).where(Game.id == game_id)
            )).one()
        title = get_title(game.title)
        state = title.setup(game.players, game.options, setup_seed(game))
        lines = list(state.log)
        for seat, option in await self.action_log(game_id):
            before, state = state, title.apply(state, seat, option)
            lines += lines_written(before, state)
        return lines

    # --- Replays and checks ---
    async def action_log(self, game_id: str) -> list[tuple[int, str]]:
        async with self.db.read() as session:
            rows = (await session.execute(
                select(Action.seat, Action.option).where(Action.game_id == game_id).order_by(Action.seq)
            )).all()
        return [(seat, option) for seat, option in rows]

    async def replay_matches_snapshot(self, game_id: str) -> bool:
        """Rebuild the game from seed + action log and compare with the stored snapshot,
        and each action's stored log lines with the lines it writes again."""
        async with self.db.read() as session:
            game = await session.get(Game, game_id)
            if game is None:
                raise NotFound("There is no game with that id.")
            stored = (await session.execute(
                select(Action.log).where(Action.game_id == game_id).order_by(Action.seq)
            )).scalars().all()
        title = get_title(game.title)
        state = title.setup(game.players, game.options, setup_seed(game))
        for (seat, option), lines in zip(await self.action_log(game_id), stored):
            before, state = state, title.apply(state, seat, option)
            if lines is not None and lines != lines_written(before, state):
                return False
        return title.dump(state) == orjson.loads(game.snapshot)


def view_core(title: Title, state: State, seat: int | None,
              facts: tuple[list[int], dict[str, Any] | None] | None = None) -> dict[str, Any]:
    """Everything a viewer is shown that comes from the rules (not names). ``facts``:
    whose turn and the result, when the caller has them already."""
    seen = title.view(state, seat)
    if facts is None:
        result = title.result(state)
        facts = (sorted(title.to_act(state)), result.as_json() if result else None)
    log = seen.get("log", [])
    return {
        "to_act": facts[0],
        "public": seen.get("public", {}),
        "private": seen.get("private") if seat is not None else None,
        "log": log,
        "log_total": seen.get("log_total", len(log)),
        "options": [o.as_json() for o in title.options(state, seat)] if seat is not None else [],
        "result": facts[1],
    }


_COMMON = ("public", "log", "log_total", "to_act", "result")  # alike for every viewer
# The parts of a built view (``build_view``) that every viewer of a version shares as one
# object: a socket's frame takes their changes from ``shared_changes``, worked out once.
SHARED_VIEW_PARTS = ("public", "log")
_OWN = ("private", "options")  # a seat's own


class Views:
    """Every viewer's view core at one game version, each built when first asked for.

    The parts every viewer sees alike (the public part, the log, whose turn, the result)
    are built once and shared; a seat's own screen and options are built only when that
    seat's view is wanted (a frame to a connected socket, an answer, the next action's
    change test in the rare case it needs them)."""

    __slots__ = ("title", "state", "version", "cores", "_shared", "_facts")

    def __init__(self, title: Title, state: State, version: int) -> None:
        self.title, self.state, self.version = title, state, version
        self.cores: dict[int | None, dict[str, Any]] = {}
        self._shared: dict[int, Any] = {}
        self._facts: tuple[list[int], dict[str, Any] | None] | None = None

    def core(self, seat: int | None) -> dict[str, Any]:
        core = self.cores.get(seat)
        if core is None:
            if self._facts is None:
                result = self.title.result(self.state)
                self._facts = (sorted(self.title.to_act(self.state)), result.as_json() if result else None)
            with shared_public_parts(self._shared):
                core = self.cores[seat] = view_core(self.title, self.state, seat, self._facts)
        return core

    def changed_since(self, before: "Views", seats: int) -> list[bool]:
        """For each seat, then the spectator: whether what it sees differs from ``before``.
        When the common part moved (most actions), everyone's view did, and no seat's own
        part is built to tell; otherwise only the seats' own parts are compared."""
        new, old = self.core(None), before.core(None)
        # The public part's changes are worked out here once, then each socket's frame reuses them.
        if any(shared_changes(old["public"], new["public"], "public")) or any(new[k] != old[k] for k in _COMMON if k != "public"):
            return [True] * (seats + 1)
        return [any(self.core(s)[k] != before.core(s)[k] for k in _OWN) for s in range(seats)] + [False]


def moved_on(title: Title, snap: Snapshot, seat: int, option_id: str, new_state: State, at: float,
             changed: list[bool], finished: bool) -> Snapshot:
    """The game after ``seat`` took ``option_id`` (already applied by the rules:
    ``new_state``) at time ``at``; ``changed``: for each seat and then the spectator, whether
    its view changed. The same in the process that took the action and in one that
    follows it (``Table.follow``)."""
    seats = len(changed) - 1
    # Each viewer counts only its own changes: a count of game versions would tell, at
    # the next change it sees, how many steps it did not see.
    view_versions = [vv + 1 if change else vv for change, vv in zip(changed, snap.view_versions_for(seats))]
    view_changed_at = [at if change else was for change, was in zip(changed, changed_at_for(snap.view_changed_at, seats))]
    status = "finished" if finished else "active"
    version = snap.version + 1
    takeback = after_action(snap.takeback, seat, version, not finished and
                            title.undoable(snap.state, seat, option_id, new_state), changed)
    return Snapshot(snap.game_id, snap.title, version, status, new_state, snap.seed_given,
                    view_versions=view_versions, view_changed_at=view_changed_at, takeback=takeback)


def dump_snapshot(title: Title, state: State) -> str:
    return orjson.dumps(title.dump(state), option=SNAPSHOT).decode()


def build_view(title: Title, snap: Snapshot, seat: int | None, names: list[str | None],
               core: dict[str, Any] | None = None, table_lines: TableLines = ()) -> dict[str, Any]:
    """The one dict every client gets: the API body, the websocket frame, the page's input.
    Its ``version`` is the version of this viewer's own view (see ``Snapshot``).
    ``table_lines`` are the table's own log lines (claims, the host's changes; hosting.py)."""
    core = core if core is not None else view_core(title, snap.state, seat)
    named = tuple(names)
    display = _seat_display(named)
    if snap.ending is not None:  # ended by the table: nobody owes anything, the table's result
        private = dict(core["private"], prompt=None) if core.get("private") else core.get("private")
        core = dict(core, to_act=[], options=[], private=private, result=ending_result(snap.ending, display))
    return {
        "id": snap.game_id,
        "title": snap.title,
        "status": snap.status,
        "version": snap.view_version(seat),
        "seed_given": snap.seed_given,
        "seat": seat,
        "seats": _seats_json(named),
        **core,
        "log": _named_log(core["log"], core["log_total"], named, display, table_lines),
        # the number of the oldest title line in "log": earlier ones are paged from /log
        "log_first": core["log_total"] - len(core["log"]) + 1,
        # what this viewer may take back or answer (takeback.py)
        "takeback": offer(snap.takeback, snap.status, seat, display),
    }


@lru_cache(maxsize=4096)
def _seat_display(names: tuple[str | None, ...]) -> tuple[str, ...]:
    """``seat_names`` once per set of names (every frame of every version asks)."""
    return tuple(seat_names(list(names)))


@lru_cache(maxsize=4096)
def _seats_json(names: tuple[str | None, ...]) -> list[dict[str, Any]]:
    """The seats as views show them, one list per set of names: every viewer of every
    version shares it (views are never changed by their readers), so a frame of changes
    passes it over at once instead of comparing it seat by seat."""
    display = seat_names(list(names))
    return [{"seat": i, "name": display[i], "open": n is None} for i, n in enumerate(names)]


_NAMED_LOGS: ByIdentity[list[str]] = ByIdentity(KEEP_VIEWS * 4)


def _named_log(lines: list[str], total: int, names: tuple[str | None, ...], display: tuple[str, ...],
               table_lines: TableLines) -> list[str]:
    """The log with players' names written in and the table's lines put in. Every viewer
    of a game version shares one list of lines (see ``Views``), so it is written once
    per version and names, not once per frame."""
    def write() -> list[str]:
        return merge_table_lines([_named_line(line, display) for line in lines], total, table_lines)
    return _NAMED_LOGS.get((lines, table_lines), (names, len(table_lines)), write)


@lru_cache(maxsize=8192)
def _named_line(line: str, display: tuple[str, ...]) -> str:
    """One log line with names written in: a line stays in the view for many versions."""
    return name_seats(line, display) if "{seat" in line else line


def changed_at_for(stored: list[float | None] | None, seats: int) -> list[float | None]:
    return list(stored) if stored is not None and len(stored) == seats + 1 else [None] * (seats + 1)


def setup_seed(game: Game) -> int:
    """What the game was dealt from: its server secret, or the seed it was given."""
    return int(game.secret, 16) if game.secret else int(game.seed or 0)


def seat_names(names: list[str | None]) -> list[str]:
    """What pages call each seat: its player's name; an open seat has no name yet."""
    return [n if n else f"Seat {i + 1} (waiting for a player)" for i, n in enumerate(names)]


def name_seats(line: str, display: Sequence[str]) -> str:
    """Titles write ``{seat2}`` in their log; the table puts the player's name there."""
    return _SEAT_REF.sub(lambda m: display[int(m.group(1))] if int(m.group(1)) < len(display) else m.group(0), line)


def _title_or_404(title_id: str) -> Title:
    try:
        return get_title(title_id)
    except UnknownTitle:
        raise NotFound(f"No playable title called '{title_id}'.") from None




def _not_offered_message(option_id: str, offered: set[str]) -> str:
    if not offered:
        return "It is not your turn to choose anything right now."
    shown = option_id if len(option_id) <= 40 else option_id[:40] + "…"
    return f"'{shown}' is not one of your choices right now."
