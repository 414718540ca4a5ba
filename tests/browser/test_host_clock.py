"""On a phone (390×844): the host pauses the running game, extends it by an
hour and resumes it from the clock card, every control a 44 px target, the page never scrolling
sideways; another player's page says the game is paused, and he asks the table to pause."""

from __future__ import annotations

import pytest

from games.engine import state_from_json
from games.models import Game
from tests.browser.pages import Phone

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_host_pauses_extends_and_resumes_from_the_phone(phones, artifacts):
    host_page, guest_page = phones(2)
    ana, ben = Phone(host_page, "Ana"), Phone(guest_page, "Ben")
    code = ana.open_table(last_wills=False)
    ben.join_by_link(f"/g/{code}/")
    ana.page.locator("#bot-count").select_option("4")
    ana.page.get_by_role("button", name="Add bots").click()
    expect(ana.page.locator(".lobby-seat")).to_have_count(6)
    ana.page.get_by_role("button", name="Start the game").click()

    ana.page.locator("#clock > summary").click()  # live and untouched: folded below her card
    card = ana.page.locator("[data-host-clock]")
    expect(card).to_be_visible()
    pause = card.get_by_role("button", name="Pause")
    assert pause.bounding_box()["height"] >= 44
    ana.check_fits_the_phone()
    pause.click()
    expect(ana.page.locator("[data-paused]")).to_be_visible()
    expect(ben.page.locator("#clock-title")).to_have_text("⏸ Paused")  # the next poll tells Ben
    game = Game.objects.get(code=code)
    assert game.deadline is None and "paused_left" in game.clock
    kept = game.clock["paused_left"]

    ana.page.locator("#extend-minutes").select_option("60")
    ana.page.locator("[data-clock-extend]").click()
    expect(ana.page.locator("#log-region .log")).to_contain_text(
        "The host extended the deadline by 1 hour"
    )
    assert Game.objects.get(code=code).clock["paused_left"] == kept + 3600
    ana.check_fits_the_phone()
    ana.check_accessibility()
    ana.screenshot(artifacts / "host-clock-paused.png")

    ana.page.locator("[data-clock-resume]").click()
    expect(ana.page.locator("[data-paused]")).to_have_count(0)
    expect(ana.page.locator(".countdown")).to_be_visible()
    assert state_from_json(Game.objects.get(code=code).state).deadline is not None
    ana.check_tap_targets()

    # Ben is no host: he asks the table; his controls are 44 px targets too.
    ben.page.reload()
    ben.page.locator(".clock-ask summary").click()
    ben.page.locator("[data-clock-ask-pause]").click()
    expect(ben.page.locator("[data-clock-vote]")).to_contain_text("1 of 2 agree")
    ben.check_fits_the_phone()
