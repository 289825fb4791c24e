"""The notifier: schedules, writes and delivers turn messages, once, from any process.

Every step is its own short transaction, after the action's has committed; a failure here
is logged and retried, never passed back to the action. Claims are conditional updates
(``... WHERE claimed_until IS NULL OR claimed_until < now``): of several processes that
see the same due row, exactly one's update matches, and only that one sends it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter, OrderedDict
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

import apprise
from sqlalchemy import and_, case, delete, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from app.background import Background, claim
from app.background import unclaimed as _unclaimed
from app.store.models import Action, Seat
from app.table.errors import BadRequest, Forbidden, NotFound
from app.table.service import Table, Viewer
from app.table.tokens import same_hash, token_hash

from . import messages
from .channels import ASSET, PUSH_PREFIX, BadChannel, apprise_url, email_channel, push_channel, service_name, shown
from .config import NotifyConfig
from .messages import Message
from .outgoing import FAILED, REFUSED, Policy
from . import webpush
from .webpush import Subscription
from .sealing import LinkSeal, load_key
from .tables import OUTBOX, PENDING, PRESENCE, PUSH, SETTINGS

log = logging.getLogger("keydom.notify")
BATCH = 50  # due rows one pass takes on; the next tick takes the rest
KEEP_TOLD = 10_000  # games whose notifying seats this process remembers
SEATS_CHANGED = -1  # the hub's "the table's facts changed" (a seat asked to be told, here)
TEST_GAP = 10.0  # seconds between two test messages of one seat


@dataclass(frozen=True)
class SeatChannels:
    email: str | None
    urls: list[str]
    remind_after_hours: float | None
    link: str | None  # None: sealed with a key this server no longer has
    seen_log: int | None = None  # log lines the seat had seen when it last looked
    push: tuple[Any, ...] = ()  # this seat's Web Push subscriptions (rows of notify_push)

    def channels(self) -> list[str]:
        return ([email_channel(self.email)] if self.email else []) + list(self.urls) + \
            [push_channel(row.id) for row in self.push]


class Notifier:
    def __init__(self, table: Table, config: NotifyConfig) -> None:
        self.table = table
        self.db = table.db
        self.config = config
        self.seal = LinkSeal(load_key(config.link_key, config.key_file))
        self.process = secrets.token_hex(8)  # this server process, in claims and presence rows
        self.open_pages: Counter[tuple[str, int]] = Counter()
        self._presence_written: set[tuple[str, int]] = set()
        self._heartbeat_at = 0.0
        self._pruned_at = float("-inf")
        self._wake = asyncio.Event()
        self._loop_task: asyncio.Task[None] | None = None
        self._stopping = False
        # Not woken after every action: _schedule wakes the loop when it wrote a pending row.
        self._background = Background(log, "schedule a notification")
        self.policy: Policy = config.policy()
        self.vapid = webpush.load_vapid(config.vapid_private_key, config.vapid_key_file)
        self.push_key = webpush.public_key(self.vapid)
        # Apprise is synchronous: each delivery holds a thread. Several run at once, each
        # with its own deadline, so a destination that never answers delays nobody else.
        # The pool is larger than the number let run at once: a thread still stuck in a
        # socket after its deadline must not take a free one's place.
        self._sender = ThreadPoolExecutor(max_workers=2 * config.senders, thread_name_prefix="notify-send")
        self._sending = asyncio.Semaphore(config.senders)
        self.loop: asyncio.AbstractEventLoop | None = None
        # Per game, the seats that asked to be told, so that an action in a game where none
        # did (most) reads nothing. A seat starting to ask tells every process through the
        # hub (``save``), which forgets the game here; a lost hub link forgets them all.
        self._telling: OrderedDict[str, frozenset[int]] = OrderedDict()
        # The read under way per game: the actions of a game this process has not seen
        # yet wait for one read instead of each making its own.
        self._telling_reads: dict[str, asyncio.Future[frozenset[int]]] = {}
        table.hub.on_seats_changed.append(self._forget_telling)

    def _forget_telling(self, game_id: str | None) -> None:
        if game_id is None:
            self._telling.clear()
            self._telling_reads.clear()
        else:
            self._telling.pop(game_id, None)
            self._telling_reads.pop(game_id, None)  # a read begun before the change is not kept

    def game_created(self, game_id: str) -> None:
        """A game just made here has no seat asking to be told: its actions need not read that."""
        if game_id not in self._telling_reads:
            self._remember_telling(game_id, frozenset())

    def _remember_telling(self, game_id: str, seats: frozenset[int]) -> None:
        self._telling[game_id] = seats
        while len(self._telling) > KEEP_TOLD:
            self._telling.popitem(last=False)

    async def _telling_seats(self, game_id: str) -> frozenset[int]:
        seats = self._telling.get(game_id)
        if seats is not None:
            return seats
        reading = self._telling_reads.get(game_id)
        if reading is None:
            reading = self._telling_reads[game_id] = asyncio.ensure_future(self._read_telling(game_id))
        return await asyncio.shield(reading)

    async def _read_telling(self, game_id: str) -> frozenset[int]:
        mine = asyncio.current_task()
        try:
            async with self.db.read() as session:
                seats = frozenset((await session.execute(
                    select(SETTINGS.c.seat).where(SETTINGS.c.game_id == game_id))).scalars())
        except BaseException:
            if self._telling_reads.get(game_id) is mine:  # the next action tries again
                del self._telling_reads[game_id]
            raise
        if self._telling_reads.get(game_id) is mine:  # not forgotten while reading
            del self._telling_reads[game_id]
            self._remember_telling(game_id, seats)
        return seats

    def now(self) -> float:
        return self.config.clock()

    # --- Running ---
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        if self.config.background:
            self._loop_task = asyncio.create_task(self._run_forever())

    async def stop(self) -> None:
        # Let the current pass finish rather than cancel it inside a transaction (a
        # connection cut off mid-transaction would hold its locks until the server dies).
        self._stopping = True
        self._wake.set()
        if self._loop_task:
            try:
                await asyncio.wait_for(asyncio.shield(self._loop_task), timeout=5)
            except (asyncio.TimeoutError, Exception):
                self._loop_task.cancel()
        await self._background.stop()  # messages being scheduled right now: a moment to be written
        try:
            self.open_pages.clear()
            await self._flush_presence(self.now(), heartbeat=False)
        except Exception:  # the database may be gone already; the rows go stale by themselves
            pass
        self._sender.shutdown(wait=False, cancel_futures=True)

    async def _run_forever(self) -> None:
        while not self._stopping:
            wait = self.config.tick
            try:
                await self.run_once(heartbeat=False)
                wait = min(wait, self._next_beat() - self.now())
                soonest = await self._next_due()
                if soonest is not None:
                    wait = min(wait, soonest - self.now())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("notification pass failed; trying again")
            if wait > 0:
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout=wait)
                except asyncio.TimeoutError:
                    pass
            self._wake.clear()

    async def _next_due(self) -> float | None:
        """When the next message is to be written or delivery tried, of those no process
        holds: the loop sleeps until then (the tick only bounds the wait, for rows another
        process may write; this process's own scheduling wakes it)."""
        now = self.now()
        async with self.db.read() as session:
            message = (await session.execute(select(func.min(PENDING.c.due_at)).where(
                _unclaimed(PENDING, now)))).scalar()
            delivery = (await session.execute(select(func.min(OUTBOX.c.next_try_at)).where(
                OUTBOX.c.status == "queued", _unclaimed(OUTBOX, now)))).scalar()
        return min((due for due in (message, delivery) if due is not None), default=None)

    def _next_beat(self) -> float:
        """When this process next confirms its open pages (never, with none open)."""
        if not self._presence_written:
            return float("inf")
        return self._heartbeat_at + self.config.presence_stale / 3

    async def run_once(self, heartbeat: bool = True) -> int:
        """One pass: record open pages, write due messages, send due deliveries.
        Returns how many deliveries were attempted (tests drive the notifier with this)."""
        await self.settle()
        now = self.now()
        await self._flush_presence(now, heartbeat=heartbeat)
        await self._write_due_messages(now)
        sent = await self._send_due(now)
        await self._prune(now)
        return sent

    async def _prune(self, now: float) -> None:
        """Delete messages done with for longer than NOTIFY_KEEP_DAYS (at most once an hour)."""
        if now - self._pruned_at < 3600:
            return
        self._pruned_at = now
        async with self.db.write() as session:
            await session.execute(delete(OUTBOX).where(
                OUTBOX.c.status != "queued", OUTBOX.c.created_at < now - self.config.keep_days * 86400))

    async def settle(self) -> None:
        """Wait for scheduling tasks the hooks started (tests, and a clean stop)."""
        await self._background.settle()

    def _spawn(self, work: Any) -> None:
        self._background.spawn(work)

    # --- Who has a page open ---
    @contextmanager
    def page_open(self, game_id: str, seat: int | None) -> Iterator[None]:
        """Held while a seat's websocket is connected to this process."""
        if seat is None:
            yield
            return
        key = (game_id, seat)
        self.open_pages[key] += 1
        self._wake.set()
        try:
            yield
        finally:
            self.open_pages[key] -= 1
            if self.open_pages[key] <= 0:
                del self.open_pages[key]
            self._wake.set()
            self._spawn(self._note_seen(game_id, seat))

    async def _note_seen(self, game_id: str, seat: int) -> None:
        """A page closed: its seat has seen the log up to here (the next message tells what
        came after). Only for seats that asked to be told."""
        async with self.db.read() as session:
            told = (await session.execute(select(SETTINGS.c.seat).where(
                SETTINGS.c.game_id == game_id, SETTINGS.c.seat == seat))).first()
        if told is None:
            return
        view = await self.table.view(Viewer(game_id, seat))
        async with self.db.write() as session:
            await session.execute(update(SETTINGS).where(SETTINGS.c.game_id == game_id, SETTINGS.c.seat == seat)
                                  .values(seen_log=view["log_total"]))

    async def _flush_presence(self, now: float, heartbeat: bool) -> None:
        current = set(self.open_pages)
        opened = current - self._presence_written
        closed = self._presence_written - current
        beat = heartbeat or now - self._heartbeat_at >= self.config.presence_stale / 3
        if not (opened or closed or (beat and current)):
            return
        async with self.db.write() as session:
            for game_id, seat in closed:
                await session.execute(delete(PRESENCE).where(
                    PRESENCE.c.game_id == game_id, PRESENCE.c.seat == seat, PRESENCE.c.process == self.process))
            if opened:
                await session.execute(insert(PRESENCE), [
                    {"game_id": g, "seat": s, "process": self.process, "seen_at": now} for g, s in opened])
            if beat:
                await session.execute(update(PRESENCE).where(PRESENCE.c.process == self.process).values(seen_at=now))
                # Pages of processes that died without saying goodbye.
                await session.execute(delete(PRESENCE).where(PRESENCE.c.seen_at < now - 10 * self.config.presence_stale))
        self._presence_written = current
        if beat:
            self._heartbeat_at = now

    async def has_page_open(self, game_id: str, seat: int, now: float) -> bool:
        async with self.db.read() as session:
            row = (await session.execute(select(PRESENCE.c.seat).where(
                PRESENCE.c.game_id == game_id, PRESENCE.c.seat == seat,
                PRESENCE.c.seen_at >= now - self.config.presence_stale).limit(1))).first()
        return row is not None

    # --- Hooks (called by the table after its commit; they only start background work) ---
    def turns_changed(self, game_id: str, version: int, newly_owing: set[int], finished: bool) -> None:
        now = self.now()  # the action's time, not whenever the task gets to run
        if finished:
            self._spawn(self._schedule_result(game_id, version, now))
        elif newly_owing:
            telling = self._telling.get(game_id)
            if telling is None or not telling.isdisjoint(newly_owing):  # most games ask for nothing
                self._spawn(self._schedule(game_id, version, newly_owing, "turn", now))

    def takeback_asked(self, game_id: str, version: int) -> None:
        """A seat asks the others to let it take back a move (app/table/takeback.py)."""
        self._spawn(self._schedule_takeback(game_id, version, self.now()))

    async def _schedule_takeback(self, game_id: str, version: int, now: float) -> None:
        view = await self.table.view(Viewer(game_id, None))
        request = view["takeback"]["request"]
        if request is not None:  # the seats whose answer it waits for (names are unique in a game)
            asked = {s["seat"] for s in view["seats"] if s["name"] in request["waiting"]}
            await self._schedule(game_id, version, asked, "takeback", now)

    def seat_claimed(self, game_id: str, seat: int) -> None:
        self._spawn(self._schedule_if_owing(game_id, seat, self.now()))

    async def _schedule_if_owing(self, game_id: str, seat: int, now: float) -> None:
        view = await self.table.view(Viewer(game_id, None))
        if seat in view["to_act"]:
            await self._schedule(game_id, view["version"], {seat}, "turn", now)

    async def _schedule_result(self, game_id: str, version: int, now: float) -> None:
        await self._schedule(game_id, version, set(await self._telling_seats(game_id)), "result", now)
        if self.config.host_urls:
            view = await self.table.view(Viewer(game_id, None))
            root = self._root_of(game_id, await self._any_link(game_id))
            await self._queue(game_id, None, self.config.host_urls, "result",
                              messages.host_result(view, f"{root}/g/{game_id}"), now)

    async def _schedule(self, game_id: str, version: int, seats: set[int], kind: str, now: float) -> None:
        """One pending row per seat that asked to be told: due after the delay, and not
        within the quiet period after its last message. A newer kind replaces an older."""
        if not seats & await self._telling_seats(game_id):  # most games ask for nothing
            return
        async with self.db.read() as session:
            told = (await session.execute(
                select(SETTINGS.c.seat, SETTINGS.c.last_told_at)
                .where(SETTINGS.c.game_id == game_id, SETTINGS.c.seat.in_(sorted(seats)))
            )).all()
        if not told:
            return
        async with self.db.write() as session:
            for seat, last_told in told:
                due = max(now + self.config.delay, (last_told or 0.0) + self.config.quiet)
                await session.execute(self._upsert_pending(game_id, seat, kind, due, version))
        self._wake.set()

    def _upsert_pending(self, game_id: str, seat: int, kind: str, due: float, since: int) -> Any:
        dialect = sqlite if self.db.is_sqlite else postgresql
        row = {"game_id": game_id, "seat": seat, "kind": kind, "due_at": due, "owed_since": since,
               "claimed_by": None, "claimed_until": None}
        stmt = dialect.insert(PENDING).values(**row)
        outranked = {"result": ("result",), "turn": ("result",), "takeback": ("result",),
                     "reminder": ("result", "turn", "takeback")}[kind]
        same = PENDING.c.kind == kind
        return stmt.on_conflict_do_update(
            index_elements=[PENDING.c.game_id, PENDING.c.seat],
            set_={**{k: v for k, v in row.items() if k not in ("game_id", "seat")},
                  # The same message again keeps its time: steady play cannot put it off forever.
                  "due_at": case((and_(same, PENDING.c.due_at < due), PENDING.c.due_at), else_=due),
                  "owed_since": case((same, PENDING.c.owed_since), else_=since)},
            where=PENDING.c.kind.not_in(outranked),
        )

    # --- Writing due messages ---
    async def _write_due_messages(self, now: float) -> None:
        async with self.db.read() as session:
            due = (await session.execute(
                select(PENDING).where(PENDING.c.due_at <= now, _unclaimed(PENDING, now))
                .order_by(PENDING.c.due_at).limit(BATCH)
            )).all()
        for row in due:
            if await self._claim_pending(row, now):
                try:
                    await self._write_message(row, now)
                except Exception:
                    log.exception("could not write the %s message for seat %s of game %s", row.kind, row.seat, row.game_id)

    async def _claim_pending(self, row: Any, now: float) -> bool:
        return await claim(self.db, PENDING, (PENDING.c.game_id == row.game_id, PENDING.c.seat == row.seat,
                                              PENDING.c.kind == row.kind, PENDING.c.due_at == row.due_at),
                           self.process, now, self.config.lease)

    async def _write_message(self, row: Any, now: float) -> None:
        """Decide from the seat's own view, now, what (if anything) it is told."""
        target = await self.seat_channels(row.game_id, row.seat)
        if target is not None and not await self._link_still_opens(row.game_id, row.seat, target.link):
            target = None  # the seat's link was replaced or the seat re-opened: not theirs now
            await self._forget(row.game_id, row.seat)
        view = await self.table.view(Viewer(row.game_id, row.seat))
        owes = row.seat in view["to_act"] and view["result"] is None
        looking = await self.has_page_open(row.game_id, row.seat, now)
        message: Message | None = None
        remind_at: float | None = None
        if target is None:
            pass
        elif row.kind == "result":
            message = None if looking or view["result"] is None else messages.result(view, target.seen_log)
        elif row.kind == "turn" and owes:
            message = None if looking else messages.turn(view, target.seen_log)
            if target.remind_after_hours:
                remind_at = now + target.remind_after_hours * 3600
        elif row.kind == "takeback" and (view["takeback"]["request"] or {}).get("to_answer"):
            message = None if looking else messages.takeback(view, target.seen_log)
        elif row.kind == "reminder" and owes and not looking and not await self._acted_since(row):
            message = messages.reminder(view, target.remind_after_hours or 0, target.seen_log)
        async with self.db.write() as session:
            mine = await session.execute(delete(PENDING).where(
                PENDING.c.game_id == row.game_id, PENDING.c.seat == row.seat, PENDING.c.claimed_by == self.process))
            if mine.rowcount != 1:
                return  # replaced meanwhile by a newer event: that row will speak instead
            if remind_at is not None:
                await session.execute(self._upsert_pending(row.game_id, row.seat, "reminder", remind_at, row.owed_since))
            if message is not None and target is not None:
                await session.execute(update(SETTINGS).where(
                    SETTINGS.c.game_id == row.game_id, SETTINGS.c.seat == row.seat).values(last_told_at=now))
                await self._queue_in(session, row.game_id, row.seat, target.channels(), row.kind, message, now)

    async def time_running_out(self, game_id: str, seat: int, left: str, then: str) -> bool:
        """A seat's clock is half gone (app/bots/clocks.py): one message now to the channels the
        seat set, unless its page is open (the page shows the time left). The caller holds
        the clock's claim, so one process sends it. True when a message was queued."""
        now = self.now()
        target = await self.seat_channels(game_id, seat)
        if target is None or not target.channels() or await self.has_page_open(game_id, seat, now):
            return False
        if not await self._link_still_opens(game_id, seat, target.link):
            await self._forget(game_id, seat)
            return False
        view = await self.table.view(Viewer(game_id, seat))
        if seat not in view["to_act"] or view["result"] is not None:
            return False
        message = messages.time_running_out(view, left, then, target.seen_log)
        async with self.db.write() as session:
            await session.execute(update(SETTINGS).where(
                SETTINGS.c.game_id == game_id, SETTINGS.c.seat == seat).values(last_told_at=now))
            await self._queue_in(session, game_id, seat, target.channels(), "clock", message, now)
        self._wake.set()
        return True

    async def _link_still_opens(self, game_id: str, seat: int, link: str | None) -> bool:
        """The stored link's token is still this seat's, and the seat is still taken."""
        if link is None:
            return False
        token = link.rsplit("/seat/", 1)[-1]
        async with self.db.read() as session:
            row = (await session.execute(select(Seat.token_hash, Seat.name).where(
                Seat.game_id == game_id, Seat.seat == seat))).first()
        return row is not None and row.name is not None and same_hash(row.token_hash, token_hash(token))

    async def _forget(self, game_id: str, seat: int) -> None:
        async with self.db.write() as session:
            await session.execute(delete(SETTINGS).where(SETTINGS.c.game_id == game_id, SETTINGS.c.seat == seat))
            await session.execute(delete(PUSH).where(PUSH.c.game_id == game_id, PUSH.c.seat == seat))

    async def _acted_since(self, row: Any) -> bool:
        async with self.db.read() as session:
            count = (await session.execute(select(func.count()).select_from(Action).where(
                Action.game_id == row.game_id, Action.seat == row.seat, Action.seq > row.owed_since))).scalar_one()
        return count > 0

    async def _queue(self, game_id: str, seat: int | None, channels: list[str], kind: str, message: Message,
                     now: float) -> None:
        async with self.db.write() as session:
            await self._queue_in(session, game_id, seat, channels, kind, message, now)
        self._wake.set()  # to be sent now, not at the next tick

    async def _queue_in(self, session: Any, game_id: str, seat: int | None, channels: list[str], kind: str,
                        message: Message, now: float) -> None:
        if channels:
            await session.execute(insert(OUTBOX), [
                {"game_id": game_id, "seat": seat, "channel": channel, "kind": kind, "subject": message.subject,
                 "body": message.body, "link_label": message.link_label, "status": "queued", "attempts": 0,
                 "next_try_at": now, "created_at": now}
                for channel in channels])

    # --- Sending ---
    async def _send_due(self, now: float) -> int:
        async with self.db.read() as session:
            due = (await session.execute(
                select(OUTBOX).where(OUTBOX.c.status == "queued", OUTBOX.c.next_try_at <= now, _unclaimed(OUTBOX, now))
                .order_by(OUTBOX.c.id).limit(BATCH)
            )).all()
        mine = []
        for row in due:
            if await claim(self.db, OUTBOX, (OUTBOX.c.id == row.id, OUTBOX.c.status == "queued"),
                           self.process, now, self.config.lease):  # else another process took it
                mine.append(row)

        links: dict[tuple[str, int], str | None] = {}
        for row in mine:
            if row.link_label is not None and (row.game_id, row.seat) not in links:
                links[(row.game_id, row.seat)] = await self._live_link(row.game_id, row.seat)

        async def send(row: Any) -> None:
            link = links.get((row.game_id, row.seat))
            if row.link_label is not None and link is None:
                # Notifications turned off, or the seat's link replaced, since it was written.
                await self._record(row, "This seat no longer has notifications on.", final=True)
                return
            error = await self.deliver(row.channel, Message(row.subject, row.body, row.link_label), link)
            await self._record(row, error)

        await asyncio.gather(*(send(row) for row in mine))
        return len(mine)

    async def _live_link(self, game_id: str, seat: int) -> str | None:
        """The seat's link, unsealed now, if it still opens the seat."""
        target = await self.seat_channels(game_id, seat)
        if target is None or not await self._link_still_opens(game_id, seat, target.link):
            return None
        return target.link

    async def deliver(self, channel: str, message: Message, link: str | None = None) -> str | None:
        """Send one message now; None when it went through, else what the player is told:
        that the policy refused it, or that it failed (never the remote's answer)."""
        if channel.startswith(PUSH_PREFIX):
            return await self._push(int(channel[len(PUSH_PREFIX):]), message, link)
        try:
            url = apprise_url(channel, self.config.smtp_url)
        except BadChannel as refusal:
            return refusal.message
        assert self.loop is not None
        async with self._sending:
            work = self.loop.run_in_executor(self._sender, _send_blocking, url, message.subject, message.text(link),
                                             self.policy,
                                             self.config.send_timeout, service_name(channel))
            try:
                return await asyncio.wait_for(work, timeout=2 * self.config.send_timeout)
            except asyncio.TimeoutError:
                log.warning("a %s notification took over %g s; given up", service_name(channel), 2 * self.config.send_timeout)
                return FAILED

    async def _push(self, push_id: int, message: Message, link: str | None) -> str | None:
        async with self.db.read() as session:
            row = (await session.execute(select(PUSH).where(PUSH.c.id == push_id))).first()
        if row is None:
            return webpush.GONE
        subscription = Subscription(row.endpoint, row.p256dh, row.auth)
        assert self.loop is not None
        async with self._sending:
            work = self.loop.run_in_executor(
                self._sender, webpush.send_blocking, subscription, message.subject, message.body, link, self.vapid,
                self._vapid_subject(link), self.policy, self.config.send_timeout)
            try:
                error = await asyncio.wait_for(work, timeout=2 * self.config.send_timeout)
            except asyncio.TimeoutError:
                return FAILED
        if error == webpush.GONE:  # the browser dropped it: stop trying there
            async with self.db.write() as session:
                await session.execute(delete(PUSH).where(PUSH.c.id == push_id))
        return error

    def _vapid_subject(self, link: str | None) -> str:
        """Who push services may contact: VAPID_SUBJECT, else the server's https address."""
        if self.config.vapid_subject:
            return self.config.vapid_subject
        if link and link.startswith("https://"):
            return link.split("/g/", 1)[0]
        return "mailto:keydom@localhost"

    async def _record(self, row: Any, error: str | None, final: bool = False) -> None:
        now = self.now()
        attempts = row.attempts + 1
        # A message done with keeps no text: what was said is the recipient's to keep.
        if error is None:
            values: dict[str, Any] = {"status": "sent", "error": None, "body": ""}
        elif final or error == webpush.GONE or attempts >= self.config.max_attempts:
            values = {"status": "failed", "error": error, "body": ""}
        else:
            wait = min(self.config.retry_first * 2 ** (attempts - 1), self.config.retry_max)
            values = {"status": "queued", "error": error, "next_try_at": now + wait}
        async with self.db.write() as session:
            await session.execute(update(OUTBOX).where(OUTBOX.c.id == row.id, OUTBOX.c.claimed_by == self.process)
                                  .values(attempts=attempts, tried_at=now, claimed_by=None, claimed_until=None, **values))

    # --- A seat's settings (the API) ---
    async def seat_channels(self, game_id: str, seat: int) -> SeatChannels | None:
        async with self.db.read() as session:
            row = (await session.execute(select(SETTINGS).where(
                SETTINGS.c.game_id == game_id, SETTINGS.c.seat == seat))).first()
        if row is None:
            return None
        async with self.db.read() as session:
            push = tuple((await session.execute(select(PUSH).where(
                PUSH.c.game_id == game_id, PUSH.c.seat == seat).order_by(PUSH.c.id))).all())
        where, _, sealed = row.link.rpartition("/")
        token = self.seal.open(game_id, seat, sealed)
        link = f"{where}/{token}" if token else None
        return SeatChannels(row.email, list(row.urls or []), row.remind_after_hours, link, row.seen_log, push)

    async def save(self, viewer: Viewer, email: str | None, urls: list[str], remind_after_hours: float | None,
                   root: str, token: str) -> None:
        """Store a seat's channels (already checked) and its link, sealed. Nothing to tell:
        forget the row and its link."""
        await self._must_be_a_seated_player(viewer)
        assert viewer.seat is not None
        link = f"{root}/g/{viewer.game_id}/seat/{self.seal.seal(viewer.game_id, viewer.seat, token)}"
        seen_log = (await self.table.view(viewer))["log_total"]  # saving it, the seat is looking at the game
        now = self.now()
        async with self.db.write() as session:
            existing = (await session.execute(select(SETTINGS.c.last_told_at).where(
                SETTINGS.c.game_id == viewer.game_id, SETTINGS.c.seat == viewer.seat))).first()
            pushed = (await session.execute(select(PUSH.c.id).where(
                PUSH.c.game_id == viewer.game_id, PUSH.c.seat == viewer.seat).limit(1))).first()
            await session.execute(delete(SETTINGS).where(
                SETTINGS.c.game_id == viewer.game_id, SETTINGS.c.seat == viewer.seat))
            telling = bool(email or urls or pushed)
            if telling:
                await session.execute(insert(SETTINGS).values(
                    game_id=viewer.game_id, seat=viewer.seat, email=email, urls=urls,
                    remind_after_hours=remind_after_hours, link=link, updated_at=now, seen_log=seen_log,
                    last_told_at=existing.last_told_at if existing else None))
                # Every process forgets which of this game's seats ask (see _telling_seats).
                await self.table.hub.notify_in_transaction(session, viewer.game_id, SEATS_CHANGED)
            else:
                await session.execute(delete(PENDING).where(
                    PENDING.c.game_id == viewer.game_id, PENDING.c.seat == viewer.seat))
        if telling:
            await self.table.hub.publish(viewer.game_id, SEATS_CHANGED)

    async def add_push(self, viewer: Viewer, subscription: Subscription, root: str, token: str) -> None:
        """Add this browser to the seat's channels (the same browser again: its keys renewed)."""
        await self._must_be_a_seated_player(viewer)
        assert viewer.seat is not None
        now = self.now()
        async with self.db.write() as session:
            mine = (await session.execute(select(PUSH.c.id, PUSH.c.endpoint).where(
                PUSH.c.game_id == viewer.game_id, PUSH.c.seat == viewer.seat).order_by(PUSH.c.id))).all()
            same = [row.id for row in mine if row.endpoint == subscription.endpoint]
            if same:
                await session.execute(update(PUSH).where(PUSH.c.id == same[0]).values(
                    p256dh=subscription.p256dh, auth=subscription.auth))
            else:
                if len(mine) >= webpush.MAX_PER_SEAT:
                    await session.execute(delete(PUSH).where(PUSH.c.id == mine[0].id))
                await session.execute(insert(PUSH).values(
                    game_id=viewer.game_id, seat=viewer.seat, endpoint=subscription.endpoint,
                    p256dh=subscription.p256dh, auth=subscription.auth, created_at=now))
        target = await self.seat_channels(viewer.game_id, viewer.seat)
        if target is None or target.link is None:  # push alone: the seat's link must be kept too
            await self.save(viewer, target.email if target else None, target.urls if target else [],
                            target.remind_after_hours if target else None, root, token)

    async def remove_push(self, viewer: Viewer, push_id: int) -> None:
        """Stop pushing to one browser; with no channel left, notifications are off."""
        await self._must_be_a_seated_player(viewer)
        async with self.db.write() as session:
            gone = await session.execute(delete(PUSH).where(
                PUSH.c.id == push_id, PUSH.c.game_id == viewer.game_id, PUSH.c.seat == viewer.seat))
        if gone.rowcount != 1:
            raise NotFound("This seat has no such push subscription.")
        target = await self.seat_channels(viewer.game_id, viewer.seat)  # type: ignore[arg-type]
        if target is not None and not target.channels():
            await self._forget(viewer.game_id, viewer.seat)  # type: ignore[arg-type]
            async with self.db.write() as session:
                await session.execute(delete(PENDING).where(
                    PENDING.c.game_id == viewer.game_id, PENDING.c.seat == viewer.seat))

    async def deliveries(self, viewer: Viewer) -> list[dict[str, Any]]:
        """The last attempt per channel the seat has now, newest first (what its page shows)."""
        target = await self.seat_channels(viewer.game_id, viewer.seat)  # type: ignore[arg-type]
        current = set(target.channels()) if target else set()
        async with self.db.read() as session:
            rows = (await session.execute(
                select(OUTBOX).where(OUTBOX.c.game_id == viewer.game_id, OUTBOX.c.seat == viewer.seat,
                                     OUTBOX.c.tried_at.is_not(None))
                .order_by(OUTBOX.c.tried_at.desc(), OUTBOX.c.id.desc()).limit(200)
            )).all()
        latest: dict[str, Any] = {}
        for row in rows:
            if row.channel in current:
                latest.setdefault(row.channel, row)
        return [delivery_json(row) for row in latest.values()]

    async def send_test(self, viewer: Viewer) -> list[dict[str, Any]]:
        """One test message to each of the seat's channels, sent now (and recorded)."""
        await self._must_be_a_seated_player(viewer)
        target = await self.seat_channels(viewer.game_id, viewer.seat)  # type: ignore[arg-type]
        if target is None:
            raise BadRequest("Save an e-mail address or a notification URL first, then send a test.")
        now = self.now()
        async with self.db.read() as session:
            last = (await session.execute(select(func.max(OUTBOX.c.created_at)).where(
                OUTBOX.c.game_id == viewer.game_id, OUTBOX.c.seat == viewer.seat, OUTBOX.c.kind == "test"))).scalar()
        if last is not None and now - last < TEST_GAP:
            raise BadRequest(f"A test was just sent; wait {TEST_GAP - (now - last):.0f} s before the next.")
        if target.link is None:
            raise BadRequest("This server can no longer read the link it kept for you (its NOTIFY_KEY changed): "
                             "save your settings again.")
        view = await self.table.view(viewer)
        message = messages.test(view)
        channels = target.channels()
        errors = await asyncio.gather(*(self.deliver(channel, message, target.link) for channel in channels))
        results = []
        for channel, error in zip(channels, errors):
            async with self.db.write() as session:
                inserted = await session.execute(insert(OUTBOX).values(
                    game_id=viewer.game_id, seat=viewer.seat, channel=channel, kind="test", subject=message.subject,
                    body="", status="sent" if error is None else "failed", attempts=1, next_try_at=now,
                    error=error, tried_at=self.now(), created_at=now).returning(*OUTBOX.c))
                results.append(delivery_json(inserted.one()))
        return results

    async def _must_be_a_seated_player(self, viewer: Viewer) -> None:
        if viewer.seat is None:
            raise Forbidden("Notifications belong to a seat: send your seat token.")
        view = await self.table.view(viewer)
        if view["seats"][viewer.seat]["open"]:
            raise Forbidden("Take this seat first: type your name on your invite page.")

    async def _any_link(self, game_id: str) -> str | None:
        async with self.db.read() as session:
            return (await session.execute(select(SETTINGS.c.link).where(SETTINGS.c.game_id == game_id).limit(1))).scalar()

    @staticmethod
    def _root_of(game_id: str, link: str | None) -> str:
        """The server's address as the seats' links have it (the host channel has no request)."""
        if not link:
            return ""
        return link.split(f"/g/{game_id}/", 1)[0]


def delivery_json(row: Any) -> dict[str, Any]:
    return {
        "channel": shown(row.channel),
        "service": service_name(row.channel),
        "kind": row.kind,
        "ok": row.status == "sent",
        "error": row.error,
        "at": row.tried_at,
        "retry_at": row.next_try_at if row.status == "queued" and row.error else None,
        "gave_up": row.status == "failed" and row.kind != "test",
    }


def _send_blocking(url: str, subject: str, text: str, policy: Policy, timeout: float, service: str) -> str | None:
    plugin = apprise.Apprise.instantiate(url, asset=ASSET, suppress_exceptions=True)
    if plugin is None:
        return "Keydom no longer understands this URL."
    # Each request of this delivery waits at most this long to connect and to read.
    plugin.socket_connect_timeout = min(5.0, timeout)
    plugin.socket_read_timeout = timeout
    with policy.guard() as guarded:
        try:
            ok = plugin.notify(body=text, title=subject)
        except Exception:  # a plugin bug must not stop the sender thread
            log.exception("the %s notification plugin failed", service)
            ok = False
    if guarded.refused:
        log.warning("a %s notification was refused by the outgoing-request policy: %s", service, guarded.refused[0])
        return REFUSED
    return None if ok else FAILED
