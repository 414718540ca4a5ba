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


def readable(token: str) -> bytes:
    """Everything a person could read from a token without the server's key: the base64 of
    each of its parts, decoded (Django's signed tokens are `base64:timestamp:signature`)."""
    import base64

    out = b""
    for part in token.replace(".", ":").split(":"):
        try:
            out += base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
        except ValueError:
            continue
    return out


def test_a_seat_link_names_no_user_game_or_seat_to_whoever_reads_it(table):
    """A signed link's base64 held the player's internal user id; a sealed one is opaque."""
    t = table("LVHHHH")
    token = device_link(t.phone(4), t.code).rsplit("/", 1)[1]
    user_id = t.phone(4).user.id
    inside = readable(token)
    assert f'"u":{user_id}'.encode() not in inside and b'"u"' not in inside
    assert t.code.encode() not in inside and not token.startswith("eyJ")
    assert Client().post(f"/g/{t.code}/continue/{token}").status_code == 302  # and it works


def test_a_seat_link_signed_before_links_were_sealed_no_longer_opens(table):
    """The decision: a seat link lives a week and is made again with a tap; an old one is
    refused as not working rather than kept readable."""
    from django.core import signing

    from games.domain import seat_link_tokens

    t = table("LVHHHH")
    player = t.game.players.get(seat=4)
    old = signing.TimestampSigner(salt=seat_link_tokens.SALT).sign_object(
        {"g": t.code, "s": 4, "u": player.user_id, "n": "abc", "e": 0}
    )
    answer = Client().post(f"/g/{t.code}/continue/{old}")
    assert answer.status_code == 404 and "not a working seat link" in answer.content.decode()


def test_an_unsubscribe_link_does_not_show_the_address_and_an_old_signed_one_still_works(table):
    from django.core import signing

    from games.notify import unsubscribe_links
    from games.notify.models import Preferences

    t = table("LVHHHH")
    user = t.phone(3).user
    prefs = Preferences.objects.create(user=user, email="cleo@example.com", email_enabled=True)
    token = unsubscribe_links.unsubscribe_token(prefs)
    assert b"cleo" not in readable(token) and b"example" not in readable(token)
    assert Client().post(f"/me/reminders/unsubscribe/{token}").status_code in (200, 302)
    prefs.refresh_from_db()
    assert not prefs.email_enabled
    # A link in an e-mail sent before tokens were sealed: stopping e-mails must still work.
    Preferences.objects.filter(pk=prefs.pk).update(email_enabled=True)
    old = signing.TimestampSigner(salt=unsubscribe_links.UNSUBSCRIBE_SALT).sign_object(
        {"u": user.id, "e": "cleo@example.com"}
    )
    assert Client().post(f"/me/reminders/unsubscribe/{old}").status_code in (200, 302)
    prefs.refresh_from_db()
    assert not prefs.email_enabled
