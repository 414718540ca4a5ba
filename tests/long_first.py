"""The suite's longest tests start first, each at the head of one pytest-xdist worker's share.

`--dist worksteal` hands each worker a contiguous share of the collection and lets an idle one
steal from the end of another's queue. A long test late in a share starts late and ends the
run alone (the eight-phone browser game, started in the last minutes, kept two workers idle for
ten). So the tests below, longest first, are dealt one per share in turn, at the head of each;
the rest keep their order. Measured figures are in docs/testing.md.
"""

from __future__ import annotations

import os

import pytest

# Longest first (seconds on the 2-core CI machine, its 30 slowest): a node id or its prefix.
LONGEST = (
    "tests/browser/test_whole_game_eight.py",  # 270
    "tests/api/test_schemathesis.py",  # 130
    "tests/browser/test_whole_game.py::test_six_phones",  # 77
    "tests/browser/test_relic_round.py",  # 53
    "tests/load/test_short_run.py",  # 48
    "tests/api/test_example_bot.py::test_example_bots_finish",  # 76
    "tests/faults/test_worker_killed_mid_timer.py",  # 45
    "tests/faults/test_two_beats.py",  # 44
    "tests/faults/test_redis_outage.py",  # 43
    "tests/test_embedded_broker.py::test_concurrent_producers",  # 42
    "tests/browser/test_slow_game_return.py",  # 37
    "tests/browser/test_private_news.py::test_r8_1",  # 37
    "tests/api/test_pending_schema.py::test_every_action_kind",  # 37
    "tests/faults/test_two_machines.py",  # 33
)


def _rank(item: pytest.Item) -> int | None:
    return next((i for i, prefix in enumerate(LONGEST) if item.nodeid.startswith(prefix)), None)


def spread(items: list[pytest.Item], workers: int) -> None:
    """Reorder `items` in place: the LONGEST dealt one per worker's share, at its head."""
    if workers < 2:
        return
    ranked = sorted((r, i) for i, item in enumerate(items) if (r := _rank(item)) is not None)
    long = [items[i] for _, i in ranked]
    if not long:
        return
    chosen = {id(item) for item in long}
    rest = [item for item in items if id(item) not in chosen]
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for k, item in enumerate(long):
        shares[k % workers].append(item)
    size = -(-len(items) // workers)  # each share as worksteal cuts it: len // nodes left
    for share in shares:
        take = max(size - len(share), 0)
        share.extend(rest[:take])
        rest = rest[take:]
    shares[-1].extend(rest)
    items[:] = [item for share in shares for item in share]


@pytest.hookimpl(trylast=True)  # after pytest-django's own ordering
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    spread(items, worker_count())


def worker_count() -> int:
    """How many pytest-xdist workers share the run (1 without xdist): every worker reorders its
    own collection the same way, which worksteal requires."""
    return int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
