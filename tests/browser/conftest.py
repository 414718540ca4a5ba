"""Browser tests: Playwright for Python driving Debian's Chromium against pytest-django's
live_server. Phones are separate browser contexts (390×844, touch), so each has its own session.

scripts/ensure_browser.sh installs what these need. Without Chromium or Playwright they are
skipped with the reason, except when CI=true: there that is an error, so CI cannot pass by
skipping them. `playwright install` is never used (it downloads a browser build of its own).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection

from tests.browser import session
from tests.browser.screenshot_count import ARTIFACTS
from tests.browser.session import CHROMIUM, WAIT_MS
from tests.conftest import in_ci

# Playwright's sync API runs an event loop in this thread; the Django ORM calls the tests make
# between browser steps are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def browser_missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (run scripts/ensure_browser.sh)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing (run scripts/ensure_browser.sh)"
    return None


def pytest_collection_modifyitems(config, items):
    marked = [i for i in items if i.get_closest_marker("browser")]
    reason = browser_missing() if marked else None
    if reason is None:
        return
    if in_ci():
        raise pytest.UsageError(f"CI=true and {len(marked)} browser test(s) cannot run: {reason}")
    for item in marked:
        item.add_marker(pytest.mark.skip(reason=f"needs a browser: {reason}"))


@pytest.fixture
def browser():
    """The process's Chromium (tests/browser/session.py): shared by consecutive browser tests."""
    return session.browser()


@pytest.fixture
def server(django_db_setup, live_server):
    """The live server (session-scoped: started after the test database exists, so that on
    SQLite it shares the test's in-memory connection). On SQLite its request threads share that
    one connection, so requests take turns here; on PostgreSQL each thread has its own
    connection and requests run concurrently, as in production."""
    cache.clear()
    httpd = live_server.thread.httpd
    app = getattr(httpd.get_app(), "unlocked", httpd.get_app())  # live_server lives a session
    if connection.vendor == "sqlite":
        lock = threading.Lock()

        def one_at_a_time(environ, start_response):
            with lock:
                return list(app(environ, start_response))

        one_at_a_time.unlocked = app
        httpd.set_app(one_at_a_time)
    yield live_server
    httpd.set_app(app)
    cache.clear()


@pytest.fixture
def phones(browser, server):
    """make(n) -> n phones, each a fresh browser context (its own cookies) with one page."""
    contexts = []

    def make(n: int):
        pages = []
        for _ in range(n):
            context = browser.new_context(**PHONE, base_url=server.url)
            context.set_default_timeout(WAIT_MS)
            contexts.append(context)
            pages.append(context.new_page())
        return pages

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """tests/artifacts/ (git-ignored): the screenshots of the last run."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
