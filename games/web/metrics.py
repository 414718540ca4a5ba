"""Counts the game page keeps about its shared regions (games/web/regions.py): cache hits and
misses, and the time each render took. In-process and cheap (a dict per worker process), read
by tests; and, with METRICS on, Prometheus' (staked/metrics.py)."""

from __future__ import annotations

from collections import Counter

from staked import metrics

COUNTS: Counter[str] = Counter()
SECONDS: Counter[str] = Counter()


def region_cache(name: str, *, hit: bool) -> None:
    COUNTS[f"{name}_{'hit' if hit else 'miss'}"] += 1
    metrics.region_cache(name, hit=hit)


def region_rendered(name: str, seconds: float) -> None:
    COUNTS[f"{name}_rendered"] += 1
    SECONDS[name] += seconds
    metrics.region_rendered(name, seconds)
