"""The Staked! rules engine: pure Python, standard library only (no Django; a test enforces it).

    state = setup(Options(), seats=8, seed=42)
    move = Action("place_token", seat=3, args={"token": "stake", "target": 5})
    state, events = apply(state, move)
    view(state, seat=3)     # what seat 3 may see; view(state, None) is the spectators' view
    pending(state, seat=3)  # what seat 3 may do now, with the legal options
    state, events = timeout(state, now)  # close an expired window

Rules are numbered as in docs/rules.md; modules (Sacred Relics, Last Wills) plug in through `hooks`.
"""

from . import last_wills  # noqa: F401 - registers the Last Will module (option last_wills)
from .errors import IllegalAction
from .flow import apply, opening_events, setup, timeout
from .serialize import state_from_json, to_json
from .state import Action, Event, Options, Outcome, State, Timers
from .view import pending, view

__all__ = [
    "Action",
    "Event",
    "IllegalAction",
    "Options",
    "Outcome",
    "State",
    "Timers",
    "apply",
    "opening_events",
    "pending",
    "setup",
    "state_from_json",
    "timeout",
    "to_json",
    "view",
]
