"""Your games in a real browser, on a phone (390×844, touch): a guest opens the replay
from a game's end screen and steps through it from its story to every role, finds their games
and figures from the home page, and registers there to keep them."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from tests.browser.conftest import PHONE, WAIT_MS
from tests.history.tables import lord_examined_by_seat_1, play_to_the_end, table, users

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips these tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def phone_of(browser, server, user):
    """A phone already signed in as `user` (a session made by Django's test client)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(**PHONE, base_url=server.url)
    context.set_default_timeout(WAIT_MS)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server.url}]
    )
    return context


def fits_the_phone(page) -> None:
    """No horizontal scrolling; every link, button and field of the page is at least 44 px."""
    page.wait_for_load_state()  # a page reached by a click may be measured before its CSS came
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{wide}px of horizontal scrolling"
    small = page.evaluate(
        """Array.from(document.querySelectorAll('main a, main button, main input, main summary'))
           .filter(el => el.offsetParent !== null)
           .map(el => [el.textContent.trim().slice(0, 30), el.getBoundingClientRect().height])
           .filter(([, h]) => h < 44)"""
    )
    assert small == [], small


def test_a_guest_replays_a_game_finds_their_figures_and_registers_to_keep_them(
    browser, server, artifacts
):
    ana = services.guest_create(name="Ana")
    others = users(5)
    game = table([ana, *others])
    lord_examined_by_seat_1(game)  # Ana examines the Lord in round 1: Mesmerized
    game = play_to_the_end(game)
    later = play_to_the_end(table([ana, *others]))
    context = phone_of(browser, server, ana)
    try:
        page = context.new_page()

        # The end screen leads to the replay, which starts with the story, then round 1.
        page.goto(f"/g/{game.code}/")
        page.get_by_role("link", name="Replay this game").click()
        expect(page.locator("#step-title")).to_contain_text("turning point")
        fits_the_phone(page)
        page.get_by_role("link", name="Round 1 →").click()
        expect(page.locator("#step-title")).to_contain_text("Round 1")
        expect(page.locator(".replay-step")).not_to_contain_text("Vampire Lord")
        fits_the_phone(page)
        for number in range(2, game.round + 1):
            page.get_by_role("link", name=f"Round {number} →").click()
            expect(page.locator("#step-title")).to_contain_text(f"Round {number}")
            if number == 2:
                page.screenshot(path=str(artifacts / "replay-round.png"), full_page=True)
        page.get_by_role("link", name="The end: every role →").click()
        end = page.locator(".replay-step")
        expect(end.locator(".role-chip")).to_have_count(6)
        expect(end).to_contain_text("Vampire Lord")
        expect(end.locator("tr", has_text="Ana")).to_contain_text("Mesmerized")
        fits_the_phone(page)
        page.screenshot(path=str(artifacts / "replay-end.png"), full_page=True)

        # From the home page: the games, newest first, and the figures.
        page.goto("/")
        page.get_by_role("link", name="Your games").click()
        expect(page).to_have_url(re.compile(r"/me/games$"))
        games = page.locator(".history-game")
        expect(games).to_have_count(2)
        expect(games.first).to_have_attribute("data-code", later.code)
        expect(games.nth(1)).to_contain_text("Mesmerized")
        expect(page.locator('[data-figure="games"]')).to_have_text("2")
        expect(page.locator('tr[data-role="hunter"] td').first).to_have_text("2")
        expect(page.locator("[data-left-out]")).to_contain_text("practice games never do")
        fits_the_phone(page)
        page.screenshot(path=str(artifacts / "my-games.png"), full_page=True)

        # A guest keeps them by registering: same phone, same games.
        page.get_by_label("Username").fill("ana.k")
        page.get_by_label("Password").fill("correct-horse")
        page.get_by_role("button", name="Register").click()
        expect(page.get_by_role("status")).to_contain_text("Registered as ana.k")
        expect(page.locator(".history-game")).to_have_count(2)
        expect(page.get_by_role("button", name="Register")).to_have_count(0)
        page.get_by_role("link", name=f"Replay {game.code} →").click()
        expect(page.locator("#step-title")).to_contain_text("turning point")
    finally:
        context.close()
    ana.refresh_from_db()
    assert ana.username == "ana.k"
