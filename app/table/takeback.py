"""Taking a step back: at once while nothing depends on it, or with everyone's consent.

**Undo.** A seat may take back its own last action at once when the title says that step
qualifies (``Title.undoable``: it drew no randomness and showed the seat nothing hidden)
and no other seat has acted since *in a way this seat could see*. Actions the seat could
not see (another seat's private steps) do not count: if they did, whether "Undo" is offered
would tell the seat that someone took a private step. The undo removes the action and every
action after it, so such private steps are reset too.

**Takeback with consent.** Otherwise the seat may ask. Every other seated player is asked;
bots accept at once (a bot has nothing to lose), open seats are not asked. While the
request is open nobody acts; one "no" ends it, and when the last "yes" comes in the game
returns to the version before that action. The asker may withdraw it.

**Exact and leak-free.** The restored state is the remaining actions played again from the
game's secret, so it is exactly what a replay gives. Each viewer sees a view it has seen
before, under a *new* version number (versions only grow): only viewers whose view changes
get a new version, as after an action. The removed actions are kept (``taken_back_actions``)
and every undo and request in ``takebacks``; the log (the table's own lines, which everyone
sees) says what happened, except for an undo that changed nothing anyone else sees.

A game's version (inside the server) grows with every action, takeback and change of a
request, so a takeback never reuses a version, and an action judged before a request was
made cannot commit after it (the conditional update fails; it is judged again and refused).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Sequence

from sqlalchemy import delete, func, insert, literal, select, update

from app.games import get_title
from app.games.protocol import State
from app.store.models import Action, Game, Seat, TableLine, Takeback, TakenBackAction

from .errors import BadRequest, Forbidden, NotFound, StaleVersion, Unauthorized
from .events import TableEvent
from .seats import Viewer

if TYPE_CHECKING:
    from .service import Table

ACTIONS = Action.__table__
TAKEN_BACK = TakenBackAction.__table__
TAKEBACKS = Takeback.__table__
GAMES = Game.__table__

# The standing, as stored in ``games.takeback`` and kept in the cached Snapshot:
#   {"last": {"<seat>": [seq of its last action, undoable]},
#    "seen": [seats that saw another seat act after their own last action],
#    "request": {"id" (its number in the game), "row" (takebacks.id), "seat", "action_seq",
#                "asked": [seats], "accepted": [seats]} | None}
# It is written in the same statement as the game's version, so it is never out of step.
Standing = dict[str, Any]
EMPTY: Standing = {"last": {}, "seen": [], "request": None}


def after_action(standing: Standing | None, seat: int, seq: int, undoable: bool, changed: list[bool]) -> Standing:
    """The standing after ``seat``'s action ``seq``: it is that seat's last action, and
    every other seat whose view it changed has now seen someone act after its own."""
    old = standing or EMPTY
    last = dict(old["last"])
    last[str(seat)] = [seq, undoable]
    seen = {s for s in old["seen"] if s != seat}
    seen |= {int(s) for s in last if int(s) != seat and changed[int(s)]}
    return {"last": last, "seen": sorted(seen), "request": old["request"]}


def with_request(standing: Standing | None, request: dict[str, Any] | None) -> Standing:
    return {**(standing or EMPTY), "request": request}


def offer(standing: Standing | None, status: str, seat: int | None, names: Sequence[str]) -> dict[str, Any]:
    """The part of a view about takebacks: may this seat undo at once, or ask; and the open
    request as this viewer sees it (who asks, who has said yes, whether it waits for them)."""
    standing = standing or EMPTY
    request = standing["request"]
    undo = ask = False
    if seat is not None and status == "active" and request is None:
        last = standing["last"].get(str(seat))
        undo = last is not None and bool(last[1]) and seat not in standing["seen"]
        ask = last is not None and not undo
    shown = None
    if request is not None and status == "active":
        waiting = waiting_on(request)
        shown = {"id": request["id"], "seat": request["seat"], "by": names[request["seat"]],
                 "waiting": [names[s] for s in waiting], "accepted": [names[s] for s in request["accepted"]],
                 "yours": seat == request["seat"], "to_answer": seat is not None and seat in waiting}
    return {"undo": undo, "ask": ask, "request": shown}


def waiting_on(request: dict[str, Any]) -> list[int]:
    return sorted(set(request["asked"]) - set(request["accepted"]))


@dataclass(frozen=True)
class Restored:
    """A game returned to an earlier version, as written (the cache takes it after the commit)."""

    snap: Any  # the Snapshot at the new version
    newly_to_act: frozenset[int]


class Takebacks:
    """The table's undo and takeback requests (``table.takebacks``)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    @staticmethod
    def refuse_while_asked(snap: Any) -> None:
        """On the action path: no action while a takeback request waits for answers."""
        if snap.takeback is not None and snap.takeback["request"] is not None:
            raise StaleVersion("A takeback request is waiting for answers; play goes on once it is settled.")

    # --- Undo at once ---
    async def undo(self, viewer: Viewer, version: int) -> dict[str, Any]:
        """Take back the seat's own last action at once (see the module's note)."""
        seat, snap, names, action_seq = await self._offered(viewer, version, "undo")
        async with self.table.db.write() as session:
            takeback_id = await self._record(session, viewer.game_id, seat, action_seq, "undone", {})
            restored = await self._restore(session, snap, names, seat, action_seq, takeback_id, "undo")
        return await self._after(viewer, "takeback", restored)

    # --- Takeback with consent ---
    async def ask(self, viewer: Viewer, version: int) -> dict[str, Any]:
        """Ask every other seated player to let the seat take back its last action."""
        seat, snap, names, action_seq = await self._offered(viewer, version, "ask")
        async with self.table.db.read() as session:
            seats = (await session.execute(
                select(Seat.seat, Seat.bot_level).where(Seat.game_id == viewer.game_id, Seat.name.is_not(None))
            )).all()
        asked = sorted(s for s, _ in seats if s != seat)
        bots = sorted(s for s, level in seats if s != seat and level is not None)  # bots accept at once
        answers: dict[int, bool | None] = {s: True if s in bots else None for s in asked}
        async with self.table.db.write() as session:
            if bots == asked:  # nobody to wait for
                takeback_id = await self._record(session, viewer.game_id, seat, action_seq, "accepted", answers)
                after = await self._restore(session, snap, names, seat, action_seq, takeback_id, "accepted")
            else:
                # Requests are numbered within the game (a database-wide id would tell of other
                # games), counting only requests, which everyone sees (not private undos).
                number = 1 + (await session.execute(select(func.count()).select_from(TAKEBACKS).where(
                    TAKEBACKS.c.game_id == viewer.game_id, TAKEBACKS.c.status != "undone"))).scalar_one()
                row = await self._record(session, viewer.game_id, seat, action_seq, "pending", answers)
                request = {"id": number, "row": row, "seat": seat, "action_seq": action_seq, "asked": asked,
                           "accepted": bots}
                after = await self._bump(session, snap, with_request(snap.takeback, request))
                await self._line(session, viewer.game_id, _log_total(snap.state), f"{_shown(names)[seat]} asks to "
                                 "take back their last move; the others are asked to agree.")
        if isinstance(after, Restored):
            return await self._after(viewer, "takeback", after)
        return await self._after(viewer, "takeback_asked", after)

    async def answer(self, viewer: Viewer, request_id: int, accept: bool) -> dict[str, Any]:
        """Accept or decline the open request; the last yes takes the action back."""
        seat = self._seat_of(viewer)
        snap, names = await self.table.load_stored(viewer.game_id)
        request = _open_request(snap, request_id)
        if seat == request["seat"]:
            raise BadRequest("This is your own request: you can withdraw it, not answer it.")
        if seat not in waiting_on(request):
            raise BadRequest("You have already answered this request." if seat in request["asked"]
                             else "This request does not wait for your answer.")
        shown = _shown(names)
        answers = {**_answers(request), seat: accept}
        async with self.table.db.write() as session:
            if not accept:
                await self._settle(session, request, "declined", answers)
                after = await self._bump(session, snap, with_request(snap.takeback, None))
                await self._line(session, viewer.game_id, _log_total(snap.state),
                                 f"{shown[seat]} declines {shown[request['seat']]}'s takeback; play goes on.")
                kind = "takeback_declined"
            elif waiting_on(request) == [seat]:
                await self._settle(session, request, "accepted", answers)
                after = await self._restore(session, snap, names, request["seat"], request["action_seq"],
                                            request["row"], "accepted")
                kind = "takeback"
            else:
                await session.execute(update(TAKEBACKS).where(TAKEBACKS.c.id == request["row"]).values(
                    answers={str(s): yes for s, yes in answers.items()}))
                accepted = {**request, "accepted": sorted({*request["accepted"], seat})}
                after = await self._bump(session, snap, with_request(snap.takeback, accepted))
                kind = "takeback_answered"
        return await self._after(viewer, kind, after)

    async def withdraw(self, viewer: Viewer, request_id: int) -> dict[str, Any]:
        seat = self._seat_of(viewer)
        snap, names = await self.table.load_stored(viewer.game_id)
        request = _open_request(snap, request_id)
        if seat != request["seat"]:
            raise Forbidden("Only the player who asked can withdraw this request.")
        async with self.table.db.write() as session:
            await self._settle(session, request, "withdrawn", _answers(request))
            after = await self._bump(session, snap, with_request(snap.takeback, None))
            await self._line(session, viewer.game_id, _log_total(snap.state),
                             f"{_shown(names)[seat]} withdraws their takeback request; play goes on.")
        return await self._after(viewer, "takeback_declined", after)

    # --- Checks ---
    async def _offered(self, viewer: Viewer, version: int, how: str) -> tuple[int, Any, list[str | None], int]:
        """The seat, the stored game, its names and the seat's last action, once ``how``
        ("undo" or "ask") is on offer to the seat at the version it saw; else a refusal."""
        seat = self._seat_of(viewer)
        snap, names = await self.table.load_stored(viewer.game_id)
        self._check_fresh(snap, seat, version)
        if not offer(snap.takeback, snap.status, seat, _shown(names))[how]:
            raise BadRequest(_why_not(snap, seat, how))
        return seat, snap, names, snap.takeback["last"][str(seat)][0]

    @staticmethod
    def _seat_of(viewer: Viewer) -> int:
        if viewer.seat is None:
            raise Unauthorized("Spectators cannot take anything back: open your own seat's link.")
        return viewer.seat

    @staticmethod
    def _check_fresh(snap: Any, seat: int, version: int) -> None:
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest("Send the version of the view you are looking at.")
        if version != snap.view_version(seat):
            raise StaleVersion(f"The game has moved on (you saw version {version}, it is now at "
                               f"{snap.view_version(seat)}). Your page will refresh; look again.")

    # --- Writing ---
    async def _record(self, session: Any, game_id: str, seat: int, action_seq: int, status: str,
                      answers: dict[int, Any]) -> int:
        now = _now()
        return (await session.execute(insert(TAKEBACKS).values(
            game_id=game_id, seat=seat, action_seq=action_seq, status=status,
            answers={str(s): yes for s, yes in answers.items()}, asked_at=now,
            settled_at=None if status == "pending" else now,
        ).returning(TAKEBACKS.c.id))).scalar_one()

    async def _settle(self, session: Any, request: dict[str, Any], status: str, answers: dict[int, Any]) -> None:
        await session.execute(update(TAKEBACKS).where(TAKEBACKS.c.id == request["row"], TAKEBACKS.c.status == "pending")
                              .values(status=status, settled_at=_now(),
                                      answers={str(s): yes for s, yes in answers.items()}))

    async def _bump(self, session: Any, snap: Any, standing: Standing) -> Any:
        """A request made, answered or ended: the game's version moves with the new standing
        (nobody's view version does), so an action judged on the version before cannot
        commit now. Returns the snapshot to cache once committed."""
        moved = await session.execute(update(GAMES).where(*_unchanged(snap)).values(version=snap.version + 1,
                                                                                     takeback=standing))
        if moved.rowcount != 1:
            raise StaleVersion("Someone acted at the same moment. Look again.")
        await self.table.hub.notify_in_transaction(session, snap.game_id, snap.version + 1)
        return replace(snap, version=snap.version + 1, takeback=standing)

    async def _line(self, session: Any, game_id: str, at_line: int, line: str) -> None:
        await session.execute(insert(TableLine).values(game_id=game_id, at_line=at_line, line=line[:200],
                                                       created_at=_now()))

    async def _restore(self, session: Any, snap: Any, names: list[str | None], seat: int, action_seq: int,
                       takeback_id: int, how: str) -> Restored:
        """Return the game to the version before action ``action_seq``: play the actions
        before it again, store that state under a new version, move the removed actions
        aside, and let only the viewers whose view changes see a new version."""
        from .service import Snapshot, Views, changed_at_for, dump_snapshot, setup_seed

        game = (await session.execute(select(Game).where(Game.id == snap.game_id))).scalar_one()
        kept = (await session.execute(select(Action.seq, Action.seat, Action.option).where(
            Action.game_id == snap.game_id, Action.seq < action_seq).order_by(Action.seq))).all()
        title = get_title(snap.title)
        state = title.setup(game.players, game.options, setup_seed(game))
        standing: Standing | None = None
        seats = len(names)
        # The standing is played again too (each seat's last action, what it saw since):
        # only from the oldest of the seats' last actions on, where views are compared.
        lasts = {by: n for n, (_, by, _) in enumerate(kept)}
        compare_from = min(lasts.values(), default=len(kept))
        seen: Views | None = None
        for n, (seq, by, option) in enumerate(kept):
            after = title.apply(state, by, option)
            if n >= compare_from:
                seen = seen or Views(title, state, seq - 1)
                now_seen = Views(title, after, seq)
                standing = after_action(standing, by, seq, title.undoable(state, by, option, after),
                                        now_seen.changed_since(seen, seats))
                seen = now_seen
            state = after
        views = Views(title, state, snap.version + 1)
        changed = views.changed_since(Views(title, snap.state, snap.version), seats)
        view_versions = [vv + 1 if moved else vv for moved, vv in zip(changed, snap.view_versions_for(seats))]
        now = _now()
        view_changed_at = [now.timestamp() if moved else at
                           for moved, at in zip(changed, changed_at_for(snap.view_changed_at, seats))]
        standing = with_request(standing, None)
        values: dict[str, Any] = dict(version=snap.version + 1, snapshot=dump_snapshot(title, state), status="active",
                                      view_versions=view_versions, view_changed_at=view_changed_at, takeback=standing)
        if changed[-1]:
            values["updated_at"] = now
        moved = await session.execute(update(GAMES).where(*_unchanged(snap)).values(**values))
        if moved.rowcount != 1:
            raise StaleVersion("Someone acted at the same moment. Look again.")
        removed = select(ACTIONS.c.game_id, ACTIONS.c.seq, ACTIONS.c.seat, ACTIONS.c.option, ACTIONS.c.log,
                         ACTIONS.c.created_at, literal(takeback_id)).where(
            ACTIONS.c.game_id == snap.game_id, ACTIONS.c.seq >= action_seq)
        await session.execute(insert(TAKEN_BACK).from_select(
            ["game_id", "seq", "seat", "option", "log", "created_at", "takeback_id"], removed))
        await session.execute(delete(ACTIONS).where(ACTIONS.c.game_id == snap.game_id, ACTIONS.c.seq >= action_seq))
        total = _log_total(state)
        # The table's lines written after the restored point stay in view, at the takeback.
        await session.execute(update(TableLine).where(TableLine.game_id == snap.game_id, TableLine.at_line > total)
                              .values(at_line=total))
        who = _shown(names)[seat]
        if how == "accepted":
            await self._line(session, snap.game_id, total, f"{who} takes back their last move (everyone agreed).")
        elif any(changed[:seat] + changed[seat + 1:]):  # an undo nobody else saw leaves no public trace
            await self._line(session, snap.game_id, total, f"{who} takes back their last move.")
        await self.table.hub.notify_in_transaction(session, snap.game_id, snap.version + 1)
        after_snap = Snapshot(snap.game_id, snap.title, snap.version + 1, "active", state, snap.seed_given,
                              view_versions=view_versions, view_changed_at=view_changed_at, takeback=standing)
        return Restored(after_snap, frozenset(title.to_act(state)) - frozenset(title.to_act(snap.state)))

    async def _after(self, viewer: Viewer, kind: str, after: Any) -> dict[str, Any]:
        """After the commit: the new game into the cache, the table's lines read again,
        every page told (a forced frame too: a request changes no view version), the event
        published; the seat's new view is the answer."""
        game_id = viewer.game_id
        newly: frozenset[int] = frozenset()
        if isinstance(after, Restored):
            newly = after.newly_to_act
            after = after.snap  # its views are built when first asked for
        self.table.cache.put(after)
        self.table.forget_seats(game_id)  # names and the table's lines are read again
        await self.table.hub.publish(game_id, after.version)
        await self.table.hub.publish(game_id, -1)
        self.table.events.publish(TableEvent(kind, game_id, after.version, viewer.seat, newly_to_act=newly))
        return await self.table.view(viewer)


