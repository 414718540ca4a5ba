"""The suite's order (tests/scheduling.py), checked against pytest-xdist's own worksteal
scheduler: the longest test starts at once, the other long tests are spread over the workers and
down their queues, and the short tests keep their order."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from xdist.scheduler.worksteal import WorkStealingScheduling

from tests import scheduling


class Item:
    """Just what scheduling.py reads of a pytest item."""

    def __init__(self, name: str, seconds: float = 0):
        self.nodeid = name
        self.marker = pytest.mark.long(seconds).mark if seconds else None

    def get_closest_marker(self, name: str):
        return self.marker if name == "long" else None


class Node:
    """A worker as the scheduler sees it: it only records the tests it is sent."""

    shutting_down = False

    def __init__(self, name: str):
        self.gateway = SimpleNamespace(id=name)
        self.sent: list[int] = []

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent += indices


def first_queues(items: list[Item], workers: int) -> list[list[str]]:
    config = SimpleNamespace(getvalue=lambda name: [f"{workers}*popen"] if name == "tx" else None)
    scheduler = WorkStealingScheduling(config)
    nodes = [Node(f"gw{n}") for n in range(workers)]
    names = [item.nodeid for item in items]
    for node in nodes:
        scheduler.add_node(node)
        scheduler.add_node_collection(node, names)
    scheduler.schedule()
    return [[names[i] for i in node.sent] for node in nodes]


@pytest.mark.parametrize(("total", "workers"), [(2128, 3), (2128, 4), (101, 3), (7, 2), (5, 1)])
def test_the_long_tests_are_dealt_longest_first_and_spread_down_each_workers_queue(total, workers):
    long = {3: 40, 50: 217, 51: 90, 99: 14, 4: 71}  # index in the collection -> seconds
    items = [Item(f"t{i}", long.get(i, 0)) for i in range(total)]
    ordered = scheduling.spread(items, workers)
    assert sorted(i.nodeid for i in ordered) == sorted(i.nodeid for i in items)
    queues = first_queues(ordered, workers)
    by_length = [f"t{i}" for i, _ in sorted(long.items(), key=lambda kv: -kv[1]) if i < total]
    assert queues[0][0] == by_length[0]  # the longest starts at once
    for n, name in enumerate(by_length):
        queue = queues[n % workers]
        assert name in queue, (name, n % workers)
        wanted = n / len(by_length) * len(queue)
        assert abs(queue.index(name) - wanted) <= 1 + n // workers, (name, queue.index(name))
    short = [i.nodeid for i in items if i.nodeid not in by_length]
    assert [n for q in queues for n in q if n in short] == short  # their order kept


def test_a_run_without_xdist_starts_with_the_longest_and_spreads_the_others():
    assert scheduling.workers(SimpleNamespace()) == 1  # no xdist worker input: one queue
    items = [Item(f"s{i}") for i in range(6)] + [Item("b", 20), Item("d", 90)]
    assert [i.nodeid for i in scheduling.spread(items, 1)] == [
        "d",
        "s0",
        "s1",
        "s2",
        "b",
        "s3",
        "s4",
        "s5",
    ]
