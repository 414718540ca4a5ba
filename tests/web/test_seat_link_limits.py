"""What a seat link may not do (a review of the links):
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
    assert answer.status_code in (401, 403), answer.content  # a visitor there (seat_scope)
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


def test_i14_2_sign_out_other_devices_ends_link_sessions_and_cancels_links_the_first_keeps_playing(
    table,
):
    t = table("LVHHHH")
    dev = t.phone(4)
    used, unused = device_link(dev, t.code), device_link(dev, t.code)
    second = Client()
    assert second.post(used).status_code == 302
    assert "You are <strong>Dev</strong>" in second.get(f"/g/{t.code}/").content.decode()

    assert second.post(f"/g/{t.code}/device/sign-out").status_code == 403  # not from a link's
    done = dev.client.post(f"/g/{t.code}/device/sign-out")
    assert done.status_code == 302 and done["Location"].endswith("/device?signed_out=1")
    assert "your other devices are signed out" in dev.client.get(done["Location"]).content.decode()

    page = second.get(f"/g/{t.code}/").content.decode()
    assert "You are watching" in page
    # The signed-out phone is told what happened and how to get the seat back, on every look.
    assert "This device was signed out of its seat" in page
    assert "ask the seat's player for a new link" in page
    assert "data-signed-out" in second.get(f"/g/{t.code}/").content.decode()
    assert "data-signed-out " not in Client().get(f"/g/{t.code}/").content.decode()
    assert second.session.get("_auth_user_id") is None  # signed out, not only hidden
    cancelled = Client().post(unused)
    assert cancelled.status_code == 410 and "cancelled" in cancelled.content.decode()
    assert "You are <strong>Dev</strong>" in t.page(4)  # the device that pressed it plays on
    fresh = Client()
    assert fresh.post(device_link(dev, t.code)).status_code == 302  # a new link works
    assert "You are <strong>Dev</strong>" in fresh.get(f"/g/{t.code}/").content.decode()
    assert "data-signed-out " not in fresh.get(f"/g/{t.code}/").content.decode()


def test_i14_2_only_a_seated_player_signs_out_devices_and_only_by_post(table):
    t = table("LVHHHH")
    assert Client().post(f"/g/{t.code}/device/sign-out").status_code == 404
    assert t.phone(4).client.get(f"/g/{t.code}/device/sign-out").status_code == 405
    before = Player.objects.get(game=t.game, seat=4).link_epoch
    assert t.phone(3).client.post(f"/g/{t.code}/device/sign-out").status_code == 302
    assert Player.objects.get(game=t.game, seat=4).link_epoch == before  # only seat 3's


def test_a_link_session_from_before_link_epochs_still_plays(table):
    """Browsers signed in before the epoch existed carry no epoch: they count as epoch 0."""
    t = table("LVHHHH")
    second = Client()
    assert second.post(device_link(t.phone(4), t.code)).status_code == 302
    session = second.session
    del session["seat_scope_epochs"]
    session.save()
    assert "You are <strong>Dev</strong>" in second.get(f"/g/{t.code}/").content.decode()


def test_i14_2_an_api_player_signs_out_the_browsers_their_links_signed_in(client):
    token = client.post("/api/v1/auth/guest/", {"name": "Zoe"}, content_type="application/json")
    auth = {"HTTP_AUTHORIZATION": f"Token {token.json()['token']}"}
    code = client.post("/api/v1/games/", {}, content_type="application/json", **auth).json()["code"]
    made = Client().post(f"/api/v1/games/{code}/seat-link/", **auth).json()
    browser = Client()
    assert browser.post(made["url"].removeprefix("http://testserver")).status_code == 302
    assert "Zoe" in browser.get(f"/g/{code}/").content.decode()

    assert Client().delete(f"/api/v1/games/{code}/seat-link/", **auth).status_code == 204
    browser.get(f"/g/{code}/")
    assert browser.session.get("_auth_user_id") is None  # signed out
    assert Client().get(f"/api/v1/games/{code}/", **auth).status_code == 200  # the token plays on
    stranger = Client().post(
        "/api/v1/auth/guest/", {"name": "Yan"}, content_type="application/json"
    )
    refused = Client().delete(
        f"/api/v1/games/{code}/seat-link/", HTTP_AUTHORIZATION=f"Token {stranger.json()['token']}"
    )
    assert refused.status_code == 403 and refused.json()["code"] == "not_seated"
