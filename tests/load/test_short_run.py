"""The load harness's short run: one step of `make load`, 12 simulated phones for 20 s.

It proves the harness works end to end on a production-like deployment (gunicorn, PostgreSQL,
Redis, a worker, beat): phones sit down at two tables, play through the forms at a human pace,
every move is seen by the other phones of its table, and nothing fails. The latency figures are
printed, not asserted: performance goals live in the benchmark (`make load`), not in a test on a
shared machine.
"""

from __future__ import annotations

import pytest

from loadtest.capacity import run_step


@pytest.mark.long(47)
def test_twelve_phones_play_for_twenty_seconds_without_an_error(stack):
    web = stack.web(workers=2, threads=4)
    stack.worker()
    stack.beat()

    step = run_step(web.url, players=12, seconds=20, poll_seconds=None)

    print(step)
    assert step["errors"] == 0, step["error_kinds"]
    assert len(step["tables"]) == 2 and sum(step["tables"]) == 12
    assert step["moves"] >= 12
    # Each move is seen by the other phones of its table (5 or more each).
    assert step["updates"] >= 4 * step["moves"]
    assert step["update_p95_ms"] > 0 and step["action_p99_ms"] > 0
