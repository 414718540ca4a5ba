"""The installable app (manifest, service worker, offline page, the links in base.html) and the
reminders page."""

from __future__ import annotations

import json
import struct

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.test import Client

from games.notify.models import Preferences

pytestmark = pytest.mark.django_db


@pytest.fixture
def player() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_user("ana"))
    return client


def png_size(static_path: str) -> tuple[int, int]:
    with open(finders.find(static_path.removeprefix("/static/")), "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_the_manifest_makes_the_app_installable(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Staked!" and manifest["short_name"]
    assert (manifest["start_url"], manifest["display"]) == ("/", "standalone")
    assert manifest["theme_color"] == manifest["background_color"] == "#14100f"
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        width, height = png_size(icon["src"])
        assert icon["sizes"] == f"{width}x{height}"


def test_the_service_worker_is_served_from_the_root_as_javascript(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    text = response.content.decode()
    for event in ("install", "activate", "fetch", "push", "notificationclick"):
        assert f'addEventListener("{event}"' in text
    shell = json.loads(text.split("var SHELL = ", 1)[1].split(";", 1)[0])
    assert "/offline" in shell and "/static/js/htmx.min.js" in shell
    for url in shell:
        if url.startswith("/static/"):
            assert finders.find(url.removeprefix("/static/")), url


def test_the_offline_page_says_reconnecting(client):
    response = client.get("/offline")
    assert response.status_code == 200
    assert "Reconnecting…" in response.content.decode()


def test_every_page_links_the_manifest_and_has_the_reconnecting_banner(client):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#14100f">' in page
    assert '<script src="/static/js/pwa.js" defer></script>' in page
    assert '<div id="connection" class="connection-banner" role="status" hidden>' in page


def test_the_nav_links_the_reminders_page_for_players(client, player):
    assert 'href="/me/reminders"' not in client.get("/").content.decode()
    assert 'href="/me/reminders"' in player.get("/").content.decode()


def test_the_reminders_page_asks_a_visitor_to_sit_down_first(client):
    response = client.get("/me/reminders")
    assert response.status_code == 200
    assert "Sit down at a table first" in response.content.decode()


def test_the_reminders_page_says_when_push_is_off_on_the_server(player):
    page = player.get("/me/reminders").content.decode()
    assert "Push notifications are not set up on this server" in page
    assert "data-push-on" not in page


def test_the_reminders_page_offers_push_when_the_server_has_vapid_keys(player, vapid):
    page = player.get("/me/reminders").content.decode()
    assert "Turn on push on this phone" in page
    assert 'data-key-url="/api/v1/push/vapid-public-key/"' in page
    assert 'data-subscriptions-url="/api/v1/me/push-subscriptions/"' in page


def test_the_reminders_form_saves_an_email_address(player):
    response = player.post(
        "/me/reminders",
        {"email_enabled": "on", "email": "ana@example.com", "lead_minutes": "20"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/me/reminders?saved=1"
    prefs = Preferences.objects.get()
    assert (prefs.email, prefs.email_enabled, prefs.push_enabled, prefs.lead_minutes) == (
        "ana@example.com",
        True,
        False,  # an unticked box
        20,
    )
    assert "Saved." in player.get(response["Location"]).content.decode()


def test_the_reminders_form_refuses_email_without_an_address(player):
    response = player.post("/me/reminders", {"email_enabled": "on", "lead_minutes": "10"})
    assert response.status_code == 400
    assert "Give an address to get e-mails." in response.content.decode()
    assert not Preferences.objects.get().email_enabled
