"""Prometheus metrics for operators (docs/operations.md "Metrics"): off by default, on with
METRICS=1. Then every process keeps, and `GET /metrics` serves in Prometheus' text format:

- `staked_request_seconds{view, method, status}`: each request's latency by view (the page's
  poll answered early by games/web/middleware/quickpoll.py counts as `changed`), so the poll's
  204 rate is `staked_request_seconds_count{view="changed",status="204"}` over all of `changed`;
- `staked_region_render_seconds{region}` and `staked_region_cache_total{region, result}`: the
  game page's shared regions (games/web/regions.py), their render time and cache hits;
- `staked_task_seconds{task, state}`: each Celery task's run time.

Under gunicorn's several workers, set PROMETHEUS_MULTIPROC_DIR to an empty directory shared
by them (and the Celery worker), cleaned at each start: prometheus_client then sums them all.
METRICS_TOKEN, when set, is the bearer token `/metrics` asks for."""

from __future__ import annotations

import hmac
import re
import time
from functools import cache

from django.conf import settings
from django.http import Http404, HttpResponse

POLL = re.compile(r"^/g/[^/]+/changed$")


def enabled() -> bool:
    return getattr(settings, "METRICS", False)


@cache
def _metrics():
    # Imported here: a deployment without metrics never loads prometheus_client.
    from prometheus_client import Counter, Histogram

    return {
        "request": Histogram(
            "staked_request_seconds",
            "Request latency by view",
            ["view", "method", "status"],
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
        ),
        "region_render": Histogram(
            "staked_region_render_seconds",
            "Render time of a shared region of the game page",
            ["region"],
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1),
        ),
        "region_cache": Counter(
            "staked_region_cache_total",
            "Shared regions of the game page, from the cache or not",
            ["region", "result"],
        ),
        "task": Histogram(
            "staked_task_seconds",
            "Celery task run time",
            ["task", "state"],
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
        ),
    }


def region_rendered(region: str, seconds: float) -> None:
    if enabled():
        _metrics()["region_render"].labels(region).observe(seconds)


def region_cache(region: str, *, hit: bool) -> None:
    if enabled():
        _metrics()["region_cache"].labels(region, "hit" if hit else "miss").inc()


def task_done(task: str, state: str, seconds: float) -> None:
    if enabled():
        _metrics()["task"].labels(task, state).observe(seconds)


class RequestMetrics:
    """First in MIDDLEWARE when METRICS is on: every request's latency, by view."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if match is not None:
            view = match.view_name or "-"
        elif POLL.match(request.path):
            view = "changed"  # the unchanged poll, answered before the URLs are resolved
        else:
            view = "unresolved"
        _metrics()["request"].labels(view, request.method, str(response.status_code)).observe(
            time.perf_counter() - started
        )
        return response


def metrics_view(request) -> HttpResponse:
    """`GET /metrics`: 404 unless METRICS is on; the bearer METRICS_TOKEN when one is set."""
    if not enabled():
        raise Http404
    token = getattr(settings, "METRICS_TOKEN", "")
    if token and not hmac.compare_digest(
        request.headers.get("Authorization", ""), f"Bearer {token}"
    ):
        return HttpResponse(status=401)
    # Imported here, as in `_metrics`.
    from prometheus_client import (
        CONTENT_TYPE_LATEST,
        REGISTRY,
        CollectorRegistry,
        generate_latest,
        multiprocess,
    )

    registry = REGISTRY
    if getattr(settings, "PROMETHEUS_MULTIPROC_DIR", ""):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
