"""Players acting at the same instant on PostgreSQL: nothing lost, nothing applied twice."""

from __future__ import annotations

import dataclasses
import threading
import time
from datetime import UTC, datetime

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from games import services
from games.engine import IllegalAction, state_from_json, to_json
from games.models import Event, Game
from games.services import GameError, game_write
from games.services.play import close_window
from tests.factories import running_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PLAYERS = 10


def all_at_once(calls) -> list:
    """Run each call in its own thread, released together by a barrier; return the outcomes."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            outcomes[i] = call()
        except (GameError, IllegalAction) as refused:
            outcomes[i] = refused
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def place(game, seat: int, token: str, target: int):
    user = game.users[seat - 1]
    return lambda: services.action_apply(
        code=game.code, user=user, name="place_token", args={"token": token, "target": target}
    )


@pytest.mark.parametrize("repeat", range(3))
def test_r3_3_ten_players_placing_at_the_same_instant_each_recorded_once_mingling_ends_once(repeat):
    game = running_game(PLAYERS, mingling=600)
    start = game.version
    accepted = 0
    for offset, token in ((1, "stake"), (2, "stake"), (3, "feast")):
        calls = [
            place(game, s, token, (s - 1 + offset) % PLAYERS + 1) for s in range(1, PLAYERS + 1)
        ]
        outcomes = all_at_once(calls)
        assert all(isinstance(o, Game) for o in outcomes), outcomes
        accepted += len(outcomes)
    game.refresh_from_db()
    state = state_from_json(game.state)
    dining = state.dining or state.last_dining
    assert len(dining.tokens) == PLAYERS * 3
    assert len({(p.owner, p.target) for p in dining.tokens}) == PLAYERS * 3
    assert game.version == start + accepted
    assert Event.objects.filter(game=game, kind="mingling_over").count() == 1
    assert Event.objects.filter(game=game, kind="dining").count() == 1


def test_the_same_token_sent_twice_at_once_is_applied_once():
    game = running_game(PLAYERS, mingling=600)
    start = game.version
    outcomes = all_at_once([place(game, 1, "feast", 2), place(game, 1, "feast", 3)])
    assert sum(isinstance(o, Game) for o in outcomes) == 1
    refused = next(o for o in outcomes if not isinstance(o, Game))
    assert refused.code == "illegal_token"
    game.refresh_from_db()
    assert game.version == start + 1


def test_a_move_racing_the_timer_is_either_applied_before_it_or_refused_after_it():
    game = running_game(PLAYERS, mingling=600)
    state = state_from_json(game.state)
    late = state.deadline + 1
    outcomes = all_at_once(
        [place(game, 1, "stake", 2), lambda: services.game_expire(game_id=game.id, now=late)]
    )
    game.refresh_from_db()
    dining = state_from_json(game.state).last_dining or state_from_json(game.state).dining
    placed = isinstance(outcomes[0], Game)
    assert len(dining.tokens) == (1 if placed else 0)
    assert Event.objects.filter(game=game, kind="mingling_over").count() == 1


# --- The deadline is the authority -------------------------------------------------


def overdue(game: Game, seconds: float) -> None:
    """The open window's deadline passed `seconds` ago and no timer ran (no worker)."""
    past = time.time() - seconds
    state = dataclasses.replace(state_from_json(game.state), deadline=past)
    deadline = datetime.fromtimestamp(past, UTC)
    Game.objects.filter(id=game.id).update(state=to_json(state), deadline=deadline)
    game.refresh_from_db()


def test_late_moves_racing_the_timer_and_the_sweeper_one_outcome_nothing_lost():
    game = running_game(PLAYERS, mingling=600)
    overdue(game, 150)
    moves = [place(game, s, "stake", s % PLAYERS + 1) for s in range(1, 7)]
    timers = [lambda: services.game_expire(game_id=game.id), services.sweep_overdue]
    outcomes = all_at_once(moves + timers)
    # A move that came before the expiry committed is refused as late; one whose thread only
    # started after it (the threads start together, the scheduler decides) meets the next phase
    # and is refused as a move of the wrong phase. Either way no late token counts.
    codes = {getattr(o, "code", None) for o in outcomes[:6]}
    assert codes and codes <= {"window_closed", "wrong_phase"}, outcomes
    game.refresh_from_db()
    assert game.actions.filter(name="timeout").count() == 1  # closed exactly once
    assert not game.actions.filter(name="place_token").exists()  # no late token counted
    assert Event.objects.filter(game=game, kind="mingling_over").count() == 1
    state = state_from_json(game.state)
    assert not (state.dining or state.last_dining).tokens


