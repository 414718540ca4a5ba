"""The browser's life in a test process (tests/browser/session.py): once stopped, it leaves no
event loop marked as running in the thread, so the tests that go through `async_to_sync` after
a browser test run as they do alone; and Chromium starts with the features it is meant to
have off."""

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


def test_chromium_gets_playwright_s_disabled_features_and_ours_in_one_list():
    """Chromium keeps only the last --disable-features: chromium.sh joins Playwright's (which
    holds HttpsUpgrades and PaintHolding) and ours (the omnibox popups) into one, and no phone's
    window preloads an omnibox popup."""
    browser = session.browser()
    context = browser.new_context()
    context.new_page()
    try:
        lists = [a for a in _browser_process_args() if a.startswith("--disable-features=")]
        assert len(lists) == 1, lists
        features = set(lists[0].partition("=")[2].split(","))
        assert {"HttpsUpgrades", "PaintHolding"} <= features  # Playwright's own
        assert {"WebUIOmniboxPopup", "WebUIOmniboxAimPopup"} <= features  # ours
        every = browser.new_browser_cdp_session().send("Target.getTargets", {"filter": [{}]})
        assert not [t["url"] for t in every["targetInfos"] if "omnibox-popup" in t["url"]]
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
        if args[0].endswith("/chromium") and not any(a.startswith("--type=") for a in args):
            return args
    raise AssertionError("no Chromium browser process under this test process")
