"""A variant of the sensible strategy that measures one move: in one situation
(games/bots/situations.py) the seat always makes the move (`made`), or never does; everywhere
else it plays sensibly. The simulator gives it to one seat and compares the two
(games/simulate/counterfactual.py).

"Never" takes the sensible move when that move is not the one measured, and otherwise the
sensible bot's next choice: a Stake or Feast on another player, another Ghost vote, a pass.
"""

from __future__ import annotations

import random

from games.bots import situations
from games.bots.strategies import sensible
from games.bots.strategies.randomly import Choice
from games.engine.offers import moves
from games.engine.vocabulary import ActionName, Token

PLACE, VOTE = ActionName.PLACE_TOKEN, ActionName.INTERVENTION_VOTE


def variant(situation: str, made: bool):
    """The strategy that makes the move of `situation` whenever it is in it (`made`), or
    never does."""

    def choose(rng: random.Random, view: dict, memo: dict | None = None) -> Choice | None:
        default = sensible.choose(rng, view, memo)
        subject = situations.find(situation, view)
        if subject is None:
            return default
        make, avoid = MOVES.get(situation, (_use, _pass))
        return (make if made else avoid)(rng, view, subject, default)

    return choose


# --- the moves, made or avoided ----------------------------------------------------------------


def _stake(rng, view: dict, seat: int, default: Choice | None) -> Choice:
    return PLACE, {"token": situations.stake_token(view, seat), "target": seat}


def _stake_elsewhere(rng, view: dict, seat: int, default: Choice | None) -> Choice | None:
    if not (_places(default, seat) and default[1]["token"] in situations.STAKE_TOKENS):
        return default
    by_token = situations.offered(view, PLACE)["targets_by_token"]
    token = default[1]["token"]
    others = [s for s in by_token[token] if s != seat]
    if others:
        return PLACE, {"token": token, "target": sensible.Reading(view).worst(others)}
    rest = [t for t in by_token if t not in situations.STAKE_TOKENS and seat in by_token[t]]
    return (PLACE, {"token": rest[0], "target": seat}) if rest else default


def _feast(rng, view: dict, seat: int, default: Choice | None) -> Choice:
    return PLACE, {"token": Token.FEAST, "target": seat}


def _feast_elsewhere(rng, view: dict, seat: int, default: Choice | None) -> Choice | None:
    if not (_places(default, seat) and default[1]["token"] == Token.FEAST):
        return default
    by_token = situations.offered(view, PLACE)["targets_by_token"]
    others = [s for s in by_token[Token.FEAST] if s != seat]
    if not others:
        return default
    return PLACE, {"token": Token.FEAST, "target": sensible.Reading(view).best(others)}


def _protect(rng, view: dict, seat: int, default: Choice | None) -> Choice:
    return VOTE, {"target": seat}


def _protect_a_hunter(rng, view: dict, seat: int, default: Choice | None) -> Choice | None:
    targets = situations.offered(view, VOTE)["targets"]
    others = [s for s in targets if s not in situations.allies(view)]
    return (VOTE, {"target": sensible.Reading(view).best(others)}) if others else default


def _protect_another(rng, view: dict, seat: int, default: Choice | None) -> Choice | None:
    if default is None or default[0] != VOTE or default[1]["target"] != seat:
        return default
    others = [s for s in situations.offered(view, VOTE)["targets"] if s != seat]
    return (VOTE, {"target": sensible.Reading(view).best(others)}) if others else default


def _stack(rng, view: dict, seat: int, default: Choice | None) -> Choice:
    return PLACE, {"token": Token.STAKE, "target": seat}


def _spread(rng, view: dict, seat: int, default: Choice | None) -> Choice | None:
    if not (_places(default, seat) and default[1]["token"] == Token.STAKE):
        return default
    mine = {p["target"] for p in view["me"]["placed"]}
    by_token = situations.offered(view, PLACE)["targets_by_token"]
    free = [s for s in by_token[Token.STAKE] if s not in mine]
    return PLACE, {"token": Token.STAKE, "target": sensible.Reading(view).worst(free)}


def _use(rng, view: dict, relic: str, default: Choice | None) -> Choice:
    """The sensible bot's use when it would use the relic, else any legal use at random."""
    if default is not None and default[0] != ActionName.PASS:
        return default
    _, use = situations.relic_turn(view)
    return use["action"], rng.choice(moves(use))


def _pass(rng, view: dict, relic: str, default: Choice | None) -> Choice:
    return ActionName.PASS, {}


def _places(choice: Choice | None, seat: int) -> bool:
    return choice is not None and choice[0] == PLACE and choice[1]["target"] == seat


MOVES = {
    situations.STAKE_FOUND_VAMPIRE: (_stake, _stake_elsewhere),
    situations.STAKE_EXAMINER: (_stake, _stake_elsewhere),
    situations.FEAST_MESMERIZED: (_feast, _feast_elsewhere),
    situations.GHOST_PROTECTS_ALLY: (_protect, _protect_a_hunter),
    situations.GHOST_PROTECTS_ALPHA: (_protect, _protect_another),
    situations.DAGGER_STACK: (_stack, _spread),
}
