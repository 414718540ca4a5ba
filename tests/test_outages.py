"""Outages answer 503, never 500 (staked/outages.py, staked/cache.py).

The fault tests (tests/faults/) stop the real services; these check the same pieces one by one:
the middleware's answers, and the Redis cache riding out an outage.
"""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError
from django.test import RequestFactory, override_settings
from redis.exceptions import ConnectionError as RedisConnectionError

from staked.cache import ReusingRedisCache
from staked.outages import OutageMiddleware

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def failing_view(exc):
    def view(request):
        raise exc

    return view


def answer(path: str, exc: Exception):
    request = RequestFactory().get(path)
    middleware = OutageMiddleware(lambda r: None)
    try:
        failing_view(exc)(request)
    except Exception as raised:
        return middleware.process_exception(request, raised)


def test_a_database_outage_answers_503_json_on_the_api():
    response = answer("/api/v1/games/ABCDEF/", OperationalError("connection refused"))
    assert response.status_code == 503 and response["Retry-After"] == "5"
    body = json.loads(response.content)
    assert body["code"] == "unavailable" and "database" in body["detail"]


def test_a_redis_outage_answers_503_reconnecting_on_a_page():
    response = answer("/g/ABCDEF/changed", RedisConnectionError("refused"))
    assert response.status_code == 503 and response["Cache-Control"] == "no-store"
    assert "Reconnecting" in response.content.decode()


def test_other_errors_are_left_alone():
    assert answer("/api/v1/games/", ValueError("a bug")) is None


def test_the_redis_cache_reads_a_dead_redis_as_misses_and_drops_writes():
    cache = ReusingRedisCache(DEAD_REDIS, {"KEY_PREFIX": "t"})

    cache.set("k", 1)
    assert cache.get("k") is None and cache.get("k", "fallback") == "fallback"
    assert cache.get_many(["k", "j"]) == {} and cache.add("k", 1) is False
    assert cache.delete("k") is False and cache.has_key("k") is False
    with pytest.raises(RedisConnectionError):
        cache.incr("k")  # a counter cannot be faked: the request gets the middleware's 503


@override_settings(
    CACHES={"default": {"BACKEND": "staked.cache.ReusingRedisCache", "LOCATION": DEAD_REDIS}}
)
@pytest.mark.django_db
def test_readyz_reports_a_redis_outage_the_cache_rides_out(client):
    response = client.get("/readyz")
    assert response.status_code == 503
    assert "Redis" in response.json()["checks"]["cache"]["error"]


def test_a_rate_limit_counts_nothing_and_lets_the_request_through_while_redis_is_down(
    monkeypatch,
):
    """The limiter's counter (`incr`) meets the outage: the limit loosens for its length
    instead of answering 503 to every move (found by the Redis fault test)."""
    from staked import limits

    monkeypatch.setattr(limits, "cache", ReusingRedisCache(DEAD_REDIS, {"KEY_PREFIX": "t"}))
    verdict = limits.hit("actions", "user:1")
    assert verdict.allowed and verdict.remaining == verdict.limit
