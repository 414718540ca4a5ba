"""The Ghost's screen on a phone: its title is one line above the move or the wait ("You are a
Ghost. Your team still wins or loses with you."), never a card: with the news of being Staked
and two more news cards above it, a card pushed the Ghost's wait below the first screen (seen in
a random 10-seat relic game). When the Ghost has a move (the Ghost vote in Mingling, their own
Last Will) its form says what to do; a Ghost who waits reads what a Ghost still does right
below the wait."""

from __future__ import annotations

import pytest

from tests.web.test_play import ROUND_1, ROUND_2

pytestmark = pytest.mark.django_db


def ghost_screen(html: str) -> str:
    return html.split('class="ghost-screen ghost-line"')[1].split("</section>")[0]


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


def test_r7_2_a_waiting_ghost_reads_its_title_then_the_wait_then_what_a_ghost_does(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    t.play(ROUND_2)
    t.phone(2).act(t.code, "intervention_vote", target="3")  # the Ghost has voted: it waits
    html = t.page(2)
    assert "You are a Ghost" in ghost_screen(html)
    title = html.index('id="ghost-title"')
    wait = html.index("data-waiting")
    how = html.index('class="card ghost-how"')
    assert title < wait < how
    assert "You still play: each round, cast your <strong>Ghost vote</strong>" in html[how:]
    assert "You still play" not in t.page(3)  # a living player reads none of it
