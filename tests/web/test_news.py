"""Private news cards: what happened to a seat sits at the top of its page, in words for
people, until the player taps "Got it"; the server keeps that, so a second device agrees; nobody
else ever sees the card."""

import re

import pytest
from django.test import Client

from games.models import Player
from tests.web.test_play import ROUND_1

pytestmark = pytest.mark.django_db

CARD = re.compile(r'<section class="card news[^"]*" data-news="(\d+)"')


def news_numbers(html: str) -> list[int]:
    return [int(n) for n in CARD.findall(html)]


def first_news(html: str) -> str:
    """The card's HTML: it comes before every other part of the game below the status bar."""
    start = html.index('class="card news')
    return html[start : html.index("</section>", start)]


def test_r6_1_the_examiner_gets_a_news_card_above_everything_else_and_only_they_do(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    html = t.page(4)
    assert len(news_numbers(html)) == 1
    card = first_news(html)
    assert '<bdi class="name">Cleo</bdi> is a Hunter.' in card
    assert html.index('class="card news') < html.index('class="card me"')
    assert html.index('class="card news') < html.index('class="actions"')
    for seat in (1, 2, 3, 5, 6):  # the Lord and the Vampire have only their night news
        assert "Cleo</bdi> is a Hunter." not in t.page(seat), seat
    assert [k for k in map(t.page, (3, 5, 6)) if news_numbers(k)] == []
    assert "Cleo</bdi> is a Hunter." not in Client().get(f"/g/{t.code}/").content.decode()


def test_got_it_dismisses_the_card_on_every_device_of_that_seat(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    (number,) = news_numbers(t.page(4))
    second_device = Client()
    second_device.force_login(Player.objects.get(game=t.game, seat=4).user)
    assert news_numbers(second_device.get(f"/g/{t.code}/").content.decode()) == [number]

    html = t.phone(4).post(f"/g/{t.code}/news/{number}").content.decode()
    assert not news_numbers(html)
    assert not news_numbers(second_device.get(f"/g/{t.code}/").content.decode())
    assert "Cleo</bdi> is a Hunter" in html  # still in "What you know"


def test_nobody_dismisses_another_seats_news(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    (number,) = news_numbers(t.page(4))
    t.phone(5).post(f"/g/{t.code}/news/{number}", expect=404)
    assert news_numbers(t.page(4)) == [number]


def test_r8_1_a_mesmerized_hunter_gets_a_card_that_takes_over_the_screen(table):
    t = table("HHLHHV")  # seat 3, who gets the most Stakes in round 1, is the Lord
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    card = first_news(t.page(4))
    assert "news-takeover" in card and "You are Mesmerized" in card
    assert "you win only if the Vampires win" in card
    vampire = t.page(6)
    assert "Dev</bdi> saw the Lord's card" in first_news(vampire)  # the newest first
    assert "news-takeover" not in vampire
    for seat in (1, 2, 5):
        assert not news_numbers(t.page(seat)), seat


def test_a_players_own_moves_are_not_news(table):
    t = table("LVHHHH")
    t.phone(3).place(t.code, "S4")
    assert not news_numbers(t.page(3))
