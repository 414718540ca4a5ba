"""Seat links ("Continue on another device"), beyond tests/web/test_slow_games.py: a refused
link is not used up, and a browser a link signed in plays that seat and nothing else."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.models import SeatLinkUse
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
