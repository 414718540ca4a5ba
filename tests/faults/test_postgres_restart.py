"""PostgreSQL restarted in the middle of a game.

While it is down, requests fail with 503 (the API with `{"code": "unavailable", "detail"}`, the
page with "Reconnecting…"), never 500 (staked/outages.py). When it is back, the first requests
succeed: the web servers keep database connections open (CONN_MAX_AGE=60, as
docs/operations.md's Environment section advises), every one of them died with the restart, and each
is checked before a request uses it and replaced (CONN_HEALTH_CHECKS). The game then finishes, with
every acknowledged move in its log exactly once.
"""

from __future__ import annotations

import threading

import pytest
import requests

from loadtest.api_players import Servers, Table
from loadtest.audit import audit_game, moves_exactly_once
from loadtest.stack import wait_until


@pytest.mark.long(36)
def test_a_postgres_restart_answers_503_while_down_and_recovers_at_once(stack):
    web = stack.web(workers=2, threads=4)
    stack.worker()
    stack.beat()
    table = Table(Servers([web.url]), players=6)
    code = table.open()
    # Every thread of both gunicorn workers opens its database connection.
    assert all(status == 200 for status in burst(web.url, code, table, 32))
    table.start(seconds=240)
    wait_until(
        lambda: sum(i.acked_seq is not None for i in table.intents) >= 6, seconds=90, what=""
    )

    stack.postgres.stop()
    player = table.seats[0].client
    api = player.call("GET", f"/api/v1/games/{code}/")
    move = player.call(
        "POST", f"/api/v1/games/{code}/actions/place_token/", {"token": "stake", "target": 2}
    )
    page = requests.get(f"{web.url}/g/{code}/", timeout=10)
    poll = requests.get(f"{web.url}/g/{code}/changed?v=0", timeout=10)
    stack.postgres.start()
    after = burst(web.url, code, table, 32)

    for answer in (api, move):
        assert answer.status == 503, answer
        assert answer.body["code"] == "unavailable" and answer.headers["Retry-After"]
    for answer in (page, poll):
        assert answer.status_code == 503 and "Reconnecting" in answer.text
    assert after == [200] * 32, "the first requests after the restart succeed"
    wait_until(table.finished.is_set, seconds=180, what="the game finished")
    assert 500 not in table.answers
    with stack.db() as conn:
        audit = audit_game(conn, code)
    assert audit.finished and audit.problems == []
    assert moves_exactly_once(audit, table.intents) == []


def burst(url: str, code: str, table: Table, count: int) -> list[int]:
    """`count` API reads at once (8 at a time), spread over every server thread."""
    statuses: list[int] = []
    lock = threading.Semaphore(8)
    token = table.seats[1].client.token

    def read():
        with lock:
            r = requests.get(
                f"{url}/api/v1/games/{code}/",
                headers={"Authorization": f"Token {token}"},
                timeout=20,
            )
            statuses.append(r.status_code)

    threads = [threading.Thread(target=read) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses
