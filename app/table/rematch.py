"""Play again: a finished game makes one new game with the same title, options and seats.

The new game deals from a fresh server secret; its seats keep their names, bot seats stay
bots, open seats stay open. It is made at most once per game (``games.rematch_id`` is set
by a conditional update in the same transaction), so two presses — by one player twice or
by two players at once — give one new game.

Links: each seat's new link is worked out from **its own old link** (an HMAC of it), the
first time that old link's page is opened after the rematch exists; until then the new
seat waits (``seats.awaits_link``) and no link opens it. So a seat gets its new private link
only through its own old one, never through anybody else's, and the server keeps only hashes
as always. The new host link comes the same way from the old host link, and the new game's
open seats get invite links derived from it (the host page shows those, as usual).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from app.games import get_title
from app.games.protocol import IllegalAction, validate_options
from app.hub.local import CHAT_CHANGED
from app.store.models import Game, Seat

from .errors import BadRequest, Forbidden, NotFound
from .events import TableEvent
from .hosting import name_key
from .tokens import TOKEN_BYTES, derived_token, new_game_id, new_token, same_hash, token_hash

if TYPE_CHECKING:
    from .service import Table

GAMES = Game.__table__
SEATS = Seat.__table__
SECRET_BITS = 256


def next_link(old_token: str, new_game: str, role: str) -> str:
    """The new game's link secret for whoever holds ``old_token`` (``role``: "host" or a
    seat number): only they can work it out."""
    message = f"keydom rematch|{new_game}|{role}".encode()
    mac = hmac.new(old_token.encode("utf-8", "surrogatepass"), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:TOKEN_BYTES]).decode().rstrip("=")


@dataclass(frozen=True)
class NextGame:
    """Where a holder of an old link goes: the new game, and their link to it (a seat's
    secret, the host's secret, or None for a spectator or a seat with another link now)."""

    game_id: str
    seat: int | None
    token: str | None
    host: bool = False


class _AlreadyMade(Exception):
    pass


class Rematch:
    def __init__(self, table: "Table") -> None:
        self.table = table

    async def play_again(self, game_id: str, token: str | None) -> NextGame:
        """Make the rematch (once) and return the asker's way into it. Seats with a player
        and the host may ask; the game must be over."""
        await self._asker(game_id, token)
        async with self.table.db.read() as session:
            game = (await session.execute(select(Game).where(Game.id == game_id))).scalar_one()
            old_seats = (await session.execute(
                select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat))).scalars().all()
        if game.status != "finished":
            raise BadRequest("The game is not over yet: play again when it ends.")
        if game.rematch_id is None:
            await self._make(game, old_seats)
        return await self.next_game(game_id, token)

    async def _asker(self, game_id: str, token: str | None) -> tuple[int | None, bool]:
        if not token:
            raise Forbidden("Only the players and the host can start a new game.")
        try:
            viewer = await self.table.viewer(game_id, token)
        except Forbidden:
            if await self._is_host(game_id, token):
                return None, True
            raise
        _, names = await self.table.load_stored(game_id)
        if viewer.seat is None or names[viewer.seat] is None:
            raise Forbidden("Take this seat first: type your name on your invite page.")
        return viewer.seat, False

    async def _is_host(self, game_id: str, token: str) -> bool:
        async with self.table.db.read() as session:
            digest = (await session.execute(select(Game.host_hash).where(Game.id == game_id))).scalar_one_or_none()
        return digest is not None and same_hash(digest, token_hash(token))

    async def _make(self, game: Game, old_seats: list[Seat]) -> None:
        title = get_title(game.title)
        secret = secrets.randbits(SECRET_BITS)
        try:
            options = validate_options(title.TITLE, game.options, game.players)
        except IllegalAction as refusal:  # options from an older version of the title
            raise BadRequest(f"This game's options cannot be used again: {refusal}") from None
        state = title.setup(game.players, options, secret)
        from .service import Snapshot, dump_snapshot  # the service imports this module

        new_id = new_game_id()
        try:
            async with self.table.db.write() as session:
                claimed = await session.execute(
                    update(GAMES).where(GAMES.c.id == game.id, GAMES.c.rematch_id.is_(None)).values(rematch_id=new_id))
                if claimed.rowcount != 1:
                    raise _AlreadyMade()
                session.add(Game(
                    id=new_id, title=game.title, options=options, players=game.players, seed=None, seed_given=False,
                    secret=f"{secret:064x}", status="active", version=0, snapshot=dump_snapshot(title, state),
                    host_hash=None, host_name=game.host_name, host_plays=game.host_plays,
                    chat_policy=game.chat_policy))
                await session.flush()
                session.add_all(
                    Seat(game_id=new_id, seat=s.seat, name=s.name, name_key=name_key(s.name) if s.name else None,
                         token_hash=token_hash(new_token()),  # opens nothing: the real link comes later
                         bot=s.bot, bot_level=s.bot_level if s.bot else None, must_open=False,
                         awaits_link=True)
                    for s in old_seats)
                await self.table.hub.notify_in_transaction(session, game.id, CHAT_CHANGED)
        except (_AlreadyMade, IntegrityError):  # another press made it a moment ago
            return
        self.table.cache.put(Snapshot(new_id, game.title, 0, "active", state))
        self.table.cache.names[new_id] = [s.name for s in old_seats]
        self.table.chat.forget(game.id)
        await self.table.hub.publish(game.id, CHAT_CHANGED)  # old pages learn of it with the chat
        self.table.events.publish(TableEvent("create", new_id, 0, None, newly_to_act=frozenset(title.to_act(state))))

    async def next_game(self, game_id: str, token: str | None) -> NextGame | None:
        """The rematch of this game as the holder of ``token`` enters it (None: no rematch).
        A seat's (or the host's) new link is set the first time it is asked for."""
        async with self.table.db.read() as session:
            new_id = (await session.execute(select(Game.rematch_id).where(Game.id == game_id))).scalar_one_or_none()
        if new_id is None:
            return None
        if not token:
            return NextGame(new_id, None, None)
        try:
            viewer = await self.table.viewer(game_id, token)
        except Forbidden:
            if not await self._is_host(game_id, token):
                raise
            return NextGame(new_id, None, await self._host_link(new_id, next_link(token, new_id, "host")), host=True)
        assert viewer.seat is not None
        link = next_link(token, new_id, str(viewer.seat))
        return NextGame(new_id, viewer.seat, await self._seat_link(new_id, viewer.seat, link))

    async def _seat_link(self, new_id: str, seat: int, link: str) -> str | None:
        digest = token_hash(link)
        async with self.table.db.write() as session:
            row = (await session.execute(
                select(Seat.token_hash, Seat.awaits_link, Seat.name, Seat.bot).where(Seat.game_id == new_id,
                                                                                     Seat.seat == seat)
            )).one_or_none()
            if row is None:
                raise NotFound("The new game has no such seat.")
            if row.awaits_link and row.name is not None and not row.bot:  # open and bot seats: the host's
                await session.execute(update(SEATS).where(SEATS.c.game_id == new_id, SEATS.c.seat == seat,
                                                          SEATS.c.awaits_link.is_(True))
                                      .values(token_hash=digest, awaits_link=False))
                return link
        return link if same_hash(row.token_hash, digest) else None

    async def _host_link(self, new_id: str, link: str) -> str | None:
        digest = token_hash(link)
        async with self.table.db.write() as session:
            current = (await session.execute(select(Game.host_hash).where(Game.id == new_id))).scalar_one()
            if current is None:
                await session.execute(update(GAMES).where(GAMES.c.id == new_id, GAMES.c.host_hash.is_(None))
                                      .values(host_hash=digest))
                for seat in (await session.execute(
                        select(Seat.seat).where(Seat.game_id == new_id, Seat.name.is_(None) | Seat.bot.is_(True),
                                                Seat.awaits_link.is_(True)))).scalars().all():
                    await session.execute(update(SEATS).where(SEATS.c.game_id == new_id, SEATS.c.seat == seat)
                                          .values(token_hash=token_hash(derived_token(link, new_id, seat, 0)),
                                                  awaits_link=False))
                return link
        return link if same_hash(current, digest) else None
