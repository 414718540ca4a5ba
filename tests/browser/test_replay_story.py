"""A finished game's story in a real browser: an eight-player game with Sacred Relics and Last
Wills (bots, played in memory and stored through the replay import: no phones to drive), read
on a phone (390×844, touch) and on the room screen (1280×720), step by step from the turning
points through every round to every role."""

from __future__ import annotations

import pytest

from games.engine import state_from_json
from tests.browser.conftest import PHONE, WAIT_MS
from tests.history.tables import bot_game, users

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips these tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOM = {"viewport": {"width": 1280, "height": 720}}
SCREENS = {"phone": PHONE, "room": ROOM}


def no_sideways_scrolling(page) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{wide}px of horizontal scrolling"


def small_targets(page) -> list:
    return page.evaluate(
        """Array.from(document.querySelectorAll('main a, main button, main summary'))
           .filter(el => el.offsetParent !== null)
           .map(el => [el.textContent.trim().slice(0, 30), el.getBoundingClientRect().height])
           .filter(([, h]) => h < 44)"""
    )


@pytest.mark.parametrize("screen", ["phone", "room"])
def test_an_eight_player_relic_games_story_steps_from_its_turning_points_to_every_role(
    browser, server, artifacts, screen
):
    game = bot_game(8, 2, users(1)[0])
    state = state_from_json(game.state)
    revealed = {e.round: len(e.data["tokens"]) for e in game.events.filter(kind="dining")}
    context = browser.new_context(**SCREENS[screen], base_url=server.url)
    context.set_default_timeout(WAIT_MS)
    try:
        page = context.new_page()
        page.goto(f"/g/{game.code}/replay/")
        expect(page.locator("#step-title")).to_contain_text("turning point")
        points = page.locator(".turning-point")
        expect(points.last).to_have_attribute("data-kind", "decisive")
        expect(page.locator(".replay-step")).not_to_contain_text("Seat ")
        no_sideways_scrolling(page)
        assert small_targets(page) == []
        page.screenshot(path=str(artifacts / f"replay-story-{screen}.png"), full_page=True)

        for number in range(1, state.round + 1):
            page.get_by_role("link", name=f"Round {number} →").click()
            expect(page.locator("#step-title")).to_contain_text(f"Round {number} of")
            seats = page.locator(".story-seat")
            expect(seats).to_have_count(8)
            expect(page.locator(".story-tokens .token")).to_have_count(revealed.get(number, 0))
            no_sideways_scrolling(page)
            if number in (1, 2):
                shot = artifacts / f"replay-story-{screen}-round-{number}.png"
                page.screenshot(path=str(shot), full_page=screen == "phone")
        if screen == "room":  # the room screen shows a round on one screen: no scrolling
            tall = page.evaluate("document.documentElement.scrollHeight - window.innerHeight")
            assert tall <= 0, f"{tall}px of scrolling on the room screen"
        page.get_by_role("link", name="The end: every role →").click()
        expect(page.locator(".replay-step .role-chip")).to_have_count(8)
        expect(page.locator(".replay-step")).to_contain_text("Vampire Lord")
        no_sideways_scrolling(page)
        page.screenshot(path=str(artifacts / f"replay-story-{screen}-end.png"), full_page=True)
    finally:
        context.close()
