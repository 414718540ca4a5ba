"""A web worker killed in the middle of a move: the move is applied once or not at all.

1. Killed before the commit: the move waits for the game's row lock inside its transaction (the
   test holds the lock), and gunicorn's worker process is killed. The client's connection is cut;
   nothing was applied. Its retry, with the same `If-Match`, applies the move once.
2. The answer lost after the commit (the worker dies between the commit and the answer, or the
   network drops it): the retry with the same `If-Match` is refused with 409 `stale`, and the
   view shows the move, applied once.
Then the game plays to its end; its log has every acknowledged move exactly once.
"""

from __future__ import annotations

import os
import signal
import threading

import pytest

from loadtest.api_players import Servers, Table
from loadtest.audit import Intent, audit_game, moves_exactly_once
from loadtest.stack import wait_until
from tests.faults.locks import game_row_locked, game_version, wait_for_a_waiter, wait_for_no_waiter


@pytest.mark.long(31)
def test_a_move_whose_web_worker_dies_is_applied_once_or_not_at_all(stack):
    web = stack.web(workers=1)
    table = Table(Servers([web.url]), players=6)
    code = table.open()
    first, second = table.seats[0], table.seats[1]

    def place(seat, intent: Intent, version: int):
        intent.attempts.append(version)
        answer = seat.client.call(
            "POST",
            f"/api/v1/games/{code}/actions/{intent.name}/",
            intent.args,
            headers={"If-Match": f'"{version}"'},
        )
        intent.outcomes.append(str(answer.status or answer.error))
        if answer.status == 200:
            intent.acked_seq = answer.body["version"]
        return answer

    def a_move(seat) -> tuple[Intent, int]:
        view = seat.client.call("GET", f"/api/v1/games/{code}/").body
        options = view["pending"][0]["options"]
        args = {"token": options["tokens"][0], "target": options["targets"][0]}
        intent = Intent(seat.seat, "place_token", args)
        seat.intents.append(intent)
        return intent, view["version"]

    # 1. Killed before the commit.
    intent, version = a_move(first)
    answers = []
    with game_row_locked(stack, code):
        mover = threading.Thread(target=lambda: answers.append(place(first, intent, version)))
        mover.start()
        wait_for_a_waiter(stack)
        for pid in web.process.children():  # gunicorn's worker; the master starts a new one
            os.kill(pid, signal.SIGKILL)
        mover.join(timeout=30)
    wait_for_no_waiter(stack)
    assert answers[0].status == 0, "the client saw its connection cut"
    assert game_version(stack, code) == version, "nothing was applied"
    wait_until(web.up, seconds=60, what="gunicorn's new worker answers")
    retry = place(first, intent, version)
    assert retry.status == 200 and retry.body["version"] == version + 1

    # 2. The answer lost after the commit.
    intent, version = a_move(second)
    assert place(second, intent, version).status == 200
    lost, intent.acked_seq = intent.acked_seq, None  # as if the answer never came
    retry = place(second, intent, version)
    assert retry.status == 409 and retry.body["code"] == "stale"
    view = second.client.call("GET", f"/api/v1/games/{code}/").body
    assert {"target": intent.args["target"], "token": intent.args["token"]} in [
        {"target": p["target"], "token": p["token"]} for p in view["me"]["placed"]
    ]
    intent.acked_seq = lost

    stack.worker()
    stack.beat()
    assert table.play(seconds=180)
    with stack.db() as conn:
        audit = audit_game(conn, code)
    assert audit.finished and audit.problems == []
    assert moves_exactly_once(audit, table.intents) == []
