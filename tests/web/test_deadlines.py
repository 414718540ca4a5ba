"""A deadline is the authority.

A move that arrives after its window's deadline is refused (409 `window_closed`) and changes
nothing, whether or not a timer closed the window: here no Celery worker runs at all (the ETA
task and the sweeper never come). Any request that finds the window overdue (a move, a read of
the game on the page or the API, a poll) closes it first, with the expiry the timers run.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.engine import state_from_json
from games.models import Game
from tests.web.conftest import Phone, alert_text

pytestmark = pytest.mark.django_db

LATE = 150  # seconds after the deadline: a Stake that once came 2.5 minutes late


def user_of(phone: Phone):
    return get_user_model().objects.get(pk=phone.client.session["_auth_user_id"])


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def deadline_of(game: Game) -> float:
    return game.state["deadline"]


def after_the_deadline(game: Game, seconds: float = LATE):
    """The clock `seconds` after the open window's deadline; no timer has run (no worker)."""
    return time_machine.travel(deadline_of(game) + seconds, tick=True)


def tokens_placed(game: Game) -> list:
    state = state_from_json(game.state)
    dining = state.dining or state.last_dining
    return list(dining.tokens) if dining else []


def closed_text(deadline: float) -> str:
    return f"This window closed at {datetime.fromtimestamp(deadline, UTC):%Y-%m-%d %H:%M:%S} UTC."


def test_r3_3_late_move_after_deadline_is_refused_on_the_page_and_changes_nothing(table):
    t = table("LVHHHH")
    game = t.game
    deadline = deadline_of(game)
    assert game.phase == "mingling"
    with after_the_deadline(game):
        response = t.phone(2).act(t.code, "place_token", expect=409, token="stake", target="3")
    assert alert_text(response.content.decode()) == closed_text(deadline)
    game = t.game
    assert game.phase != "mingling"  # the request closed the window, as the timer would have
    assert not game.actions.filter(name="place_token").exists()  # the Stake was not placed
    assert game.actions.filter(name="timeout").count() == 1
    assert not any(p.owner == 2 and p.target == 3 for p in tokens_placed(game))
    assert game.events.filter(text="Time is up: Mingling is over.").count() == 1


def test_r3_3_late_move_after_deadline_is_refused_by_the_api_with_window_closed(table):
    t = table("LVHHHH")
    game = t.game
    deadline, version = deadline_of(game), game.version
    body = {"token": "stake", "targets": [3]}
    with after_the_deadline(game):
        response = api(user_of(t.phone(2))).post(
            f"/api/v1/games/{t.code}/actions/place_token/", body, format="json"
        )
    assert response.status_code == 409
    assert response.json() == {"code": "window_closed", "detail": closed_text(deadline)}
    game = t.game
    assert game.version == version + 1  # the expiry, and nothing else
    assert not game.actions.filter(name="place_token").exists()


def test_r3_3_a_move_just_before_the_deadline_still_counts(table):
    t = table("LVHHHH")
    game = t.game
    with time_machine.travel(deadline_of(game) - 2, tick=False):
        t.phone(2).act(t.code, "place_token", token="stake", target="3")
    assert t.game.actions.filter(name="place_token", seat=2).count() == 1


def test_a_page_read_after_the_deadline_closes_the_window(table):
    t = table("LVHHHH")
    game = t.game
    with after_the_deadline(game):
        page = t.page(4)
    assert "Time is up: Mingling is over." in page
    assert t.game.phase != "mingling"
    assert t.game.actions.filter(name="timeout").count() == 1


def test_an_api_read_after_the_deadline_closes_the_window(table):
    t = table("LVHHHH")
    game = t.game
    version = game.version
    with after_the_deadline(game):
        view = api(user_of(t.phone(3))).get(f"/api/v1/games/{t.code}/").json()
    assert view["version"] == version + 1 and view["phase"] != "mingling"


def test_a_poll_after_the_deadline_closes_the_window_though_nothing_else_changed(table):
    """The page's cheap poll answers 204 before the deadline; after it, the same poll (same
    version, cache warm) goes on to the view, which closes the window and shows the change."""
    t = table("LVHHHH")
    game = t.game
    version = game.version
    poll = f"/g/{t.code}/changed?v={version}"
    phone = t.phone(5)
    assert phone.client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    assert phone.client.get(poll, headers={"HX-Request": "true"}).status_code == 204  # cached
    with after_the_deadline(game):
        response = phone.client.get(poll, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert f'data-version="{version + 1}"' in response.content.decode()
    assert t.game.phase != "mingling"


def test_an_api_poll_after_the_deadline_is_not_answered_not_modified(table):
    t = table("LVHHHH")
    game = t.game
    version = game.version
    client = APIClient()
    made = client.post("/api/v1/auth/guest/", {"name": "Zed"}, format="json").json()
    client.credentials(HTTP_AUTHORIZATION=f"Token {made['token']}")  # a spectator's token
    url, held = f"/api/v1/games/{t.code}/", {"HTTP_IF_NONE_MATCH": f'"{version}"'}
    assert client.get(url, **held).status_code == 304
    assert client.get(url, **held).status_code == 304  # the fast path, cache warm
    with after_the_deadline(game):
        response = client.get(url, **held)
    assert response.status_code == 200
    assert response.json()["version"] == version + 1


def test_r3_3_an_overdue_window_closes_once_however_many_requests_find_it(table):
    t = table("LVHHHH")
    game = t.game
    with after_the_deadline(game):
        for seat in (1, 2, 3):
            t.page(seat)
        t.phone(4).act(t.code, "place_token", expect=409, token="stake", target="3")
    assert t.game.actions.filter(name="timeout").count() == 1
