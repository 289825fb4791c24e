"""The server's collector (app/collector.py): young collections freeze their survivors, so
no automatic pass visits them again; reference cycles that die after being frozen are
found by the full pass, which runs when the memory held has grown past its limit."""

from __future__ import annotations

import gc
import weakref

import pytest

from app.collector import Collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def collector():
    before = gc.get_threshold()
    c = Collector(young=1_000, growth=1.5, floor=0)
    c.install()
    yield c
    c.uninstall()
    assert gc.get_threshold() == before


def test_survivors_of_a_young_collection_are_frozen_and_the_middle_generation_stays_empty(collector):
    frozen = gc.get_freeze_count()
    kept = [[i] for i in range(5_000)]  # tracked, alive
    gc.collect(0)
    assert gc.get_freeze_count() >= frozen + 5_000
    assert len(gc.get_objects(1)) == 0  # the survivors went to the permanent generation
    assert gc.get_threshold()[0] == 1_000
    del kept


def test_a_cycle_that_dies_after_being_frozen_waits_for_the_full_pass(collector):
    a, b = Node(), Node()
    a.other, b.other = b, a  # a reference cycle: only the collector can free it
    gone = weakref.ref(a)
    gc.collect(0)  # alive now: frozen
    del a, b
    gc.collect(0)
    gc.collect(2)  # no automatic or ordinary pass visits frozen objects
    assert gone() is not None
    found = collector.sweep()
    assert gone() is None and found >= 2
    assert collector.sweeps == 1


def test_a_full_pass_is_due_only_past_the_limit_and_resets_it(collector):
    collector.limit = collector.held() + 10_000
    assert not collector.due() and not collector.sweep_if_due()
    kept = [[i] for i in range(20_000)]  # two blocks each: the list and its item array
    gc.collect(0)
    assert collector.due()
    assert collector.sweep_if_due()
    assert collector.limit >= int(collector.held() * 1.5) - 1000 and not collector.due()
    del kept


def test_after_ten_minutes_a_smaller_growth_is_enough(collector):
    collector.limit = 10**9  # only the time rule can call for a pass here
    collector.left = collector.held()
    kept = [[i] for i in range(max(20_000, collector.left // 10))]  # two blocks each: 20% over
    gc.collect(0)
    assert not collector.due()  # too soon
    collector.last -= collector.sweep_after_s
    assert collector.due()
    collector.sweep()
    assert not collector.due() and abs(collector.left - collector.held()) < 1_000  # what the pass left
    del kept


def test_two_servers_in_one_process_share_it_and_the_last_to_stop_restores_the_collector(collector):
    collector.install()  # a second server
    collector.uninstall()
    assert collector._after_collection in gc.callbacks  # the first still runs
    assert gc.get_threshold()[0] == 1_000
