"""The unit of work every writer of a game goes through (games/services/unit.py), and
the one mapping from a refusal to its HTTP status (games/domain/errors.py)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games import services
from games.domain.errors import DomainError, GameError, refusal
from games.domain.poll_keys import version_key
from games.engine import IllegalAction
from games.models import Event
from tests.factories import running_game

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.mark.django_db
def test_a_refusal_inside_game_write_leaves_the_game_as_it_was():
    game = running_game()
    events = Event.objects.filter(game=game).count()
    with pytest.raises(GameError), services.game_write(game.code) as write:
        write.change([services.seat_event("afk", "Seat 2 seems to be away.", 1, seat=2)])
        raise GameError("forbidden", "Not after all.", 403)
    saved = type(game).objects.get(pk=game.pk)
    assert (saved.version, saved.last_seq) == (game.version, game.last_seq)
    assert Event.objects.filter(game=game).count() == events


@pytest.mark.django_db
def test_a_change_is_one_new_version_with_its_events_and_the_poll_key_follows_on_commit(
    django_capture_on_commit_callbacks,
):
    game = running_game()
    cache.delete(version_key(game.code))
    with django_capture_on_commit_callbacks(execute=True):
        with services.game_write(game.code) as write:
            write.change([services.seat_event("afk", "Seat 2 seems to be away.", 1, seat=2)])
    saved = type(game).objects.get(pk=game.pk)
    assert saved.version == game.version + 1
    last = Event.objects.filter(game=game).order_by("-seq").first()
    assert (last.seq, last.kind) == (game.last_seq + 1, "afk")
    assert cache.get(version_key(game.code)) == game.version + 1


@pytest.mark.django_db
def test_game_write_answers_404_not_found_for_a_code_no_game_has():
    with pytest.raises(GameError) as refused, services.game_write("NOSUCH"):
        pass
    assert (refused.value.code, refused.value.status) == ("not_found", 404)


def test_a_refusal_answers_the_same_status_whoever_raised_it():
    """The API and the pages both ask `refusal`: a service's code keeps its status, the engine's
    codes answer as docs/api.md says, and anything else is not a refusal (a bug, raised again)."""
    assert refusal(GameError("game_full", "The table is full (10 seats).", 409)).status == 409
    assert refusal(DomainError("push_disabled", "Web Push is off.", 503)).status == 503
    assert refusal(IllegalAction("wrong_phase", "Not now.")).status == 409
    assert refusal(IllegalAction("illegal_target", "Not them.")).status == 400
    assert refusal(ValueError("a bug")) is None
