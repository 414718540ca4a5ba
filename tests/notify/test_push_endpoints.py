"""The server POSTs to a push subscription's endpoint, so an endpoint
is checked as the HTTP client will connect to it (scheme, userinfo, port, host, every resolved
address), at subscribe time and again at send time, and the send goes to the address that was
checked. A subscription the checks or the push library refuse is deleted, and never stops the
others' reminders. DNS is faked (tests/notify/conftest.py); parsing is the real one."""

from __future__ import annotations

import io
import ipaddress
import logging
import select
import socket

import pytest
from django.contrib.auth import get_user_model
from urllib3 import HTTPResponse
from urllib3.connectionpool import HTTPConnectionPool

from games.notify import endpoints, push
from games.notify import services as reminders
from games.notify.models import Preferences, PushSubscription
from tests.notify.conftest import BrowserKeys, api_client

pytestmark = pytest.mark.django_db

SUBSCRIPTIONS = "/api/v1/me/push-subscriptions/"
DEFAULT_PUSH_SERVICES = [
    "fcm.googleapis.com",
    "push.services.mozilla.com",
    "push.apple.com",
    "notify.windows.com",
]
# The outside audit's payloads, verbatim, and more that parsers read differently.
REFUSED_ENDPOINTS = [
    "https://127.0.0.1\\@fcm.googleapis.com/x",  # audit: urllib saw fcm, requests 127.0.0.1
    "https://fcm.googleapis.com:6379/x",  # audit: any port was accepted
    "https://u:p@fcm.googleapis.com/x",  # audit: userinfo, then a crash in the reminder task
    "https://fcm.googleapis.com@127.0.0.1/x",
    "https://fcm.googleapis.com:443@127.0.0.1/x",
    "https://127.0.0.1#@fcm.googleapis.com/x",
    "https://127.0.0.1?@fcm.googleapis.com/x",
    "https://fcm.googleapis.com\\@127.0.0.1/x",
    "https://fcm.googleapis.com/x\\y",
    "https://fcm.googleapis.com%2f@127.0.0.1/x",
    "https://127.0.0.1%2f.fcm.googleapis.com/x",
    "https://%66cm.googleapis.com/x",
    "https://fcm.googleapis.com\t/x",
    "https://fcm.googleapis.com /x",
    "https://fcm.googleapis.com/x y",
    "https://fcm.googleapis.com/x\r\nHost: 127.0.0.1",
    "https://fcm.googleapis.com\x00.evil.example/x",
    "https://fcm.googleapis.com\u3002/x",  # an ideographic full stop, a dot to IDNA
    "https://fcm.googleapis.c\u043em/x",  # a Cyrillic o
    "https://ｆcm.googleapis.com/x",  # a fullwidth f, "fcm" after NFKC
    "https://xn--fcm.googleapis.com-/x",
    "https://fcm.googleapis.com./x",
    "https://fcm.googleapis.com:0443x/x",
    "https://fcm.googleapis.com:/x",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://0x7f000001/x",
    "https://2130706433/x",
    "http://fcm.googleapis.com/x",
    "HTTPS://fcm.googleapis.com/x",
    "wss://fcm.googleapis.com/x",
    "https://evilfcm.googleapis.com.example/x",
    "https://notfcm.googleapis.com/x",  # not a label boundary
    "https://googleapis.com/x",
    "//fcm.googleapis.com/x",
]
INTERNAL_ADDRESSES = [
    "127.0.0.1",
    "127.8.9.10",
    "10.0.0.5",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",  # cloud metadata
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "240.0.0.1",
    "192.0.2.1",
    "::1",
    "::",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "fe80::1",
    "fd00::1",
    "fec0::1",
    "ff02::1",
    "2001:db8::1",
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
]


@pytest.fixture
def user():
    return get_user_model().objects.create_user("ana")


@pytest.fixture
def push_on(vapid):
    """Web Push on, accepting only the browsers' push services (the production default)."""
    vapid.PUSH_SERVICES = list(DEFAULT_PUSH_SERVICES)
    return vapid


