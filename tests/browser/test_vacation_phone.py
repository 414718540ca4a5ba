"""Vacation mode on a phone (390×844): Ben goes on vacation from his game page's card
(two date-and-time fields in his own zone, every control a 44 px target, nothing scrolling
sideways); his page says a bot plays his seat, Ana's table shows him "on vacation until ...", and
"I'm back" hands the seat back. A first-time spectator in another zone reads that time in her
own zone, never "UTC" (the server could not know her zone on her first load)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from games.models import Game, Player
from games.presenters import times
from tests.browser.conftest import PHONE, WAIT_MS
from tests.browser.pages import Phone

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.long(14)
def test_a_player_goes_on_vacation_and_comes_back_from_the_phone(
    phones, browser, server, artifacts
):
    host_page, guest_page = phones(2)
    ana, ben = Phone(host_page, "Ana"), Phone(guest_page, "Ben")
    code = ana.open_table(last_wills=False)
    game = Game.objects.get(code=code)
    Game.objects.filter(id=game.id).update(options={**game.options, "preset": "async"})
    ben.join_by_link(f"/g/{code}/")
    ana.page.reload()
    ana.page.locator("#bot-count").select_option("4")
    ana.page.get_by_role("button", name="Add bots").click()
    expect(ana.page.locator(".lobby-seat")).to_have_count(6)
    ana.page.get_by_role("button", name="Start the game").click()
    expect(ana.page.locator(".status-bar .round")).to_be_visible()

    ben.page.reload()
    summary = ben.page.locator(".vacation-ask summary")
    summary.click()
    until = timezone.now() + timedelta(days=2)
    zone = ben.page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    local = until.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%dT%H:%M")
    ben.page.locator("#vacation-until").fill(local)
    ben.check_tap_targets()
    ben.check_fits_the_phone()
    ben.page.locator("[data-vacation-go]").click()
    expect(ben.page.locator("[data-vacation-on]")).to_contain_text("A bot plays your seat until")
    seat = Player.objects.get(game=game, name="Ben")
    assert seat.vacation_on and abs((seat.vacation_until - until).total_seconds()) < 60
    back = ben.page.locator("[data-vacation-back]")
    assert back.bounding_box()["height"] >= 44
    ben.check_fits_the_phone()
    ben.screenshot(artifacts / "vacation-on.png")

    badge = ana.page.locator(f'[data-vacation-badge="{seat.seat}"]')
    expect(badge).to_contain_text("On vacation until")  # the next poll tells the table
    expect(ana.page.locator("#log-region .log")).to_contain_text("Ben is on vacation until")

    # A spectator's first visit, from Berlin: no zone cookie yet, so the server wrote UTC; the
    # page's script writes the time again in her zone, as the next poll would.
    first_visit = browser.new_context(**PHONE, base_url=server.url, timezone_id="Europe/Berlin")
    first_visit.set_default_timeout(WAIT_MS)
    try:
        watcher = first_visit.new_page()
        watcher.goto(f"/g/{code}/")
        until_text = watcher.locator(f'[data-vacation-badge="{seat.seat}"] time')
        berlin = times.clock(seat.vacation_until, ZoneInfo("Europe/Berlin"))
        expect(until_text).to_have_text(berlin)
        assert " UTC" not in watcher.locator("body").inner_text()
    finally:
        first_visit.close()

    back.click()
    expect(ben.page.locator("[data-vacation-on]")).to_have_count(0)
    expect(ana.page.locator("#log-region .log")).to_contain_text("Ben is back from vacation")
    expect(badge).to_have_count(0)
    assert not Player.objects.get(pk=seat.pk).vacation_on
