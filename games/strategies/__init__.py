"""Bot strategies: `choose(rng, view) -> (action name, arguments) | None`.

A strategy is handed one seat's `engine.view(state, seat)` (which includes that seat's `pending`
list) and a random generator, nothing else: a bot knows exactly what a person in that seat could
see on their phone. Pure Python (no Django), so the simulator runs them without a database.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.strategies import randomly, sensible
from games.strategies.randomly import Choice

Strategy = Callable[[random.Random, dict], Choice | None]

STRATEGIES: dict[str, Strategy] = {
    "random": randomly.choose,
    "sensible": sensible.choose,
}
DEFAULT = "sensible"


def get(name: str) -> Strategy:
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ValueError(
            f"Unknown bot strategy {name!r}; choose one of {', '.join(STRATEGIES)}."
        ) from None


__all__ = ["DEFAULT", "STRATEGIES", "Choice", "Strategy", "get"]
