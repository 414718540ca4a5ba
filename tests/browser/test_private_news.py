"""Private news on phones, in a real browser (Chromium, 390×844, touch).

Seat 3 is the Vampire Lord and gets the most Stakes in round 1; Dev (seat 4) examines the card and
is Mesmerized (R6.1, R8.1). Dev's phone is taken over by the news, then shows what Dev saw, both
on the first screen until Dev taps "Got it"; the Vampire (seat 6) is told on the first screen
too; nobody else sees a card. Dev's dismissal is kept by the server: a reload, or the same seat's
session opened in another browser, shows no card again.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game
from tests.browser.conftest import PHONE
from tests.browser.pages import NAMES, Phone
from tests.web.conftest import LETTERS, TOKENS
from tests.web.test_play import ROUND_1

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seated_table(pages, roles: str, **options) -> tuple[str, list[Phone]]:
    """A staff member deals `roles` ("HHLHHV") and leaves; the phones sit by the invite link and
    seat 1 starts the game."""
    staff = get_user_model().objects.create_user("staffer", password="pw-staffer-1", is_staff=True)
    deal = {str(i): LETTERS[r] for i, r in enumerate(roles, start=1)}
    options = {"roles": deal, "last_wills": False, **options}
    game = services.game_create(host=staff, options=options, name="Staff")
    table = [Phone(page, name) for page, name in zip(pages, NAMES, strict=True)]
    for seat, phone in enumerate(table, start=1):
        phone.join_by_link(f"/g/{game.code}/")
        phone.seat = seat
    services.game_leave(code=game.code, user=staff)
    table[0].page.reload()
    table[0].page.get_by_role("button", name="Start the game").click()
    for phone in table:
        phone.page.wait_for_selector('form[data-action="place_token"]')
    return game.code, table


def round_one_by_services(code: str, examiner: int) -> None:
    users = {p.seat: p.user for p in Game.objects.get(code=code).players.all()}
    for seat, plan in ROUND_1.items():
        for word in plan.split():
            args = {"token": TOKENS[word[0]], "target": int(word[1:])}
            services.action_apply(code=code, user=users[seat], name="place_token", args=args)
    choice = {"target": examiner}
    services.action_apply(code=code, user=users[3], name="choose_examiner", args=choice)


@pytest.mark.long(24)
def test_r8_1_mesmerized_news_takes_over_the_phone_until_got_it_and_stays_read(
    phones, browser, server, artifacts
):
    code, table = seated_table(phones(6), "HHLHHV")
    round_one_by_services(code, examiner=4)
    dev, eli, fay = table[3], table[4], table[5]

    takeover = dev.page.locator("#game .news-takeover")
    expect(takeover).to_be_visible()
    expect(takeover).to_contain_text("You are Mesmerized")
    dev.check_in_first_screen("#game .news-takeover .news-title")
    dev.check_in_first_screen("#game .news-takeover button")
    dev.check_fits_the_phone()
    dev.check_words_for_people()
    dev.screenshot(artifacts / "news-mesmerized-hunter.png")
    dev.got_it()

    seen = dev.page.locator("#game .news").first
    expect(seen).to_contain_text("Cleo is the Vampire Lord.")
    dev.check_in_first_screen("#game .news")
    dev.screenshot(artifacts / "news-examination-result.png")
    dev.got_it()
    expect(dev.page.locator("#game .news")).to_have_count(0)
    dev.page.reload()
    expect(dev.page.locator("#game .status-bar .round")).to_have_text("Round 2")
    expect(dev.page.locator("#game .news")).to_have_count(0)

    # The same seat in another browser (its session copied) agrees: the news was read.
    other = browser.new_context(**PHONE, base_url=server.url)
    try:
        other.add_cookies(dev.page.context.cookies())
        page = other.new_page()
        page.goto(f"/g/{code}/")
        expect(page.locator("#game .me-line")).to_contain_text("Dev")
        expect(page.locator("#game .news")).to_have_count(0)
    finally:
        other.close()

    fay.page.wait_for_selector('#game .news:has-text("Dev saw the Lord")')
    fay.check_in_first_screen('#game .news:has-text("Dev saw the Lord")')
    fay.check_words_for_people()
    fay.screenshot(artifacts / "news-vampire-told.png")
    assert fay.page.locator("#game .news-takeover").count() == 0

    eli.wait_for_round(2)
    expect(eli.page.locator("#game .news")).to_have_count(0)
    assert "Mesmerized" not in eli.page.locator("body").inner_text()


@pytest.mark.long(26)
def test_a_news_card_that_arrives_above_the_view_gets_a_cue_that_leads_to_it(phones, artifacts):
    """Dev has scrolled down to the table when his examination's news arrives at the top of his
    page: a cue at the top of the screen says so; a tap brings the card into view, and the cue
    goes."""
    code, table = seated_table(phones(6), "LVHHHH")
    dev = table[3]
    dev.page.locator("#table-section > summary").click()  # a long page: the table opened
    dev.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    round_one_by_services(code, examiner=4)  # Cleo chooses Dev: he sees her card
    cue = dev.page.locator("[data-news-cue]")
    expect(cue).to_be_visible()
    assert cue.bounding_box()["height"] >= 44
    dev.screenshot(artifacts / "news-cue.png")
    cue.click()
    expect(cue).to_have_count(0)
    card = dev.page.locator("#game [data-news]").first
    expect(card).to_be_in_viewport()
    expect(card).to_contain_text("Cleo is a Hunter")
