"""What a seat link may not do (issue 20 finding 7, issue 14 finding 2; a review of the links):
renew itself from the browser it signed in, end a guest who still plays elsewhere, or work a
second time after its player row was replaced. And a stranger's look at a private table
closes no window."""

from __future__ import annotations

import pytest
import time_machine
from django.test import Client

from games.models import Game, Player, SeatLinkUse
from tests.web.conftest import Phone, sit
from tests.web.test_slow_games import device_link

pytestmark = pytest.mark.django_db


def test_a_browser_a_link_signed_in_cannot_make_links_of_its_own(table):
    t = table("LVHHHH")
    fresh = Client()
    assert fresh.post(device_link(t.phone(4), t.code)).status_code == 302
    assert fresh.get(f"/g/{t.code}/device").status_code == 403
    answer = fresh.post(f"/api/v1/games/{t.code}/seat-link/")
    assert answer.status_code == 403, answer.content
    assert t.phone(4).client.get(f"/g/{t.code}/device").status_code == 200  # the first device can


def test_continue_as_refuses_to_end_a_guest_who_still_holds_seats(table, lobby):
    t = table("LVHHHH")
    link = device_link(t.phone(4), t.code)
    walt = Phone("Walt")  # a guest (no password) with a seat at another, unfinished table
    other = lobby("LVHHHH")
    other.phone(6).client.post(f"/g/{other.code}/leave")
    sit(walt, other.code)
    answer = walt.client.post(link)
    assert answer.status_code == 409 and "a guest cannot sign back in" in answer.content.decode()
    assert "Walt" in walt.page(other.code)
    assert "You are <strong>Dev</strong>" not in walt.client.get(f"/g/{t.code}/").content.decode()


def test_a_used_link_stays_used_after_its_player_row_is_replaced(table):
    """The nonce of a used link is kept when the player row it named goes (SET_NULL)."""
    t = table("LVHHHH")
    link = device_link(t.phone(4), t.code)
    assert Client().post(link).status_code == 302
    used = SeatLinkUse.objects.get()
    Player.objects.filter(pk=used.player_id).delete()
    assert SeatLinkUse.objects.filter(pk=used.pk, player=None).exists()


def test_a_strangers_look_at_a_private_table_closes_no_window(table):
    t = table("LVHHHH", spectators=False)
    game = t.game
    with time_machine.travel(game.state["deadline"] + 150, tick=True):
        assert Client().get(f"/g/{t.code}/").status_code == 404
        assert Game.objects.get(pk=game.pk).version == game.version
        assert t.phone(2).client.get(f"/g/{t.code}/").status_code == 200  # a player's look does
        assert Game.objects.get(pk=game.pk).version > game.version
