"""The six-phone browser test plans its votes from the random deal: play that plan on the engine
alone for every possible deal, so that no deal can leave the browser test waiting for a Ghost
dial that never comes (a deal that makes the round-2 Alpha the Vampire used to stake someone
else: the browser test then failed in round 3, once in six runs)."""

from __future__ import annotations

import itertools

import pytest

from games.engine import Action, Options, apply, pending, setup
from tests.browser.test_whole_game import ROUND_1_TIE, STAKES_TIE_VOTES, picks, plan

SEATS = range(1, 7)
DEALS = [
    {s: "vampire" if s == v else "vampire_lord" if s == lord else "hunter" for s in SEATS}
    for v, lord in itertools.permutations(SEATS, 2)
]


def act(state, name: str, seat: int, **args):
    """One move, as a phone makes it: only when the page offers it."""
    offered = [a["action"] for a in pending(state, seat)]
    assert name in offered, (seat, name, offered, state.round, state.phase)
    state, _ = apply(state, Action(name, seat=seat, args=args))
    return state


LETTER = {"hunter": "h", "vampire": "V", "vampire_lord": "L"}


@pytest.mark.parametrize("roles", DEALS, ids=lambda r: "".join(LETTER[r[s]] for s in SEATS))
def test_the_six_phone_plan_stakes_its_target_every_round_and_the_hunters_win(roles):
    state = setup(Options(last_wills=False), 6, seed=1, roles=roles)
    for seat in SEATS:
        for token, target in ROUND_1_TIE[seat]:
            state = act(state, "place_token", seat, token=token, target=target)
    for seat, vote in zip(SEATS, STAKES_TIE_VOTES, strict=True):
        state = act(state, "tiebreak_vote", seat, target=vote)
    state = act(state, "choose_examiner", 3, target=2)
    for seat in SEATS:
        state = act(state, "tiebreak_vote", seat, target=6)
    assert (state.round, state.alpha) == (2, 6)

    ghosts: list[int] = []
    protected_last = None
    while state.outcome is None:
        assert state.round < 8, "the game should have ended by now"
        living = [s for s in SEATS if s not in ghosts]
        target, shield, favourite, dump = picks(roles, living, state.alpha, ghosts, protected_last)
        for ghost in ghosts:  # the browser test waits for each Ghost's dial
            state = act(state, "intervention_vote", ghost, target=shield)
        for seat in living:
            for token, on in plan(seat, living, state.alpha, target, favourite, dump):
                state = act(state, "place_token", seat, token=token, target=on)
        ghosts.append(target)
        protected_last = shield
        assert list(state.ghosts) == ghosts, "the plan staked someone else than its target"
    assert state.outcome.winner == "hunters"
