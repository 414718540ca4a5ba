"""Rematch through the pages: the end screen's one button, and the link everyone then
sees to the new lobby."""

import re

import pytest

from games.models import Game
from tests.web.conftest import Phone, alert_text
from tests.web.test_play import ROUND_1, ROUND_2, ROUND_3

pytestmark = pytest.mark.django_db


def finished(table):
    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    t.play(ROUND_2)
    t.phone(2).act(t.code, "intervention_vote", target="3")
    t.play(ROUND_3)
    assert t.game.status == Game.Status.FINISHED
    return t


def test_the_end_screen_button_opens_the_rematch_lobby_and_everyone_sees_the_link(table):
    t = finished(table)
    assert f'action="/g/{t.code}/rematch"' in t.page(4)
    spectator = Phone("Zed")
    watching = spectator.client.get(f"/g/{t.code}/").content.decode()
    assert "/rematch" not in watching  # only the players may ask

    response = t.phone(4).post(f"/g/{t.code}/rematch", htmx=False, expect=302)
    code = re.fullmatch(r"/g/([A-Z0-9]{6})/", response["Location"]).group(1)
    assert code != t.code
    lobby = t.phone(4).page(code)
    assert "Start the game" not in lobby  # Ana (seat 1) hosts, as before
    assert "Rematch of table" in lobby
    assert all(name in lobby for name in ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"))
    assert "Start the game" in t.phone(1).page(code)

    for html in (t.page(2), spectator.client.get(f"/g/{t.code}/").content.decode()):
        assert f'href="/g/{code}/"' in html and f"Play again: table {code} is open" in html
    again = t.phone(6).post(f"/g/{t.code}/rematch", htmx=False, expect=302)
    assert again["Location"] == f"/g/{code}/"


def test_a_spectator_or_a_running_game_is_refused_with_the_reason(table):
    t = table("LVHHHH")
    response = t.phone(1).post(f"/g/{t.code}/rematch", expect=409)
    assert "once the game is over" in alert_text(response.content.decode())
    t = finished(table)
    response = Phone("Zed").post(f"/g/{t.code}/rematch", expect=403)
    assert "Only the players" in alert_text(response.content.decode())
