"""A real Celery worker process picks up games.tasks.ping from the broker."""

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache

from games.tasks import ping

ROOT = Path(__file__).resolve().parent.parent


def start_worker(env: dict, queue: str, log: Path, extra: list[str] = ()) -> subprocess.Popen:
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "staked",
        "worker",
        "--loglevel",
        "info",
        "--concurrency",
        "1",
        "--queues",
        queue,
        "--hostname",
        f"{queue}@%h",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        *extra,
    ]
    with log.open("w") as output:
        # Its own session, so that stopping it also stops its pool processes.
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop_worker(worker: subprocess.Popen) -> None:
    if worker.poll() is None:
        # The main process only: it stops its pool itself (warm shutdown).
        os.kill(worker.pid, signal.SIGTERM)
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)


def wait_for(get, *, worker: subprocess.Popen, log: Path, seconds: float = 60) -> object:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = get()
        if value is not None:
            return value
        assert worker.poll() is None, f"the worker exited early:\n{log.read_text()}"
        time.sleep(0.2)
    pytest.fail(f"the worker did not run the task within {seconds}s:\n{log.read_text()}")


@pytest.mark.redis
def test_a_worker_on_the_redis_broker_runs_ping(tmp_path):
    token = uuid.uuid4().hex
    queue = f"test-ping-{token}"
    log = tmp_path / "worker.log"
    worker = start_worker(dict(os.environ), queue, log)
    try:
        ping.apply_async(args=[token], queue=queue)

        result = wait_for(lambda: cache.get(f"ping:{token}"), worker=worker, log=log)

        assert result == "pong"
    finally:
        stop_worker(worker)
        cache.delete(f"ping:{token}")
        import redis

        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(f"_kombu.binding.{queue}", queue)
