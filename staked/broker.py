"""Celery's brokers: the embedded one of a zero-setup run (a SQLite file in var/), and Redis.

## Redis: a worker that survives the broker's outage

kombu's Redis transport crashes the worker ("Unrecoverable error: AttributeError: 'NoneType'
object has no attribute 'hostname'", the worker exits) when the connection is lost while the
worker holds unacknowledged messages (ETA timers, which it holds until they are due): closing the
lost connection's channel tries to give them back to Redis through that closed connection (a
known family of kombu bugs, e.g. celery/kombu#582, #970). `RedisTransport` skips that give-back
when the connection is already gone. Nothing is lost by it: on Redis an unacknowledged message
stays in the broker's unacked set until it is acknowledged, and comes back after the visibility
timeout (or, if Redis lost its data, the beat sweeper closes the overdue windows). The worker
then reconnects by itself (tests/faults/test_redis_outage.py).

## The embedded broker (no REDIS_URL)

Why not kombu's filesystem transport (the embedded broker before this one): a producer creates a
message file and then writes it, and a consumer may open it in between; after about ten minutes of
play the worker died with `JSONDecodeError` on such a half-written file (celery/kombu#1551, open).

kombu's SQLAlchemy transport keeps each message as a row instead. A producer's INSERT commits
whole or not at all, and a consumer takes a message in one `BEGIN IMMEDIATE` transaction
(SQLite's single write lock), so no process ever reads half a message, and no two processes take
the same one. What this module adds to it, for SQLite:

- every connection waits up to BUSY_TIMEOUT seconds for the write lock (the web, the worker and
  beat all write) instead of failing at once with "database is locked", and the file is in WAL
  mode, where readers never block the writer;
- processes that open a new broker file at the same moment (web, worker and beat start together)
  take turns, through a lock file beside it, at creating its tables and switching it to WAL:
  without that, the losers' `CREATE TABLE` or `PRAGMA journal_mode=WAL` failed, and kombu's
  retry of a failed first publish then died on a half-closed channel;
- two processes may create the same queue at once (the loser reads the winner's row);
- a message is deleted when it is delivered. kombu's transport only marks it invisible and keeps
  it forever, so the sweeper (every 5 s), the timers and the bots would grow the file without
  end. Nothing reads an invisible row again: a message a worker took but did not acknowledge is
  put back from the worker's memory, as a new row, when the worker stops;
- the worker looks for new messages every POLLING_INTERVAL seconds (kombu's default is 1 s; a
  bot's move or a "your move" reminder waits for that look).

What it cannot do, and why the game does not depend on it: a worker killed outright (SIGKILL, a
crash) loses the messages it held, ETA timers included; the beat sweeper then closes overdue
windows within SWEEP_SECONDS, and bots are nudged again on the next change. The transport has no
fanout exchange, so `celery inspect`/remote control are not available on it; the worker and beat
need neither. ETA tasks and the beat schedule work as on Redis (tests/test_embedded_broker.py).
"""

from __future__ import annotations

import fcntl
import logging
import threading
from json import loads
from pathlib import Path
from queue import Empty

from kombu.transport import redis as kombu_redis
from kombu.transport import sqlalchemy as kombu_sqlalchemy
from kombu.utils.encoding import bytes_to_str
from sqlalchemy import create_engine, event, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

log = logging.getLogger("staked.broker")

BUSY_TIMEOUT = 30  # seconds a connection waits for SQLite's write lock
POLLING_INTERVAL = 0.2  # seconds between a worker's looks at an empty queue


class Channel(kombu_sqlalchemy.Channel):
    def _engine_from_config(self):
        engine = create_engine(
            self.connection.client.hostname, connect_args={"timeout": BUSY_TIMEOUT}
        )
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _wal)
        return engine

    def _open(self):
        """kombu's `_open`, with the first setup of the file done by one process at a time."""
        hostname = self.connection.client.hostname
        with _OPENING:
            if hostname not in self._engines:
                with _setup_lock(hostname):
                    engine = self._engine_from_config()
                    kombu_sqlalchemy.metadata.create_all(engine)
                self._engines[hostname] = engine, sessionmaker(bind=engine)
        return self._engines[hostname]

    def _get_or_create(self, queue):
        """kombu's `_get_or_create`, safe when another process creates the queue first.

        kombu's lock is per process: the web, the worker and beat all declare the queues when
        they start, and the loser of that race got `IntegrityError` (a UNIQUE name) and died.
        """
        try:
            return super()._get_or_create(queue)
        except IntegrityError:
            self.session.rollback()
            return self.session.query(self.queue_cls).filter(self.queue_cls.name == queue).one()

    def _get(self, queue):
        """kombu's `_get`, deleting the row it delivers instead of hiding it."""
        obj = self._get_or_create(queue)
        if self.session.bind.name == "sqlite":
            self.session.execute(text("BEGIN IMMEDIATE TRANSACTION"))
        try:
            message = (
                self.session.query(self.message_cls)
                .with_for_update()
                .filter(self.message_cls.queue_id == obj.id)
                .filter(self.message_cls.visible.is_not(False))
                .order_by(self.message_cls.sent_at, self.message_cls.id)
                .first()
            )
            if message is None:
                raise Empty()
            payload = loads(bytes_to_str(message.payload))
            self.session.delete(message)
            return payload
        finally:
            self.session.commit()


_OPENING = threading.Lock()


class _setup_lock:
    """An exclusive lock across processes on `<broker file>.lock` (none for other databases)."""

    def __init__(self, url: str):
        prefix = "sqlite:///"
        self.path = Path(url[len(prefix) :] + ".lock") if url.startswith(prefix) else None
        self.file = None

    def __enter__(self):
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.file = open(self.path, "a")  # noqa: SIM115 - closed in __exit__
            fcntl.flock(self.file, fcntl.LOCK_EX)

    def __exit__(self, *exc):
        if self.file is not None:
            self.file.close()  # closing the file releases the lock


def _wal(dbapi_connection, connection_record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class Transport(kombu_sqlalchemy.Transport):
    Channel = Channel
    polling_interval = POLLING_INTERVAL


class RedisQoS(kombu_redis.QoS):
    def restore_unacked(self, client=None):
        transport = self.channel.connection
        if client is None and (transport is None or transport.client is None):
            log.warning(
                "The broker connection is gone: %d unacknowledged message(s) stay in Redis and "
                "come back after the visibility timeout",
                len(self._delivered),
            )
            self._delivered.clear()
            return
        return super().restore_unacked(client)


class RedisChannel(kombu_redis.Channel):
    QoS = RedisQoS


class RedisTransport(kombu_redis.Transport):
    Channel = RedisChannel
