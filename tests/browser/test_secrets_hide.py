"""Secrets hide again by themselves: "What you know" is closed on every load, closes
10 s after the player opened it (a live refresh in between keeps it open until then), and closes
at once when the player leaves the page. A glance at the phone later shows only what the table
knows."""

from __future__ import annotations

import time

import pytest

from tests.browser.test_private_news import seated_table

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.long(32)
def test_what_you_know_is_closed_on_load_and_hides_again_after_ten_seconds(phones, artifacts):
    _, table = seated_table(phones(6), "LVHHHH")
    ben, cleo = table[1], table[2]
    secret = ben.page.locator("#knowledge li", has_text="Ana is the Vampire Lord")
    ben.got_it()  # the night news card says it too, until Ben has read it
    expect(secret).to_be_hidden()

    ben.page.locator("#knowledge summary").click()
    opened = time.monotonic()
    expect(secret).to_be_visible()
    ben.screenshot(artifacts / "what-you-know-open.png")
    version = ben.version()
    cleo.place("stake", 4)  # Ben's page refreshes with Cleo's move: still open
    newer = f"() => +document.querySelector('#game').dataset.version > {version}"
    ben.page.wait_for_function(newer)
    expect(secret).to_be_visible()
    expect(secret).to_be_hidden(timeout=20_000)
    assert time.monotonic() - opened >= 9

    ben.page.locator("#knowledge summary").click()
    expect(secret).to_be_visible()
    ben.page.reload()
    expect(ben.page.locator("#knowledge summary")).to_be_visible()
    expect(secret).to_be_hidden()

    ben.page.locator("#knowledge summary").click()
    expect(secret).to_be_visible()
    ben.page.evaluate("window.dispatchEvent(new Event('pagehide'))")  # the player leaves
    expect(secret).to_be_hidden()
