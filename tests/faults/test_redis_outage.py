"""Redis stopped in the middle of a game, then started again (issue 17).

Redis holds the cache (poll keys, cached tokens, throttles) and the Celery broker. While it is
down, moves keep committing (the database is the truth; the cache reads as missing, staked/
cache.py) and polls answer from the database; no request fails with a 500. The timers cannot
run without the broker: a window that falls due during the outage (players hold back) is
closed once, after Redis is back, by the sweeper. Redis comes back empty (no persistence here),
like a restarted cache: the poll keys and the broker's queued timers are gone, and the game goes
on from the database.

The outage lasts OUTAGE_SECONDS (15; `FAULT_REDIS_OUTAGE_SECONDS=30` for the issue's full 30 s).
Everything a longer outage could change is already there after a few seconds: a stopped Redis
refuses connections at once, so each request meets the same error in its first second as in its
thirtieth, and the Mingling window (10 s) falls due inside the outage. What grows with the length
is only how long the worker's reconnection backs off (kombu: 2 s more per attempt, at most 30 s),
which delays the overdue window's closing after Redis is back, never doubles it.
"""

from __future__ import annotations

import os
import time

from loadtest.api_players import Servers, Table
from loadtest.audit import audit_game, moves_exactly_once
from loadtest.stack import wait_until
from tests.faults.test_two_beats import timeouts_of

OUTAGE_SECONDS = float(os.environ.get("FAULT_REDIS_OUTAGE_SECONDS", "15"))


def test_a_redis_outage_mid_game_loses_no_move_and_fires_due_timers_once(stack):
    web = stack.web(workers=2)
    stack.worker()
    stack.beat()
    table = Table(Servers([web.url]), players=6)
    code = table.open()
    table.start(seconds=240)
    wait_until(lambda: len(acked(table)) >= 6, seconds=90, what="the game under way")

    table.holding = {4, 5, 6}  # half the table holds back: the open window's timer runs out
    table.hold.set()
    stack.redis.stop()
    down_at = time.time()
    before = len(acked(table))
    time.sleep(OUTAGE_SECONDS)
    during = len(acked(table)) - before
    answers_during = list(table.answers)
    stack.redis.start()
    up_at = time.time()
    # The players hold back until the overdue window is closed: by its timer, not by their moves.
    wait_until(lambda: timeouts_of(stack, code) > 0, seconds=60, what="the overdue window closed")
    table.hold.clear()
    wait_until(table.finished.is_set, seconds=180, what="the game finished")

    assert during > 0, "moves committed while Redis was down"
    assert 500 not in answers_during and 500 not in table.answers
    with stack.db() as conn:
        audit = audit_game(conn, code)
    assert audit.finished and audit.problems == []
    assert moves_exactly_once(audit, table.intents) == []
    due_in_outage = [
        s for s in audit.steps if s.name == "timeout" and down_at <= deadline(audit, s) <= up_at
    ]
    assert due_in_outage, "a window fell due while Redis was down"
    assert all(s.at >= up_at for s in due_in_outage), "closed after Redis was back"
    # Polls recover: the 304 answers from the cache again.
    view = table.seats[0].client.call("GET", f"/api/v1/games/{code}/").body
    again = table.seats[0].client.call(
        "GET", f"/api/v1/games/{code}/", headers={"If-None-Match": f'"{view["version"]}"'}
    )
    assert again.status == 304
    print(f"{during} moves during the {OUTAGE_SECONDS:g} s outage; {len(due_in_outage)} timers due")


def acked(table: Table) -> list:
    return [i for i in table.intents if i.acked_seq is not None]


def deadline(audit, step) -> float:
    """The deadline of the window a timeout step closed."""
    index = [s for s in audit.steps if s.name == "timeout"].index(step)
    return step.at - audit.late[index]
