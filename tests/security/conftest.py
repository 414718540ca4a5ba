"""The security tests' cast: the API's guests and fixed-deal tables (tests/api/conftest.py)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.api.conftest import guests, staff, table  # noqa: F401 - shared cast


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # poll keys, cached tokens and throttles must not leak between tests
    yield
    cache.clear()
