"""The table: create games, seat players, show views and apply actions.

Every route calls exactly one function here. Applying an action is one transaction with
an optimistic version check: load, check seat + version + option, apply the rules,
append the action, store the snapshot, commit, then tell the hub.
"""

from __future__ import annotations

import json
import re
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update

from app.games import UnknownTitle, get_title
from app.games.protocol import IllegalAction, State, Title, validate_options
from app.hub.local import Hub
from app.store.db import Database
from app.store.models import Action, Game, Seat, utcnow

from .errors import BadRequest, Forbidden, NotFound, NotOffered, StaleVersion, Unauthorized
from .tokens import new_game_id, new_token, same_hash, token_hash

MAX_NAME = 40
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


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a seat (with its token checked) or a spectator (seat None)."""

    game_id: str
    seat: int | None


class StateCache:
    """Recently used game states by (game, version), so a view needs no JSON parsing.

    Safe with several processes: a cached entry is used only when its version matches
    the version read from the database.
    """

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: OrderedDict[str, tuple[int, State]] = OrderedDict()

    def get(self, game_id: str, version: int) -> State | None:
        item = self._items.get(game_id)
        if item and item[0] == version:
            self._items.move_to_end(game_id)
            return item[1]
        return None

    def put(self, game_id: str, version: int, state: State) -> None:
        self._items[game_id] = (version, state)
        self._items.move_to_end(game_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


class Table:
    def __init__(self, db: Database, hub: Hub) -> None:
        self.db = db
        self.hub = hub
        self.cache = StateCache()

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
        if seed is None:
            seed = secrets.randbelow(2**31)
        elif not 0 <= seed < 2**63:
            raise BadRequest("The seed must be a whole number from 0 to 2^63−1.")
        try:
            chosen = validate_options(spec, options, len(players))
            state = title.setup(len(players), chosen, seed)
        except IllegalAction as refusal:
            raise BadRequest(str(refusal)) from None
        game_id = new_game_id()
        links = [SeatLink(i, name, new_token()) for i, name in enumerate(names)]
        async with self.db.write() as session:
            session.add(Game(
                id=game_id, title=spec.id, options=chosen, seed=seed, players=len(players),
                status="active", version=0, snapshot=json.dumps(title.dump(state)),
            ))
            await session.flush()
            session.add_all(
                Seat(game_id=game_id, seat=link.seat, name=link.name, token_hash=token_hash(link.token))
                for link in links
            )
        self.cache.put(game_id, 0, state)
        return CreatedGame(game_id, spec.id, links)

    async def claim_seat(self, game_id: str, token: str, name: str) -> None:
        """An invited friend names an open seat; the link becomes theirs."""
        cleaned = _clean_name(name)
        if not cleaned:
            raise BadRequest("Please type a name to take this seat.")
        async with self.db.write() as session:
            seat = await self._seat_for_token(session, game_id, token)
            if seat.name:
                raise Forbidden(f"This seat is already taken by {seat.name}.")
            seat.name = cleaned
            await self.hub.notify_in_transaction(session, game_id, -1)
        await self.hub.publish(game_id, -1)

    async def ping(self) -> None:
        async with self.db.read() as session:
            await session.execute(select(1))

    # --- Who is asking ---
    async def viewer(self, game_id: str, token: str | None) -> Viewer:
        """No token: a spectator. A token that is not a seat of this game: refused."""
        async with self.db.read() as session:
            if await session.get(Game, game_id) is None:
                raise NotFound("There is no game with that id.")
            if not token:
                return Viewer(game_id, None)
            seat = await self._seat_for_token(session, game_id, token)
            return Viewer(game_id, seat.seat)

    async def _seat_for_token(self, session, game_id: str, token: str) -> Seat:  # type: ignore[no-untyped-def]
        digest = token_hash(token)
        seat = (await session.execute(
            select(Seat).where(Seat.token_hash == digest)
        )).scalar_one_or_none()
        if seat is None or seat.game_id != game_id or not same_hash(seat.token_hash, digest):
            raise Forbidden("That link or token does not belong to a seat in this game.")
        return seat

    # --- Looking at a game ---
    async def view(self, viewer: Viewer) -> dict[str, Any]:
        async with self.db.read() as session:
            game = await session.get(Game, viewer.game_id)
            if game is None:
                raise NotFound("There is no game with that id.")
            seats = (await session.execute(
                select(Seat.seat, Seat.name).where(Seat.game_id == game.id).order_by(Seat.seat)
            )).all()
        state = self._state(game)
        return build_view(get_title(game.title), game, state, viewer.seat, [n for _, n in seats])

    def _state(self, game: Game) -> State:
        state = self.cache.get(game.id, game.version)
        if state is None:
            state = get_title(game.title).load(json.loads(game.snapshot))
            self.cache.put(game.id, game.version, state)
        return state

    # --- Taking an action ---
    async def act(self, viewer: Viewer, option_id: str, version: int) -> dict[str, Any]:
        if viewer.seat is None:
            raise Unauthorized("Spectators cannot act: open your own seat's link to play.")
        async with self.db.write() as session:
            game = await session.get(Game, viewer.game_id, with_for_update=True)
            if game is None:
                raise NotFound("There is no game with that id.")
            name = (await session.execute(
                select(Seat.name).where(Seat.game_id == game.id, Seat.seat == viewer.seat)
            )).scalar_one()
            if name is None:
                raise Forbidden("Take this seat first: type your name on your invite page.")
            if version != game.version:
                raise StaleVersion(
                    f"The game has moved on (you saw version {version}, it is now at "
                    f"{game.version}). Your page will refresh; choose again."
                )
            title = get_title(game.title)
            state = self._state(game)
            offered = {o.id for o in title.options(state, viewer.seat)}
            if option_id not in offered:
                raise NotOffered(_not_offered_message(option_id, offered))
            try:
                new_state = title.apply(state, viewer.seat, option_id)
            except IllegalAction as refusal:
                raise NotOffered(str(refusal)) from None
            finished = title.result(new_state) is not None
            changed = await session.execute(
                update(Game)
                .where(Game.id == game.id, Game.version == version)
                .values(
                    version=version + 1,
                    snapshot=json.dumps(title.dump(new_state)),
                    status="finished" if finished else "active",
                    updated_at=utcnow(),
                )
            )
            if changed.rowcount != 1:  # another process won the race
                raise StaleVersion("Someone else acted at the same moment. Choose again.")
            session.add(Action(game_id=game.id, seq=version + 1, seat=viewer.seat, option=option_id))
            await self.hub.notify_in_transaction(session, game.id, version + 1)
            seats = (await session.execute(
                select(Seat.name).where(Seat.game_id == game.id).order_by(Seat.seat)
            )).scalars().all()
        game.version = version + 1
        game.status = "finished" if finished else "active"
        self.cache.put(game.id, game.version, new_state)
        await self.hub.publish(game.id, game.version)
        return build_view(title, game, new_state, viewer.seat, list(seats))

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
        state = title.setup(game.players, game.options, game.seed)
        for seat, option in await self.action_log(game_id):
            state = title.apply(state, seat, option)
        return title.dump(state) == json.loads(game.snapshot)


def build_view(
    title: Title, game: Game, state: State, seat: int | None, names: list[str | None]
) -> dict[str, Any]:
    """The one dict every client gets: the API body, the websocket frame, the page's input."""
    seen = title.view(state, seat)
    result = title.result(state)
    display = seat_names(names)
    return {
        "id": game.id,
        "title": game.title,
        "status": game.status,
        "version": game.version,
        "seat": seat,
        "seats": [{"seat": i, "name": display[i], "open": n is None} for i, n in enumerate(names)],
        "to_act": sorted(title.to_act(state)),
        "public": seen.get("public", {}),
        "private": seen.get("private") if seat is not None else None,
        "log": [name_seats(line, display) for line in seen.get("log", [])],
        "options": [o.as_json() for o in title.options(state, seat)] if seat is not None else [],
        "result": result.as_json() if result else None,
    }


def seat_names(names: list[str | None]) -> list[str]:
    return [n if n else f"Open seat {i + 1}" for i, n in enumerate(names)]


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
