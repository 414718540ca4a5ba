"""/healthz (liveness) and /readyz (database, cache/Redis, a worker heartbeat under a minute)."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from django.core.cache import cache
from django.db.utils import OperationalError
from django.test import override_settings

from games.web.health import HEARTBEAT_KEY, HEARTBEAT_MAX_AGE

pytestmark = pytest.mark.django_db

DEAD_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}


@pytest.fixture(autouse=True)
def fresh_heartbeat():
    cache.set(HEARTBEAT_KEY, time.time(), timeout=3600)
    yield
    cache.delete(HEARTBEAT_KEY)


def test_healthz_answers_without_checking_anything(client):
    with override_settings(CACHES=DEAD_REDIS):
        response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_readyz_is_ok_with_the_database_the_cache_and_a_fresh_heartbeat(client):
    response = client.get("/readyz")
    assert response.status_code == 200, response.json()
    checks = response.json()["checks"]
    assert set(checks) == {"database", "cache", "worker"}  # the three the test's name promises
    assert all(c["ok"] for c in checks.values())
    assert checks["worker"]["age_seconds"] < HEARTBEAT_MAX_AGE


def test_readyz_is_unavailable_when_redis_is_down(client):
    with override_settings(CACHES=DEAD_REDIS):
        started = time.monotonic()
        response = client.get("/readyz")
        assert time.monotonic() - started < 10
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["cache"]["ok"] is False and body["checks"]["cache"]["error"]
    assert body["checks"]["worker"]["ok"] is False  # its heartbeat lives in the cache


def test_readyz_is_unavailable_with_a_stale_heartbeat(client):
    cache.set(HEARTBEAT_KEY, time.time() - HEARTBEAT_MAX_AGE - 5, timeout=3600)
    response = client.get("/readyz")
    assert response.status_code == 503
    worker = response.json()["checks"]["worker"]
    assert worker["ok"] is False and worker["age_seconds"] > HEARTBEAT_MAX_AGE


def test_readyz_is_unavailable_before_any_worker_ran(client):
    cache.delete(HEARTBEAT_KEY)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["worker"] == {"ok": False, "error": "no worker heartbeat yet"}


def test_readyz_is_unavailable_when_the_database_is_down(client):
    with mock.patch("games.web.health.connection") as connection:
        connection.cursor.side_effect = OperationalError("connection refused")
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == {"ok": False, "error": "connection refused"}


def test_health_endpoints_are_not_redirected_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 200
    assert client.get("/admin/login/").status_code == 301
