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

from django.core.cache.backends.filebased import FileBasedCache

from tests.test_celery_worker import ROOT, start_worker, stop_worker, wait_for

SENDER = """
import sys, django
django.setup()
from datetime import UTC, datetime, timedelta
from games.tasks import ping
prefix, count, queue = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for n in range(count):
    ping.apply_async(args=[f"{prefix}-{n}"], queue=queue)
if prefix == "p0":
    ping.apply_async(args=["eta"], queue=queue, eta=datetime.now(UTC) + timedelta(seconds=4))
print("sent", datetime.now(UTC).timestamp())
"""


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
        senders = [
            subprocess.Popen(
                [sys.executable, "-c", SENDER, f"p{n}", "25", queue],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                text=True,
            )
            for n in range(4)
        ]
        sent_at = [float(s.communicate(timeout=120)[0].split()[-1]) for s in senders]
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
    assert eta_ran_at >= sent_at[0] + 4 - 0.2, "the ETA task ran at its time, not before"
    with sqlite3.connect(data / "broker.sqlite3") as conn:
        # Delivered messages are deleted (kombu's own transport keeps them, hidden, forever);
        # what is left is only what was still queued when the worker stopped.
        hidden = conn.execute("SELECT count(*) FROM kombu_message WHERE NOT visible")
        assert hidden.fetchone()[0] == 0


DECLARER = """
import sys, time
from kombu import Connection
from staked.broker import Transport
url, queue, start = sys.argv[1], sys.argv[2], float(sys.argv[3])
with Connection(url, transport=Transport) as conn:
    channel = conn.channel()
    time.sleep(max(0.0, start - time.time()))  # every process declares at the same moment
    print(len({channel._get_or_create(f"{queue}-{n}").name for n in range(40)}))
"""


def test_processes_that_declare_the_same_queues_at_once_all_get_them(tmp_path):
    """The web, the worker and beat declare the queues as they start: none may die of it."""
    url = f"sqlite:///{tmp_path / 'broker.sqlite3'}"
    subprocess.run([sys.executable, "-c", DECLARER, url, "warm-up", "0"], cwd=ROOT, check=True)
    start = time.time() + 3
    declarers = [
        subprocess.Popen(
            [sys.executable, "-c", DECLARER, url, "celery", str(start)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    results = [d.communicate(timeout=60) for d in declarers]
    outcome = [(d.returncode, out.strip()) for d, (out, _) in zip(declarers, results, strict=True)]
    assert outcome == [(0, "40")] * 6, [err for _, err in results]
    with sqlite3.connect(tmp_path / "broker.sqlite3") as db:
        count = "SELECT count(*) FROM kombu_queue WHERE name LIKE 'celery-%'"
        assert db.execute(count).fetchone() == (40,)


PUBLISHER = """
import sys, time
from kombu import Connection
from staked.broker import Transport
url, start = sys.argv[1], float(sys.argv[2])
with Connection(url, transport=Transport) as conn:
    time.sleep(max(0.0, start - time.time()))  # every process opens the new file at once
    queue = conn.SimpleQueue("celery")
    for n in range(5):
        queue.put({"n": n})
    print("sent")
"""


def test_processes_that_open_a_new_broker_file_at_once_all_publish(tmp_path):
    """Web, worker and beat start together on a fresh clone: the file's setup must not race."""
    for attempt in range(3):
        url = f"sqlite:///{tmp_path / f'broker-{attempt}.sqlite3'}"
        start = time.time() + 3
        publishers = [
            subprocess.Popen(
                [sys.executable, "-c", PUBLISHER, url, str(start)],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(8)
        ]
        results = [p.communicate(timeout=90) for p in publishers]
        outcome = [
            (p.returncode, out.strip()) for p, (out, _) in zip(publishers, results, strict=True)
        ]
        assert outcome == [(0, "sent")] * 8, [err[-2000:] for _, err in results]
        with sqlite3.connect(tmp_path / f"broker-{attempt}.sqlite3") as db:
            assert db.execute("SELECT count(*) FROM kombu_message").fetchone() == (40,)
            assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
