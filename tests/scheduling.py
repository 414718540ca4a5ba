"""The order the suite runs in: the long tests spread over the workers and over the run.

`make test` runs pytest-xdist with `--dist worksteal` (scripts/run_tests.sh). That scheduler cuts
the collected tests, in order, into one contiguous queue per worker, and a worker that runs dry
takes the back half of the longest queue left. A test that takes minutes (eight phones playing a
whole game) therefore started wherever the alphabet put it, sometimes in the last two minutes of
the run, and the run waited for it alone: one measured run ended 150 s after every other worker
was done.

Putting every long test at the head of the queues instead was tried: they then all ran at once
(the browser games, the fault stacks' servers and workers), each took two to three times as long
as before, and the run took half as long again. So tests marked ``long(seconds)`` (about how long
the test took in a `make test` run on the 2-core machine, three workers sharing it) are dealt
longest first, one queue each in turn, and the i-th of L is placed i/L of the way down its queue:
the longest starts at once, the others one every so often, each beside short tests. The short
tests keep their collected order around them and are what the stealing balances. Mark a test
that takes about 13 s or more in the suite. This order replaces pytest-django's (transactional
tests last): no test here needs rows that a transactional test's flush would remove (the
migrations insert none).
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


def spread(items: Sequence[pytest.Item], workers: int) -> list[pytest.Item]:
    """`items` reordered for `workers` first queues: the long tests dealt longest first, one
    queue each in turn, the i-th of L placed i/L of the way down its queue, so that one starts
    every so often rather than all at once; the short tests in their collected order around
    them."""
    long = sorted((i for i in items if seconds(i)), key=seconds, reverse=True)
    short = iter([i for i in items if not seconds(i)])
    sizes = queue_sizes(len(items), max(workers, 1))
    placed: list[list[tuple[int, pytest.Item]]] = [[] for _ in sizes]
    for n, item in enumerate(long):
        queue = n % len(sizes)
        placed[queue].append((round(n / len(long) * sizes[queue]), item))
    ordered: list[pytest.Item] = []
    for size, longs in zip(sizes, placed, strict=True):
        queue: list[pytest.Item] = []
        for position, item in longs:
            queue += islice(short, max(position - len(queue), 0))
            queue.append(item)
        queue += islice(short, max(size - len(queue), 0))
        ordered += queue
    ordered += short
    return ordered


def workers(config: pytest.Config) -> int:
    """The number of pytest-xdist workers of this run (1 without xdist). Every worker computes
    the same order, as xdist requires of their collections."""
    workerinput = getattr(config, "workerinput", None)
    return int(workerinput["workercount"]) if workerinput else 1
