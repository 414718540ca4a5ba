"""`SeatResult` rows (games/history/records.py): written from a finished game's final state,
once, for every seat; never for a game that did not end."""

from __future__ import annotations

import pytest

from games.history import records, selectors
from games.history.models import SeatResult
from games.models import Event
from games.selectors import game as game_selectors
from games.services import organiser as admin_services
from tests.history.tables import lord_examined_by_seat_1, play_to_the_end, table, users

pytestmark = pytest.mark.django_db


def test_r8_1_a_finished_game_gives_each_seat_its_role_team_result_and_lord_examinations():
    game = table(users(6))
    lord_examined_by_seat_1(game)
    game = play_to_the_end(game)
    records.results_record(game)
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


def test_recording_twice_writes_nothing_more(finished):
    players = users(6)
    game = finished(players)
    assert records.results_record_missing(players[0]) == 1
    assert records.results_record_missing(players[0]) == 0
    records.results_record(game)  # a racing request: ignored, not an error
    assert SeatResult.objects.filter(game=game).count() == 6


def test_a_running_or_abandoned_game_is_never_recorded(finished):
    players = users(6)
    running = table(players)
    stopped = table(players)
    admin_services.game_abandon(code=stopped.code, by="test")
    assert records.results_record_missing(players[0]) == 0
    assert not SeatResult.objects.exists()
    with pytest.raises(ValueError):
        records.results_record(running)
    assert selectors.left_out(players[0]) == {"abandoned": 1, "practice": 0}


def test_practice_games_are_recorded_but_never_counted(finished):
    players = users(6)
    finished(players)
    finished(players, practice=True)
    records.results_record_missing(players[0])
    assert selectors.counted(players[0]).count() == 1
    assert selectors.left_out(players[0]) == {"abandoned": 0, "practice": 1}
    assert selectors.figures(players[0])["games"] == 1


def test_a_seat_counts_for_whoever_held_it_when_the_game_ended(finished):
    players = users(6)
    game = table(players)
    newcomer = users(1)[0]
    admin_services.seat_replace(code=game.code, seat=2, user=newcomer, by="test", to_a_person=True)
    play_to_the_end(game)
    records.results_record_missing(newcomer)
    assert selectors.counted(newcomer).get().player.seat == 2
    assert not selectors.counted(players[1]).exists()


def test_figures_add_up_by_role():
    players = users(6)
    games = [table(players), table(players)]
    for game in games:
        play_to_the_end(game)
    records.results_record_missing(players[0])
    records.results_record_missing(players[5])
    hunter, lord = selectors.figures(players[0]), selectors.figures(players[5])
    assert hunter["games"] == lord["games"] == 2
    assert [r["role"] for r in hunter["by_role"]] == ["hunter", "vampire", "vampire_lord"]
    assert hunter["by_role"][0]["games"] == 2 and hunter["by_role"][1]["games"] == 0
    assert hunter["by_role"][1]["win_rate"] is None  # no game as a Vampire: no rate, not 0
    assert lord["by_role"][2]["games"] == 2
    assert hunter["wins"] == sum(r.won for r in selectors.counted(players[0]))
    assert hunter["win_rate"] == round(hunter["wins"] / 2, 3)
