"""API tokens: kept only hashed, shown once, revocable by their owner, and
never shown in the admin."""

from __future__ import annotations

import hashlib
import importlib

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from games.models import ApiToken

pytestmark = pytest.mark.django_db

GUEST = "/api/v1/auth/guest/"
TOKEN = "/api/v1/auth/token/"


def signed_in(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def new_guest(name: str = "Ana") -> dict:
    response = APIClient().post(GUEST, {"name": name}, format="json")
    assert response.status_code == 201
    return response.json()


def test_a_token_is_stored_only_as_its_digest():
    token = new_guest()["token"]
    row = ApiToken.objects.get()
    assert row.digest == hashlib.sha256(token.encode()).hexdigest()
    assert row.prefix == token[:6]
    stored = [str(v) for v in ApiToken.objects.values_list(flat=False).get()]
    assert token not in stored and not any(token in v for v in stored)


def test_delete_token_revokes_the_token_the_request_carries_and_only_that_one():
    ana = new_guest()
    user = get_user_model().objects.get(id=ana["user_id"])
    user.set_password("correct-horse")
    user.save()
    second = (
        APIClient()
        .post(TOKEN, {"username": user.username, "password": "correct-horse"}, format="json")
        .json()["token"]
    )
    client = signed_in(ana["token"])
    assert client.get("/api/v1/games/").status_code == 200  # the token is cached now
    response = client.delete(TOKEN)
    assert response.status_code == 204
    assert signed_in(ana["token"]).get("/api/v1/games/").status_code == 401  # at once
    assert signed_in(second).get("/api/v1/games/").status_code == 200


def test_delete_token_with_all_revokes_every_device():
    ana = new_guest()
    user = get_user_model().objects.get(id=ana["user_id"])
    user.set_password("correct-horse")
    user.save()
    second = (
        APIClient()
        .post(TOKEN, {"username": user.username, "password": "correct-horse"}, format="json")
        .json()["token"]
    )
    assert signed_in(ana["token"]).delete(f"{TOKEN}?all=true").status_code == 204
    for token in (ana["token"], second):
        assert signed_in(token).get("/api/v1/games/").status_code == 401
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize("value", ["yes", "TRUE", "", "2", "all"])
def test_delete_token_refuses_an_all_that_is_not_a_boolean_and_revokes_nothing(value):
    """The schema says boolean: `?all=yes` once revoked the caller's own token instead."""
    token = new_guest()["token"]
    response = signed_in(token).delete(f"{TOKEN}?all={value}")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_request" and "all" in body["errors"]
    assert signed_in(token).get("/api/v1/games/").status_code == 200


def test_delete_token_with_all_false_revokes_only_this_token():
    token = new_guest()["token"]
    assert signed_in(token).delete(f"{TOKEN}?all=false").status_code == 204
    assert signed_in(token).get("/api/v1/games/").status_code == 401


def test_delete_token_needs_a_token_or_all():
    assert APIClient().delete(TOKEN).status_code == 401
    user = get_user_model().objects.create_user("web", password="pw-web-12345")
    client = APIClient()
    client.force_authenticate(user=user)  # signed in without a token (as a session would be)
    response = client.delete(TOKEN)
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert signed_in("not-a-token").delete(TOKEN).status_code == 401


def test_the_schema_documents_revoking_a_token():
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/auth/token/"]["delete"]
    assert "204" in operation["responses"]
    assert any(p["name"] == "all" for p in operation["parameters"])


def test_existing_plain_text_tokens_are_hashed_by_the_migration_and_keep_working():
    """DRF's `authtoken_token` rows of a database from before tokens were kept hashed: the data
    migration moves each one as its digest (the client keeps its token) and deletes the plain
    text."""
    migration = importlib.import_module("games.migrations.0004_organisers")
    user = get_user_model().objects.create_user("old-client")
    key = "0123456789abcdef0123456789abcdef01234567"
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created timestamp with time zone NOT NULL, user_id integer NOT NULL)"
            if connection.vendor == "postgresql"
            else "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created datetime NOT NULL, user_id integer NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
            [key, "2026-01-02 03:04:05+00:00", user.id],
        )
    with connection.schema_editor() as editor:
        migration.hash_drf_tokens(apps, editor)
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0
        cursor.execute("DROP TABLE authtoken_token")
    row = ApiToken.objects.get(user=user)
    assert row.prefix == key[:6] and row.created_at.year == 2026
    assert signed_in(key).get("/api/v1/games/").status_code == 200
