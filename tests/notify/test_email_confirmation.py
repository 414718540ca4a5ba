"""No reminder goes to an e-mail address until its owner opened the signed,
expiring link sent there (games/notify/confirm.py). A new address starts over; sending the
link again is limited. E-mail is Django's locmem outbox (SMTP is the third party)."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.test import Client

from games.notify import confirm
from games.notify.models import Preferences
from tests.notify.conftest import api_client

pytestmark = pytest.mark.django_db

PREFS = "/api/v1/me/notifications/"
RESEND = "/api/v1/me/notifications/email-confirmation/"
LINK = re.compile(r"https?://\S+/me/reminders/confirm/(\S+)")


@pytest.fixture
def user():
    return get_user_model().objects.create_user("ana")


@pytest.fixture
def ana(user):
    return api_client(user)


def links(address: str) -> list[str]:
    """The confirmation links sent to `address`, oldest first (just the path)."""
    out = []
    for message in mail.outbox:
        if message.to == [address] and "confirm your address" in message.subject:
            out.append("/me/reminders/confirm/" + LINK.search(message.body).group(1))
    return out


def reminders_to(address: str) -> list:
    return [m for m in mail.outbox if m.to == [address] and m.subject.startswith("Staked! game")]


def test_no_reminder_goes_to_an_address_until_its_link_was_opened(
    table, eager_tasks, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://staked.example"
    lobby = table(6)
    body = {"email_enabled": True, "lead_minutes": 10}
    for seat in (2, 3):
        address = f"seat{seat}@example.com"
        response = api_client(lobby.users[seat - 1]).put(
            PREFS, {**body, "email": address}, format="json"
        )
        assert response.status_code == 200
        assert response.json()["email_confirmed"] is False
        [link] = links(address)
        assert link.startswith("/me/reminders/confirm/")
    assert "https://staked.example/me/reminders/confirm/" in mail.outbox[0].body
    assert Client().post(links("seat2@example.com")[0]).status_code == 200  # seat 3 does not

    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()  # Mingling: "your move" to every reachable player
    [reminder] = reminders_to("seat2@example.com")
    assert lobby.code in reminder.subject
    assert reminders_to("seat3@example.com") == []


def test_opening_the_link_shows_a_button_and_only_pressing_it_confirms(ana, user):
    ana.patch(PREFS, {"email": "ana@example.com"}, format="json")
    [link] = links("ana@example.com")
    browser = Client()  # another device, not signed in: the link is the proof
    page = browser.get(link)
    assert page.status_code == 200
    assert "ana@example.com" in page.content.decode() and "Confirm" in page.content.decode()
    assert not Preferences.objects.get(user=user).email_confirmed
    done = browser.post(link)
    assert done.status_code == 200
    assert 'data-email-status="confirmed"' in done.content.decode()
    assert Preferences.objects.get(user=user).email_confirmed


def test_changing_the_address_resets_confirmation_and_the_old_link_no_longer_works(ana, user):
    ana.patch(PREFS, {"email": "ana@example.com"}, format="json")
    [old] = links("ana@example.com")
    Client().post(old)
    assert ana.get(PREFS).json()["email_confirmed"] is True
    prefs = Preferences.objects.get(user=user)
    prefs.confirmation_sent_at -= timedelta(minutes=5)  # past the resend interval
    prefs.save()

    response = ana.patch(PREFS, {"email": "ana@work.example"}, format="json")
    assert response.json()["email_confirmed"] is False
    assert len(links("ana@work.example")) == 1
    refused = Client().post(old)
    assert refused.status_code == 400
    assert "no longer uses" in refused.content.decode()
    assert not Preferences.objects.get(user=user).email_confirmed


def test_saving_the_same_address_again_keeps_it_confirmed_and_sends_nothing(ana):
    ana.patch(PREFS, {"email": "ana@example.com"}, format="json")
    Client().post(links("ana@example.com")[0])
    response = ana.patch(PREFS, {"email": "ana@example.com", "lead_minutes": 5}, format="json")
    assert response.json()["email_confirmed"] is True
    assert len(mail.outbox) == 1


def test_an_expired_or_tampered_link_confirms_nothing(ana, user, monkeypatch):
    four_days_ago = int(time.time()) - 4 * 24 * 3600
    monkeypatch.setattr(
        signing.TimestampSigner, "timestamp", lambda self: signing.b62_encode(four_days_ago)
    )
    ana.patch(PREFS, {"email": "ana@example.com"}, format="json")
    monkeypatch.undo()
    [expired] = links("ana@example.com")
    response = Client().post(expired)
    assert response.status_code == 400 and "expired" in response.content.decode()
    response = Client().post(expired[:-3] + "abc")
    assert response.status_code == 400 and "not a confirmation link" in response.content.decode()
    other = signing.TimestampSigner(salt="another.salt").sign_object(
        {"u": user.id, "e": "ana@example.com"}
    )
    assert Client().post(f"/me/reminders/confirm/{other}").status_code == 400
    assert not Preferences.objects.get(user=user).email_confirmed


def test_sending_the_link_again_is_rate_limited(ana, user):
    ana.patch(PREFS, {"email": "ana@example.com"}, format="json")
    response = ana.post(RESEND)
    assert response.status_code == 429
    assert response.json()["code"] == "rate_limited"
    sent = 1
    prefs = Preferences.objects.get(user=user)
    while True:
        prefs.confirmation_sent_at = datetime.now(UTC) - timedelta(seconds=confirm.RESEND_SECONDS)
        prefs.save()
        response = ana.post(RESEND)
        if response.status_code != 202:
            break
        sent += 1
        prefs.refresh_from_db()
    assert (response.status_code, response.json()["code"]) == (429, "rate_limited")
    assert sent == confirm.HOURLY_LIMIT
    assert len(links("ana@example.com")) == confirm.HOURLY_LIMIT


def test_resending_needs_an_unconfirmed_address(ana):
    assert ana.post(RESEND).json()["code"] == "bad_request"
    ana.patch(PREFS, {"email": "ana@example.com"}, format="json")
    Client().post(links("ana@example.com")[0])
    assert ana.post(RESEND).json()["code"] == "already_confirmed"


def test_the_reminders_page_says_unconfirmed_and_sends_the_link_again(user):
    page = Client()
    page.force_login(user)
    body = {"email_enabled": "on", "email": "ana@example.com", "lead_minutes": "10"}
    assert page.post("/me/reminders", body).status_code == 302
    html = page.get("/me/reminders").content.decode()
    assert 'data-email-status="unconfirmed"' in html and "check your inbox" in html
    assert page.post("/me/reminders", {"resend": "1"}).status_code == 429  # just sent one
    prefs = Preferences.objects.get(user=user)
    prefs.confirmation_sent_at -= timedelta(seconds=confirm.RESEND_SECONDS)
    prefs.save()
    assert page.post("/me/reminders", {"resend": "1"}).status_code == 302
    assert len(links("ana@example.com")) == 2
    Client().post(links("ana@example.com")[-1])
    assert 'data-email-status="confirmed"' in page.get("/me/reminders").content.decode()
