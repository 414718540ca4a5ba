"""Liveness and readiness for load balancers and orchestrators; each answers JSON."""

from __future__ import annotations

import time

from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse

from games.domain.worker_heartbeat import HEARTBEAT_KEY, HEARTBEAT_MAX_AGE


def healthz(request):
    """The process is up and answers: nothing else is checked (a bare Django view)."""
    return JsonResponse({"status": "ok"})


def readyz(request):
    """Ready to serve games: the database, the cache/broker Redis, and a live Celery worker."""
    checks = {"database": _database(), "cache": _cache(), "worker": _worker()}
    ready = all(c["ok"] for c in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks}, status=200 if ready else 503
    )


def _database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return {"ok": True}
    except Exception as exc:  # any failure means "not ready", with the reason
        return {"ok": False, "error": str(exc)[:200]}


def _cache() -> dict:
    try:
        cache.set("readyz", "1", timeout=10)
        if cache.get("readyz") == "1":
            return {"ok": True}
        # staked/cache.py reads a Redis outage as a miss rather than failing the request.
        return {"ok": False, "error": "the cache kept nothing: Redis cannot be reached"}
    except Exception as exc:
        return {"ok": False, "error": str(exc)[:200]}


def _worker() -> dict:
    try:
        beat = cache.get(HEARTBEAT_KEY)
    except Exception as exc:
        return {"ok": False, "error": str(exc)[:200]}
    if beat is None:
        return {"ok": False, "error": "no worker heartbeat yet"}
    age = time.time() - beat
    return {"ok": age < HEARTBEAT_MAX_AGE, "age_seconds": round(age, 1)}
