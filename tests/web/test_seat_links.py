"""Seat links ("Continue on another device"), beyond tests/web/test_slow_games.py: a refused
link is not used up, and a browser a link signed in plays that seat and nothing else."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.models import Game, SeatLinkUse
from tests import factories
from tests.web.conftest import Phone

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://testserver/g/[A-Z0-9]+/continue/[^\"'<\s]+")


def device_link(phone: Phone, code: str) -> str:
    html = phone.client.get(f"/g/{code}/device").content.decode()
    (url,) = set(LINK.findall(html))
    return url.removeprefix("http://testserver")


def guest_browser_with_a_seat(staff) -> Client:
    """A browser signed in as a guest who sits at another, unfinished table."""
    guest = factories.guest("Gia")
    lobby = services.game_create(host=staff, options={}, name="Staff")
    services.game_join(code=lobby.code, user=guest, name="Gia")
    browser = Client()
    browser.force_login(guest, backend=factories.SESSION_BACKEND)
    return browser


def test_a_link_refused_to_a_guest_browser_still_works_in_the_next_browser(table, staff):
    """The guest browser is refused (409: signing in would lose its guest's seats) and the
    link is not spent: every other browser used to get 410 "already used"."""
    t = table("LVHHHH")
    link = device_link(t.phone(4), t.code)
    refused = guest_browser_with_a_seat(staff).post(link)
    assert refused.status_code == 409 and "private window" in refused.content.decode()
    assert not SeatLinkUse.objects.exists()
    fresh = Client()
    assert fresh.post(link).status_code == 302
    assert "You are <strong>Dev</strong>, seat 4." in fresh.get(f"/g/{t.code}/").content.decode()
    assert SeatLinkUse.objects.count() == 1


def linked_browser(t, seat: int) -> Client:
    browser = Client()
    assert browser.post(device_link(t.phone(seat), t.code)).status_code == 302
    return browser


def test_a_link_signed_browser_cannot_open_a_rematch_lobby(table):
    """A rematch opens a lobby hosted by the link's owner: outside the seat's own moves."""
    t = table("LVHHHH")
    browser = linked_browser(t, 4)
    Game.objects.filter(code=t.code).update(status=Game.Status.FINISHED)
    games = Game.objects.count()
    page = browser.post(f"/g/{t.code}/rematch")
    assert page.status_code in (302, 403, 404) and Game.objects.count() == games
    if page.status_code == 302:  # to the sign-in, not to a new lobby
        assert "/g/" not in page["Location"]
    api = browser.post(f"/api/v1/games/{t.code}/rematch/", content_type="application/json")
    assert api.status_code in (401, 403) and Game.objects.count() == games
    assert t.phone(4).client.post(f"/g/{t.code}/rematch").status_code == 302  # the first device
    assert Game.objects.count() == games + 1


def test_a_link_signed_browser_plays_its_seat_and_does_nothing_else_there(table):
    t = table("LVHHHH", preset="async")
    host = linked_browser(t, 1)  # the host's own seat, on another device
    page = host.get(f"/g/{t.code}/").content.decode()
    assert "You are <strong>Ana</strong>, seat 1." in page
    moved = host.post(f"/g/{t.code}/act/place_token", {"token": "feast", "target": "3"})
    assert moved.status_code in (200, 302)
    assert any(p["owner"] == 1 for p in Game.objects.get(code=t.code).state["placements"])
    deadline = Game.objects.get(code=t.code).deadline
    refused = [
        ("deadline/extend", {"minutes": "60"}),
        ("deadline/pause", {}),
        ("seats/3/bot", {}),
        ("seats/3/invite", {}),
        ("leave", {}),
        ("options", {}),
    ]
    for tail, data in refused:
        host.post(f"/g/{t.code}/{tail}", data)
    game = Game.objects.get(code=t.code)
    assert game.deadline == deadline and not game.clock.get("paused")
    assert not game.players.filter(is_bot=True).exists()
    assert game.players.get(seat=1).user == t.phone(1).user and game.players.count() == 6
    assert game.players.get(seat=3).claim_token is None
