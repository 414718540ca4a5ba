"""Django's Redis cache, keeping one redis-py client per connection pool.

Django's backend builds a new `redis.Redis` object for every cache call, and redis-py fills a
table of ~170 response callbacks in each one: about a quarter of a millisecond, which doubled
the cost of the game poll (one cache round trip). A redis-py client is thread-safe over its pool.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


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


class ReusingRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusingClient
