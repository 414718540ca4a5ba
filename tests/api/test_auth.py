"""Identities (docs/api.md, "Authentication"): guests, registered users, tokens, and refusals."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

GUEST = "/api/v1/auth/guest/"
REGISTER = "/api/v1/auth/register/"
TOKEN = "/api/v1/auth/token/"


def post(client: APIClient, url: str, body):
    return client.post(url, body, format="json")


def test_guest_gets_201_with_token_user_id_and_name():
    response = post(APIClient(), GUEST, {"name": "Ana"})
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"token", "user_id", "name"}
    assert body["name"] == "Ana"
    assert isinstance(body["user_id"], int)
    assert isinstance(body["token"], str) and len(body["token"]) >= 20
    user = get_user_model().objects.get(id=body["user_id"])
    assert user.first_name == "Ana"
    assert not user.has_usable_password()


def test_guest_token_signs_the_guest_in():
    body = post(APIClient(), GUEST, {"name": "Ana"}).json()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert client.get("/api/v1/games/").status_code == 200


def test_two_guests_with_the_same_name_are_two_identities():
    a = post(APIClient(), GUEST, {"name": "Ana"}).json()
    b = post(APIClient(), GUEST, {"name": "Ana"}).json()
    assert a["user_id"] != b["user_id"] and a["token"] != b["token"]


def test_guest_name_is_trimmed():
    response = post(APIClient(), GUEST, {"name": "  Ana  "})
    assert response.status_code == 201
    assert response.json()["name"] == "Ana"


@pytest.mark.parametrize(
    "body",
    [{}, {"name": ""}, {"name": "   "}, {"name": "x" * 41}, {"name": None}, {"name": ["Ana"]}],
    ids=["missing", "empty", "blank", "too-long", "null", "list"],
)
def test_guest_with_a_bad_name_is_400_bad_request(body):
    users = get_user_model().objects.count()
    response = post(APIClient(), GUEST, body)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    assert response.json()["detail"]
    assert get_user_model().objects.count() == users


def test_guest_with_a_malformed_json_body_is_400_bad_request():
    response = APIClient().post(GUEST, "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"


def test_register_gives_201_with_a_token():
    response = post(
        APIClient(), REGISTER, {"username": "alice", "password": "correct-horse", "name": "Alice"}
    )
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"token", "user_id", "name"}
    assert body["name"] == "Alice"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert client.get("/api/v1/games/").status_code == 200


def test_register_without_a_name_uses_the_username():
    body = post(APIClient(), REGISTER, {"username": "bob", "password": "correct-horse"}).json()
    assert body["name"] == "bob"


@pytest.mark.parametrize("username", ["alice", "ALICE", "Alice"])
def test_register_a_taken_username_is_409_username_taken(username):
    assert (
        post(APIClient(), REGISTER, {"username": "alice", "password": "correct-horse"}).status_code
        == 201
    )
    users = get_user_model().objects.count()
    response = post(APIClient(), REGISTER, {"username": username, "password": "other-password"})
    assert response.status_code == 409
    assert response.json()["code"] == "username_taken"
    assert get_user_model().objects.count() == users


@pytest.mark.parametrize(
    "body",
    [
        {"username": "alice", "password": "short"},
        {"username": "alice", "password": "1234567"},
        {"username": "alice"},
        {"password": "correct-horse"},
        {"username": "al", "password": "correct-horse"},
        {"username": "al ice", "password": "correct-horse"},
    ],
    ids=["short-password", "7-chars", "no-password", "no-username", "short-name", "space"],
)
def test_register_with_bad_fields_is_400_bad_request(body):
    response = post(APIClient(), REGISTER, body)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    assert not get_user_model().objects.filter(username="alice").exists()


def test_token_exchange_gives_a_new_token_and_the_old_one_keeps_working():
    """Tokens are stored hashed: an exchange cannot show an old token again, so each
    one issues a token of its own (one per device), each revocable."""
    registered = post(
        APIClient(), REGISTER, {"username": "alice", "password": "correct-horse"}
    ).json()
    response = post(APIClient(), TOKEN, {"username": "alice", "password": "correct-horse"})
    assert response.status_code == 200
    assert response.json()["token"] != registered["token"]
    assert response.json()["user_id"] == registered["user_id"]
    for token in (registered["token"], response.json()["token"]):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert client.get("/api/v1/games/").status_code == 200


def test_token_exchange_works_for_staff():
    get_user_model().objects.create_user("boss", password="pw-boss-123", is_staff=True)
    response = post(APIClient(), TOKEN, {"username": "boss", "password": "pw-boss-123"})
    assert response.status_code == 200
    assert response.json()["token"]


@pytest.mark.parametrize(
    "body",
    [
        {"username": "alice", "password": "wrong-password"},
        {"username": "nobody", "password": "correct-horse"},
        {"username": "alice"},
        {},
    ],
    ids=["wrong-password", "unknown-user", "no-password", "empty"],
)
def test_token_exchange_refused_is_400_bad_request(body):
    post(APIClient(), REGISTER, {"username": "alice", "password": "correct-horse"})
    response = post(APIClient(), TOKEN, body)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    assert "token" not in response.json()


def test_a_guest_cannot_exchange_a_password_for_a_token():
    guest = post(APIClient(), GUEST, {"name": "Ana"}).json()
    username = get_user_model().objects.get(id=guest["user_id"]).username
    response = post(APIClient(), TOKEN, {"username": username, "password": ""})
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"


@pytest.mark.parametrize(
    "method,url",
    [
        ("get", "/api/v1/games/"),
        ("post", "/api/v1/games/"),
        ("get", "/api/v1/games/ACDEFG/"),
        ("get", "/api/v1/games/ACDEFG/events/"),
        ("post", "/api/v1/games/ACDEFG/join/"),
        ("post", "/api/v1/games/ACDEFG/leave/"),
        ("post", "/api/v1/games/ACDEFG/start/"),
        ("post", "/api/v1/games/ACDEFG/actions/place_token/"),
    ],
)
def test_unauthenticated_call_is_401_not_authenticated(method, url):
    response = getattr(APIClient(), method)(url, {}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert response.json()["detail"]


@pytest.mark.parametrize(
    "header",
    ["Token not-a-real-token", "Token ", "Token a b", "Bearer abc"],
    ids=["unknown", "empty", "two-parts", "bearer"],
)
def test_a_bad_token_is_401(header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get("/api/v1/games/")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_a_deleted_users_token_stops_working():
    body = post(APIClient(), GUEST, {"name": "Ana"}).json()
    get_user_model().objects.filter(id=body["user_id"]).delete()
    from django.core.cache import cache

    # the token cache may hold the user for CACHE_SECONDS (games/services/api_tokens.py)
    cache.clear()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert client.get("/api/v1/games/").status_code == 401
