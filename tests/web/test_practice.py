"""Learn by playing: a practice game against five sensible bots, started
from the home page, with the coach's notes on the game page; practice games never count in a
player's figures and never appear among the open tables."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from games import engine, services
from games.bots.moves import bot_move
from games.engine import state_from_json
from games.engine.view import waiting_for
from games.history import selectors
from games.models import Game
from games.selectors import listing
from games.selectors.practice import has_practiced
from games.services import practice
from tests.web.conftest import Phone

pytestmark = pytest.mark.django_db


def guest(name: str = "Ana"):
    return services.guest_create(name=name)


def finish(game: Game) -> Game:
    """Play a practice game to its end: the bots as the Celery task moves them
    (services.bot_act), the person as the sensible bot would, from their own view."""
    rng = random.Random(game.seed)
    person = game.players.get(seat=1).user
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return game
        state = state_from_json(game.state)
        seats = waiting_for(state)
        if not seats:
            services.game_expire(game_id=game.id, now=state.deadline + 1)
        elif seats[0] != 1:
            if not services.bot_act(game_id=game.id, seat=seats[0]):
                services.game_expire(game_id=game.id, now=state.deadline + 1)
        else:
            choice = bot_move(rng, 1, engine.view(state, 1))
            if choice is None:
                services.game_expire(game_id=game.id, now=state.deadline + 1)
            else:
                services.action_apply(
                    code=game.code, user=person, name=choice.name, args=choice.args
                )
    raise AssertionError(f"{game.code} did not end")


def test_a_practice_game_starts_at_once_with_five_sensible_bots_and_standard_rules():
    ana = guest()
    game = practice.practice_start(user=ana, name="Ana")
    assert game.status == Game.Status.RUNNING
    players = list(game.players.order_by("seat"))
    assert [(p.seat, p.is_bot) for p in players] == [(1, False)] + [(s, True) for s in range(2, 7)]
    assert players[0].user == ana and game.host == ana
    # The bots have people's names (a chip read "2 Bot 1"); the "bot" badge says what they are.
    assert [p.name for p in players[1:]] == ["Ada", "Boris", "Clara", "Dmitri", "Edith"]
    options = game.options
    assert options["practice"] is True and options["bot_strategy"] == "sensible"
    assert (options["relics"], options["last_wills"], options["expansion"]) == (False,) * 3
    assert options["spectators"] is False
    assert options["timers"] == practice.TIMERS and min(practice.TIMERS.values()) >= 600
    state = state_from_json(game.state)
    # The role reveal first, as in a game opened on the page; the bots are ready at once.
    assert len(state.players) == 6 and state.phase == "role_reveal"
    for seat in range(2, 7):
        assert services.bot_act(game_id=game.id, seat=seat)
    services.action_apply(code=game.code, user=ana, name="ready", args={})
    game.refresh_from_db()
    assert state_from_json(game.state).phase == "mingling"


def test_the_second_practice_game_offers_relics_and_last_wills():
    game = practice.practice_start(user=guest(), name="Ana", more=True)
    assert game.options["relics"] is True and game.options["last_wills"] is True


def test_a_finished_practice_game_is_left_out_of_the_figures_and_said_so():
    ana = guest()
    game = finish(practice.practice_start(user=ana, name="Ana"))
    assert game.status == Game.Status.FINISHED
    assert selectors.figures(ana)["games"] == 0
    assert selectors.left_out(ana) == {"abandoned": 0, "practice": 1}
    client = APIClient()
    client.force_authenticate(ana)
    assert client.get("/api/v1/me/games/").json()["games"] == []
    stats = client.get("/api/v1/me/stats/").json()
    assert stats["games"] == 0 and stats["left_out"]["practice"] == 1
    assert has_practiced(ana)
    home = Client()
    home.force_login(ana)
    assert f"/g/{game.code}/" not in home.get("/inbox").content.decode()  # not under Your tables


def test_practice_tables_never_appear_among_the_open_tables():
    ana, ben = guest(), get_user_model().objects.create_user("ben")
    lobby = services.game_create(
        host=ana, options=practice.practice_options(more=False), name="Ana"
    )
    real = services.game_create(host=ana, options={}, name="Ana")
    lobbies, _ = listing.open_lobbies(ben)
    assert [g.code for g in lobbies] == [real.code]
    client = APIClient()
    client.force_authenticate(ben)
    listed = client.get("/api/v1/games/").json()
    assert lobby.code not in str(listed) and real.code in str(listed)


def test_nobody_else_may_watch_a_practice_game():
    game = practice.practice_start(user=guest(), name="Ana")
    assert Phone("Ben").client.get(f"/g/{game.code}/").status_code == 404


def test_learn_by_playing_from_the_home_page_opens_a_game_with_a_coach_note():
    ana = Phone("Ana")
    home = ana.client.get("/").content.decode()
    assert "Learn by playing" in home and 'action="/practice"' in home
    assert "Practice with relics and Last Wills" not in home  # after a first game
    response = ana.client.post("/practice", {"name": "Ana"})
    assert response.status_code == 302
    code = response["Location"].split("/")[2]
    page = ana.page(code)
    assert "data-coach" in page and "a practice game: it never counts in your figures" in page
    notes = re.findall(r'<p class="coach-note" data-note="([^"]+)">', page)
    assert notes[0] == "reveal", notes  # the role reveal first: read your role, tap Ready
    assert 'data-action="ready"' in page
    game = Game.objects.get(code=code)
    for seat in range(2, 7):
        services.bot_act(game_id=game.id, seat=seat)
    ana.act(code, "ready")
    page = ana.page(code)
    notes = re.findall(r'<p class="coach-note" data-note="([^"]+)">', page)
    assert notes[0] == "r1-mingling-place", notes
    assert "You have 2 Stakes and a Feast to place." in page
    assert "Tap for tips about your role" in page


def test_the_notes_can_be_turned_off_and_on_again():
    ana = Phone("Ana")
    code = ana.client.post("/practice", {"name": "Ana"})["Location"].split("/")[2]
    response = ana.client.post(f"/g/{code}/coach")
    assert response.status_code == 302 and response["Location"] == f"/g/{code}/"
    page = ana.page(code)
    assert "Turn coach notes on" in page and 'class="coach-note"' not in page
    ana.client.post(f"/g/{code}/coach", {"on": "1"})
    assert 'class="coach-note"' in ana.page(code)


def test_a_real_game_has_no_coach():
    ana = Phone("Ana")
    code = ana.client.post("/new", {"name": "Ana", "preset": "live"})["Location"].split("/")[2]
    ana.post(f"/g/{code}/bots", {"count": "5"})
    ana.post(f"/g/{code}/start")
    assert "data-coach" not in ana.page(code)


def test_practice_without_a_name_asks_for_one_and_starts_nothing():
    response = Phone("Ana").client.post("/practice", {"name": ""})
    assert response.status_code == 400
    assert "Tell us your name to start a practice game." in response.content.decode()
    assert not Game.objects.exists()


def test_the_end_of_a_first_practice_game_offers_the_second():
    ana = Phone("Ana")
    code = ana.client.post("/practice", {"name": "Ana"})["Location"].split("/")[2]
    game = finish(Game.objects.get(code=code))
    page = ana.page(code)
    assert "Game over: the" in page and "Practice with relics and Last Wills" in page
    response = ana.client.post("/practice", {"name": "Ana", "more": "on"})
    second = Game.objects.get(code=response["Location"].split("/")[2])
    assert second.options["relics"] is True and second != game
    assert "Practice with relics and Last Wills" in ana.client.get("/").content.decode()
