"""The "random" strategy: any legal move, at random, from the bot's own `pending` list."""

from __future__ import annotations

import random
from typing import Any

from games.engine.offers import moves

Choice = tuple[str, dict[str, Any]]


def choose(rng: random.Random, view: dict, memo: dict | None = None) -> Choice | None:
    return random_choice(rng, view.get("pending") or [], view)


def random_choice(
    rng: random.Random, pending: list[dict], view: dict | None = None
) -> Choice | None:
    """Any legal move among `pending`, at random; None when there is nothing to do.

    An offer is the complete list of its legal moves (games/engine/offers.py): an action is
    drawn first, then one of its moves, so a relic's few uses weigh as much as its `pass`."""
    offered = [(entry["action"], moves(entry)) for entry in pending]
    offered = [(name, args) for name, args in offered if args]
    if not offered:
        return None
    name, args = rng.choice(offered)
    return name, rng.choice(args)
