"""How bots choose a move. Pure (engine only): a bot is handed nothing but its own `pending`
list, the same legal options a person's phone shows (issue 8 adds strategies that read the
bot's own `engine.view`)."""

from __future__ import annotations

import random

from games.engine import Action


def random_move(rng: random.Random, seat: int, pending: list[dict]) -> Action | None:
    """Any legal move, at random (the "random" strategy); None when there is nothing to do."""
    if not pending:
        return None
    entry = rng.choice(pending)
    options = entry["options"]
    name = entry["action"]
    if name == "pass":
        return Action(name, seat, {})
    if "targets" not in options and "owners" not in options:  # e.g. the Key: use it, no target
        return Action(name, seat, {"relic": options["relic"]})
    if "owners" in options:  # the Bangle of Oaths: move up to `max` of the tokens on my seat
        owners = rng.sample(
            options["owners"], rng.randint(0, min(options["max"], len(options["owners"])))
        )
        return Action(name, seat, {"relic": options["relic"], "owners": owners})
    if "count" in options:
        targets = rng.sample(options["targets"], min(options["count"], len(options["targets"])))
        args = {"targets": targets}
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
    return Action(name, seat, args)
