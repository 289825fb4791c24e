"""The table: create games, seat players, show views and apply actions.

Every route calls exactly one function here. Applying an action: check seat, version and
option against the game's current state (cached, or read), apply the rules, then commit
one short transaction (a version update that only matches the version the player saw,
the new snapshot, the action row), then tell the hub.
"""

from __future__ import annotations

import json
import re
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, insert, select, update

from app.games import UnknownTitle, get_title
from app.games.protocol import IllegalAction, State, Title, validate_options
from app.hub.local import Hub
from app.notify.hooks import notice_claim, notice_turns
from app.store.db import Database
from app.store.models import Action, Game, Seat, utcnow

from .errors import BadRequest, Forbidden, NotFound, NotOffered, StaleVersion, Unauthorized
from .hosting import Hosting, TableLines, merge_table_lines
from .tokens import derived_token, new_game_id, new_token, same_hash, token_hash

MAX_NAME = 40
MAX_SEED = 2**31 - 1  # the seed column is a 32-bit integer on PostgreSQL
SECRET_BITS = 256  # hidden draws come from this many bits of server randomness per game
GAMES = Game.__table__
ACTIONS = Action.__table__
SEATS = Seat.__table__
_SEAT_REF = re.compile(r"\{seat(\d+)\}")


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


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a seat (with its token checked) or a spectator (seat None)."""

    game_id: str
    seat: int | None


@dataclass
class Snapshot:
    """A game at one version, as this process last saw it."""

    game_id: str
    title: str
    version: int
    status: str
    state: State
    seed_given: bool = False


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
        self._seats_by_hash: dict[str, tuple[str, int]] = {}
        self.hosting = Hosting(self)
        hub.on_seats_changed.append(self.forget_seats)

    # --- Creating a game ---
    async def create_game(
        self,
        title_id: str,
        players: list[str | None],
        seed: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> CreatedGame:
        """A new game that starts at once; a None (or blank) name leaves the seat open."""
        title = _title_or_404(title_id)
        spec = title.TITLE
        if not isinstance(players, list) or not spec.min_players <= len(players) <= spec.max_players:
            raise BadRequest(
                f"{spec.name} needs {spec.min_players}–{spec.max_players} players; got {len(players)}."
            )
        names = [_clean_name(n) for n in players]
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
                status="active", version=0, snapshot=json.dumps(title.dump(state)),
                host_hash=token_hash(host_token), host_name=next((n for n in names if n), None),
            ))
            await session.flush()
            session.add_all(
                Seat(game_id=game_id, seat=link.seat, name=link.name, token_hash=token_hash(link.token))
                for link in links
            )
        self.cache.put(Snapshot(game_id, spec.id, 0, "active", state, seed_given=secret is None))
        self.cache.names[game_id] = list(names)
        return CreatedGame(game_id, spec.id, links, host_token)

    async def claim_seat(self, game_id: str, token: str, name: str) -> None:
        """An invited friend names an open seat; the link becomes theirs."""
        cleaned = _clean_name(name)
        if not cleaned:
            raise BadRequest("Please type a name to take this seat.")
        async with self.db.write() as session:
            seat = await self._seat_for_token(session, game_id, token)
            if seat.name:
                raise Forbidden(f"This seat is already taken by {seat.name}.")
            # Conditional on the seat still being open: of two claims at the same moment
            # (on PostgreSQL both may have read it open) exactly one matches.
            claimed = await session.execute(
                update(SEATS).where(SEATS.c.id == seat.id, SEATS.c.name.is_(None)).values(name=cleaned)
            )
            if claimed.rowcount != 1:
                taken = (await session.execute(select(Seat.name).where(Seat.id == seat.id))).scalar_one()
                raise Forbidden(f"This seat is already taken by {taken}.")
            await self.hosting.seat_claimed(session, game_id, seat.seat, cleaned)
            self.cache.names.pop(game_id, None)
            await self.hub.notify_in_transaction(session, game_id, -1)
        await self.hub.publish(game_id, -1)
        notice_claim(self, game_id, seat.seat)

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

    def forget_seats(self, game_id: str) -> None:
        """Seats changed (claimed, renamed, re-opened, a link replaced): check links and
        names against the database again, so a replaced link stops at once."""
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
        return seat

    # --- Looking at a game ---
    async def view(self, viewer: Viewer, known_version: int | None = None) -> dict[str, Any]:
        """The viewer's view. With ``known_version`` (from a change notice) a cached game
        at least that new is used without touching the database."""
        snap = self.cache.get(viewer.game_id, known_version) if known_version is not None else None
        names = self.cache.names.get(viewer.game_id)
        if snap is None or names is None:
            snap, names = await self._load(viewer.game_id)
        return build_view(get_title(snap.title), snap, viewer.seat, names,
                          table_lines=self.hosting.lines.get(viewer.game_id, ()))

    async def _load(self, game_id: str) -> tuple[Snapshot, list[str | None]]:
        """The game as stored, and its seat names. Version and snapshot come from one
        statement: on PostgreSQL each statement sees the newest commits, so two reads could
        pair one version with the next version's state (and a race loser would be judged
        against the winner's state). The snapshot column is sent and parsed only when this
        process has no cached state at the stored version."""
        cached = self.cache.get(game_id, 0)
        async with self.db.read() as session:
            row = (await session.execute(
                select(Game.title, Game.version, Game.status, Game.seed_given,
                       case((Game.version == (cached.version if cached else -1), None),
                            else_=Game.snapshot).label("snapshot"))
                .where(Game.id == game_id)
            )).one_or_none()
            if row is None:
                raise NotFound("There is no game with that id.")
            if cached is not None and row.snapshot is None:
                snap = cached
            else:
                snap = Snapshot(game_id, row.title, row.version, row.status,
                                get_title(row.title).load(json.loads(row.snapshot)), seed_given=row.seed_given)
                self.cache.put(snap)
            names = list((await session.execute(
                select(Seat.name).where(Seat.game_id == game_id).order_by(Seat.seat)
            )).scalars().all())
            await self.hosting.load_lines(session, game_id)
        self.cache.names[game_id] = names
        return snap, names

    # --- Taking an action ---
    async def act(self, viewer: Viewer, option_id: str, version: int) -> dict[str, Any]:
        """Check and apply one action, then commit it with a conditional update: the row
        changes only if the game is still at ``version``, so of two racing actions (in
        any number of processes) exactly one applies and the other gets StaleVersion."""
        if viewer.seat is None:
            raise Unauthorized("Spectators cannot act: open your own seat's link to play.")
        snap, names = await self._current(viewer.game_id, version)
        if names[viewer.seat] is None:
            raise Forbidden("Take this seat first: type your name on your invite page.")
        if version != snap.version:
            raise StaleVersion(
                f"The game has moved on (you saw version {version}, it is now at "
                f"{snap.version}). Your page will refresh; choose again."
            )
        title = get_title(snap.title)
        try:  # apply checks the option is listed; only a refusal needs the list here
            new_state = title.apply(snap.state, viewer.seat, option_id)
        except IllegalAction:
            offered = {o.id for o in title.options(snap.state, viewer.seat)}
            raise NotOffered(_not_offered_message(option_id, offered)) from None
        status = "finished" if title.result(new_state) is not None else "active"
        now = utcnow()
        bump = (
            update(GAMES)
            .where(GAMES.c.id == snap.game_id, GAMES.c.version == version)
            .values(version=version + 1, snapshot=json.dumps(title.dump(new_state)), status=status, updated_at=now)
        )
        log = insert(ACTIONS).values(
            game_id=snap.game_id, seq=version + 1, seat=viewer.seat, option=option_id, created_at=now
        )

        def write(conn):  # type: ignore[no-untyped-def]
            if conn.execute(bump).rowcount != 1:
                raise StaleVersion("Someone else acted at the same moment. Choose again.")
            conn.execute(log)

        async def write_async(conn):  # type: ignore[no-untyped-def]
            if (await conn.execute(bump)).rowcount != 1:
                raise StaleVersion("Someone else acted at the same moment. Choose again.")
            await conn.execute(log)
            await self.hub.notify_in_transaction(conn, snap.game_id, version + 1)

        await self.db.commit_action(write, write_async)
        after = Snapshot(snap.game_id, snap.title, version + 1, status, new_state, snap.seed_given)
        self.cache.put(after)
        await self.hub.publish(after.game_id, after.version)
        notice_turns(self, title, snap, after)
        return build_view(title, after, viewer.seat, names, table_lines=self.hosting.lines.get(after.game_id, ()))

    async def _current(self, game_id: str, version: int) -> tuple[Snapshot, list[str | None]]:
        """The game as cached if that is at the version the player saw (a stale cache is
        then caught by the conditional update), else as stored."""
        snap = self.cache.get(game_id, version)
        names = self.cache.names.get(game_id)
        if snap is not None and names is not None and snap.version == version and all(names):
            return snap, names
        return await self._load(game_id)

    # --- Replays and checks ---
    async def action_log(self, game_id: str) -> list[tuple[int, str]]:
        async with self.db.read() as session:
            rows = (await session.execute(
                select(Action.seat, Action.option).where(Action.game_id == game_id).order_by(Action.seq)
            )).all()
        return [(seat, option) for seat, option in rows]

    async def replay_matches_snapshot(self, game_id: str) -> bool:
        """Rebuild the game from seed + action log and compare with the stored snapshot."""
        async with self.db.read() as session:
            game = await session.get(Game, game_id)
            if game is None:
                raise NotFound("There is no game with that id.")
        title = get_title(game.title)
        state = title.setup(game.players, game.options, setup_seed(game))
        for seat, option in await self.action_log(game_id):
            state = title.apply(state, seat, option)
        return title.dump(state) == json.loads(game.snapshot)


def build_view(title: Title, snap: Snapshot, seat: int | None, names: list[str | None],
               table_lines: TableLines = ()) -> dict[str, Any]:
    """The one dict every client gets: the API body, the websocket frame, the page's input.
    ``table_lines`` are the table's own log lines (claims, the host's changes; hosting.py)."""
    state = snap.state
    seen = title.view(state, seat)
    result = title.result(state)
    display = seat_names(names)
    return {
        "id": snap.game_id,
        "title": snap.title,
        "status": snap.status,
        "version": snap.version,
        "seed_given": snap.seed_given,
        "seat": seat,
        "seats": [{"seat": i, "name": display[i], "open": n is None} for i, n in enumerate(names)],
        "to_act": sorted(title.to_act(state)),
        "public": seen.get("public", {}),
        "private": seen.get("private") if seat is not None else None,
        "log": merge_table_lines([name_seats(line, display) for line in seen.get("log", [])],
                                 seen.get("log_total", len(seen.get("log", []))), table_lines),
        "options": [o.as_json() for o in title.options(state, seat)] if seat is not None else [],
        "result": result.as_json() if result else None,
    }


def setup_seed(game: Game) -> int:
    """What the game was dealt from: its server secret, or the seed it was given."""
    return int(game.secret, 16) if game.secret else int(game.seed or 0)


def seat_names(names: list[str | None]) -> list[str]:
    """What pages call each seat: its player's name; an open seat has no name yet."""
    return [n if n else f"Seat {i + 1} (waiting for a player)" for i, n in enumerate(names)]


def name_seats(line: str, display: list[str]) -> str:
    """Titles write ``{seat2}`` in their log; the table puts the player's name there."""
    return _SEAT_REF.sub(lambda m: display[int(m.group(1))] if int(m.group(1)) < len(display) else m.group(0), line)


def _title_or_404(title_id: str) -> Title:
    try:
        return get_title(title_id)
    except UnknownTitle:
        raise NotFound(f"No playable title called '{title_id}'.") from None


def _clean_name(name: Any) -> str | None:
    if name is None:
        return None
    if not isinstance(name, str):
        raise BadRequest("Each player name must be text (or null for an open seat).")
    cleaned = " ".join(name.split())
    if len(cleaned) > MAX_NAME:
        raise BadRequest(f"Names can be at most {MAX_NAME} characters.")
    if any(not ch.isprintable() for ch in cleaned):
        raise BadRequest("Names may not contain control characters.")
    return cleaned or None


def _not_offered_message(option_id: str, offered: set[str]) -> str:
    if not offered:
        return "It is not your turn to choose anything right now."
    shown = option_id if len(option_id) <= 40 else option_id[:40] + "…"
    return f"'{shown}' is not one of your choices right now."
