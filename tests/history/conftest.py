"""History test cast: the tables of tables.py, and a clean cache for each test."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.models import Game
from tests.history.tables import play_to_the_end, table


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # poll keys and cached tokens must not leak between tests
    yield
    cache.clear()


@pytest.fixture
def finished():
    """finished(players, **options) -> a game of those users played to the end."""

    def make(players: list, **options) -> Game:
        return play_to_the_end(table(players, **options))

    return make
