"""Games the table ends before their rules do: abandoned by the host, or conceded by a seat.

The rules know nothing of it: the game keeps its state and action log, and the table keeps
``games.ending`` beside them, which every view then shows instead of the rules' result
(``ending_result``): nobody owes a decision any more, and no action is taken.

- **Abandoned** (the host link): no winner, no ranking; the log says the host ended it.
- **Conceded** (a seat's link): with two seats, the other seat wins. With more, the game
  ends for everyone as well: the seat that conceded is ranked last and the other seats
  share the win (a player who concedes leaves the table; the rules cannot play on without
  a seat, and the others can always "Play again").
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Sequence

from sqlalchemy import select, update

from app.store.models import Game, utcnow

from .errors import BadRequest, Forbidden, StaleVersion
from .events import TableEvent
from .seats import Viewer
from .tokens import same_hash, token_hash

if TYPE_CHECKING:
    from .service import Snapshot, Table

GAMES = Game.__table__
SEATS_CHANGED = -1  # the hub's "the table's facts changed": every page is sent its view again


def ending_result(ending: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The result a view shows for a game the table ended (``names``: what pages call each seat).

    >>> ending_result({"kind": "conceded", "seat": 1}, ["Ann", "Bob"])["reason"]
    'Bob conceded: Ann wins.'
    """
    if ending["kind"] == "abandoned":
        return {"scores": [], "winners": [], "reason": "The host ended the game as abandoned: nobody wins.",
                "ended": "abandoned", "conceded": []}
    out = ending["seat"]
    others = [s for s in range(len(names)) if s != out]
    if len(others) == 1:
        reason = f"{names[out]} conceded: {names[others[0]]} wins."
    else:
        reason = (f"{names[out]} conceded and is ranked last; the game ended there, and "
                  f"{_and([names[s] for s in others])} share the win.")
    return {"scores": [], "winners": others, "reason": reason, "ended": "conceded", "conceded": [out]}


class Endings:
    def __init__(self, table: "Table") -> None:
        self.table = table

    async def abandon(self, game_id: str, host_token: str) -> None:
        """The host ends a game nobody plays any more."""
        async with self.table.db.read() as session:
            host_hash = (await session.execute(select(Game.host_hash).where(Game.id == game_id))).scalar_one_or_none()
        if not host_token or host_hash is None or not same_hash(host_hash, token_hash(host_token)):
            raise Forbidden("Only the host link can end a game as abandoned.")
        await self._end(game_id, {"kind": "abandoned"}, "The host ended the game as abandoned.", None)

    async def concede(self, viewer: Viewer) -> None:
        """A seat gives up (see the module's docstring for what that does with 3+ seats)."""
        if viewer.seat is None:
            raise Forbidden("Only a player can concede: open your own seat's link.")
        _, names = await self.table.load_stored(viewer.game_id)
        name = names[viewer.seat]
        if name is None:
            raise Forbidden("Take this seat first: type your name on your invite page.")
        if len(names) < 2:
            raise BadRequest("A solo game has nobody to concede to; the host can end it as abandoned.")
        await self._end(viewer.game_id, {"kind": "conceded", "seat": viewer.seat}, f"{name} conceded.", viewer.seat)

    async def _end(self, game_id: str, ending: dict[str, Any], line: str, seat: int | None) -> None:
        for _ in range(3):  # an action may commit between the read and the update: read again
            snap, names = await self.table.load_stored(game_id)
            if snap.status != "active":
                raise BadRequest("This game is already over.")
            ending = {**ending, "at": utcnow().isoformat()}
            ended = await self._commit(snap, len(names), ending, line)
            if ended is not None:
                break
        else:
            raise StaleVersion("The game moved on at that moment; try again.")
        await self.table.hub.publish(game_id, SEATS_CHANGED)  # (this drops the cached game: put it back after)
        self.table.cache.put(ended)
        self.table.events.publish(TableEvent("ended", game_id, ended.version, seat, finished=True))

    async def _commit(self, snap: "Snapshot", seats: int, ending: dict[str, Any], line: str) -> "Snapshot | None":
        """Mark the game finished, if it is still at the version read; every viewer's view
        changes (the result appears), so each view's version moves on."""
        now = utcnow()
        view_versions = [v + 1 for v in snap.view_versions_for(seats)]
        view_changed_at = [now.timestamp()] * (seats + 1)
        async with self.table.db.write() as session:
            done = await session.execute(
                update(GAMES).where(GAMES.c.id == snap.game_id, GAMES.c.version == snap.version,
                                    GAMES.c.status == "active")
                .values(status="finished", ending=ending, view_versions=view_versions,
                        view_changed_at=view_changed_at, updated_at=now))
            if done.rowcount != 1:
                return None
            await self.table.hosting.write_line(session, snap.game_id, line)
            await self.table.hub.notify_in_transaction(session, snap.game_id, SEATS_CHANGED)
        return replace(snap, status="finished", ending=ending, view_versions=view_versions,
                       view_changed_at=view_changed_at)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
