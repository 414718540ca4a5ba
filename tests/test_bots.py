"""Bots act through the services after a short pause, run by a real Celery worker on Redis."""

from __future__ import annotations

import random
import time
import uuid

import pytest
from django.contrib.auth import get_user_model

from games import engine, services
from games.bots.moves import random_move
from games.engine import state_from_json
from games.engine.view import waiting_for
from games.models import Game
from tests.test_celery_worker import start_worker, stop_worker
from tests.test_timers import queue, worker_env  # noqa: F401 - the fixture

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def test_bots_place_their_tokens_and_wait_for_the_human(tmp_path, queue):  # noqa: F811
    log = tmp_path / "worker.log"
    worker = start_worker(worker_env(queue), queue, log)
    try:
        host = get_user_model().objects.create_user(f"host-{uuid.uuid4().hex[:8]}")
        game = services.game_create(host=host, options={"timers": {"mingling": 600}}, name="Ana")
        services.game_add_bots(code=game.code, user=host, count=5)
        services.game_start(code=game.code, user=host)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            state = state_from_json(Game.objects.get(id=game.id).state)
            if waiting_for(state) == [1]:
                break
            time.sleep(0.5)
        else:
            pytest.fail(f"the bots did not finish: {waiting_for(state)}\n{log.read_text()}")
    finally:
        stop_worker(worker)
    assert len(state.placements) == 5 * 3
    assert all(p.owner != 1 for p in state.placements)


def test_a_bot_is_handed_only_its_own_pending_moves():
    """The random strategy sees `pending` for its seat and nothing else, and it is always legal."""
    rng = random.Random(7)
    state = engine.setup(engine.Options(), 6, 7)
    for _ in range(400):
        if state.outcome:
            break
        seats = waiting_for(state)
        if not seats:
            state, _ = engine.timeout(state, state.deadline)
            continue
        seat = rng.choice(seats)
        move = random_move(rng, seat, engine.pending(state, seat))
        state, _ = engine.apply(state, move)
    assert state.round > 1
