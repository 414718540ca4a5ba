"""The situations a learner meets, each read from one seat's view alone: what that seat knows
now and what its form offers right now.

The simulator measures what a move is worth in each of them (games/simulate/counterfactual.py,
with the moves of games/bots/strategies/counterfactual.py), and the coach says the figure only
when the learner's own view is in that situation (games/presenters/coach_tips.py): one test of
the situation for both, so a tip can never appear where its figure was not measured.

`find(situation, view)` is the situation's subject (the seat the move is about, or the relic
whose turn it is), or None when the view is not in that situation. Pure: engine words only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from games.engine.offers import moves
from games.engine.vocabulary import ActionName, Phase, RelicId, Role, Team, Token

VAMPIRE_ROLES = (Role.VAMPIRE, Role.VAMPIRE_LORD)
STAKE_TOKENS = (Token.DOUBLE_STAKE, Token.STAKE)  # the stronger first
OWN_LOOKS = ("investigation", "examination")  # a role the seat saw itself while alive

STAKE_FOUND_VAMPIRE = "stake_found_vampire"
FEAST_MESMERIZED = "feast_mesmerized"
STAKE_EXAMINER = "stake_examiner"
GHOST_PROTECTS_ALLY = "ghost_protects_ally"
GHOST_PROTECTS_ALPHA = "ghost_protects_alpha"
DAGGER_STACK = "dagger_stack"
# Relics whose holder may use them or pass in a turn of their own (a window, or the Journal's
# choice); the passive ones have no move to weigh (the Dagger's is DAGGER_STACK).
TURN_RELICS = (
    RelicId.RITUAL_BELL,
    RelicId.SIGNET_RING,
    RelicId.HINDSIGHT_LOOKING_GLASS,
    RelicId.WHISPER_WICK_CANDLE,
    RelicId.BANGLE_OF_OATHS,
    RelicId.KEY_OF_QUICK_PASSAGE,
    RelicId.SCALES_OF_JUSTICE,
    RelicId.BLOOD_OF_THE_ONE,
    RelicId.VAN_HELSINGS_JOURNAL,
)


def relic_use(relic: str) -> str:
    """The situation of `relic`'s turn: its holder may use it now, or pass."""
    return f"use_{relic}"


def team_of(view: dict) -> str:
    """The seat's own team as its view shows it (R1.4: a Mesmerized Hunter plays for the
    Vampires)."""
    me = view["me"]
    return Team.VAMPIRES if me["role"] in VAMPIRE_ROLES or me["mesmerized"] else Team.HUNTERS


def offered(view: dict, action: str) -> dict | None:
    """The options of the first offer of `action` in the seat's pending moves."""
    return next((p["options"] for p in view.get("pending") or () if p["action"] == action), None)


def relic_turn(view: dict) -> tuple[str, dict | None] | None:
    """(relic, its use's offer) when a window or choice of the seat's own relic is open, the
    offer None when it may only pass; None when it is not the seat's relic's turn."""
    relics, me = view.get("relics") or {}, view["me"]["seat"]
    turn = relics.get("window") if view["phase"] == Phase.RELIC_WINDOW else None
    if turn and turn["seat"] == me:
        use = next(
            (
                p
                for p in view["pending"]
                if p["action"] == ActionName.USE_RELIC and p["options"]["relic"] == turn["relic"]
            ),
            None,
        )
        return turn["relic"], use
    turn = relics.get("choice") if view["phase"] == Phase.RELIC_CHOICE else None
    if turn and turn["seat"] == me:
        use = next((p for p in view["pending"] if p["action"] == ActionName.RESOLVE_CHOICE), None)
        return turn["relic"], use
    return None


# --- the situations --------------------------------------------------------------------------


def stake_token(view: dict, seat: int) -> str | None:
    """The strongest Stake token the seat may place on `seat` now, if it has not staked it yet
    this round."""
    place = offered(view, ActionName.PLACE_TOKEN) if view["me"]["alive"] else None
    if place is None or view["phase"] != Phase.MINGLING:
        return None
    if any(p["target"] == seat and p["token"] in STAKE_TOKENS for p in view["me"]["placed"]):
        return None
    by_token = place.get("targets_by_token") or {}
    return next((t for t in STAKE_TOKENS if seat in by_token.get(t, ())), None)


