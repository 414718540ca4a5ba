"""The browser's life in a test process (tests/browser/session.py): once stopped, it leaves no
event loop marked as running in the thread, so the tests that go through `async_to_sync` after
a browser test run as they do alone; and the browser is Debian's headless shell, started with
Playwright's features off."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
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


def test_the_browser_is_debian_s_headless_shell_with_playwright_s_features_off():
    """Playwright drives Debian's Chromium headless shell (never a browser it downloaded into
    ~/.cache/ms-playwright), and Chromium got Playwright's one --disable-features list (it keeps
    only the last, so a second list of ours would silently drop HttpsUpgrades and PaintHolding)."""
    browser = session.browser()
    context = browser.new_context()
    context.new_page()
    try:
        args = _browser_process_args()
        assert args[0] == "/usr/lib/chromium/chromium-headless-shell", args[0]
        lists = [a for a in args if a.startswith("--disable-features=")]
        assert len(lists) == 1, lists
        assert {"HttpsUpgrades", "PaintHolding"} <= set(lists[0].partition("=")[2].split(","))
    finally:
        context.close()


def _browser_process_args() -> list[str]:
    """The command line of this process's Chromium (the browser process: no --type)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat[1])
    mine = {os.getpid()}
    for _ in range(4):  # this process -> Playwright's driver -> Chromium
        mine |= {pid for pid, parent in parents.items() if parent in mine}
    for pid in sorted(mine):
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        except OSError:
            continue
        browser_process = not any(a.startswith("--type=") for a in args)
        if args[0].startswith("/usr/lib/chromium/") and browser_process:
            return args
    raise AssertionError("no Chromium browser process under this test process")
