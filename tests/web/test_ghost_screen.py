"""The Ghost's screen on a phone: when the Ghost has a move (the Ghost vote in Mingling,
their own Last Will) it is one line, since the form right below says what to do. With the news
of being Staked and another card above it, the longer text pushed the Ghost vote below the first
screen (seen by tests/browser/test_whole_game.py's per-phone checks); a Ghost who waits gets the
full text."""

from __future__ import annotations

import pytest

from tests.web.test_play import ROUND_1, ROUND_2

pytestmark = pytest.mark.django_db


def ghost_screen(html: str) -> str:
    return html.split('class="card ghost-screen"')[1].split("</section>")[0]


def test_r7_2_in_mingling_the_ghost_screen_is_one_line_above_the_ghost_vote(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    t.play(ROUND_2)  # seat 2 is Staked: round 3's Mingling
    html = t.page(2)
    screen = ghost_screen(html)
    assert "You are a Ghost" in screen
    assert "Your team still wins or loses with you." in screen
    assert "You still play" not in screen
    assert "the one most Ghosts choose is Protected this round" in html  # the form says it
