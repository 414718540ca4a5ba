"""The installable app in a real browser: the service worker registers from the root and
controls the pages, and losing the network shows "Reconnecting…" until a poll gets through."""

from __future__ import annotations

import pytest

from tests.browser.pages import Phone

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_service_worker_registers_and_offline_shows_reconnecting(phones, server):
    [page] = phones(1)
    ana = Phone(page, "Ana")
    ana.open_table()  # a lobby page, which polls the server every few seconds

    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == f"{server.url}/"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    banner = page.locator("#connection")
    expect(banner).to_be_hidden()

    page.context.set_offline(True)
    expect(banner).to_be_visible()
    expect(banner).to_have_text("Reconnecting…")

    page.context.set_offline(False)
    expect(banner).to_be_hidden()
    # And it is a poll that failed, not only the browser's online flag: a failed poll shows it.
    # Sent and read in one script: the page polls every 2 s, and the next answer hides the
    # banner again, so a check made a moment later could find it already hidden.
    shown = page.evaluate(
        """() => {
             document.dispatchEvent(new CustomEvent('htmx:sendError'));
             return !document.getElementById('connection').hidden;
           }"""
    )
    assert shown, "a failed poll did not show the banner"
    expect(banner).to_be_hidden()  # the next poll answers


def test_a_page_opened_offline_shows_the_offline_page_from_the_cache(phones):
    [page] = phones(1)
    page.goto("/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.goto("/rules/")
    expect(page.get_by_role("heading", name="Reconnecting…")).to_be_visible()


def test_a_page_loaded_past_the_service_worker_asks_to_be_controlled(phones):
    """A page that loads while the worker is still activating (or through a hard reload, which
    bypasses it) starts uncontrolled; pwa.js asks the worker to claim it, so it works offline."""
    [page] = phones(1)
    page.goto("/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    cdp = page.context.new_cdp_session(page)
    with page.expect_event("load"):
        cdp.send("Page.reload", {"ignoreCache": True})  # a hard reload: not controlled at first
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
