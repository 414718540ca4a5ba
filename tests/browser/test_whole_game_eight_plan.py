"""The eight-phone browser game (test_whole_game_eight.py) played on the engine alone, as the game
page would start it (the same options, seed and fixed deal): at the start of every step the game
is in the step's phase and waits on exactly the seats that move in it, every move is offered
before it is made, the Last Wills drawn are the ones the plan answers, and the Hunters win.
So the browser test cannot stall waiting for a move the game never offers (R10, R11, R13)."""

from __future__ import annotations

import relics.rules  # noqa: F401 - registers the Sacred Relics module
from games.domain.options import engine_options, normalized
from games.engine import Action, apply, pending, setup, view
from games.services.lobby import fixed_roles
from tests.browser.test_whole_game_eight import OPTIONS, PLAN, SEED, WINNER

DRAWN = {2: "grudge", 3: "sealed_reliquary", 4: "toast"}  # the Last Will of each round's dead


def test_r10_r13_the_eight_phone_plan_is_offered_step_by_step_and_the_hunters_win():
    options = normalized(OPTIONS)
    state = setup(engine_options(options), 8, SEED, roles=fixed_roles(options))
    assert view(state, None)["phase"] == "role_reveal"  # every phone taps Ready first
    for seat in range(1, 9):
        state, _ = apply(state, Action("ready", seat=seat))
    drawn = {}
    for phase, name, moves in PLAN:
        assert view(state, None)["phase"] == phase, name
        movers = {seat for seat, _, _ in moves}
        waiting = {s for s in range(1, 9) if pending(state, s)}
        assert waiting == movers, (name, waiting, movers)
        assert set(view(state, None)["waiting_for"]) <= movers, name
        for seat, action, args in moves:
            offered = [a["action"] for a in pending(state, seat)]
            assert action in offered, (name, seat, action, offered)
            state, events = apply(state, Action(action, seat=seat, args=args))
            drawn.update((state.round, e.data["card"]) for e in events if e.kind == "last_will")
    assert drawn == DRAWN
    assert state.outcome is not None and state.outcome.winner == WINNER
    assert sorted(state.ghosts) == [3, 6, 8]
