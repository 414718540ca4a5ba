"""API test cast: guests with a token, and a table they sit at.

`guest` signs up through the real route (POST /api/v1/auth/guest/); `guests` and `table` make
their guests and seat them through the services (tests/factories.py), which costs a fraction of
the requests: the sign-up, join, leave and start routes have tests of their own (test_auth.py,
test_lobby.py, test_flow.py). The staff member still opens each table through POST
/api/v1/games/, so the options a test passes are read as the API reads them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.test import APIClient

from tests import factories

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kit", "Lou"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # poll keys, cached tokens and throttles must not leak between tests
    yield
    cache.clear()


def guest(name: str) -> APIClient:
    client = APIClient()
    response = client.post("/api/v1/auth/guest/", {"name": name}, format="json")
    assert response.status_code == 201, response.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    client.user_id = response.json()["user_id"]
    client.name = name
    return client


def quick_guest(name: str) -> APIClient:
    """Like `guest`, made through the services (the same user and token, no request)."""
    user = factories.guest(name)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {factories.api_token(user)}")
    client.user, client.user_id = user, user.id
    client.name = name
    return client


@pytest.fixture
def guests():
    def make(n: int) -> list[APIClient]:
        return [quick_guest(NAMES[i]) for i in range(n)]

    return make


@pytest.fixture
def staff() -> APIClient:
    user = get_user_model().objects.create_user("staffer", password="pw-staffer-1", is_staff=True)
    client = APIClient()
    client.force_authenticate(user)
    client.user, client.user_id = user, user.id
    return client


class Table:
    """A running game seen through the API: one client per seat (index 0 = seat 1)."""

    def __init__(self, host, players, code):
        self.host, self.players, self.code = host, players, code

    def client(self, seat: int) -> APIClient:
        return self.players[seat - 1]

    def url(self, suffix: str = "") -> str:
        return f"/api/v1/games/{self.code}/{suffix}"

    def view(self, seat: int) -> dict:
        response = self.client(seat).get(self.url())
        assert response.status_code == 200, response.content
        return response.json()

    def act(self, seat: int, action: str, expect: int = 200, **body):
        response = self.client(seat).post(self.url(f"actions/{action}/"), body, format="json")
        assert response.status_code == expect, (response.status_code, response.content)
        return response.json()

    def place(self, seat: int, plan: str):
        tokens = {"S": "stake", "F": "feast", "D": "double_stake", "I": "investigation"}
        for word in plan.split():
            self.act(seat, "place_token", token=tokens[word[0]], target=int(word[1:]))


@pytest.fixture
def table(guests, staff):
    """Start a game of len(roles) with a fixed deal (staff creates it, then hands over)."""

    def make(roles: str, **options) -> Table:
        letters = {"H": "hunter", "V": "vampire", "L": "vampire_lord"}
        players = guests(len(roles))
        deal = {str(i + 1): letters[c] for i, c in enumerate(roles)}
        host = players[0]
        # Staff fix the deal; the staff member then leaves so the guests hold seats 1..N.
        body = {"roles": deal, "expansion": len(roles) > 10, **options}
        response = staff.post("/api/v1/games/", body, format="json")
        assert response.status_code == 201, response.content
        code = response.json()["code"]
        seated = [p.user for p in players]
        factories.seat_all(code, seated, [p.name for p in players])
        factories.hand_over(code, staff.user, seated)
        return Table(host, players, code)

    return make
