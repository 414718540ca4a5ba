"""A Celery worker killed with SIGKILL in the middle of a timer.

The worker holding the round's Mingling timer (an ETA task) starts closing the window at its
deadline and is killed while it waits for the game's row lock, inside its transaction. Nothing
of its change is saved (the transaction dies with its connection), its task is never
acknowledged, and its broker copy is handed out again. The window still closes, exactly once:
by the beat sweeper on another worker, or by the redelivered task, whichever comes first; the
other finds the version moved on and does nothing.
"""

from __future__ import annotations

import re
import time

import pytest

from loadtest.api_players import Servers, Table
from loadtest.audit import audit_game, moves_exactly_once
from loadtest.stack import wait_until
from tests.faults.locks import game_row_locked, game_version, wait_for_a_waiter, wait_for_no_waiter


@pytest.mark.long(54)
def test_a_window_whose_worker_was_killed_mid_timer_closes_exactly_once(stack):
    web = stack.web(workers=1)
    worker_a = stack.worker("worker-a", concurrency=1)
    table = Table(Servers([web.url]), players=6, timers={"mingling": 20})
    code = table.open()  # round 1's Mingling, 20 s; nobody moves: the timer must close it
    started = game_version(stack, code)

    with game_row_locked(stack, code):
        wait_for_a_waiter(stack, seconds=60)  # worker-a's timer, at the deadline, mid-change
        worker_a.kill()  # SIGKILL to the worker and its pool child
    # Given the lock, its session finds the client gone and rolls back.
    wait_for_no_waiter(stack)
    assert game_version(stack, code) == started, "the killed timer changed nothing"

    # Another worker; a visibility timeout of 3 s hands it worker-a's unacknowledged timer again.
    worker_b = stack.worker("worker-b", env={"CELERY_VISIBILITY_TIMEOUT": "3"})
    stack.beat(env={"SWEEP_SECONDS": "1"})
    wait_until(lambda: game_version(stack, code) > started, seconds=60, what="the window closed")
    # The killed timer's own task ran again on worker-b (kombu restores unacknowledged messages
    # every 10 s); the sweeper runs every second: both had their chance to close the window.
    killed_task = re.search(r"expire_window\[([0-9a-f-]+)\] received", worker_a.log.read_text())
    wait_until(
        lambda: re.search(rf"{killed_task[1]}\] succeeded", worker_b.log.read_text()),
        seconds=40,
        what="the killed timer's task redelivered",
    )
    time.sleep(2)

    with stack.db() as conn:
        audit = audit_game(conn, code)
    assert audit.problems == []
    # The window closed once, at the step after the start; a second closing would be a timeout
    # before its window was due, which the audit's replay refuses.
    assert [s.name for s in audit.steps if s.seq == started + 1] == ["timeout"]
    assert audit.steps[0].name == "setup" and audit.steps[1].seq == started + 1

    assert table.play(seconds=180), "the game plays on to its end"
    with stack.db() as conn:
        audit = audit_game(conn, code)
    assert audit.finished and audit.problems == []
    assert moves_exactly_once(audit, table.intents) == []
