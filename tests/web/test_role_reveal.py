"""R2's ruling, the role reveal before round 1, through the services, the API and the
phone's page: the table waits for every Ready or its grace window; no timer special case.

No Celery worker runs here: the reveal's window is closed the way the sweeper, a late move or a
read closes any window (`services.sweep_overdue`, `close_if_overdue`)."""

from __future__ import annotations

import html
import re
import time

import pytest
import time_machine
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games import services
from games.domain.options import REVEAL
from games.engine import state_from_json
from games.models import Game, Player
from tests.web.conftest import Phone, alert_text

pytestmark = pytest.mark.django_db

REVEAL_TIMERS = {"timers": {"reveal": 30}}


def api(phone: Phone) -> APIClient:
    client = APIClient()
    client.force_authenticate(
        get_user_model().objects.get(pk=phone.client.session["_auth_user_id"])
    )
    return client


def words(page: str) -> str:
    """The page's text as a person reads it: no tags (a name is in a <bdi>), no entities."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def state_of(game: Game):
    return state_from_json(game.state)


def test_r2_ruling_reveal_api_games_have_no_reveal_unless_asked(table):
    t = table("LVHHHH")
    assert t.game.phase == "mingling"
    assert "reveal" not in t.game.options["timers"]


def test_r2_ruling_reveal_the_create_page_turns_it_on_with_the_presets_value(phones):
    (ana,) = phones(1)
    for preset in ("live", "async"):
        response = ana.client.post("/new", {"name": "Ana", "preset": preset, "last_wills": "on"})
        assert response.status_code == 302, alert_text(response.content.decode())
        code = re.search(r"/g/([A-Z0-9]{6})/", response["Location"]).group(1)
        game = Game.objects.get(code=code)
        assert game.options["timers"]["reveal"] == REVEAL[preset]
        assert "role reveal" in ana.page(code)  # shown in the lobby's options line
        ana.post(f"/g/{code}/leave", expect=None)


def test_r2_ruling_reveal_every_ready_on_the_page_starts_round_1(table):
    t = table("LVHHHH", **REVEAL_TIMERS)
    game = t.game
    assert (game.phase, game.round) == ("role_reveal", 1)
    page = t.phone(2).page(t.code)
    assert 'data-action="ready"' in page and "data-ready" in page
    assert 'data-reveal-role="vampire"' in page
    assert "Ana is the Vampire Lord" in words(page)  # R1.3
    assert "data-news" not in page  # the reveal shows the night information: no news card
    hunter = t.phone(3).page(t.code)
    assert 'data-reveal-role="hunter"' in hunter and "You know nobody's role" in words(hunter)
    lord = t.phone(1).page(t.code)
    assert "you do not know who they are" in lord  # six players: the Lord knows no Vampire
    t.phone(2).act(t.code, "ready")
    page = t.phone(2).page(t.code)
    assert 'data-action="ready"' not in page and "data-reveal-role" not in page
    assert "Waiting for Ana, Cleo, Dev, Eli and Fay to look at their role." in words(page)
    assert "Ben is ready." in words(page)  # the log, with the name
    for seat in (1, 3, 4, 5):
        t.phone(seat).act(t.code, "ready")
    assert t.game.phase == "role_reveal"
    before = time.time()
    t.phone(6).act(t.code, "ready")
    game = t.game
    assert game.phase == "mingling"
    assert state_of(game).deadline >= before + 180  # Mingling's whole timer, from the last Ready
    assert 'data-action="place_token"' in t.phone(3).page(t.code)


def test_r2_ruling_reveal_the_api_takes_ready_and_refuses_a_second(table):
    t = table("LVHHHH", **REVEAL_TIMERS)
    client = api(t.phone(4))
    view = client.get(f"/api/v1/games/{t.code}/").json()
    assert view["phase"] == "role_reveal"
    assert view["pending"] == [{"action": "ready", "options": {"targets": [], "min": 0, "max": 0}}]
    answer = client.post(f"/api/v1/games/{t.code}/actions/ready/", {}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["pending"] == [] and 4 not in answer.json()["waiting_for"]
    again = client.post(f"/api/v1/games/{t.code}/actions/ready/", {}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "wrong_phase")


def test_r2_ruling_reveal_an_overdue_window_is_closed_by_the_sweeper_and_round_1_begins(table):
    t = table("LVHHHH", **REVEAL_TIMERS)
    t.phone(1).act(t.code, "ready")
    deadline = state_of(t.game).deadline
    assert services.sweep_overdue(now=deadline - 1) == 0
    assert services.sweep_overdue(now=deadline + 1) == 1
    game = t.game
    state = state_of(game)
    assert (game.phase, state.round) == ("mingling", 1)
    assert state.deadline >= deadline + 1 + 180 - 1
    over = game.events.get(kind="reveal_over")
    assert over.data == {"reason": "time_up"}
    assert game.events.filter(kind="round_started").count() == 1


def test_r2_ruling_reveal_a_read_finding_the_window_overdue_closes_it(table):
    t = table("LVHHHH", **REVEAL_TIMERS)
    deadline = state_of(t.game).deadline
    with time_machine.travel(deadline + 5, tick=True):
        page = t.phone(3).page(t.code)
    assert 'data-action="place_token"' in page
    assert t.game.phase == "mingling"


def test_r2_ruling_reveal_a_seat_that_never_taps_ready_is_not_away(table):
    t = table("LVHHHH", **REVEAL_TIMERS)
    deadline = state_of(t.game).deadline
    far = deadline + 3600  # long after the preset's minimum away time
    assert services.game_expire(game_id=t.game.id, now=far)
    assert (
        list(Player.objects.filter(game=t.game).values_list("missed_windows", "afk"))
        == [(0, False)] * 6
    )
    assert not t.game.events.filter(kind="afk").exists()


def test_r2_ruling_reveal_the_host_may_pause_and_resume_it(table):
    t = table("LVHHHH", **REVEAL_TIMERS)
    t.phone(1).post(f"/g/{t.code}/deadline/pause")
    assert state_of(t.game).deadline is None and t.game.phase == "role_reveal"
    for seat in range(1, 7):
        t.phone(seat).act(t.code, "ready")
    game = t.game
    assert game.phase == "mingling" and state_of(game).deadline is None  # still paused
    t.phone(1).post(f"/g/{t.code}/deadline/resume")
    assert state_of(t.game).deadline is not None


def test_r2_ruling_reveal_the_room_screen_shows_who_is_ready_and_no_role(table):
    t = table("LVHHHH", **REVEAL_TIMERS)
    t.phone(2).act(t.code, "ready")
    t.phone(5).act(t.code, "ready")
    screen = words(t.phone(3).client.get(f"/t/{t.code}/").content.decode())
    assert "Everyone is looking at their role" in screen
    assert "Ready: Ben and Eli." in screen and screen.count("✓ Ready") == 2
    assert not re.search(r"[Vv]ampire|Lord|Hunter", screen.split("Rules")[0])


def test_r2_ruling_reveal_the_bots_tap_ready():
    host = get_user_model().objects.create_user("reveal-host")
    game = services.game_create(host=host, options=REVEAL_TIMERS, name="Ana")
    services.game_add_bots(code=game.code, user=host, count=5)
    services.game_start(code=game.code, user=host)
    for seat in range(2, 7):
        assert services.bot_act(game_id=game.id, seat=seat)
    game.refresh_from_db()
    assert state_of(game).ready == (2, 3, 4, 5, 6) and game.phase == "role_reveal"