def waiting_on_a_game_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query ILIKE '%games_game%FOR UPDATE%'"
        )
        return cursor.fetchone()[0]


def test_a_late_move_that_waits_while_the_timer_closes_its_window_is_refused():
    """The move arrives after the deadline while the timer holds the game's lock; when it gets
    the lock the next window is open. It is refused as late (`window_closed`), never taken as a
    move in the window that opened after it arrived."""
    game = running_game(PLAYERS, mingling=600)
    overdue(game, 5)
    locked, release, outcome = threading.Event(), threading.Event(), {}

    def timer():
        try:
            with game_write(game_id=game.id) as write:
                locked.set()
                assert release.wait(60)
                close_window(write, write.state, time.time())
        finally:
            connections.close_all()

    def move():
        try:
            outcome["move"] = place(game, 1, "stake", 2)()
        except (GameError, IllegalAction) as refused:
            outcome["move"] = refused
        finally:
            connections.close_all()

    threads = [threading.Thread(target=timer), threading.Thread(target=move)]
    threads[0].start()
    assert locked.wait(60)
    threads[1].start()
    deadline = time.monotonic() + 60
    while not waiting_on_a_game_lock():
        assert time.monotonic() < deadline, "the move never waited for the lock"
        time.sleep(0.05)
    release.set()
    for t in threads:
        t.join(60)
    refused = outcome["move"]
    assert isinstance(refused, GameError) and refused.code == "window_closed", refused
    game.refresh_from_db()
    assert game.actions.filter(name="timeout").count() == 1
    assert not game.actions.filter(name="place_token").exists()


# --- the table's clock: a double tap or a retried request acts once -----------------------------


def _clock_table(seats: int = 6, bots: int = 1):
    """A running game (Mingling timed, 600 s) whose last `bots` seats are bots, each person's
    API client signed in with a token of their own, and the `clock.stamp` they all see."""
    from games.models import Player
    from tests.factories import api_token

    game = running_game(seats, mingling=600)
    Player.objects.filter(game=game, seat__gt=seats - bots).update(is_bot=True, user=None)
    clients = {}
    for seat in range(1, seats - bots + 1):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(game.users[seat - 1])}")
        clients[seat] = client
    view = clients[1].get(f"/api/v1/games/{game.code}/").json()
    return game, clients, view["clock"]["stamp"]


def _post(client, url: str, body: dict):
    def call():
        response = client.post(url, body, format="json")
        refused = response.status_code != 200
        return response.status_code, response.json()["code"] if refused else None

    return call


def test_twenty_host_extends_sent_at_once_with_the_same_stamp_extend_once():
    game, clients, stamp = _clock_table()
    before = state_from_json(game.state).deadline
    url = f"/api/v1/games/{game.code}/deadline/extend/"
    outcomes = all_at_once([_post(clients[1], url, {"minutes": 60, "stamp": stamp})] * 20)
    assert sorted(outcomes) == [(200, None)] + [(409, "stale")] * 19, outcomes
    game.refresh_from_db()
    assert state_from_json(game.state).deadline == before + 3600
    assert Event.objects.filter(game=game, kind="clock").count() == 1


def test_twenty_extend_votes_from_five_seats_at_once_pass_one_extension_and_open_nothing():
    """Three of the five living people make the majority: the vote passes once, and the
    votes that come after it (the same proposal, the old stamp) are refused, not a new one."""
    game, clients, stamp = _clock_table()
    before = state_from_json(game.state).deadline
    url = f"/api/v1/games/{game.code}/deadline/vote/"
    body = {"proposal": "extend", "minutes": 60, "stamp": stamp}
    outcomes = all_at_once([_post(clients[seat], url, body) for seat in range(1, 6)] * 4)
    assert {o for o in outcomes} <= {(200, None), (409, "stale")}, outcomes
    game.refresh_from_db()
    assert state_from_json(game.state).deadline == before + 3600
    assert "vote" not in game.clock  # no new proposal was opened by a late repeat
    agreed = Event.objects.filter(game=game, kind="clock", text__startswith="The table agreed")
    assert agreed.count() == 1
