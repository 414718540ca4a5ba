"""The reminders in the API: preferences, push subscriptions and the VAPID key, with the
project's `{"code", "detail"}` errors for bad input (which changes nothing)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.notify.models import Preferences, PushSubscription
from tests.notify.conftest import BrowserKeys, api_client

pytestmark = pytest.mark.django_db

PREFS = "/api/v1/me/notifications/"
SUBSCRIPTIONS = "/api/v1/me/push-subscriptions/"
VAPID_KEY = "/api/v1/push/vapid-public-key/"


@pytest.fixture
def user():
    return get_user_model().objects.create_user("ana")


@pytest.fixture
def ana(user) -> APIClient:
    return api_client(user)


def test_preferences_need_a_signed_in_player():
    response = APIClient().get(PREFS)
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_preferences_start_with_push_on_email_off_and_the_default_lead(ana, settings):
    settings.REMINDER_LEAD_MINUTES = 15
    assert ana.get(PREFS).json() == {
        "push_enabled": True,
        "email": "",
        "email_enabled": False,
        "lead_minutes": 15,
        "email_mode": "each_window",  # the daily digest is a choice
        "digest_hour": 8,
        "time_zone": "",
        "push_available": False,
        "push_devices": 0,
        "email_confirmed": False,
    }


def test_the_api_sets_the_time_zone_of_e_mails_and_refuses_an_unknown_one(ana, user):
    answer = ana.patch(PREFS, {"time_zone": "Asia/Kolkata"}, format="json")
    assert answer.status_code == 200 and answer.json()["time_zone"] == "Asia/Kolkata"
    assert Preferences.objects.get(user=user).time_zone == "Asia/Kolkata"
    refused = ana.patch(PREFS, {"time_zone": "Mars/Olympus_Mons"}, format="json")
    assert refused.status_code == 400, refused.json()
    assert "time_zone" in str(refused.json())
    assert ana.get(PREFS).json()["time_zone"] == "Asia/Kolkata"  # unchanged
    assert ana.patch(PREFS, {"time_zone": ""}, format="json").json()["time_zone"] == ""


def test_put_sets_every_preference_and_patch_one(ana, user):
    body = {"push_enabled": False, "email": "ana@example.com", "email_enabled": True}
    response = ana.put(PREFS, {**body, "lead_minutes": 30}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["email"] == "ana@example.com"
    response = ana.patch(PREFS, {"lead_minutes": 0}, format="json")
    assert response.status_code == 200
    prefs = Preferences.objects.get(user=user)
    assert (prefs.push_enabled, prefs.email, prefs.email_enabled, prefs.lead_minutes) == (
        False,
        "ana@example.com",
        True,
        0,
    )


@pytest.mark.parametrize(
    "body, field",
    [
        ({"email_enabled": True}, "email"),
        ({"email": "not an address", "email_enabled": True}, "email"),
        ({"lead_minutes": -1}, "lead_minutes"),
        ({"lead_minutes": 24 * 60 + 1}, "lead_minutes"),
        ({"lead_minutes": "soon"}, "lead_minutes"),
        ({"push_enabled": "perhaps"}, "push_enabled"),
    ],
)
def test_bad_preferences_are_refused_with_a_code_and_change_nothing(ana, user, body, field):
    before = ana.get(PREFS).json()
    response = ana.patch(PREFS, body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    assert field in response.json()["errors"]
    assert ana.get(PREFS).json() == before


def test_the_vapid_key_says_push_is_off_when_the_server_has_no_keys():
    response = APIClient().get(VAPID_KEY)
    assert response.status_code == 503
    assert response.json()["code"] == "push_disabled"
    assert "VAPID_PRIVATE_KEY" in response.json()["detail"]


def test_anyone_may_read_the_vapid_public_key(vapid):
    response = APIClient().get(VAPID_KEY)
    assert response.status_code == 200
    assert response.json() == {"public_key": vapid.VAPID_PUBLIC_KEY}


def test_subscribing_without_vapid_keys_is_refused(ana, push_service):
    body = BrowserKeys().subscription(push_service.endpoint())
    response = ana.post(SUBSCRIPTIONS, body, format="json")
    assert response.status_code == 503
    assert response.json()["code"] == "push_disabled"
    assert not PushSubscription.objects.exists()


def test_subscribe_then_unsubscribe_a_browser(ana, user, vapid, push_service):
    keys, endpoint = BrowserKeys(), push_service.endpoint()
    response = ana.post(SUBSCRIPTIONS, keys.subscription(endpoint), format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["endpoint"] == endpoint
    stored = PushSubscription.objects.get()
    assert (stored.user, stored.p256dh, stored.auth) == (user, keys.p256dh, keys.auth)
    assert ana.get(PREFS).json()["push_devices"] == 1
    # The same browser again: still one subscription.
    assert ana.post(SUBSCRIPTIONS, keys.subscription(endpoint), format="json").status_code == 201
    assert PushSubscription.objects.count() == 1

    response = ana.delete(SUBSCRIPTIONS, {"endpoint": endpoint}, format="json")
    assert response.status_code == 204
    assert not PushSubscription.objects.exists()
    response = ana.delete(SUBSCRIPTIONS, {"endpoint": endpoint}, format="json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_browser_another_player_subscribed_stays_theirs(ana, user, vapid, push_service):
    """Re-subscribing someone else's endpoint is refused (409) and moves nothing: an endpoint
    is a capability, and whoever learned it must not take that player's reminders over."""
    keys, endpoint = BrowserKeys(), push_service.endpoint()
    ana.post(SUBSCRIPTIONS, keys.subscription(endpoint), format="json")
    ben = get_user_model().objects.create_user("ben")
    other_keys = BrowserKeys()
    response = api_client(ben).post(SUBSCRIPTIONS, other_keys.subscription(endpoint), format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "endpoint_taken"
    assert "ana" not in response.json()["detail"]
    stored = PushSubscription.objects.get()
    assert (stored.user, stored.p256dh, stored.auth) == (user, keys.p256dh, keys.auth)


def test_unsubscribe_takes_the_endpoint_in_the_query_as_the_schema_says(ana, vapid, push_service):
    """Many HTTP libraries drop a DELETE's body: `?endpoint=` works too; both at once is 400."""
    endpoint = push_service.endpoint()
    ana.post(SUBSCRIPTIONS, BrowserKeys().subscription(endpoint), format="json")
    both = ana.delete(
        f"{SUBSCRIPTIONS}?{urlencode({'endpoint': endpoint})}",
        {"endpoint": endpoint},
        format="json",
    )
    assert both.status_code == 400 and both.json()["code"] == "bad_request"
    assert PushSubscription.objects.count() == 1
    response = ana.delete(f"{SUBSCRIPTIONS}?{urlencode({'endpoint': endpoint})}")
    assert response.status_code == 204
    assert not PushSubscription.objects.exists()
    operation = ana.get("/api/v1/schema/?format=json").json()["paths"][SUBSCRIPTIONS]["delete"]
    assert [p["name"] for p in operation["parameters"]] == ["endpoint"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"]["endpoint"]["format"] == "uri"
    assert body["additionalProperties"] is False


def test_nobody_unsubscribes_another_players_browser(ana, vapid, push_service):
    endpoint = push_service.endpoint()
    ana.post(SUBSCRIPTIONS, BrowserKeys().subscription(endpoint), format="json")
    ben = api_client(get_user_model().objects.create_user("ben"))
    assert ben.delete(SUBSCRIPTIONS, {"endpoint": endpoint}, format="json").status_code == 404
    assert PushSubscription.objects.count() == 1


@pytest.mark.parametrize(
    "change",
    [
        {"endpoint": "https://redis.internal:6379/"},  # not a push service: the server POSTs there
        {"endpoint": "http://fcm.googleapis.com/fcm/send/x"},  # a push service, but plain HTTP
        {"endpoint": "not a url"},
        {"keys": {"p256dh": "AAAA", "auth": BrowserKeys().auth}},
        {"keys": {"p256dh": BrowserKeys().p256dh, "auth": "%%%"}},
        {"keys": {"p256dh": BrowserKeys().p256dh}},
        {"keys": None},
    ],
)
def test_bad_subscriptions_are_refused_with_a_code(ana, vapid, push_service, change):
    body = {**BrowserKeys().subscription(push_service.endpoint()), **change}
    response = ana.post(SUBSCRIPTIONS, body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    assert not PushSubscription.objects.exists()


def test_known_push_services_are_accepted_over_https(ana, vapid):
    vapid.PUSH_SERVICES = ["fcm.googleapis.com", "push.apple.com"]
    for endpoint in ("https://fcm.googleapis.com/fcm/send/abc", "https://web.push.apple.com/QX"):
        body = BrowserKeys().subscription(endpoint)
        assert ana.post(SUBSCRIPTIONS, body, format="json").status_code == 201
    body = BrowserKeys().subscription("https://evilpush.apple.com.example/x")
    assert ana.post(SUBSCRIPTIONS, body, format="json").status_code == 400


@pytest.mark.parametrize(
    "address",
    ["a@[127.0.0.1]", "a@[IPv6:::1]", "a@[10.0.0.5]", "a@localhost", "a@127.0.0.1"],
)
def test_a_reminder_address_at_an_ip_literal_or_localhost_is_refused(ana, user, address):
    """A reminder e-mail to `a@[127.0.0.1]` would point the mail server at a host of the
    sender's choosing. Refused by the API and the reminders page alike; nothing is saved."""
    assert ana.patch(PREFS, {"email": "ana@example.com"}, format="json").status_code == 200
    response = ana.patch(PREFS, {"email": address}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "bad_request" and "email" in response.json()["errors"]
    from django.test import Client

    page = Client()
    page.force_login(user)
    form = page.post("/me/reminders", {"lead_minutes": "10", "email": address})
    assert form.status_code == 400
    assert Preferences.objects.get(user=user).email == "ana@example.com"
