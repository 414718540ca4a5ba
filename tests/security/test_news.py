"""Private news leaks nothing: a card is on its own seat's page only, and the number a
card carries counts only the lines that seat may see (the game's own seqs also count other seats'
private lines, and a gap would tell a player that someone else learned a secret)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Event
from games.selectors import game as selectors
from games.selectors import news
from tests.web.conftest import lobby, phones, staff  # noqa: F401 - the web cast
from tests.web.test_news import news_numbers
from tests.web.test_play import ROUND_1

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(lobby):  # noqa: F811 - the imported fixture
    """A game started through the pages, phones at every seat (tests/web's `table`)."""

    def make(roles: str):
        t = lobby(roles)
        t.phone(1).post(f"/g/{t.code}/start")
        return t

    return make


def test_a_news_number_is_the_seats_own_count_never_the_games(running):
    t = running("LVHHHH")  # seats 1 and 2 got private night lines before seat 4's news
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    (number,) = news_numbers(t.page(4))
    mine, _ = selectors.events_seen_by(t.game, 4)
    assert next(e for e in mine if e["kind"] == "examined")["seq"] == number
    examined = Event.objects.get(game=t.game, kind="examined")
    assert examined.seq > number  # the game's own number would have told
    assert news.unread(t.game, 4)[0]["number"] == number


def test_no_one_else_sees_or_dismisses_a_seats_news(running):
    t = running("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    (number,) = news_numbers(t.page(4))
    stranger = Client()
    assert stranger.post(f"/g/{t.code}/news/{number}").status_code == 403
    assert "Cleo</bdi> is a Hunter" not in stranger.get(f"/g/{t.code}/").content.decode()
    for seat in (1, 2, 3, 5, 6):
        t.phone(seat).post(f"/g/{t.code}/news/{number}", expect=404)
        assert "Cleo</bdi> is a Hunter" not in t.page(seat)
    assert news_numbers(t.page(4)) == [number]
