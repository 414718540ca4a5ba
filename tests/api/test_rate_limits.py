"""The API's rate limits count the real client, not a header it writes, and
password guesses are limited per account too (staked/limits.py). Every
throttled answer says what is left (RateLimit-* headers) and every 429 reads the same."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from staked import limits
from staked.rates import Rate

GUEST = "/api/v1/auth/guest/"
REGISTER = "/api/v1/auth/register/"
TOKEN = "/api/v1/auth/token/"


@pytest.fixture
def few(settings):
    """Small budgets, so a test needs a handful of requests, not hundreds."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "auth": "5/min", "password": "3/15min"}


def post(path: str, body: dict, **meta):
    return APIClient().post(path, body, format="json", **meta)


@pytest.mark.django_db
def test_rotating_x_forwarded_for_does_not_escape_the_guest_limit():
    """The default budget (30 a minute per address), as the audit met it."""
    codes = [
        post(GUEST, {"name": "Eve"}, HTTP_X_FORWARDED_FOR=f"10.0.0.{i}").status_code
        for i in range(32)
    ]
    assert codes == [201] * 30 + [429] * 2
    assert get_user_model().objects.count() == 30


@pytest.mark.django_db
def test_rotating_x_forwarded_for_does_not_escape_the_registration_limit(few):
    codes = [
        post(
            REGISTER,
            {"username": f"eve{i}", "password": "a-long-pass-phrase"},
            HTTP_X_FORWARDED_FOR=f"10.0.0.{i}",
        ).status_code
        for i in range(7)
    ]
    assert codes == [201] * 5 + [429] * 2


@pytest.mark.django_db
def test_password_guesses_at_one_account_are_limited_from_any_number_of_addresses():
    """The default budget: 10 attempts at one account in 15 minutes."""
    get_user_model().objects.create_user("ana", password="the-real-pass-phrase")
    codes = [
        post(TOKEN, {"username": "ana", "password": f"guess-{i}"}, REMOTE_ADDR=f"10.1.{i}.1")
        for i in range(12)
    ]
    assert [r.status_code for r in codes] == [400] * 10 + [429] * 2
    assert codes[10].json()["code"] == "rate_limited"
    # Even the right password waits now (else guessing would go on until it succeeds) ...
    right = post(TOKEN, {"username": "ANA", "password": "the-real-pass-phrase"})
    assert right.status_code == 429
    # ... while another account is untouched.
    get_user_model().objects.create_user("ben", password="another-pass-phrase")
    other = post(
        TOKEN, {"username": "ben", "password": "another-pass-phrase"}, REMOTE_ADDR="10.9.9.9"
    )
    assert other.status_code == 200


@pytest.mark.django_db
def test_behind_trusted_proxies_the_address_our_nearest_proxy_saw_is_counted(few, settings):
    settings.TRUSTED_PROXIES = 1
    # One client (203.0.113.7, as our proxy appended it) prepending made-up addresses ...
    spoofed = [
        post(GUEST, {"name": "Eve"}, HTTP_X_FORWARDED_FOR=f"10.0.0.{i}, 203.0.113.7").status_code
        for i in range(6)
    ]
    assert spoofed == [201] * 5 + [429]
    # ... and another client behind the same proxy, with a budget of its own.
    other = post(GUEST, {"name": "Ana"}, HTTP_X_FORWARDED_FOR="198.51.100.2")
    assert other.status_code == 201


def test_without_trusted_proxies_forwarded_headers_are_ignored(rf, settings):
    settings.TRUSTED_PROXIES = 0
    request = rf.get("/", HTTP_X_FORWARDED_FOR="10.0.0.1", REMOTE_ADDR="192.0.2.5")
    assert limits.client_address(request) == "192.0.2.5"
    settings.TRUSTED_PROXIES = 2
    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.0.2.9, 10.0.0.1")
    assert limits.client_address(request) == "192.0.2.9"


def test_an_ipv6_client_is_counted_by_its_64_network(rf):
    one = rf.get("/", REMOTE_ADDR="2001:db8:1:2::1")
    two = rf.get("/", REMOTE_ADDR="2001:db8:1:2:ffff::9")
    other = rf.get("/", REMOTE_ADDR="2001:db8:1:3::1")
    assert limits.client_address(one) == limits.client_address(two)
    assert limits.client_address(one) != limits.client_address(other)


def test_trusted_proxies_follows_behind_tls_proxy_unless_set(tmp_path):
    from tests.test_production import run

    probe = [
        "-c",
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.TRUSTED_PROXIES)",
    ]
    assert run(tmp_path, probe).stdout.strip() == "0"
    assert run(tmp_path, probe, BEHIND_TLS_PROXY="1").stdout.strip() == "1"
    assert run(tmp_path, probe, BEHIND_TLS_PROXY="1", TRUSTED_PROXIES="2").stdout.strip() == "2"


def test_a_rate_reads_like_drf_and_longer_windows_too():
    assert Rate.parse("120/min") == Rate(120, 60)
    assert Rate.parse("10/15min") == Rate(10, 900)
    assert Rate.parse("30/hour") == Rate(30, 3600)
    for bad in ("", "ten/min", "0/min", "5/0min", "5/fortnight"):
        with pytest.raises(ValueError):
            Rate.parse(bad)


@pytest.mark.django_db
def test_a_burst_across_a_window_edge_is_still_limited(settings):
    """Plain fixed windows would allow 2 x 10 around the edge; the weighted previous window
    does not, and says when the next attempt fits."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "actions": "10/min"}
    edge = 60 * 1_000_000
    before = [limits.hit("actions", "k", now=edge - 1).allowed for _ in range(10)]
    after = limits.hit("actions", "k", now=edge + 1)
    assert all(before) and not after.allowed
    assert 1 <= after.retry_after <= 60
    later = limits.hit("actions", "k", now=edge + 1 + after.retry_after)
    assert later.allowed


@pytest.mark.django_db
def test_refused_attempts_do_not_count(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "actions": "2/min"}
    start = 120 * 1_000_000
    assert [limits.hit("actions", "k", now=start).allowed for _ in range(50)].count(True) == 2
    # Half a window on, the 2 that counted weigh 1: one more fits (48 counted refusals would not).
    assert limits.hit("actions", "k", now=start + 90).allowed


# --- visible limits ---------------------------------------------------------


@pytest.mark.django_db
def test_throttled_answers_carry_ratelimit_headers(few):
    first = post(GUEST, {"name": "Ana"})
    assert first["RateLimit-Limit"] == "5"
    assert first["RateLimit-Remaining"] == "4"
    assert 1 <= int(first["RateLimit-Reset"]) <= 60
    assert first["RateLimit-Policy"] == '5;w=60;comment="auth"'
    for _ in range(4):
        post(GUEST, {"name": "Ana"})
    refused = post(GUEST, {"name": "Ana"})
    assert refused.status_code == 429
    assert refused["RateLimit-Remaining"] == "0"
    assert refused["RateLimit-Reset"] == refused["Retry-After"]


@pytest.mark.django_db
def test_every_429_reads_the_same(few):
    for _ in range(5):
        post(GUEST, {"name": "Ana"})
    response = post(GUEST, {"name": "Ana"})
    wait = int(response["Retry-After"])
    assert response.json() == {"code": "rate_limited", "detail": limits.refusal(wait)}
