"""In a real browser: under the Content-Security-Policy (only the app's own
scripts and styles) every page works and the browser reports no violation, Swagger UI at
/api/v1/docs/ included (its own, slightly wider policy)."""

from __future__ import annotations

import pytest

from tests.browser.pages import Phone
from tests.browser.test_table_display import signed_in
from tests.factories import running_game

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips these tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def watch(page) -> list[str]:
    violations = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return violations


def test_pages_and_swagger_ui_work_under_the_policy_with_no_violation(phones, browser, server):
    (ana_page,) = phones(1)
    seen = watch(ana_page)
    ana = Phone(ana_page, "Ana")
    code = ana.open_table(last_wills=False)  # the lobby: QR code, options, bots
    expect(ana_page.locator("#game svg[role=img]")).to_be_visible()
    ana_page.goto(f"/t/{code}/")
    ana_page.goto("/rules/")
    ana_page.goto("/offline")
    ana_page.goto("/api/v1/docs/")
    expect(ana_page.locator(".opblock").first).to_be_visible()
    assert ana_page.locator(".opblock").count() >= 20

    # A running game, seen from a seat.
    game = running_game(6)
    context = signed_in(browser, server, game.users[0])
    page = context.new_page()
    seen_too = watch(page)
    page.goto(f"/g/{game.code}/")
    expect(page.locator("#game")).to_be_visible()
    page.wait_for_timeout(2500)  # a poll goes out and comes back
    context.close()
    assert seen == [] and seen_too == []