def allies(view: dict) -> set[int]:
    """The other seats a Vampire-side seat knows are on its side (R1.3, R8.2)."""
    me = view["me"]
    known = {k["seat"] for k in me["knowledge"] if k.get("role") in VAMPIRE_ROLES}
    known |= {k["seat"] for k in me["knowledge"] if k.get("mesmerized")}
    return known - {me["seat"]}


def found_vampire(view: dict) -> int | None:
    """A Hunter holding a Stake knows a living Vampire from a role it saw itself (its
    Investigation, R4.2, or the round-1 examination, R6.1) and has not staked them this
    round."""
    me = view["me"]
    if me["role"] != Role.HUNTER or me["mesmerized"]:
        return None
    found = sorted(
        {
            k["seat"]
            for k in me["knowledge"]
            if k.get("role") in VAMPIRE_ROLES and k["source"] in OWN_LOOKS
        }
    )
    return next((s for s in found if stake_token(view, s)), None)


def mesmerized_ally(view: dict) -> int | None:
    """A Vampire holding its Feast knows a living Hunter the Lord Mesmerized (R8.2): the
    examiner is on the Vampires' side now, and a Feast makes the Alpha Hunter (R4.4)."""
    me = view["me"]
    if me["role"] not in VAMPIRE_ROLES or not me["alive"] or view["phase"] != Phase.MINGLING:
        return None
    place = offered(view, ActionName.PLACE_TOKEN)
    feast_targets = ((place or {}).get("targets_by_token") or {}).get(Token.FEAST, ())
    known = sorted({k["seat"] for k in me["knowledge"] if k.get("mesmerized")})
    return next((s for s in known if s in feast_targets and s != me["seat"]), None)


def examiner(view: dict) -> int | None:
    """A Vampire (not the Lord) holding a Stake, whose role a living player not known to be
    on its side saw at the last Dining (the Investigation, or the round-1 examination): that
    player now knows it is a Vampire."""
    me = view["me"]
    if me["role"] != Role.VAMPIRE:
        return None
    dining = view.get("last_dining") or {}
    lookers = set()
    if dining.get("examined") == me["seat"] and dining.get("examiner") is not None:
        lookers.add(dining["examiner"])
    if dining.get("investigated") == me["seat"]:
        lookers |= {
            p["owner"]
            for p in dining.get("tokens") or ()
            if p["token"] == Token.INVESTIGATION and p["target"] == me["seat"]
        }
    lookers -= allies(view) | {me["seat"]}
    return next((s for s in sorted(lookers) if stake_token(view, s)), None)


def _ghost_vote(view: dict) -> list[int] | None:
    """The living players a Ghost may protect now (R7.2), or None."""
    if view["me"]["alive"]:
        return None
    vote = offered(view, ActionName.INTERVENTION_VOTE)
    return list(vote["targets"]) if vote else None


def ghost_ally(view: dict) -> int | None:
    """A Ghost of the Vampires' side votes while an ally of theirs is alive: the ally who drew
    the most Stakes at the last Dining."""
    targets = _ghost_vote(view)
    if not targets or team_of(view) != Team.VAMPIRES:
        return None
    living_allies = [s for s in targets if s in allies(view)]
    if not living_allies:
        return None
    tokens = (view.get("last_dining") or {}).get("tokens") or ()

    def stakes(seat: int) -> int:
        return sum(
            2 if p["token"] == Token.DOUBLE_STAKE else 1
            for p in tokens
            if p["target"] == seat and p["token"] in STAKE_TOKENS
        )

    return max(living_allies, key=lambda s: (stakes(s), -s))


