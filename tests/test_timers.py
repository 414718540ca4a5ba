"""Server-side timers with a real Celery worker on Redis and the real PostgreSQL.

The ETA task is the fast path; the beat sweeper is the safety net when a worker dies holding it.
"""

from __future__ import annotations

import os
import time
import uuid

import pytest
from django.db import connection

from games import services
from games.engine import state_from_json
from games.models import Event, Game
from staked.celery import app
from tests.factories import running_game
from tests.test_celery_worker import start_worker, stop_worker

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def queue():
    """A queue of this test's own, so no stale task of another run reaches its worker."""
    name = f"test-timers-{uuid.uuid4().hex}"
    before = app.conf.task_default_queue
    app.conf.task_default_queue = name
    yield name
    app.conf.task_default_queue = before


def worker_env(queue: str, **extra) -> dict:
    db = connection.settings_dict
    env = dict(os.environ, CELERY_QUEUE=queue)
    env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env.update({k: str(v) for k, v in extra.items()})
    return env


def wait_until(check, seconds: float, log) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    pytest.fail(f"not within {seconds}s; worker log:\n{log.read_text()}")


def mingling_over_events(game: Game) -> int:
    return Event.objects.filter(game=game, kind="mingling_over", round=1).count()


def test_r3_4_worker_ends_mingling_at_the_deadline_and_unplaced_tokens_become_stakes(
    tmp_path, queue
):
    log = tmp_path / "worker.log"
    worker = start_worker(worker_env(queue), queue, log)
    try:
        game = running_game(6, mingling=5)  # the placement must land before the deadline
        user = game.users[0]
        services.action_apply(
            code=game.code, user=user, name="place_token", args={"token": "stake", "target": 3}
        )

        wait_until(
            lambda: Game.objects.get(id=game.id).round == 1 and mingling_over_events(game), 30, log
        )
    finally:
        stop_worker(worker)
    game.refresh_from_db()
    state = state_from_json(game.state)
    dining = state.dining or state.last_dining
    assert dining.round == 1
    assert len(dining.tokens) == 1
    assert len(dining.unplaced) == 6 * 3 - 1  # R3.4: every unplaced token counts as a Stake
    assert mingling_over_events(game) == 1


@pytest.mark.long(14)
def test_timers_survive_a_killed_worker_the_sweeper_ends_the_phase_exactly_once(tmp_path, queue):
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    first = start_worker(worker_env(queue), queue, first_log)
    try:
        time.sleep(3)  # let it connect, so that it takes the ETA task as soon as it is queued
        game = running_game(6, mingling=4)
        version = game.version
        time.sleep(1)
    finally:
        os.killpg(first.pid, 9)  # dies holding the unacknowledged ETA task
        first.wait(timeout=10)
    assert Game.objects.get(id=game.id).phase == "mingling"

    beat = ["--beat", "--schedule", str(tmp_path / "beat-schedule")]
    second = start_worker(worker_env(queue, SWEEP_SECONDS=1), queue, second_log, extra=beat)
    try:
        wait_until(lambda: mingling_over_events(game) == 1, 40, second_log)
        time.sleep(3)  # a few more sweeps (and any late task) must change nothing
    finally:
        stop_worker(second)
    game.refresh_from_db()
    assert mingling_over_events(game) == 1
    assert game.version == version + 1  # exactly one change: the expiry
    assert game.phase != "mingling" or game.round > 1


def test_a_duplicate_or_late_timer_task_changes_nothing():
    game = running_game(6, mingling=10)
    state = state_from_json(game.state)
    late = state.deadline + 1
    assert services.game_expire(game_id=game.id, version=game.version, now=late)
    version = Game.objects.get(id=game.id).version
    assert not services.game_expire(game_id=game.id, version=game.version, now=late)  # old version
    assert Game.objects.get(id=game.id).version == version


def test_a_timer_task_before_its_deadline_changes_nothing():
    game = running_game(6, mingling=60)
    assert not services.game_expire(game_id=game.id, version=game.version)
    assert Game.objects.get(id=game.id).version == game.version
