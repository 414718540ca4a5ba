"""Small helpers shared by the engine's modules."""

from __future__ import annotations

import random
from typing import Any

from .errors import IllegalAction
from .state import Action, Event, Player, State, evolve
from .vocabulary import ROLE_NAMES, TOKEN_LABELS

# The labels live in vocabulary.py; these names stay for the layers that read them here.
__all__ = ["ROLE_NAMES", "TOKEN_NAMES"]
TOKEN_NAMES = TOKEN_LABELS


def with_article(word: str) -> str:
    """ "a Stake", "an Investigation": the article a word takes (docs/voice.md: grammar)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def draw_rng(state: State) -> tuple[random.Random, State]:
    """A fresh RNG for one random decision, reproducible from the seed and the draw count."""
    rng = random.Random(f"{state.seed}:{state.rng_draws}")
    return rng, evolve(state, rng_draws=state.rng_draws + 1)


def with_player(state: State, seat: int, **changes: Any) -> State:
    players = list(state.players)
    players[seat - 1] = evolve(players[seat - 1], **changes)
    return evolve(state, players=tuple(players))


def learn(player: Player, *facts) -> Player:
    return evolve(player, knowledge=player.knowledge + tuple(facts))


def public(state: State, kind: str, text: str, /, **data: Any) -> Event:
    """A line everyone sees. `text` names seats as placeholders into `data` (engine/events.py)."""
    if "{" in text:
        return Event.from_template(kind, text, state.round, data)
    return Event(kind, text, state.round, data)


def private(state: State, seats, kind: str, text: str, /, **data: Any) -> Event:
    """A line only `seats` see; `text` as in `public`."""
    audience = (seats[0],) if len(seats) == 1 else tuple(sorted(set(seats)))
    if "{" in text:
        return Event.from_template(kind, text, state.round, data, audience)
    return Event(kind, text, state.round, data, audience)


def int_arg(action: Action, name: str) -> int:
    value = action.args.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction("bad_request", f"'{name}' must be a seat number.")
    return value


def str_arg(action: Action, name: str) -> str:
    value = action.args.get(name)
    if not isinstance(value, str):
        raise IllegalAction("bad_request", f"'{name}' must be a string.")
    return value


def seat_list(seats) -> str:
    """'seat 2', 'seats 2 and 5', 'seats 1, 2 and 5' — for log lines."""
    seats = sorted(seats)
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"
