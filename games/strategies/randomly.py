"""The "random" strategy: any legal move, at random, from the bot's own `pending` list."""

from __future__ import annotations

import random
from typing import Any

Choice = tuple[str, dict[str, Any]]


def choose(rng: random.Random, view: dict) -> Choice | None:
    return random_choice(rng, view.get("pending") or [])


def random_choice(rng: random.Random, pending: list[dict]) -> Choice | None:
    """Any legal move among `pending`, at random; None when there is nothing to do."""
    # A window whose relic has nobody to aim at offers only its "pass".
    pending = [p for p in pending if p["options"].get("targets", True)]
    if not pending:
        return None
    entry = rng.choice(pending)
    options = entry["options"]
    name = entry["action"]
    if name == "pass":
        return name, {}
    if "targets" not in options and "owners" not in options:  # e.g. the Key: use it, no target
        return name, {"relic": options["relic"]}
    if "owners" in options:  # the Bangle of Oaths: move up to `max` of the tokens on my seat
        owners = rng.sample(
            options["owners"], rng.randint(0, min(options["max"], len(options["owners"])))
        )
        return name, {"relic": options["relic"], "owners": owners}
    if "count" in options:
        targets = rng.sample(options["targets"], min(options["count"], len(options["targets"])))
        args: dict[str, Any] = {"targets": targets}
        if "choice" in options:
            args["choice"] = options["choice"]
        if "owners_by_seat" in options:
            args["owners"] = [rng.choice(options["owners_by_seat"][str(t)]) for t in targets]
    elif "relic" in options:
        args = {"targets": [rng.choice(options["targets"])]}
    else:
        args = {"target": rng.choice(options["targets"])}
    if "relic" in options:
        args["relic"] = options["relic"]
    if "tokens" in options:
        args["token"] = rng.choice(options["tokens"])
    if "cards" in options:
        args["card"] = rng.choice(options["cards"])
    return name, args
