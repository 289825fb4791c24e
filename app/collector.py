"""How the server's cyclic garbage collector runs: short young collections, no middle ones.

A busy table keeps every recently moved game's state and views alive for a second or so:
tens of thousands of fresh lists, tuples and dicts at any time. CPython's collector visits
every young object it finds alive, then visits the survivors again in each older
generation's collection. With a large young generation one pass stopped the event loop for
12–68 ms; with a small one the middle generation's passes took 72–89 ms (docs/benchmarks.md,
fourteenth and fifteenth rounds).

So: after every collection its survivors are frozen (``gc.freeze``) into the permanent
generation, which no automatic collection visits, and every quarter of a second in which
the process worked the young generation is collected (:meth:`Collector.run`). Each object
is visited once, young, and a pause is bounded by what a quarter of a second made.
Frozen objects are still freed by reference counting, which is how game states and views
die; only reference cycles among them that became garbage after they were frozen (a closed
socket's, an aborted request's) wait. For those, :meth:`Collector.sweep_if_due` unfreezes
and collects everything once the memory held has grown well past what the last full pass
left, or somewhat past it after ten minutes (the janitor in ``app.main`` asks every few
seconds), and :meth:`Collector.sweep` does so at once (after a crowd of sockets leaves).

The memory held is counted in the allocator's blocks (``sys.getallocatedblocks``: a walk
over its arenas, about half a millisecond for 6 million blocks), not in frozen objects:
``gc.get_freeze_count`` walks every frozen object, 40 ms for two million, and the janitor
asked it every five seconds.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from typing import Any


class Collector:
    def __init__(self, young: int = 5_000, growth: float = 2.0, floor: int = 4_000_000,
                 sweep_after_s: float = 600.0, drift: float = 1.1) -> None:
        self.young = young  # net tracked allocations that start a young collection
        self.growth = growth  # a full pass when the blocks held exceed growth x what the last one left
        self.floor = floor  # ... and this many (a started server holds about 0.6 million): a small server never needs one
        self.limit = floor
        # ... or, ``sweep_after_s`` after it, when it exceeds drift x the last one's: cycles
        # frozen while alive (a socket's handshake, a request in flight) wait about that long.
        self.sweep_after_s = sweep_after_s
        self.drift = drift
        self.left = 0  # the blocks held after the last full pass
        self.last = time.monotonic()
        self.sweeps = 0
        self.users = 0  # servers in this process that asked for it (tests run several)
        self._before: tuple[int, int, int] | None = None

    def install(self) -> None:
        """Freeze what start-up made (it lives as long as the process) and take over."""
        self.users += 1
        if self._before is not None:
            return
        self._before = gc.get_threshold()
        gc.collect()
        gc.freeze()
        self._passed()
        # The older generations stay empty (survivors are frozen), so their thresholds only
        # matter for the count CPython keeps; keep them from ever triggering a pass of their own.
        gc.set_threshold(self.young, 1_000_000, 1_000_000)
        gc.callbacks.append(self._after_collection)

    def uninstall(self) -> None:
        """Hand everything back to the ordinary collector (a test's server stopping)."""
        self.users = max(0, self.users - 1)
        if self._before is None or self.users:
            return
        if self._after_collection in gc.callbacks:
            gc.callbacks.remove(self._after_collection)
        gc.unfreeze()
        gc.set_threshold(*self._before)
        self._before = None

    def _after_collection(self, phase: str, info: dict[str, Any]) -> None:
        # Called by CPython around every collection; at "stop", what is left is alive.
        if phase == "stop":
            gc.freeze()

    async def run(self, every_s: float = 0.25, busy_s: float = 0.002) -> None:
        """Collect the young generation every ``every_s`` in which the process worked.

        CPython counts tracked allocations *minus* deallocations: while a game's new state
        replaces its old one the count stands still, the young generation grows unseen, and
        the collection that finally comes visits tens of thousands of objects at once. A
        pass every quarter of a second instead visits what that quarter made; an idle
        process is not collected at all."""
        used = time.process_time()
        while True:
            await asyncio.sleep(every_s)
            now = time.process_time()
            if now - used >= busy_s:
                gc.collect(0)
            used = time.process_time()

    @staticmethod
    def held() -> int:
        """The memory blocks the process holds (frozen objects, their buffers, and the rest)."""
        return sys.getallocatedblocks()

    def _passed(self) -> None:
        self.left = self.held()
        self.limit = max(self.floor, int(self.left * self.growth))
        self.last = time.monotonic()

    def due(self) -> bool:
        if self._before is None:
            return False
        held = self.held()
        return held > self.limit or (time.monotonic() - self.last >= self.sweep_after_s and held > self.left * self.drift)

    def sweep(self) -> int:
        """One full pass over everything, frozen or not; returns what it collected."""
        if self._before is None:
            return gc.collect()
        gc.unfreeze()
        found = gc.collect()  # the callback freezes the survivors again
        self.sweeps += 1
        self._passed()
        return found

    def sweep_if_due(self) -> bool:
        if not self.due():
            return False
        self.sweep()
        return True


collector = Collector()  # one per process: the collector's settings are the process's
