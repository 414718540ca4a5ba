"""Players acting at the same instant on PostgreSQL: nothing lost, nothing applied twice."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from games import services
from games.engine import IllegalAction, state_from_json
from games.models import Event, Game
from games.services import GameError
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
