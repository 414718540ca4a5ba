"""The browser's life in a test process (tests/browser/session.py): once stopped, it leaves no
event loop marked as running in the thread, so the tests that go through `async_to_sync` after
a browser test run as they do alone."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from asgiref.sync import async_to_sync

from tests import conftest
from tests.browser import session

pytestmark = pytest.mark.browser


def test_a_test_without_a_browser_finds_none_running_and_async_to_sync_works():
    page = session.browser().new_page()
    assert page.evaluate("1 + 1") == 2
    assert asyncio._get_running_loop() is not None  # what Playwright leaves between its calls

    other_test = SimpleNamespace(get_closest_marker=lambda name: None)
    conftest.pytest_runtest_setup(other_test)  # what runs before another test's fixtures

    assert asyncio._get_running_loop() is None
    assert async_to_sync(asyncio.sleep)(0, result="ran") == "ran"
    assert session.browser().is_connected()  # the next browser test gets a new one
