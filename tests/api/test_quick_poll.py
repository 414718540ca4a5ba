"""The API's unchanged poll (`If-None-Match` → 304) is answered before DRF and
the rest of the stack (games/web/middleware/quickpoll.py), from one cache round trip, and only to a
caller the view let see that version (where spectators are off, strangers get 403 whatever
version they name; a revoked token is refused at once)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Game, Player
from games.services.seats import seat_to_bot
from tests.api.conftest import guest

pytestmark = pytest.mark.django_db


def poll(client: APIClient, url: str, version: int):
    """The poll with this ETag, and the database queries it made."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, HTTP_IF_NONE_MATCH=f'"{version}"')
    return response, len(queries)


@pytest.fixture
def private(table, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        t = table("LVHHHH", spectators=False)
    return t


def test_a_seats_token_gets_304_without_a_query_once_the_view_let_it_see_the_version(private):
    t = private
    version = t.view(2)["version"]
    response, queries = poll(t.client(2), t.url(), version)
    assert response.status_code == 304 and queries == 0
    assert response["ETag"] == f'"{version}"' and response["Cache-Control"] == "no-store"
    assert "Authorization" in response["Vary"]


def test_a_seats_first_poll_goes_the_long_way_and_the_next_is_early(private):
    t = private
    version = Game.objects.get(code=t.code).version
    first, queries = poll(t.client(3), t.url(), version)
    assert first.status_code == 304 and queries > 0
    second, queries = poll(t.client(3), t.url(), version)
    assert second.status_code == 304 and queries == 0


def test_a_stranger_gets_403_whatever_version_it_names(private):
    t = private
    stranger = guest("Zed")
    version = Game.objects.get(code=t.code).version
    for v in (0, version, version + 1):
        assert stranger.get(t.url(), HTTP_IF_NONE_MATCH=f'"{v}"').status_code == 403


def test_no_token_is_401_and_a_revoked_token_is_refused_on_its_next_poll(private):
    t = private
    version = t.view(2)["version"]
    assert poll(t.client(2), t.url(), version)[0].status_code == 304
    assert APIClient().get(t.url(), HTTP_IF_NONE_MATCH=f'"{version}"').status_code == 401
    assert t.client(2).delete("/api/v1/auth/token/").status_code in (200, 204)
    assert poll(t.client(2), t.url(), version)[0].status_code == 401


def test_a_token_whose_seat_went_to_a_bot_is_a_strangers(
    private, django_capture_on_commit_callbacks
):
    t = private
    version = t.view(3)["version"]
    Player.objects.filter(game__code=t.code, seat=3).update(missed_windows=2, afk=True)
    with django_capture_on_commit_callbacks(execute=True):
        seat_to_bot(code=t.code, user=Game.objects.get(code=t.code).host, seat=3)
    for v in (version, version + 1):
        assert poll(t.client(3), t.url(), v)[0].status_code == 403


def test_a_change_is_never_answered_early(private, django_capture_on_commit_callbacks):
    t = private
    version = t.view(2)["version"]
    with django_capture_on_commit_callbacks(execute=True):
        t.place(3, "S4")
    response, _ = poll(t.client(2), t.url(), version)
    assert response.status_code == 200 and response.json()["version"] == version + 1
