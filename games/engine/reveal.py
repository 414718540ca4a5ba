"""The role reveal before round 1 (R2's ruling "the role reveal", docs/rulings.md).

With `Timers.reveal` > 0, `setup` leaves the game here: each player looks at their role (and
what it knows, R1.3: the view already shows each seat exactly that) and taps Ready. Round 1's
Mingling opens, with its full timer from that moment, when every seat is ready or when the
window times out. With `reveal` 0 there is no reveal: round 1 starts at once.
"""

from __future__ import annotations

from .common import public
from .errors import IllegalAction
from .offers import nothing
from .state import ROLE_REVEAL, Action, State, evolve
from .vocabulary import ActionName, EventKind


def open_reveal(state: State, now: float) -> State:
    """The window before round 1 (round 1, nothing dealt yet); the flow resumes at its start."""
    return evolve(
        state,
        phase=ROLE_REVEAL,
        step="role_reveal",
        deadline=now + state.options.timers.reveal,
        ready=(),
    )


def ready(state: State, action: Action, events: list) -> State:
    """`seat` has seen its role. Once every seat has, the reveal is over (the flow goes on)."""
    if state.phase != ROLE_REVEAL:
        raise IllegalAction("wrong_phase", "Everyone has already seen their role.")
    seat = action.seat
    if seat in state.ready:
        raise IllegalAction("wrong_phase", "You are already ready.")
    state = evolve(state, ready=(*state.ready, seat))
    events.append(public(state, EventKind.READY, "{seat:Seat} is ready.", seat=seat))
    if len(state.ready) < len(state.players):
        return state
    events.append(
        public(
            state,
            EventKind.REVEAL_OVER,
            "Everyone is ready.",
            reason="all_ready",
        )
    )
    return close(state)


def time_up(state: State, events: list) -> State:
    """The window ran out: round 1 begins with whoever is not ready yet."""
    events.append(
        public(
            state,
            EventKind.REVEAL_OVER,
            "Time is up for looking at roles.",
            reason="time_up",
        )
    )
    return close(state)


def close(state: State) -> State:
    return evolve(state, deadline=None, step="round_start")


def not_ready(state: State) -> list[int]:
    """The seats the reveal still waits on."""
    done = state.ready
    return [p.seat for p in state.players if p.seat not in done]


def pending(state: State, seat: int) -> list[dict]:
    return [] if seat in state.ready else [nothing(ActionName.READY)]
