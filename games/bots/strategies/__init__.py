"""Bot strategies: `choose(rng, view, memo=None) -> (action name, arguments) | None`.

A strategy is handed one seat's `engine.view(state, seat)` (which includes that seat's `pending`
list) and a random generator, nothing else: a bot knows exactly what a person in that seat could
see on their phone. `memo` is a dict the caller keeps for one game, in which a strategy may keep
what a seat worked out from its own earlier views (the simulator passes one; the bots of live
games, one move now and then, do not). Pure Python (no Django), so the simulator runs them
without a database.
"""

from __future__ import annotations

from collections.abc import Callable

from games.bots.strategies import randomly, sensible
from games.bots.strategies.randomly import Choice

Strategy = Callable[..., Choice | None]  # (rng, view, memo=None)

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
