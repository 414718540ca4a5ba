"""Prometheus metrics (staked/metrics.py): off by default; on, `/metrics` shows each view's
latency (the page's early-answered poll as `changed`, with its 204s), the shared regions' cache
hits and render times."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_metrics_are_off_by_default():
    assert Client().get("/metrics").status_code == 404


def test_metrics_count_views_polls_and_the_shared_regions(settings, table):
    settings.METRICS = True
    settings.METRICS_TOKEN = "s3cret"
    settings.MIDDLEWARE = ["staked.metrics.RequestMetrics", *settings.MIDDLEWARE]
    t = table("LVHHHH")
    t.page(1)
    t.page(2)  # the regions of this version come from the cache
    version = t.game.version
    t.phone(2).client.get(f"/g/{t.code}/changed?v={version}")
    assert Client().get("/metrics").status_code == 401
    text = Client().get("/metrics", headers={"Authorization": "Bearer s3cret"}).content.decode()
    assert 'staked_request_seconds_count{method="GET",status="200",view="game"}' in text
    assert 'view="changed"' in text and 'status="204"' in text
    assert 'staked_region_cache_total{region="table",result="hit"}' in text
    assert 'staked_region_render_seconds_count{region="log"}' in text
