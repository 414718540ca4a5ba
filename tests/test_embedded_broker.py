"""The embedded broker of a zero-setup run: a SQLite file (staked/broker.py).

One real worker and one real beat on it, four producer processes sending at once (as the web
server's threads, the worker and beat do): every message is delivered exactly once, an ETA task
runs at its time, the beat schedule reaches the worker, and delivered messages leave the file.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
import uuid

import pytest
from django.core.cache.backends.filebased import FileBasedCache

from tests.test_celery_worker import ROOT, start_worker, stop_worker, wait_for

# Several processes at once, for the price of one start: the script imports what they share once,
# then forks them (`at_once`); each opens its own connections after the fork, as the web
# server's, the worker's and beat's processes do, and prints what its `work()` returns.
AT_ONCE = """
import os, sys, time, traceback

def at_once(count, work):
    pids = []
    for n in range(count):
        pid = os.fork()
        if pid == 0:
            try:
                os.write(1, f"{work(n)}\\n".encode())  # one write: the lines never interleave
                os._exit(0)
            except BaseException:
                traceback.print_exc()
                sys.stderr.flush()
                os._exit(1)
        pids.append(pid)
    sys.exit(1 if any(os.waitpid(pid, 0)[1] for pid in pids) else 0)
"""

SENDER = (
    AT_ONCE
    + """
import django
django.setup()
from datetime import UTC, datetime, timedelta
from games.tasks import ping
count, queue = int(sys.argv[1]), sys.argv[2]

def send(n):
    for i in range(count):
        ping.apply_async(args=[f"p{n}-{i}"], queue=queue)
    if n == 0:
        ping.apply_async(args=["eta"], queue=queue, eta=datetime.now(UTC) + timedelta(seconds=4))
    return f"p{n} {datetime.now(UTC).timestamp()}"

at_once(4, send)
"""
)


@pytest.mark.long(35)
def test_concurrent_producers_eta_and_beat_on_the_embedded_broker(tmp_path):
    queue = f"test-embedded-{uuid.uuid4().hex}"
    data = tmp_path / "var"
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.pop("CELERY_BROKER_URL", None)
    env.update(
        DEBUG="1",
        STAKED_DATA_DIR=str(data),
        DJANGO_SETTINGS_MODULE="staked.settings",
        SWEEP_SECONDS="1",
        CELERY_QUEUE=queue,  # beat's tasks go to the queue this worker reads
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    log = tmp_path / "worker.log"
    worker = start_worker(env, queue, log)
    beat = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "staked", "beat", "-s", str(tmp_path / "sched")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        senders = subprocess.run(
            [sys.executable, "-c", SENDER, "25", queue],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
        sent_at = dict(line.split() for line in senders.stdout.split("\n") if line)
        assert sorted(sent_at) == ["p0", "p1", "p2", "p3"], senders.stderr[-2000:]
        cache = FileBasedCache(str(data / "cache"), {"KEY_PREFIX": "staked"})
        tokens = [f"p{n}-{i}" for n in range(4) for i in range(25)] + ["eta"]

        eta_ran_at = wait_for(
            lambda: time.time() if cache.get("ping:eta") else None, worker=worker, log=log
        )
        wait_for(
            lambda: all(cache.get(f"ping:{t}") for t in tokens) or None,
            worker=worker,
            log=log,
            seconds=90,
        )
        wait_for(
            lambda: log.read_text().count("games.tasks.sweep[") >= 4 or None,
            worker=worker,
            log=log,
            seconds=60,
        )
        time.sleep(1)
    finally:
        beat.terminate()
        beat.wait(timeout=20)
        stop_worker(worker)

    text = log.read_text()
    assert text.count("Task games.tasks.ping[") == 2 * len(tokens), "each delivered once"
    assert "ERROR" not in text and "Traceback" not in text, text[-3000:]
    assert eta_ran_at >= float(sent_at["p0"]) + 4 - 0.2, "the ETA task ran at its time, not before"
    with sqlite3.connect(data / "broker.sqlite3") as conn:
        # Delivered messages are deleted (kombu's own transport keeps them, hidden, forever);
        # what is left is only what was still queued when the worker stopped.
        hidden = conn.execute("SELECT count(*) FROM kombu_message WHERE NOT visible")
        assert hidden.fetchone()[0] == 0


DECLARER = (
    AT_ONCE
    + """
from kombu import Connection
from staked.broker import Transport
url, queue, start, count = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])

def declare(_):
    with Connection(url, transport=Transport) as conn:
        channel = conn.channel()
        time.sleep(max(0.0, start - time.time()))  # every process declares at the same moment
        return len({channel._get_or_create(f"{queue}-{n}").name for n in range(40)})

at_once(count, declare)
"""
)


def test_processes_that_declare_the_same_queues_at_once_all_get_them(tmp_path):
    """The web, the worker and beat declare the queues as they start: none may die of it."""
    url = f"sqlite:///{tmp_path / 'broker.sqlite3'}"
    warm_up = [sys.executable, "-c", DECLARER, url, "warm-up", "0", "1"]
    subprocess.run(warm_up, cwd=ROOT, check=True, capture_output=True)
    start = time.time() + 2
    declarers = subprocess.run(
        [sys.executable, "-c", DECLARER, url, "celery", str(start), "6"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    outcome = (declarers.returncode, declarers.stdout.split())
    assert outcome == (0, ["40"] * 6), declarers.stderr[-3000:]
    with sqlite3.connect(tmp_path / "broker.sqlite3") as db:
        count = "SELECT count(*) FROM kombu_queue WHERE name LIKE 'celery-%'"
        assert db.execute(count).fetchone() == (40,)


PUBLISHER = (
    AT_ONCE
    + """
from kombu import Connection
from staked.broker import Transport
url, start = sys.argv[1], float(sys.argv[2])

def publish(_):
    with Connection(url, transport=Transport) as conn:
        time.sleep(max(0.0, start - time.time()))  # every process opens the new file at once
        queue = conn.SimpleQueue("celery")
        for n in range(5):
            queue.put({"n": n})
        return "sent"

at_once(8, publish)
"""
)


def test_processes_that_open_a_new_broker_file_at_once_all_publish(tmp_path):
    """Web, worker and beat start together on a fresh clone: the file's setup must not race."""
    for attempt in range(3):
        url = f"sqlite:///{tmp_path / f'broker-{attempt}.sqlite3'}"
        start = time.time() + 1
        publishers = subprocess.run(
            [sys.executable, "-c", PUBLISHER, url, str(start)],
            cwd=ROOT, capture_output=True, text=True, timeout=90,
        )  # fmt: skip
        outcome = (publishers.returncode, publishers.stdout.split())
        assert outcome == (0, ["sent"] * 8), publishers.stderr[-3000:]
        with sqlite3.connect(tmp_path / f"broker-{attempt}.sqlite3") as db:
            assert db.execute("SELECT count(*) FROM kombu_message").fetchone() == (40,)
            assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
