"""More than one machine, simulated here: two web servers, two workers, one beat.

Requests alternate between the two web servers (no sticky sessions: sessions, tokens and games
live in the shared PostgreSQL and Redis). In the middle of two games one web server and one
worker are killed outright; the players' requests go on to the other server (as a load balancer
would send them), the other worker and the sweeper carry the timers, and both games finish with
every acknowledged move in their log exactly once.
"""

from __future__ import annotations

import time

import pytest

from loadtest.api_players import Servers, Table
from loadtest.audit import audit_game, moves_exactly_once
from loadtest.stack import wait_until


@pytest.mark.long(39)
def test_games_finish_when_one_web_server_and_one_worker_die_mid_game(stack):
    web_a, web_b = stack.web("web-a", workers=1), stack.web("web-b", workers=1)
    worker_1 = stack.worker("worker-1", concurrency=1)
    stack.worker("worker-2", concurrency=1)
    stack.beat()
    servers = Servers([web_a.url, web_b.url])
    tables = [Table(servers, players=6, seed=seed) for seed in (1, 2)]
    for table in tables:
        table.open()
    players = [table.start(seconds=240) for table in tables]

    wait_until(
        lambda: all(sum(i.acked_seq is not None for i in t.intents) >= 6 for t in tables),
        seconds=120,
        what="both games under way",
    )
    answered_before = list(servers.answered)
    web_a.process.kill()
    worker_1.kill()
    killed_at = time.monotonic()
    for thread in players:
        thread.join()

    assert all(table.finished.is_set() for table in tables), stack.logs()
    assert min(answered_before) > 20, f"requests did not alternate: {answered_before}"
    assert servers.answered[1] > answered_before[1], "web-b took over"
    with stack.db() as conn:
        for table in tables:
            audit = audit_game(conn, table.code)
            assert audit.finished and not audit.problems, audit.problems
            assert moves_exactly_once(audit, table.intents) == []
            assert 500 not in table.answers
    print(f"both games finished {time.monotonic() - killed_at:.0f} s after the kill")
