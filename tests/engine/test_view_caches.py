"""`view` and `waiting_for` keep their answer for the last object asked (a round's Dining, a
state): the answers must be exactly those computed afresh, in any order, and a caller that adds
or replaces keys of what it was handed (as modules do to `last_dining`) or extends the lists it
got must not change what the next caller gets. The token lists inside a Dining are shared and
read-only, like the state itself."""

from __future__ import annotations

import copy
import importlib
import random

import relics.rules  # noqa: F401 - registers the Sacred Relics module
from games import engine
from games.bots.strategies import sensible
from games.engine.serialize import to_json
from games.engine.view import waiting_for

VIEWERS = (1, 4, None)
view_module = importlib.import_module("games.engine.view")  # `engine.view` is the function


def _states(relics: bool, seed: int) -> list:
    rng = random.Random(seed)
    state = engine.setup(engine.Options(relics=relics), 9, seed)
    states = [state]
    while state.outcome is None:
        seats = waiting_for(state)
        if not seats:
            state, _ = engine.timeout(state, state.deadline)
        else:
            seat = rng.choice(seats)
            choice = sensible.choose(rng, engine.view(state, seat))
            state, _ = engine.apply(state, engine.Action(choice[0], seat, choice[1]))
        states.append(state)
    return states


def _cold(function, *args):
    view_module._dining_json.forget()
    view_module._waiting_on.forget()
    return function(*args)


def test_cached_views_are_the_views_computed_afresh_in_any_order():
    for with_relics in (False, True):
        states = _states(with_relics, seed=5)
        fresh = [[_cold(engine.view, s, seat) for seat in VIEWERS] for s in states]
        warm = [[engine.view(s, seat) for seat in VIEWERS] for s in states]
        backwards = [[engine.view(s, seat) for seat in VIEWERS] for s in reversed(states)]
        assert warm == fresh and backwards[::-1] == fresh
        assert [_cold(waiting_for, s) for s in states] == [waiting_for(s) for s in states]


def test_changing_a_view_changes_no_later_view():
    state = next(s for s in _states(False, seed=7) if s.last_dining is not None)
    before = copy.deepcopy(engine.view(state, 2))
    handed = engine.view(state, 2)
    handed["last_dining"]["eliminated"] = 99
    handed["last_dining"]["extra"] = "added by a caller"
    handed["waiting_for"].append(99)
    waiting_for(state).append(99)
    assert engine.view(state, 2) == before
    shown = engine.view(state, 2)["last_dining"]
    for key, value in to_json(state.dining or state.last_dining).items():
        assert shown[key] == value


def test_r3_3_a_wait_carried_over_a_move_is_the_wait_computed_afresh():
    """A placement, an intervention vote or a tie vote that leaves its window open keeps the wait
    asked just before it, less whoever is done (`view.carry_wait`): asked before every move, it
    is what a cold cache gives, in random games of 6 to 12 seats with and without relics."""
    for players, seed in ((6, 1), (8, 2), (9, 3), (10, 4), (12, 5)):
        for with_relics in (False, True):
            rng = random.Random(seed)
            options = engine.Options(relics=with_relics, expansion=players > 10)
            state = engine.setup(options, players, seed)
            while state.outcome is None:
                seats = waiting_for(state)
                if not seats:
                    state, _ = engine.timeout(state, state.deadline)
                    continue
                seat = rng.choice(seats)
                choice = sensible.choose(rng, engine.view(state, seat))
                state, _ = engine.apply(state, engine.Action(choice[0], seat, choice[1]))
                assert waiting_for(state) == _cold(waiting_for, state), (players, seed)
