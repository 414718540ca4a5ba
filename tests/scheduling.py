"""The order the suite runs in: the long tests first, one share at the head of each worker's queue.

`make test` runs pytest-xdist with `--dist worksteal` (scripts/run_tests.sh). That scheduler cuts
the collected tests, in order, into one contiguous queue per worker, and a worker that runs dry
takes the back half of the longest queue left. A test that takes minutes (eight phones playing a
whole game) therefore started wherever the alphabet put it, sometimes in the last two minutes of
the run, and the run waited for it alone: one measured run ended 150 s after every other worker
was done.

Tests marked ``long(seconds)`` (about how long the test took in a `make test` run on the 2-core
machine, three workers sharing it) are put at the head of the queues instead, longest first,
dealt one queue each in turn, so they start at once and overlap the many short tests; the short
tests keep their order behind them and are what the stealing balances. A serial run simply
starts with them. Mark a test that takes a quarter minute or more in the suite.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice

import pytest


def seconds(item: pytest.Item) -> float:
    """The `long` marker's estimate, 0 for a test without it."""
    marker = item.get_closest_marker("long")
    return float(marker.args[0]) if marker else 0.0


def queue_sizes(total: int, workers: int) -> list[int]:
    """How worksteal's first split cuts `total` tests: each idle worker in turn takes
    len(pending) // workers_remaining (xdist/scheduler/worksteal.py, `check_schedule`)."""
    sizes = []
    for remaining in range(workers, 0, -1):
        sizes.append(total // remaining)
        total -= sizes[-1]
    return sizes


def long_tests_first(items: Sequence[pytest.Item], workers: int) -> list[pytest.Item]:
    """`items` reordered so that each of the `workers` first queues starts with its share of
    the long tests (dealt longest first, round the queues), the rest in their collected order."""
    long = sorted((i for i in items if seconds(i)), key=seconds, reverse=True)
    short = iter([i for i in items if not seconds(i)])
    heads: list[list[pytest.Item]] = [[] for _ in range(max(workers, 1))]
    for n, item in enumerate(long):
        heads[n % len(heads)].append(item)
    ordered: list[pytest.Item] = []
    for head, size in zip(heads, queue_sizes(len(items), len(heads)), strict=True):
        ordered += head
        ordered += islice(short, max(size - len(head), 0))
    ordered += short
    return ordered


def workers(config: pytest.Config) -> int:
    """The number of pytest-xdist workers of this run (1 without xdist). Every worker computes
    the same order, as xdist requires of their collections."""
    workerinput = getattr(config, "workerinput", None)
    return int(workerinput["workercount"]) if workerinput else 1
