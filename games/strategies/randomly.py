"""The "random" strategy: any legal move, at random, from the bot's own `pending` list."""

from __future__ import annotations

import random
from typing import Any

from games.engine.vocabulary import ActionName, Token

Choice = tuple[str, dict[str, Any]]


def choose(rng: random.Random, view: dict, memo: dict | None = None) -> Choice | None:
    return random_choice(rng, view.get("pending") or [], view)


def random_choice(
    rng: random.Random, pending: list[dict], view: dict | None = None
) -> Choice | None:
    """Any legal move among `pending`, at random; None when there is nothing to do.

    `pending` offers a superset for three relics; with the seat's `view` the choice stays legal:
    a second token on one seat only for a Stake (the Ceremonial Dagger's union of targets),
    and the Whisper-Wick Candle and the Bangle of Oaths move only tokens the R11 ruling allows
    (who placed on whom is public, and so is the Bangle partner). Without a view (`random_move`)
    the engine may refuse such a move."""
    # A window whose relic has nobody to aim at offers only its "pass".
    pending = [p for p in pending if p["options"].get("targets", True)]
    if not pending:
        return None
    entry = rng.choice(pending)
    options = entry["options"]
    name = entry["action"]
    if name == ActionName.PASS:
        return name, {}
    if "targets" not in options and "owners" not in options:  # e.g. the Key: use it, no target
        return name, {"relic": options["relic"]}
    if "tokens" in options and view is not None:  # the Dagger widens `targets` for Stakes only
        token = rng.choice(options["tokens"])
        mine = {p["target"] for p in view["me"]["placed"]}
        targets = [t for t in options["targets"] if token == Token.STAKE or t not in mine]
        if not targets:
            token, targets = Token.STAKE, options["targets"]
        return name, {"token": token, "target": rng.choice(targets)}
    if "owners" in options and view is not None:  # the Bangle: tokens the partner may take
        partner = options.get("partner")
        on_partner = next((s["placed_by"] for s in view["seats"] if s["seat"] == partner), ())
        legal = [o for o in options["owners"] if o != partner and o not in on_partner]
        if not legal:
            return ActionName.PASS, {}
        owners = rng.sample(legal, rng.randint(1, min(options["max"], len(legal))))
        return name, {"relic": options["relic"], "owners": owners}
    if "owners" in options and not options["owners"]:
        return ActionName.PASS, {}
    if "owners_by_seat" in options and view is not None:
        swaps = candle_swaps(options, view)
        if not swaps:
            return ActionName.PASS, {}
        a, b, oa, ob = rng.choice(swaps)
        return name, {"relic": options["relic"], "targets": [a, b], "owners": [oa, ob]}
    if "owners" in options:  # the Bangle of Oaths: move up to `max` of the tokens on my seat
        owners = rng.sample(
            options["owners"], rng.randint(1, min(options["max"], len(options["owners"])))
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


def candle_swaps(options: dict, view: dict) -> list[tuple[int, int, int, int]]:
    """(a, b, owner on a, owner on b) swaps that put no token on its owner and no two of one
    owner's tokens on one seat (R11 ruling)."""
    on = {int(seat): set(owners) for seat, owners in options["owners_by_seat"].items()}
    for s in view["seats"]:
        on.setdefault(s["seat"], set()).update(s["placed_by"])
    seats = options["targets"]
    out = []
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            for oa in options["owners_by_seat"][str(a)]:
                for ob in options["owners_by_seat"][str(b)]:
                    if oa == b or ob == a:
                        continue
                    if oa != ob and (oa in on[b] or ob in on[a]):
                        continue
                    out.append((a, b, oa, ob))
    return out
