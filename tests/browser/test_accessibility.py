"""Accessibility on phones: axe-core (npm, vendored for the tests only) finds no
serious or critical violation, colour contrast included, on each main page at each phase: home,
the rules, the lobby (host and invitee), Mingling with private news, the tie vote, the next
round's recap, a Ghost's screen, the end screen and the room screen. Every control is also at
least 44×44 px and no rule ID shows."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.browser.pages import Phone
from tests.browser.test_first_screen import play_by_services
from tests.browser.test_private_news import seated_table
from tests.web.test_play import ROUND_1, ROUND_2, ROUND_3

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIE = {1: "S3 S4 F5", 2: "S3 S4 F5", 3: "S4 S5 F6", 4: "S3 S5 F6", 5: "S4 S6 F3", 6: "S3 S5 F4"}


def check(phone: Phone, shot=None) -> None:
    phone.check_accessibility()
    phone.check_tap_targets()
    phone.check_words_for_people()
    if shot is not None:
        phone.screenshot(shot)


def test_home_rules_and_the_lobby_pass_axe(phones, artifacts):
    ana, ben = (Phone(p, n) for p, n in zip(phones(2), ["Ana", "Ben"], strict=True))
    ana.page.goto("/")
    check(ana, artifacts / "home.png")
    ana.page.goto("/rules/")
    check(ana, artifacts / "rules.png")
    ana.page.goto("/rules/dining/")
    check(ana)
    code = ana.open_table()
    check(ana)
    ana.page.locator(".options-edit summary").click()
    check(ana)
    ben.page.goto(f"/g/{code}/")
    check(ben, artifacts / "lobby-invitee-axe.png")


@pytest.mark.long(21)
def test_every_phase_of_a_game_passes_axe(phones, artifacts):
    code, table = seated_table(phones(6), "LVHHHH")
    ana, ben, cleo = table[0], table[1], table[2]
    check(ana, artifacts / "mingling-lord-with-news.png")  # the night news card is up
    check(cleo, artifacts / "mingling-hunter.png")
    check(ben, artifacts / "mingling-vampire-with-news.png")

    play_by_services(code, TIE)  # a tie for the most Stakes: Cleo and Dev
    expect(ana.page.locator("#game .tie-who")).to_be_visible()
    check(ana, artifacts / "tie-vote-lord.png")
    ana.page.goto(f"/t/{code}/")  # the room screen, as a player's phone opens it
    check(ana, artifacts / "room-screen-on-a-phone.png")
    ana.page.goto(f"/g/{code}/")


@pytest.mark.long(30)
def test_recap_ghost_and_end_screens_pass_axe(phones, artifacts):
    code, table = seated_table(phones(6), "LVHHHH")
    ana, ben, cleo = table[0], table[1], table[2]
    users = {p.seat: p.user for p in Game.objects.get(code=code).players.all()}
    play_by_services(code, ROUND_1)
    services.action_apply(code=code, user=users[3], name="choose_examiner", args={"target": 4})
    cleo.wait_for_round(2)
    check(cleo, artifacts / "round-2-examined-hunter.png")
    table[3].wait_for_round(2)
    check(table[3], artifacts / "round-2-examiner-news.png")

    play_by_services(code, ROUND_2)
    ben.wait_for_round(3)
    check(ben, artifacts / "staked-news-vampire.png")
    ben.got_it()
    check(ben, artifacts / "ghost-vote-vampire.png")
    services.action_apply(code=code, user=users[2], name="intervention_vote", args={"target": 3})
    play_by_services(code, ROUND_3)
    for phone in (ana, cleo):
        expect(phone.page.locator("#game .end")).to_contain_text("The Hunters win!")
        phone.open_dining()  # the last Dining is a tap away on the end screen: axe reads it too
        phone.wait_for_reveal()
    check(ana, artifacts / "end-lord.png")
    check(cleo, artifacts / "end-hunter.png")
