"""Holding a game's row lock from a test, to stop a request or a task in the middle of a change.

Every change to a game starts with `SELECT ... FOR UPDATE` on its row (games.services). While the
test holds that lock, a web worker's move or a Celery worker's timer waits inside its
transaction, before it has changed anything: the moment to kill it.
"""

from __future__ import annotations

import contextlib

from loadtest.stack import Stack, wait_until


@contextlib.contextmanager
def game_row_locked(stack: Stack, code: str):
    with stack.db() as conn, conn.transaction():
        conn.execute("SELECT id FROM games_game WHERE code = %s FOR UPDATE", (code,))
        yield


def waiting_for_the_game_lock(stack: Stack) -> int:
    """How many database sessions wait for a game's row lock now."""
    with stack.db() as conn:
        return conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query ILIKE '%games_game%FOR UPDATE%'"
        ).fetchone()[0]


def wait_for_a_waiter(stack: Stack, seconds: float = 60) -> None:
    wait_until(lambda: waiting_for_the_game_lock(stack) > 0, seconds=seconds, what="a waiter")


def wait_for_no_waiter(stack: Stack, seconds: float = 30) -> None:
    """The killed process's session is gone. PostgreSQL notices a dead client only when it next
    talks to it: after the lock is released, not while the session waits for it."""
    wait_until(
        lambda: waiting_for_the_game_lock(stack) == 0, seconds=seconds, what="the waiter gone"
    )


def game_version(stack: Stack, code: str) -> int:
    with stack.db() as conn:
        return conn.execute("SELECT version FROM games_game WHERE code = %s", (code,)).fetchone()[0]
