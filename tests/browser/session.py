"""One Playwright and Chromium per test process, alive only while browser tests run.

Between its calls, Playwright's sync API leaves its event loop marked as running in the thread
that drives it (playwright/_impl/_greenlets.py, `wait_for_future`). A test run after it in the
same process that goes through `async_to_sync` (the API's event streams) then fails, or worse
passes while its rows outlive its rolled-back transaction. So the browser is started by the
first browser test, shared by the browser tests that follow, and stopped before a test that
drives no browser (tests/conftest.py): with the long tests spread over the run
(tests/scheduling.py) browser and other tests take turns in a worker, and each turn costs one
launch (about a second).
"""

from __future__ import annotations

from typing import Any

# Debian's Chromium headless shell (package chromium-headless-shell, built from the same source as
# /usr/bin/chromium, the Blink that draws the pages); `playwright install` is never used (it
# downloads a browser of its own). The shell is what Playwright itself runs headless: without the
# full browser's windows, their compositor and their preloaded address-bar popups, the eight-phone
# game costs the machine about 15 % less CPU (docs/benchmarks.md).
CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
# How long a step may wait for the page. The pages poll at their real pace (a live game every
# second, the lobby every 2 s), so on a loaded 2-core CI machine a round can take a while to show.
WAIT_MS = 45_000

_running: dict[str, Any] = {}  # "playwright" (its context manager) and "browser", when alive


def browser():
    """The process's Chromium, started on first use."""
    if "browser" not in _running:
        from playwright.sync_api import expect, sync_playwright

        expect.set_options(timeout=WAIT_MS)
        manager = sync_playwright()
        _running["playwright"] = manager
        try:
            _running["browser"] = manager.__enter__().chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
            )
        except BaseException:
            stop()  # a launch that failed must not leave Playwright's loop behind either
            raise
    return _running["browser"]


def stop() -> None:
    """Close Chromium and stop Playwright, whichever of them runs."""
    browser, manager = _running.pop("browser", None), _running.pop("playwright", None)
    try:
        if browser is not None:
            browser.close()
    finally:
        if manager is not None:
            manager.__exit__(None, None, None)
