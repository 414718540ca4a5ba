"""Coming back to a slow game on a phone, in a real browser (Chromium, 390×844, touch).

Dev leaves the game for the night; while he is away the table finishes Mingling and Cleo, who had
the most Stakes, chooses Eli to examine her. When Dev opens the game again, "Since you last
looked" is on his first screen. Then he taps "Continue on another device", opens that link in a
second, fresh browser (another phone), presses Continue, and lands in his own seat there.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from games.models import Game
from tests.browser.conftest import PHONE, WAIT_MS
from tests.browser.pages import Phone
from tests.browser.test_private_news import round_one_by_services, seated_table
from tests.factories import went_away

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.long(33)
def test_r20_3_a_returning_player_sees_since_you_last_looked_first_and_continues_elsewhere(
    phones, browser, server, artifacts
):
    code, table = seated_table(phones(6), "LVHHHH")
    dev = table[3]
    dev.page.goto("about:blank")  # Dev closes the game for the night
    round_one_by_services(code, examiner=5)
    went_away(Game.objects.get(code=code), 4, timedelta(hours=9))

    dev.page.goto(f"/g/{code}/")
    card = dev.page.locator("#game [data-since]")
    expect(card).to_be_visible()
    expect(card).to_contain_text("Since you last looked")
    expect(card).to_contain_text("Round 2 begins")
    expect(card).to_contain_text("Cleo")
    dev.check_in_first_screen("#game [data-since]")
    dev.check_in_first_screen("#game [data-since] button")
    dev.check_fits_the_phone()
    dev.check_words_for_people()
    assert "choose_examiner" not in card.inner_text()
    dev.screenshot(artifacts / "slow-since-you-last-looked.png")

    # The inbox counts the games waiting on him, in the title too (and the app badge).
    dev.page.goto("/")
    expect(dev.page).to_have_title("(1) Staked!")
    expect(dev.page.locator(f'[data-inbox="{code}"]')).to_contain_text("Your move")
    dev.screenshot(artifacts / "slow-inbox-home.png")
    dev.page.goto(f"/g/{code}/")

    # "Continue on another device": the link as text and a QR code.
    dev.page.locator("[data-another-device]").click()
    dev.page.wait_for_url(re.compile(r"/device$"))
    expect(dev.page.locator(".another-device svg")).to_be_visible()
    link = dev.page.locator("[data-seat-link]").inner_text()
    assert f"/g/{code}/continue/" in link
    dev.screenshot(artifacts / "slow-continue-on-another-device.png")

    context = browser.new_context(**PHONE, base_url=server.url)
    context.set_default_timeout(WAIT_MS)
    try:
        other = Phone(context.new_page(), "Dev")
        other.page.goto(link)
        other.page.get_by_role("button", name="Continue as Dev").click()
        other.page.wait_for_url(re.compile(rf"/g/{code}/$"))
        expect(other.page.locator("#game .me-line")).to_contain_text("You are Dev, seat 4.")
        other.check_fits_the_phone()
        other.screenshot(artifacts / "slow-seat-on-second-device.png")
        # The first phone keeps its seat.
        dev.page.goto(f"/g/{code}/")
        expect(dev.page.locator("#game .me-line")).to_contain_text("You are Dev, seat 4.")
        # The link worked once: a third browser is refused, clearly.
        third = browser.new_context(**PHONE, base_url=server.url)
        try:
            page = third.new_page()
            page.goto(link)
            expect(page.locator("[data-link-refused]")).to_contain_text("already used")
        finally:
            third.close()
    finally:
        context.close()
