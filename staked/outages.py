"""A request that meets a database or Redis outage answers 503 with Retry-After, never 500.

A 500 says "a bug"; an outage is not one, and the client should simply try again: the game page
shows its "Reconnecting…" banner on a 503 (static/js/pwa.js) and keeps polling, and the API
answers `{"code": "unavailable", "detail"}` like every other error (docs/api.md). The outage is
logged once per request as a warning, without a traceback.

The database side: a connection that died while PostgreSQL restarted is noticed before it is
used (`CONN_HEALTH_CHECKS`, staked/settings.py) and replaced, so the first requests after
PostgreSQL is back succeed; while it is down, connecting fails with OperationalError, which lands
here. Redis: the cache rides out outages itself (staked/cache.py); what still raises lands here.

Only exceptions raised by a view reach `process_exception` (where every database query of a
request runs: sessions and users are loaded lazily, inside the view), so this middleware may sit
anywhere in MIDDLEWARE; it is listed first.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger("staked.outages")

RETRY_AFTER_SECONDS = 5
OUTAGES = {
    "database": (OperationalError, InterfaceError),
    "cache": (RedisConnectionError, RedisTimeoutError),
}
DETAIL = "The game server cannot reach its {service} right now; try again in a few seconds."


def failing_service(exc: BaseException) -> str | None:
    """'database' or 'cache' when `exc` is an outage of that service, else None."""
    for service, errors in OUTAGES.items():
        if isinstance(exc, errors):
            return service
    return None


class OutageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        service = failing_service(exception)
        if service is None:
            return None
        log.warning(
            "%s unavailable: answering 503 to %s %s (%s: %s)",
            service,
            request.method,
            request.path,
            type(exception).__name__,
            str(exception).strip().splitlines()[0][:200] if str(exception).strip() else "",
        )
        detail = DETAIL.format(service=service)
        if request.path.startswith("/api/"):
            response = JsonResponse({"code": "unavailable", "detail": detail}, status=503)
        else:
            # No request context: the page must not need the database (no session, no user).
            body = render_to_string("503.html", {"detail": detail, "retry": RETRY_AFTER_SECONDS})
            response = HttpResponse(body, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response["Cache-Control"] = "no-store"
        return response
