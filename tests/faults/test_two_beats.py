"""Two beat processes at once: no timer acts twice.

docs/operations.md says to run exactly one beat; two (a deploy that started a second by mistake)
only double the sweeps. Here two beats queue the sweeper every second each, on top of the ETA
timers, while two games play with a player who holds back in the first window, which so runs to its
timer; then the games play to their end. Each window closes exactly once: the replay of each game's
log finds every timeout due when it ran, and the workers' and the web server's logs have one "timer
expired" per timeout in the log (a request that finds a window overdue closes it too).
"""

from __future__ import annotations

import pytest

from loadtest.api_players import Servers, Table
from loadtest.audit import audit_game, moves_exactly_once
from loadtest.stack import wait_until


def timeouts_of(stack, code: str) -> int:
    with stack.db() as conn:
        return conn.execute(
            "SELECT count(*) FROM games_action a JOIN games_game g ON g.id = a.game_id "
            "WHERE g.code = %s AND a.name = 'timeout'",
            (code,),
        ).fetchone()[0]


@pytest.mark.long(44)
def test_two_beats_never_make_a_timer_act_twice(stack):
    web = stack.web(workers=1)
    workers = [stack.worker(f"worker-{n}", concurrency=2) for n in (1, 2)]
    for name in ("beat-1", "beat-2"):
        stack.beat(name, env={"SWEEP_SECONDS": "1"})
    tables = [Table(Servers([web.url]), players=6, seed=seed) for seed in (3, 4)]
    for table in tables:
        table.open()
        table.holding = {6}  # seat 6 does not move: Mingling waits for its timer
        table.hold.set()
    players = [table.start(seconds=240) for table in tables]
    wait_until(lambda: all(timeouts_of(stack, t.code) >= 1 for t in tables), seconds=90, what="")
    for table in tables:
        table.hold.clear()
    for thread in players:
        thread.join()

    assert all(table.finished.is_set() for table in tables)
    timeouts = 0
    with stack.db() as conn:
        for table in tables:
            audit = audit_game(conn, table.code)
            assert audit.finished and audit.problems == []
            assert moves_exactly_once(audit, table.intents) == []
            timeouts += audit.timeouts
    # A window is closed by a worker's timer or sweep, or by a request that finds it overdue
    # (the deadline is the authority): each logs "timer expired" once, wherever it ran.
    closers = [*workers, web.process]
    expired = sum(p.log.read_text().count("timer expired") for p in closers)
    assert timeouts >= 2 and expired == timeouts
