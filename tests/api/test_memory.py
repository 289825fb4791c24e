"""After a crowd of websockets leaves, the server collects their garbage and trims its heap
(the numbers are in bench/ws_memory.py; here, that it happens when it should)."""

from __future__ import annotations

import asyncio

import app.main as main


class CountingHub:
    def __init__(self, counts: list[int]) -> None:
        self.counts = counts

    def connection_count(self) -> int:
        return self.counts.pop(0) if len(self.counts) > 1 else self.counts[0]


async def test_a_mass_departure_is_collected_and_trimmed_once(monkeypatch):
    passes: list[str] = []
    monkeypatch.setattr(main.collector, "sweep", lambda: passes.append("collect"))
    monkeypatch.setattr(main.collector, "due", lambda: False)
    monkeypatch.setattr(main, "_trim_heap", lambda: passes.append("trim"))
    # 3,000 watchers, a few come and go, then almost all leave, then nothing changes.
    hub = CountingHub([3000, 2990, 3000, 2950, 40, 40, 40, 40])
    janitor = asyncio.create_task(main._give_back_memory(hub, every_s=0))  # type: ignore[arg-type]
    while len(hub.counts) > 1:
        await asyncio.sleep(0)
    for _ in range(20):  # more rounds at the low count: nothing more to give back
        await asyncio.sleep(0)
    janitor.cancel()
    assert passes == ["collect", "trim"]


async def test_small_comings_and_goings_cost_nothing(monkeypatch):
    passes: list[str] = []
    monkeypatch.setattr(main.collector, "sweep", lambda: passes.append("collect"))
    monkeypatch.setattr(main.collector, "due", lambda: False)
    monkeypatch.setattr(main, "_trim_heap", lambda: passes.append("trim"))
    hub = CountingHub([12, 4, 30, 0, 150, 0])  # a game night: never 200 sockets gone at once
    janitor = asyncio.create_task(main._give_back_memory(hub, every_s=0))  # type: ignore[arg-type]
    while len(hub.counts) > 1:
        await asyncio.sleep(0)
    for _ in range(20):
        await asyncio.sleep(0)
    janitor.cancel()
    assert passes == []


async def test_frozen_objects_piling_up_get_a_full_pass_between_departures(monkeypatch):
    passes: list[str] = []
    due = [False, False, True, False, False]
    monkeypatch.setattr(main.collector, "sweep_if_due", lambda: due.pop(0) if due else False)
    monkeypatch.setattr(main.collector, "sweep", lambda: passes.append("collect"))
    monkeypatch.setattr(main, "_trim_heap", lambda: passes.append("trim"))
    janitor = asyncio.create_task(main._give_back_memory(CountingHub([10]), every_s=0))  # type: ignore[arg-type]
    while due:
        await asyncio.sleep(0)
    janitor.cancel()
    assert passes == ["trim"]  # sweep_if_due did the pass itself; the heap was trimmed after it
