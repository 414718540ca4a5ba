"""The admin never shows an API token."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import ApiToken
from tests.admin.conftest import client_for

pytestmark = pytest.mark.django_db


def signed_in(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_4_the_admin_never_shows_a_token_and_superusers_revoke_them(superuser, staff):
    """DRF's token admin (every token in plain text) is gone; ours shows a prefix, to superusers
    only, and revokes."""
    token = APIClient().post("/api/v1/auth/guest/", {"name": "Ana"}, format="json").json()["token"]
    root = client_for(superuser)
    assert root.get("/admin/authtoken/tokenproxy/").status_code == 404
    page = root.get(reverse("admin:games_apitoken_changelist")).content.decode()
    assert token[:6] in page and token not in page
    index = root.get(reverse("admin:index")).content.decode()
    assert "Auth Token" not in index
    assert client_for(staff).get(reverse("admin:games_apitoken_changelist")).status_code == 403
    row = ApiToken.objects.get()
    response = root.post(
        reverse("admin:games_apitoken_changelist"),
        {"action": "delete_selected", "_selected_action": [row.id], "post": "yes"},
    )
    assert response.status_code == 302
    assert signed_in(token).get("/api/v1/games/").status_code == 401
