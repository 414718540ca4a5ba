"""Redis stopped in the middle of a game, then started again.

Redis holds the cache (poll keys, cached tokens, throttles) and the Celery broker. While it is
down, moves keep committing (the database is the truth; the cache reads as missing, staked/
cache.py), polls answer from the database, and no request fails with a 500. Timers cannot run
without the broker: the window open when Redis stops (the players hold back, except for one move
made during the outage) falls due during the outage, and is closed once, never before its
deadline: by the first request that finds it overdue (the players keep polling; the deadline is
the authority), or by the sweeper once Redis is back. Redis comes back empty (no
persistence here), like a restarted cache: the poll keys
and the broker's queued timers are gone, and the game goes on from the database.

The outage lasts OUTAGE_SECONDS (15; `FAULT_REDIS_OUTAGE_SECONDS=30` for a full 30 s).
Everything a longer outage could change is already there after a few seconds: a stopped Redis
refuses connections at once, so each request meets the same error in its first second as in its
thirtieth, and every window (10 s here) opened before the outage or by the move made in it falls
due inside it. What grows with the length is only how long the worker's reconnection backs off
(kombu: 2 s more per attempt, at most 30 s), which delays the overdue window's closing after
Redis is back, never doubles it.
"""

from __future__ import annotations

import os
import time

import pytest
import requests

from loadtest.api_players import Servers, Table
from loadtest.audit import Intent, audit_game, moves_exactly_once
from loadtest.stack import wait_until
from tests.faults.test_two_beats import timeouts_of

OUTAGE_SECONDS = float(os.environ.get("FAULT_REDIS_OUTAGE_SECONDS", "15"))


@pytest.mark.long(47)
def test_a_redis_outage_mid_game_loses_no_move_and_fires_due_timers_once(stack):
    web = stack.web(workers=2)
    stack.worker()
    stack.beat()
    table = Table(Servers([web.url]), players=6)
    code = table.open()
    table.start(seconds=240)
    wait_until(lambda: len(acked(table)) >= 6, seconds=90, what="the game under way")

    table.holding = {seat.seat for seat in table.seats}  # nobody moves by themselves now
    table.hold.set()
    time.sleep(1)  # moves already on their way land
    timeouts_before = timeouts_of(stack, code)
    stack.redis.stop()
    down_at = time.time()
    moved = move_once(table, code)  # a move during the outage commits
    polls = [seat.client.call("GET", f"/api/v1/games/{code}/").status for seat in table.seats]
    page_poll = requests.get(f"{web.url}/g/{code}/changed?v=0", timeout=10)
    time.sleep(max(0.0, down_at + OUTAGE_SECONDS - time.time()))
    stack.redis.start()
    up_at = time.time()
    # The players hold back until the overdue window is closed: by a poll or a timer, not a move.
    wait_until(
        lambda: timeouts_of(stack, code) > timeouts_before, seconds=90, what="the window closed"
    )
    table.hold.clear()
    wait_until(table.finished.is_set, seconds=180, what="the game finished")

    assert moved.acked_seq is not None, moved.outcomes
    assert polls == [200] * 6 and page_poll.status_code == 200
    assert 500 not in table.answers
    with stack.db() as conn:
        audit = audit_game(conn, code)
    assert audit.finished and audit.problems == []
    assert moves_exactly_once(audit, table.intents) == []
    due_in_outage = [
        s for s in audit.steps if s.name == "timeout" and down_at <= deadline(audit, s) <= up_at
    ]
    assert due_in_outage, "a window fell due while Redis was down"
    assert all(s.at >= deadline(audit, s) for s in due_in_outage), "closed before its deadline"
    # Polls recover: the 304 answers from the cache again.
    view = table.seats[0].client.call("GET", f"/api/v1/games/{code}/").body
    again = table.seats[0].client.call(
        "GET", f"/api/v1/games/{code}/", headers={"If-None-Match": f'"{view["version"]}"'}
    )
    assert again.status == 304


def move_once(table: Table, code: str) -> Intent:
    """One move, by the first seat that has one, with If-Match; kept with the seat's intents."""
    for seat in table.seats:
        got = seat.client.call("GET", f"/api/v1/games/{code}/")
        assert got.status == 200, f"a read during the outage answered {got.status}"
        view = got.body
        if view["pending"]:
            options = view["pending"][0]["options"]
            args = {"target": options["targets"][0]}
            if "tokens" in options:
                args["token"] = options["tokens"][0]
            if "count" in options:
                args = {
                    "choice": options["choice"],
                    "targets": options["targets"][: options["count"]],
                }
            intent = Intent(seat.seat, view["pending"][0]["action"], args, [view["version"]])
            seat.intents.append(intent)
            answer = seat.client.call(
                "POST",
                f"/api/v1/games/{code}/actions/{intent.name}/",
                args,
                headers={"If-Match": f'"{view["version"]}"'},
            )
            intent.outcomes.append(str(answer.status))
            if answer.status == 200:
                intent.acked_seq = answer.body["version"]
            return intent
    raise AssertionError("nobody had a move to make")


def acked(table: Table) -> list:
    return [i for i in table.intents if i.acked_seq is not None]


def deadline(audit, step) -> float:
    """The deadline of the window a timeout step closed."""
    index = [s for s in audit.steps if s.name == "timeout"].index(step)
    return step.at - audit.late[index]
