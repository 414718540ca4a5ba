"""The sections one tap away, on a 390x844 phone: closed, they are pills side by side at the end
of the page (what the seat holds and knows, the deadline, the table, the log, table talk), not a
page-wide line each; a tap opens one as a card of the page's width; the table (like the log and
table talk) stays open or closed as the player left it across a reload (this browser's
localStorage), while "In hand", which shows the seat's placements, is closed on every load (as
"What you know": tests/browser/test_secrets_hide.py).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from tests.browser.conftest import PHONE
from tests.browser.test_first_screen_random import signed_in

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PILLS = "details.tab:not([open])"


def pill_rows(page) -> list[list[str]]:
    """The closed pills' ids, row by row (their top edges), as the phone lays them out."""
    boxes = page.evaluate(
        f"""() => [...document.querySelectorAll("{PILLS}")].filter(d => d.checkVisibility())
             .map(d => [d.id, Math.round(d.getBoundingClientRect().top),
                        d.getBoundingClientRect().height])"""
    )
    assert all(height >= 44 for _, _, height in boxes), boxes  # each a whole tap target
    rows: dict[int, list[str]] = {}
    for ident, top, _ in boxes:
        rows.setdefault(top, []).append(ident)
    return [rows[top] for top in sorted(rows)]


def test_closed_sections_are_pills_that_open_full_width_and_keep_their_state(
    browser, server, artifacts
):
    people = [get_user_model().objects.create_user(f"s{seat}") for seat in range(6)]
    game = services.game_create(host=people[0], options={"seed": 3}, name="P1")
    for n, user in enumerate(people[1:], start=2):
        services.game_join(code=game.code, user=user, name=f"P{n}")
    services.game_start(code=game.code, user=people[0])
    phone = signed_in(browser, server, people[1])
    page = phone.page
    page.goto(f"/g/{game.code}/")
    expect(page.locator("#table-section")).to_be_visible()

    rows = pill_rows(page)
    pills = [ident for row in rows for ident in row]
    for section in ("me-things", "knowledge", "table-section", "log", "chat-section"):
        assert section in pills, (section, rows)
    assert len(rows) < len(pills), rows  # side by side, not a line each
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    phone.screenshot(artifacts / "sections-closed.png", full_page=True)

    width = page.locator("#game").bounding_box()["width"]
    phone.open_section("me-things")
    expect(page.locator("#me-things .hand")).to_contain_text("Stake")
    assert page.locator("#me-things").bounding_box()["width"] >= width - 2  # a card again
    phone.open_section("table-section")
    assert page.locator("#table-section").bounding_box()["width"] >= width - 2
    phone.screenshot(artifacts / "sections-open.png", full_page=True)

    page.reload()
    expect(page.locator("#table-section")).to_have_attribute("open", "")
    expect(page.locator("#me-things")).not_to_have_attribute("open", "")  # a secret: closed
    expect(page.locator("#log")).not_to_have_attribute("open", "")
    page.locator("#table-section > summary").click()  # closed by the player: closed after a reload
    page.reload()
    expect(page.locator("#table-section")).not_to_have_attribute("open", "")
    phone.check_fits_the_phone()
    page.context.close()