@pytest.fixture
def transport(monkeypatch):
    """The HTTP transport to the push services, and it alone, faked: urllib3's connection pool
    answers 201 and records the address it would have connected to and what it would send."""
    sent: list[dict] = []

    def urlopen(pool, method, url, body=None, headers=None, **kwargs):
        sent.append(
            {
                "address": pool.host,
                "port": pool.port,
                "tls_name": (pool.conn_kw.get("server_hostname"), pool.assert_hostname),
                "url": url,
                "headers": dict(headers or {}),
            }
        )
        return HTTPResponse(body=io.BytesIO(b""), status=201, preload_content=False)

    monkeypatch.setattr(HTTPConnectionPool, "urlopen", urlopen)
    return sent


def subscribe(user, endpoint: str, keys: BrowserKeys | None = None):
    body = (keys or BrowserKeys()).subscription(endpoint)
    return api_client(user).post(SUBSCRIPTIONS, body, format="json")


def stored(user, endpoint: str, keys: BrowserKeys | None = None) -> PushSubscription:
    """A subscription that got into the database somehow (an older server, a bug)."""
    keys = keys or BrowserKeys()
    return PushSubscription.objects.create(
        user=user, endpoint=endpoint, p256dh=keys.p256dh, auth=keys.auth
    )


def remind(user) -> None:
    Preferences.objects.get_or_create(user=user)
    reminders.deliver(
        user, reminders.Reminder("Staked! game ABCDEF", "Your move.", "/", 60, "high")
    )


# --- at subscribe time ----------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", REFUSED_ENDPOINTS)
def test_push_endpoints_that_parsers_read_differently_are_refused(user, push_on, endpoint):
    response = subscribe(user, endpoint)
    assert response.status_code == 400, endpoint
    assert response.json()["code"] == "bad_request"
    assert "endpoint" in response.json()["errors"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx",
        "https://fcm.googleapis.com:443/fcm/send/abc",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk-_x",
        "https://web.push.apple.com/QGu2ZTn-3DrT1xN3p_t-_9v?a=1",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD%2bQ%2fx%3d",
    ],
)
def test_real_browsers_push_endpoints_are_accepted(user, push_on, endpoint):
    response = subscribe(user, endpoint)
    assert response.status_code == 201, response.json()
    assert PushSubscription.objects.get().endpoint == endpoint


@pytest.mark.parametrize("address", INTERNAL_ADDRESSES)
def test_a_push_service_name_resolving_to_an_internal_address_is_refused(
    user, push_on, dns, address
):
    dns.names["fcm.googleapis.com"] = [address]
    response = subscribe(user, "https://fcm.googleapis.com/fcm/send/abc")
    assert response.status_code == 400
    assert "internal address" in response.json()["detail"]
    assert not PushSubscription.objects.exists()


def test_one_internal_address_among_public_ones_is_enough_to_refuse(user, push_on, dns):
    dns.names["fcm.googleapis.com"] = ["142.250.74.74", "2a00:1450:4007:80e::200a", "10.1.2.3"]
    assert subscribe(user, "https://fcm.googleapis.com/fcm/send/abc").status_code == 400


def test_a_push_service_name_that_does_not_resolve_is_refused(user, push_on):
    response = subscribe(user, "https://nowhere.push.apple.com/x")
    assert response.status_code == 400
    assert response.json()["detail"] == "endpoint: That push service cannot be found."


def test_the_public_address_check_sees_ipv4_inside_ipv6():
    for address in INTERNAL_ADDRESSES:
        assert not endpoints.public(ipaddress.ip_address(address)), address
    for address in ("142.250.74.74", "::ffff:142.250.74.74", "2a00:1450:4007:80e::200a"):
        assert endpoints.public(ipaddress.ip_address(address)), address


# --- at send time ---------------------------------------------------------------------------


def test_a_push_goes_to_the_address_that_was_checked_with_the_name_for_tls_and_host(
    user, push_on, dns, transport
):
    keys = BrowserKeys()
    stored(user, "https://fcm.googleapis.com/fcm/send/abc", keys)
    dns.names["fcm.googleapis.com"] = ["142.250.1.2"]
    dns.asked.clear()
    remind(user)
    [request] = transport
    assert (request["address"], request["port"], request["url"]) == (
        "142.250.1.2",
        443,
        "/fcm/send/abc",
    )
    assert request["headers"]["Host"] == "fcm.googleapis.com"
    assert request["tls_name"] == ("fcm.googleapis.com", "fcm.googleapis.com")  # SNI, cert
    assert dns.asked == ["fcm.googleapis.com"]  # resolved once, by the check; then connected


