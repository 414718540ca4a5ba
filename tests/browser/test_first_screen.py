"""The first screen of every phone: after a Dining, the next Mingling opens with what
happened in brief above the player's own move; a player the table staked gets the Ghost's screen
and the news of it; a player who has moved sees whom the table waits for, and why."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.browser.test_private_news import round_one_by_services, seated_table
from tests.web.conftest import TOKENS
from tests.web.test_play import ROUND_2

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def play_by_services(code: str, plans: dict[int, str]) -> None:
    users = {p.seat: p.user for p in Game.objects.get(code=code).players.all()}
    for seat, plan in plans.items():
        for word in plan.split():
            args = {"token": TOKENS[word[0]], "target": int(word[1:])}
            services.action_apply(code=code, user=users[seat], name="place_token", args=args)


@pytest.mark.long(14)
def test_recap_ghost_screen_and_waiting_reason_are_on_the_first_screen(phones, artifacts):
    code, table = seated_table(phones(6), "LVHHHH")
    round_one_by_services(code, examiner=4)
    ana, ben, cleo = table[0], table[1], table[2]

    for phone in table:  # round 2: what happened in round 1, then the phone's own move
        phone.wait_for_round(2)
        phone.read_takeover_news()
        said = "You had the most Stakes" if phone is cleo else "Cleo had the most Stakes"
        expect(phone.page.locator("#recap-1")).to_contain_text(said)  # the reader is "you"
        phone.check_in_first_screen('form[data-action="place_token"] h2')  # below any news
        while phone.page.locator("#game .news").count():
            phone.got_it()
        phone.check_in_first_screen("#recap-1 summary")
        phone.check_words_for_people()
    cleo.check_fits_the_phone()
    cleo.screenshot(artifacts / "round-2-recap-hunter.png")
    ana.screenshot(artifacts / "round-2-recap-lord.png")

    cleo.page.locator("#recap-1 summary").click()  # hidden, and stays hidden across refreshes
    expect(cleo.page.locator("#recap-1 .recap-list")).to_be_hidden()

    play_by_services(code, {s: p for s, p in ROUND_2.items() if s != 1})
    expect(ana.page.locator('form[data-action="place_token"]')).to_be_visible()
    for phone in table[2:]:
        expect(phone.page.locator("#game [data-waiting]")).to_have_text(
            "Waiting for Ana to place their tokens."
        )
        phone.check_in_first_screen("#game [data-waiting]")
    expect(cleo.page.locator("#recap-1 .recap-list")).to_be_hidden()
    cleo.screenshot(artifacts / "waiting-for-a-player.png")

    play_by_services(code, {1: ROUND_2[1]})  # Ben is Staked (tests/web/test_play.py ROUND_2)
    ben.wait_for_round(3)
    expect(ben.page.locator("#game .news").first).to_contain_text("You were Staked")
    ben.check_in_first_screen("#game .news")
    expect(ben.page.locator("#game .ghost-screen")).to_contain_text("You are a Ghost")
    ben.screenshot(artifacts / "ghost-news.png")
    ben.got_it()
    ben.check_in_first_screen("#game .ghost-screen")
    ben.check_in_first_screen('form[data-action="intervention_vote"] h2')
    ben.check_fits_the_phone()
    ben.check_words_for_people()
    ben.screenshot(artifacts / "ghost-screen.png")
