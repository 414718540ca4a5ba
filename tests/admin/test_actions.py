"""Each admin action on a running game: through the services, recorded as a public event."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import services
from games.engine import state_from_json
from games.models import Action, Event, Game
from games.services import GameError, action_apply, game_expire, sweep_overdue
from games.services import organiser as admin_services
from tests.admin.conftest import bulk, confirm, play
from tests.factories import running_game

pytestmark = pytest.mark.django_db


def url(name: str, game: Game) -> str:
    return reverse(f"admin:games_game_{name}", args=[game.id])


def last_public(game: Game) -> Event:
    return Event.objects.filter(game=game, audience__isnull=True).last()


def test_extend_moves_the_deadline_in_the_state_and_the_row_by_n_minutes(root_client):
    game = running_game(6)
    before = state_from_json(game.state).deadline
    response = confirm(root_client, url("extend", game), {"minutes": 30})
    assert response.status_code == 302

    game.refresh_from_db()
    state = state_from_json(game.state)
    assert state.deadline == before + 30 * 60
    assert game.deadline == datetime.fromtimestamp(before + 30 * 60, UTC)
    assert game.version == 7 and game.phase == "mingling"
    event = last_public(game)
    assert event.kind == "admin" and "extended" in event.text and "30 minutes" in event.text
    step = Action.objects.filter(game=game).last()
    assert (step.name, step.args) == ("deadline", {"deadline": before + 30 * 60})
    # The old timer finds nothing to do at the old deadline; the new one closes the window.
    assert game_expire(game_id=game.id, now=before + 1) is False
    assert game_expire(game_id=game.id, now=before + 30 * 60) is True


def test_extend_refuses_bad_minutes_and_a_game_that_is_not_running(root_client):
    game = running_game(6)
    response = confirm(root_client, url("extend", game), {"minutes": 0})
    assert response.status_code == 200 and b"errorlist" in response.content
    admin_services.game_abandon(code=game.code, by="test")
    with pytest.raises(GameError):
        admin_services.deadline_extend(code=game.code, minutes=5, by="test")


def test_expire_now_closes_the_window_as_its_timer_would(root_client):
    game = play(running_game(6), 3)
    version = game.version
    response = confirm(root_client, url("expire", game))
    assert response.status_code == 302

    game.refresh_from_db()
    assert game.phase != "mingling" or game.round == 2
    assert Event.objects.filter(game=game, kind="mingling_over").exists()
    assert Event.objects.filter(game=game, kind="admin", text__contains="closed").exists()
    assert game.version == version + 2  # the deadline brought forward, then the timeout
    names = list(Action.objects.filter(game=game).values_list("name", flat=True))
    assert names[-2:] == ["deadline", "timeout"]
    timeout = Action.objects.filter(game=game).last()
    assert timeout.at <= time.time()


def test_expire_from_the_list_and_an_error_for_a_game_with_no_window(root_client):
    running, lobby = running_game(6), running_game(6)
    admin_services.game_abandon(code=lobby.code, by="test")
    response = bulk(
        root_client,
        reverse("admin:games_game_changelist"),
        "expire_windows",
        [running.id, lobby.id],
        follow=True,
    )
    html = response.content.decode()
    assert f"{running.code}: window expired" in html
    assert f"{lobby.code}: The game is not running." in html
    running.refresh_from_db()
    assert Event.objects.filter(game=running, kind="mingling_over").exists()


def test_abandon_ends_the_game_and_stops_its_timers(root_client):
    game = running_game(6)
    response = confirm(root_client, url("abandon", game))
    assert response.status_code == 302

    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert game.deadline is None and state_from_json(game.state).deadline is None
    assert "abandoned" in last_public(game).text
    assert sweep_overdue(now=time.time() + 10**6) == 0
    with pytest.raises(Exception, match="over"):
        action_apply(
            code=game.code, user=game.users[0], name="place_token", args={"token": "stake"}
        )


def test_abandon_a_lobby_from_the_list(root_client):
    from games.services import game_create

    host = get_user_model().objects.create_user("host")
    lobby = game_create(host=host, options={}, name="Host")
    bulk(root_client, reverse("admin:games_game_changelist"), "abandon_games", [lobby.id])
    lobby.refresh_from_db()
    assert lobby.status == Game.Status.ABANDONED
    assert last_public(lobby).kind == "admin"


def test_replace_a_seat_gives_it_and_its_role_to_another_user(root_client):
    game = running_game(6)
    newcomer = get_user_model().objects.create_user("newcomer")
    role = state_from_json(game.state).player(2).role
    response = confirm(
        root_client, url("replace_seat", game), {"seat": 2, "username": "newcomer", "name": "Nina"}
    )
    assert response.status_code == 302

    game.refresh_from_db()
    player = game.players.get(seat=2)
    assert player.user == newcomer and player.name == "Nina"
    assert state_from_json(game.state).player(2).role == role
    assert last_public(game).text == "“p1” left seat 2; “Nina” plays it now."
    action_apply(
        code=game.code, user=newcomer, name="place_token", args={"token": "stake", "target": 3}
    )
    with pytest.raises(GameError, match="no seat"):
        action_apply(
            code=game.code,
            user=game.users[1],
            name="place_token",
            args={"token": "stake", "target": 3},
        )


def test_replace_a_seat_with_a_bot_keeps_the_role_and_the_bot_plays_it(root_client):
    game = running_game(6)
    role = state_from_json(game.state).player(3).role
    response = confirm(root_client, url("replace_seat", game), {"seat": 3, "username": ""})
    assert response.status_code == 302

    game.refresh_from_db()
    player = game.players.get(seat=3)
    assert player.is_bot and player.user is None and player.name == "Bot 3"
    assert state_from_json(game.state).player(3).role == role
    assert services.bot_act(game_id=game.id, seat=3)  # what the queued Celery task runs
    game.refresh_from_db()
    assert any(p.owner == 3 for p in state_from_json(game.state).placements)


def test_the_hosts_seat_is_not_handed_to_a_bot(root_client):
    game = running_game(6)
    confirm(root_client, url("replace_seat", game), {"seat": 1, "username": ""})
    assert not game.players.get(seat=1).is_bot


def test_replace_a_seat_refuses_a_user_already_at_the_table(root_client):
    game = running_game(6)
    response = confirm(
        root_client,
        url("replace_seat", game),
        {"seat": 2, "username": game.users[3].username},
        follow=True,
    )
    assert b"already has a seat" in response.content
    assert game.players.get(seat=2).user == game.users[1]


def test_every_action_logs_a_change_in_the_admin_history(root_client, superuser):
    from django.contrib.admin.models import LogEntry

    game = running_game(6)
    confirm(root_client, url("extend", game), {"minutes": 5})
    confirm(root_client, url("expire", game))
    confirm(root_client, url("abandon", game))
    messages = [e.get_change_message() for e in LogEntry.objects.filter(object_id=str(game.id))]
    assert len(messages) == 3
