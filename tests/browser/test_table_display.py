"""The table display in a real browser: a laptop in the room opens `/t/{code}/` while
the players play on their phones; the countdown ticks, and placements and the phase appear
without a reload."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from tests.browser.conftest import WAIT_MS
from tests.browser.pages import Phone
from tests.factories import running_game

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips these tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = {"viewport": {"width": 1280, "height": 720}}


def signed_in(browser, server, user):
    """A phone already signed in as `user` (a session made by Django's test client)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=server.url, viewport={"width": 390, "height": 844})
    context.set_default_timeout(WAIT_MS)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server.url}]
    )
    return context


@pytest.mark.long(13)
def test_the_room_screen_follows_the_game_without_a_reload(browser, server, artifacts):
    game = running_game(6)
    screen = browser.new_context(base_url=server.url, **SCREEN)
    phone_context = signed_in(browser, server, game.users[0])
    try:
        tv = screen.new_page()
        tv.goto(f"/t/{game.code}/")
        tv.evaluate("window.sameDocument = true")
        board = tv.locator("#display")
        expect(board.locator(".display-seat")).to_have_count(6)
        expect(board.locator(".phase")).to_have_text("Mingling")

        # The countdown ticks, from the server's deadline.
        value = board.locator(".countdown-value")
        expect(value).to_have_text(re.compile(r"⏱ \d+:\d\d"))
        first = value.inner_text()
        expect(value).not_to_have_text(first)  # it changes every second (the default wait)

        # A phone places a token: the screen shows who placed on whom, never the token's type.
        ana = Phone(phone_context.new_page(), "p0")
        ana.seat = 1
        ana.page.goto(f"/g/{game.code}/")
        ana.place("stake", 3)
        seat3 = board.locator('.display-seat[data-seat="3"]')
        expect(seat3.locator(".placed-chip")).to_have_text(["1"])
        services.action_apply(
            code=game.code,
            user=game.users[3],
            name="place_token",
            args={"token": "feast", "target": 3},
        )
        expect(seat3.locator(".placed-chip")).to_have_text(["1", "4"])
        assert not re.search(r"token-(stake|feast)", board.inner_html())
        tv.screenshot(path=str(artifacts / "table-display.png"))

        # The window closes on its timer: the screen moves on to the Dining's results.
        game.refresh_from_db()
        services.game_expire(game_id=game.id, now=game.state["deadline"] + 1)
        expect(board.locator(".dining h2").first).to_contain_text("Dining, round 1")
        expect(board.locator(".phase")).not_to_have_text("Mingling")
        assert tv.evaluate("window.sameDocument") is True  # swapped in place, never reloaded
        # No game controls: the only ones are the narrator's, beside the board.
        assert board.locator("form, input, button, select, textarea").count() == 0
        wide = tv.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"{wide}px of horizontal scrolling"
    finally:
        screen.close()
        phone_context.close()
