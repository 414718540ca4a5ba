"""The pages have the API's limits, from the same budgets (staked/limits.py),
and the person who hits one gets a page that says what to do and when."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.models import Game
from tests.web.conftest import Phone

pytestmark = pytest.mark.django_db


@pytest.fixture
def few(settings):
    """Small budgets for new guests and new tables (set after any table a test sits at)."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "auth": "4/min", "games": "3/hour"}


@pytest.fixture
def few_moves(settings):
    """Three moves a minute, and three refused ones (a budget of their own)."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "actions": "3/min", "refusals": "3/min"}


def open_table(phone: Phone, **meta):
    return phone.client.post("/new", {"name": phone.name, "preset": "live"}, **meta)


def test_opening_tables_from_the_home_page_makes_at_most_thirty_guests_a_minute_per_address():
    """The audit opened 40 tables (and made 40 guests) in 0.9 s; the default budget is 30."""
    codes = [open_table(Phone(f"Eve{i}")).status_code for i in range(32)]
    assert codes == [302] * 30 + [429] * 2
    assert Game.objects.count() == 30


def test_new_guests_from_the_pages_and_the_api_share_one_budget_per_address(few):
    for i in range(2):
        assert (
            APIClient().post("/api/v1/auth/guest/", {"name": f"Api{i}"}, format="json").status_code
            == 201
        )
    assert open_table(Phone("Eve"), HTTP_X_FORWARDED_FOR="10.0.0.1").status_code == 302
    assert Phone("Eve").client.post("/join", {"name": "Eve", "code": "ACDEFG"}).status_code == 404
    refused = open_table(Phone("Eve"), HTTP_X_FORWARDED_FOR="10.0.0.2")
    assert refused.status_code == 429
    assert get_user_model().objects.count() == 3  # the refused visitor was not made a guest


def test_a_player_opening_table_after_table_from_the_page_is_limited(few):
    ana = Phone("Ana")
    ana.client.force_login(get_user_model().objects.create_user("ana"))
    codes = []
    for _ in range(4):
        response = open_table(ana)
        codes.append(response.status_code)
        if response.status_code == 302:  # leave it, so the lobby cap is not what stops her
            ana.client.post(response["Location"] + "leave")
    assert codes == [302, 302, 302, 429]
    assert Game.objects.count() == 0


def test_moves_on_the_page_and_through_the_api_share_one_budget(table, few_moves):
    t = table("LVHHHH")
    ben = t.phone(2)
    api = APIClient()
    api.force_login(get_user_model().objects.get(seats__game__code=t.code, seats__seat=2))
    url = f"/api/v1/games/{t.code}/actions/place_token/"
    assert api.post(url, {"token": "stake", "target": 3}, format="json").status_code == 200
    ben.act(t.code, "place_token", token="stake", target="4")
    ben.act(t.code, "pass", expect=409)  # refused by the rules: it spends the refusals' budget
    ben.act(t.code, "place_token", token="feast", target="5")  # the third move of the minute
    refused = ben.act(t.code, "pass", expect=429)
    assert api.post(url, {"token": "feast", "target": 6}, format="json").status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 120  # the full window fades over the next one
    # Another player has a budget of their own.
    t.phone(3).act(t.code, "place_token", token="stake", target="4")


def test_the_429_page_says_what_happened_when_to_retry_and_leads_back(table, few_moves):
    t = table("LVHHHH")
    for _ in range(3):
        t.phone(2).act(t.code, "pass", expect=409)  # refused: the refusals' budget is spent
    response = t.phone(2).post(f"/g/{t.code}/act/pass", htmx=False, expect=429)
    page = response.content.decode()
    wait = int(response["Retry-After"])
    assert "<!doctype html>" in page.lower()
    assert f"Try again in <strong>{wait} second" in page
    assert f'href="/g/{t.code}/"' in page and "Back to the game" in page
    assert response["RateLimit-Remaining"] == "0"


def test_an_htmx_move_over_the_limit_replaces_the_whole_page(table, few_moves):
    t = table("LVHHHH")
    for _ in range(3):
        t.phone(2).act(t.code, "pass", expect=409)
    response = t.phone(2).act(t.code, "pass", expect=429)
    assert response["HX-Retarget"] == "body"
    assert response["HX-Reswap"] == "innerHTML"