def ghost_alpha(view: dict) -> int | None:
    """A Hunter's Ghost votes while this round's Alpha Hunter, not known to be a Vampire, may
    be protected (the Alpha holds the Investigation, R3.5)."""
    targets = _ghost_vote(view)
    if not targets or team_of(view) != Team.HUNTERS:
        return None
    alpha = next((s["seat"] for s in view["seats"] if s["alpha"]), None)
    known = {k["seat"] for k in view["me"]["knowledge"] if k.get("role") in VAMPIRE_ROLES}
    return alpha if alpha in targets and alpha not in known else None


def dagger_stack(view: dict) -> int | None:
    """The Ceremonial Dagger's holder has a Stake on a player and another in hand, which may go
    on the same player (R11) or on someone else."""
    me = view["me"]
    if not any(
        (c.get("acting_as") or c["id"]) == RelicId.CEREMONIAL_DAGGER
        and not c["negated"]
        and not c["discarded"]
        for c in me.get("relics") or ()
    ):
        return None
    place = offered(view, ActionName.PLACE_TOKEN) if view["phase"] == Phase.MINGLING else None
    stake_targets = ((place or {}).get("targets_by_token") or {}).get(Token.STAKE, ())
    staked = [p["target"] for p in me["placed"] if p["token"] == Token.STAKE]
    if len(staked) != 1 or staked[0] not in stake_targets:
        return None
    free = [s for s in stake_targets if s not in {p["target"] for p in me["placed"]}]
    return staked[0] if free else None


def relic(relic_id: str, view: dict) -> str | None:
    """`relic_id`'s turn has come for its holder, and at least one use is legal: use it, or
    pass."""
    turn = relic_turn(view)
    if turn is None or turn[0] != relic_id or turn[1] is None or not moves(turn[1]):
        return None
    return relic_id


SITUATIONS: dict[str, Callable[[dict], Any]] = {
    STAKE_FOUND_VAMPIRE: found_vampire,
    FEAST_MESMERIZED: mesmerized_ally,
    STAKE_EXAMINER: examiner,
    GHOST_PROTECTS_ALLY: ghost_ally,
    GHOST_PROTECTS_ALPHA: ghost_alpha,
    DAGGER_STACK: dagger_stack,
    **{relic_use(r): partial(relic, r) for r in TURN_RELICS},
}


# What each situation is and which move is measured in it, for the figures' readers.
ABOUT: dict[str, tuple[str, str]] = {
    STAKE_FOUND_VAMPIRE: (
        "Mingling: a Hunter holds a Stake and knows a living Vampire from a role it saw itself",
        "a Stake (the Double-Stake first) on that Vampire, vs the Stakes on other players",
    ),
    FEAST_MESMERIZED: (
        "Mingling: a Vampire or the Lord holds its Feast and knows a living Mesmerized Hunter",
        "the Feast on the Mesmerized Hunter, vs on another player",
    ),
    STAKE_EXAMINER: (
        "Mingling: a Vampire holds a Stake; a living player not on its side saw its role at "
        "the last Dining",
        "a Stake on that player, vs the Stakes on other players",
    ),
    GHOST_PROTECTS_ALLY: (
        "Mingling: a Ghost of the Vampires' side votes while an ally of theirs is alive",
        "protect the ally who drew the most Stakes at the last Dining, "
        "vs protect a player not known to be an ally",
    ),
    GHOST_PROTECTS_ALPHA: (
        "Mingling: a Hunter's Ghost votes while the Alpha Hunter may be protected",
        "protect the Alpha Hunter, vs another living player",
    ),
    DAGGER_STACK: (
        "Mingling: the Ceremonial Dagger's holder has a Stake on a player and one in hand",
        "the second Stake on the same player, vs on another player",
    ),
    **{
        relic_use(r): (
            f"the {r} holder's turn, with at least one legal use",
            "use it (the sensible bot's use, else a legal one at random), vs pass",
        )
        for r in TURN_RELICS
    },
}


def find(situation: str, view: dict) -> Any:
    """The subject of `situation` in this view, or None when the view is not in it."""
    if view.get("me") is None or view.get("phase") in (None, Phase.FINISHED):
        return None
    return SITUATIONS[situation](view)
