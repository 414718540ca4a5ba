"""Django's Redis cache, keeping one redis-py client per connection pool, and riding out outages.

Django's backend builds a new `redis.Redis` object for every cache call, and redis-py fills a
table of ~170 response callbacks in each one: about a quarter of a millisecond, which doubled
the cost of the game poll (one cache round trip). A redis-py client is thread-safe over its pool.

While Redis cannot be reached, reads are misses and writes are dropped (a warning is logged, at
most every WARN_EVERY seconds per process), instead of failing the request: everything in this
cache can be had again from the database (poll keys, cached tokens), or only loosens a limit for
the length of the outage (throttles). So moves keep committing and pages keep polling from the
database through a Redis outage (tests/faults/test_redis_outage.py); `/readyz` reports it. A
counter (`incr`) still raises, and so does `clear`: the middleware in staked/outages.py answers
503 for a request that meets it. Short socket timeouts keep a Redis that hangs (rather than
refuses) from holding requests.
"""

from __future__ import annotations

import functools
import logging
import time

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger("staked.cache")

OUTAGE_ERRORS = (RedisConnectionError, RedisTimeoutError)
WARN_EVERY = 10.0  # seconds
SOCKET_TIMEOUTS = {"socket_connect_timeout": 1.0, "socket_timeout": 2.0}
_last_warning = 0.0


class ReusingClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(
                connection_pool=self._get_connection_pool(write)
            )
        return client


def _outage_warning(operation: str, exc: Exception) -> None:
    global _last_warning
    now = time.monotonic()
    if now - _last_warning >= WARN_EVERY:
        _last_warning = now
        log.warning("Redis unavailable (%s: %s): the cache is bypassed", operation, exc)


def _riding_out(method, *, fallback):
    """`method`, answering `fallback(*args, **kwargs)` while Redis cannot be reached."""

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except OUTAGE_ERRORS as exc:
            _outage_warning(method.__name__, exc)
            return fallback(*args, **kwargs)

    return call


def _default(key, default=None, version=None):
    return default


class ReusingRedisCache(RedisCache):
    def __init__(self, server, params):
        params = {**params, "OPTIONS": {**SOCKET_TIMEOUTS, **params.get("OPTIONS", {})}}
        super().__init__(server, params)
        self._class = ReusingClient

    get = _riding_out(RedisCache.get, fallback=_default)
    get_many = _riding_out(RedisCache.get_many, fallback=lambda *a, **k: {})
    has_key = _riding_out(RedisCache.has_key, fallback=lambda *a, **k: False)
    add = _riding_out(RedisCache.add, fallback=lambda *a, **k: False)
    set = _riding_out(RedisCache.set, fallback=lambda *a, **k: None)
    set_many = _riding_out(RedisCache.set_many, fallback=lambda *a, **k: [])
    touch = _riding_out(RedisCache.touch, fallback=lambda *a, **k: False)
    delete = _riding_out(RedisCache.delete, fallback=lambda *a, **k: False)
    delete_many = _riding_out(RedisCache.delete_many, fallback=lambda *a, **k: None)

    def set_if_greater(self, key: str, value: int, timeout: int) -> bool:
        """Set `key` to the whole number `value` unless it holds a greater one, in one step (a
        Lua script: Django's cache has no compare-and-set). Django stores an int as its digits,
        so the script can compare; it raises on an outage, like `incr`. True when written."""
        client = self._cache.get_client(key, write=True)
        return bool(client.eval(SET_IF_GREATER, 1, self.make_and_validate_key(key), value, timeout))


SET_IF_GREATER = """
local held = tonumber(redis.call('GET', KEYS[1]))
if held and held > tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1
"""
