"""How bots choose a move. Pure (engine only): a bot is handed nothing but its own seat's
`engine.view` (which includes its `pending` list), the same things a person's phone shows.

The strategies live in `games.bots.strategies` ("random", "sensible"); the game option
`bot_strategy` picks one (default "sensible", see services.bot_act).
"""

from __future__ import annotations

import random

from games.bots import strategies
from games.bots.strategies.randomly import random_choice
from games.engine import Action


def bot_move(
    rng: random.Random, seat: int, view: dict, strategy: str = strategies.DEFAULT
) -> Action | None:
    """The move `strategy` makes for `seat`, deciding from that seat's view alone (an unknown
    strategy name plays the default one)."""
    choose = strategies.STRATEGIES.get(strategy) or strategies.get(strategies.DEFAULT)
    choice = choose(rng, view)
    if choice is None:
        return None
    name, args = choice
    return Action(name, seat, args)


def random_move(rng: random.Random, seat: int, pending: list[dict]) -> Action | None:
    """Any legal move, at random (the "random" strategy); None when there is nothing to do."""
    choice = random_choice(rng, pending)
    if choice is None:
        return None
    name, args = choice
    return Action(name, seat, args)
