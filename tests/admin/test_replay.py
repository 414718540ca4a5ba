"""Replays: export a game (superusers), import it into a new game, same final state."""

from __future__ import annotations

import io
import json
import time

import pytest
from django.urls import reverse

from games.engine import state_from_json
from games.models import Action, Event, Game
from games.services import game_expire
from games.services import organiser as admin_services
from games.services.replay import ReplayError, replay_export, replay_import
from tests.admin.conftest import play
from tests.factories import running_game

pytestmark = pytest.mark.django_db


def played() -> Game:
    """Some moves, a timeout (random choices depend on its `now`), an extension, more moves."""
    game = play(running_game(7), 5)
    game_expire(game_id=game.id, now=state_from_json(game.state).deadline + 0.5)
    game.refresh_from_db()
    play(game, 3)
    if game.status == Game.Status.RUNNING and game.deadline:
        admin_services.deadline_extend(code=game.code, minutes=10, by="test")
        game_expire(game_id=game.id, now=time.time() + 10**5)
    game.refresh_from_db()
    return play(game, 4)


def export(client, game: Game) -> dict:
    response = client.post(reverse("admin:games_game_export", args=[game.id]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="staked-{game.code}.json"'
    return json.loads(response.content)


def test_the_log_records_setup_actions_and_timeouts_with_their_now():
    game = played()
    steps = list(Action.objects.filter(game=game))
    assert steps[0].name == "setup" and steps[0].seat is None
    assert any(s.name == "timeout" for s in steps)
    assert any(s.name == "place_token" and s.seat and s.args.get("token") for s in steps)
    assert [s.seq for s in steps] == sorted(s.seq for s in steps)
    assert steps[-1].seq == game.version


def test_export_then_import_replays_into_the_same_final_state(root_client):
    game = played()
    data = export(root_client, game)
    assert data["seed"] == game.seed and data["roles"] == game.options["roles"]
    assert [a["name"] for a in data["actions"]].count("timeout") >= 2

    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "replay.json"
    response = root_client.post(reverse("admin:games_game_import"), {"file": upload})
    assert response.status_code == 302, response.content.decode()[-2000:]
    copy = Game.objects.exclude(id=game.id).get()
    assert response["Location"] == reverse("admin:games_game_change", args=[copy.id])

    assert copy.state == game.state
    assert (copy.round, copy.phase, copy.deadline) == (game.round, game.phase, game.deadline)
    assert list(copy.players.values_list("seat", "name")) == list(
        game.players.values_list("seat", "name")
    )
    original_log = list(Event.objects.filter(game=game).exclude(kind__in=Event.SERVICE_KINDS))
    copy_log = list(Event.objects.filter(game=copy).exclude(kind__in=Event.SERVICE_KINDS))
    assert [(e.kind, e.text, e.audience) for e in copy_log] == [
        (e.kind, e.text, e.audience) for e in original_log
    ]
    # A still-running copy is frozen: no timer moves it on (a dozen moves end no 7-player game;
    # a finished game's copy is the next test).
    assert game.status == Game.Status.RUNNING
    assert copy.status == Game.Status.ABANDONED
    assert game_expire(game_id=copy.id, now=time.time() + 10**6) is False


def test_a_replay_of_a_finished_game_finishes_the_same_way():
    game = running_game(6)
    for _ in range(60):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        play(game, 2)
        game.refresh_from_db()
        if game.status == Game.Status.RUNNING and game.deadline:
            game_expire(game_id=game.id, now=state_from_json(game.state).deadline)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    copy = replay_import(replay_export(game), host=game.users[0])
    assert copy.status == Game.Status.FINISHED
    assert copy.state == game.state


def test_import_may_leave_a_running_copy_running():
    game = played()
    copy = replay_import(replay_export(game), host=game.users[0], keep_running=True)
    assert copy.status == game.status
    assert copy.state == game.state


def test_a_tampered_replay_is_refused_and_leaves_nothing():
    game = played()
    data = replay_export(game)
    data["seed"] += 1
    with pytest.raises(ReplayError):
        replay_import(data, host=game.users[0])
    with pytest.raises(ReplayError, match="not a Staked"):
        replay_import({"hello": 1}, host=game.users[0])
    assert Game.objects.count() == 1


def test_a_bad_upload_shows_the_error_on_the_form(root_client):
    upload = io.BytesIO(b"{not json")
    upload.name = "x.json"
    response = root_client.post(reverse("admin:games_game_import"), {"file": upload})
    assert response.status_code == 200 and b"Not JSON" in response.content


def test_export_is_for_superusers_only_and_a_get_only_asks(root_client, staff_client):
    game = running_game(6)
    url = reverse("admin:games_game_export", args=[game.id])
    asked = root_client.get(url)  # a page that asks first; only its POST downloads
    assert asked.status_code == 200 and "Content-Disposition" not in asked
    assert b"holds every secret" in asked.content
    assert staff_client.get(url).status_code == 403
    assert staff_client.post(url).status_code == 403


def test_a_relic_game_replays_with_the_same_state_and_relic_holders():
    from django.contrib.auth import get_user_model

    from games import services
    from games.engine.table import role_deck
    from relics.models import RelicHolding

    users = [get_user_model().objects.create_user(f"r{i}") for i in range(7)]
    roles = {str(seat): role for seat, role in enumerate(role_deck(7), start=1)}
    game = services.game_create(host=users[0], options={"roles": roles, "relics": True}, name="r0")
    for i, user in enumerate(users[1:], start=1):
        services.game_join(code=game.code, user=user, name=f"r{i}")
    services.game_start(code=game.code, user=users[0])
    game.refresh_from_db()
    game.users = users
    for _ in range(12):  # moves and timeouts until the relics are dealt, and a little more
        play(game, 3)
        if game.status != Game.Status.RUNNING:
            break
        if game.deadline:
            game_expire(game_id=game.id, now=state_from_json(game.state).deadline)
        game.refresh_from_db()
    holders = list(RelicHolding.objects.filter(game=game).values_list("seat", "card"))
    assert holders, "no relic was dealt"

    copy = replay_import(replay_export(game), host=users[0])
    assert copy.state == game.state
    assert list(RelicHolding.objects.filter(game=copy).values_list("seat", "card")) == holders