def _unchanged(snap: Any) -> tuple[Any, ...]:
    """The game is still at the version judged on, and no ending came meanwhile (endings.py)."""
    return GAMES.c.id == snap.game_id, GAMES.c.version == snap.version, GAMES.c.status == "active"


def _open_request(snap: Any, request_id: Any) -> dict[str, Any]:
    request = (snap.takeback or EMPTY)["request"]
    if request is None:
        raise NotFound("No takeback request is open in this game.")
    if isinstance(request_id, bool) or request_id != request["id"]:
        raise StaleVersion("That takeback request is no longer open; your page will refresh.")
    return request


def _why_not(snap: Any, seat: int, wanted: str) -> str:
    standing = snap.takeback or EMPTY
    if snap.status != "active":
        return "The game is over: nothing can be taken back."
    if standing["request"] is not None:
        return "A takeback request is already waiting for answers."
    if str(seat) not in standing["last"]:
        return "You have not made a move yet: there is nothing to take back."
    if wanted == "undo":
        return ("Your last move cannot be undone at once (another player has acted since, or it "
                "drew or showed something hidden): ask the others for a takeback instead.")
    return "You can undo your last move at once: no need to ask."


def _answers(request: dict[str, Any]) -> dict[int, bool | None]:
    """Seat -> True (accepted) or None (not answered yet), as stored."""
    return {s: True if s in request["accepted"] else None for s in request["asked"]}


def _now() -> Any:
    """The table's clock (``app.table.service.utcnow``, which tests may set)."""
    from . import service

    return service.utcnow()


def _shown(names: list[str | None]) -> list[str]:
    from .service import seat_names

    return seat_names(names)


def _log_total(state: State) -> int:
    log = getattr(state, "log", [])
    return int(getattr(log, "total", len(log)))

