"""`SeatResult` rows (games/history/records.py): written from a finished game's final state as
it ends (in the move's own transaction), once, for every seat; never for a game that did not end;
and reading a history writes nothing."""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.history import records, selectors
from games.history.models import SeatResult
from games.models import Event
from games.selectors import game as game_selectors
from games.services import organiser as admin_services
from tests import factories
from tests.history.tables import lord_examined_by_seat_1, play_to_the_end, table, users

older_games = importlib.import_module("games.history.migrations.0002_results_of_older_games")

pytestmark = pytest.mark.django_db


def test_r8_1_a_finished_game_gives_each_seat_its_role_team_result_and_lord_examinations():
    game = table(users(6))
    lord_examined_by_seat_1(game)
    game = play_to_the_end(game)  # the last move wrote the rows
    rows = {r.player.seat: r for r in SeatResult.objects.filter(game=game)}
    assert sorted(rows) == [1, 2, 3, 4, 5, 6]
    roles = {r["seat"]: r for r in game_selectors.game_view(game, None)["roles"]}
    for seat, row in rows.items():
        assert (row.role, row.team, row.won, row.mesmerized) == (
            roles[seat]["role"],
            roles[seat]["team"],
            roles[seat]["won"],
            roles[seat]["mesmerized"],
        )
        # Counted apart from the state: the private "examined" lines told to this seat.
        shown_the_lord = [
            e
            for e in Event.objects.filter(game=game, kind="examined")
            if e.audience == [seat] and e.data.get("role") == "vampire_lord"
        ]
        assert row.lord_examinations == len(shown_the_lord)
    assert rows[1].mesmerized and rows[1].team == "vampires"  # R8.3: plays for the Vampires
    assert rows[1].role == "hunter" and rows[1].lord_examinations >= 1
    assert rows[6].role == "vampire_lord"


def test_the_rows_are_written_as_the_game_ends_and_recording_again_adds_nothing(finished):
    players = users(6)
    game = finished(players)
    assert SeatResult.objects.filter(game=game).count() == 6
    records.results_record(game)  # again (the data migration's way): ignored, not an error
    assert SeatResult.objects.filter(game=game).count() == 6


def test_a_running_or_abandoned_game_is_never_recorded(finished):
    players = users(6)
    running = table(players)
    stopped = table(players)
    admin_services.game_abandon(code=stopped.code, by="test")
    assert not SeatResult.objects.exists()
    with pytest.raises(ValueError):
        records.results_record(running)
    assert selectors.left_out(players[0]) == {"abandoned": 1, "practice": 0}


def test_practice_games_are_recorded_but_never_counted(finished):
    players = users(6)
    finished(players)
    finished(players, practice=True)
    assert selectors.counted(players[0]).count() == 1
    assert selectors.left_out(players[0]) == {"abandoned": 0, "practice": 1}
    assert selectors.figures(players[0])["games"] == 1


def test_a_seat_counts_for_whoever_held_it_when_the_game_ended(finished):
    players = users(6)
    game = table(players)
    newcomer = users(1)[0]
    admin_services.seat_replace(code=game.code, seat=2, user=newcomer, by="test", to_a_person=True)
    play_to_the_end(game)
    assert selectors.counted(newcomer).get().player.seat == 2
    assert not selectors.counted(players[1]).exists()


def test_figures_add_up_by_role():
    players = users(6)
    games = [table(players), table(players)]
    for game in games:
        play_to_the_end(game)
    hunter, lord = selectors.figures(players[0]), selectors.figures(players[5])
    assert hunter["games"] == lord["games"] == 2
    assert [r["role"] for r in hunter["by_role"]] == ["hunter", "vampire", "vampire_lord"]
    assert hunter["by_role"][0]["games"] == 2 and hunter["by_role"][1]["games"] == 0
    assert hunter["by_role"][1]["win_rate"] is None  # no game as a Vampire: no rate, not 0
    assert lord["by_role"][2]["games"] == 2
    assert hunter["wins"] == sum(r.won for r in selectors.counted(players[0]))
    assert hunter["win_rate"] == round(hunter["wins"] / 2, 3)


def test_reading_a_history_writes_nothing(finished, client):
    """The rows were written as the game ended: the history's API and page only read."""
    players = users(6)
    finished(players)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {factories.api_token(players[0])}")
    client.force_login(players[0])
    with CaptureQueriesContext(connection) as queries:
        assert api.get("/api/v1/me/games/").json()["count"] == 1
        assert api.get("/api/v1/me/stats/").json()["games"] == 1
        assert client.get("/me/games").status_code == 200
    writes = [q["sql"] for q in queries if re.match(r"\s*(INSERT|UPDATE|DELETE)", q["sql"], re.I)]
    assert not writes, writes


def test_the_data_migration_fills_the_games_that_ended_before(finished):
    players = users(6)
    game = finished(players)
    before = sorted(SeatResult.objects.filter(game=game).values_list("player__seat", "role", "won"))
    SeatResult.objects.all().delete()  # a game that ended before the rows were written at its end
    older_games.fill(django_apps, None)
    after = sorted(SeatResult.objects.filter(game=game).values_list("player__seat", "role", "won"))
    assert after == before and len(after) == 6
