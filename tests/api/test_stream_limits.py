"""How many event streams one user and one address may hold open at once (games/api/stream.py):
one guest token once held 100. Through the real route on the ASGI handler (Django's async test
client), without a stream server: the streams are opened and left unread, as a client that
holds them would. The stream's database reads run on this test's thread (thread_sensitive),
inside its transaction, instead of the server's thread pool."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core.cache import cache
from django.core.signals import request_finished
from django.db import close_old_connections
from django.test import AsyncClient

from tests.factories import api_token, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _on_this_thread_and_no_slots_left_over(monkeypatch):
    def on_this_thread(func, thread_sensitive=True):
        return sync_to_async(func, thread_sensitive=True)

    monkeypatch.setattr("games.api.stream.sync_to_async", on_this_thread)
    cache.clear()
    yield
    cache.clear()


def open_streams(code: str, tokens: list[str]) -> list:
    """Ask for one stream per token, in order, and keep every answer (open streams unread)."""

    async def ask():
        client = AsyncClient()
        url = f"/api/v1/games/{code}/stream/"
        return [await client.get(url, headers={"Authorization": f"Token {t}"}) for t in tokens]

    return async_to_sync(ask)()


def close(response) -> None:
    """What the server does when a stream ends or its client goes; as Django's test client
    does, without the request_finished handler that would close this test's connection."""
    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)


def test_one_user_holds_at_most_the_limit_of_streams_and_one_more_is_429(settings):
    settings.STREAM_LIMIT_PER_USER = 3
    game = running_game(6)
    token = api_token(game.users[0])
    first = open_streams(game.code, [token] * 4)
    assert [r.status_code for r in first] == [200, 200, 200, 429]
    refused = first[3]
    assert refused["Retry-After"] == "30" and refused.json()["code"] == "rate_limited"
    assert "Too many streams open" in refused.json()["detail"]
    another_token = api_token(game.users[0])  # the same user on another device: counted too
    assert open_streams(game.code, [another_token])[0].status_code == 429
    close(first[0])  # a stream ends: its slot is free again
    assert open_streams(game.code, [token])[0].status_code == 200
    for response in first[1:3]:
        close(response)


def test_one_address_holds_at_most_its_limit_of_streams_whoever_asks(settings):
    settings.STREAM_LIMIT_PER_ADDRESS = 2
    game = running_game(6)
    tokens = [api_token(game.users[i]) for i in range(3)]
    answers = open_streams(game.code, tokens)
    assert [r.status_code for r in answers] == [200, 200, 429]
    for response in answers[:2]:
        close(response)
    assert open_streams(game.code, tokens[2:])[0].status_code == 200


def test_a_refused_stream_holds_no_slot(settings):
    """A stranger at a private table is refused (403) before any slot is taken."""
    settings.STREAM_LIMIT_PER_USER = 1
    game = running_game(6)
    game.options = {**game.options, "spectators": False}
    game.save(update_fields=["options"])
    from django.contrib.auth import get_user_model

    stranger = api_token(get_user_model().objects.create_user("stranger"))
    assert [r.status_code for r in open_streams(game.code, [stranger] * 3)] == [403] * 3