def test_a_push_service_name_that_now_resolves_inside_gets_no_request(
    user, push_on, dns, transport, caplog
):
    """DNS can change after subscribing (rebinding): the check runs again at send time."""
    assert subscribe(user, "https://fcm.googleapis.com/fcm/send/abc").status_code == 201
    dns.names["fcm.googleapis.com"] = ["142.250.74.74", "127.0.0.1"]
    with caplog.at_level(logging.WARNING, logger="games.notify"):
        remind(user)
    assert transport == []
    assert not PushSubscription.objects.exists()
    assert "internal address" in caplog.text


@pytest.fixture
def listener():
    """A TCP listener on 127.0.0.1: whatever connects shows in its accept queue."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    yield server
    server.close()


def connected(server: socket.socket) -> bool:
    """Whether a connection is waiting (the client's connect returned before the task did)."""
    return bool(select.select([server], [], [], 0)[0])


def test_a_reminder_for_a_malicious_subscription_never_connects_to_the_server_itself(
    user, push_on, listener, monkeypatch
):
    """The audit saw the worker send a TLS hello to 127.0.0.1 for the backslash endpoint."""
    monkeypatch.setattr(push, "TIMEOUT", 1)  # without the fix, the TLS hello waits that long
    port = listener.getsockname()[1]
    for endpoint in (
        f"https://127.0.0.1:{port}\\@fcm.googleapis.com/x",
        f"https://fcm.googleapis.com@127.0.0.1:{port}/x",
        f"https://127.0.0.1:{port}/x",
    ):
        stored(user, endpoint)
    remind(user)
    assert not connected(listener)
    assert not PushSubscription.objects.exists()


def test_one_subscription_the_push_library_rejects_never_stops_the_others(
    table, push_on, transport, eager_tasks, django_capture_on_commit_callbacks, caplog
):
    """A malformed key, a userinfo endpoint (pywebpush's VAPID 'aud' then fails) or a broken
    endpoint: deleted and logged; everyone else still gets their push."""
    lobby = table(6)
    first, second = lobby.users[1], lobby.users[2]
    for player in (first, second):
        Preferences.objects.create(user=player)  # push on (the default)
    off_curve = "BA" + "A" * 85  # 65 bytes, but not a point of P-256
    bad = [
        stored(first, "https://u:p@fcm.googleapis.com/fcm/send/userinfo"),
        PushSubscription.objects.create(
            user=first,
            endpoint="https://fcm.googleapis.com/fcm/send/bad-key",
            p256dh=off_curve,
            auth=BrowserKeys().auth,
        ),
        stored(first, "https://127.0.0.1\\@fcm.googleapis.com/x"),
    ]
    good = [
        stored(first, "https://fcm.googleapis.com/fcm/send/first"),
        stored(second, "https://updates.push.services.mozilla.com/wpush/v2/second"),
    ]
    with caplog.at_level(logging.WARNING, logger="games.notify"):
        with django_capture_on_commit_callbacks(execute=True):
            lobby.start()  # Mingling: everyone has a move, "your move" to each
    assert sorted(r["url"] for r in transport) == ["/fcm/send/first", "/wpush/v2/second"]
    assert set(PushSubscription.objects.all()) == set(good)
    for subscription in bad:
        assert f"push subscription {subscription.pk} deleted" in caplog.text


def test_a_push_service_redirect_is_not_followed(user, push_on, monkeypatch):
    sent = []

    def urlopen(pool, method, url, body=None, headers=None, **kwargs):
        sent.append((pool.host, url))
        return HTTPResponse(
            body=io.BytesIO(b""),
            status=307,
            headers={"Location": "http://127.0.0.1:6379/"},
            preload_content=False,
        )

    monkeypatch.setattr(HTTPConnectionPool, "urlopen", urlopen)
    subscription = stored(user, "https://fcm.googleapis.com/fcm/send/abc")
    remind(user)
    assert sent == [("142.250.74.74", "/fcm/send/abc")]
    subscription.refresh_from_db()
    assert subscription.last_error.startswith("307")
