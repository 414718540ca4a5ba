"""What one seat may see (`view`) and do (`pending`): the only way state leaves the engine.

Everything here is built for one viewer from what that viewer is entitled to know. Spectators
(`seat=None`) get the public view: what anyone sitting at the table could see, and while a Ghost
is away from the table (R3.2), what that Ghost could see.
"""

from __future__ import annotations

from typing import Any

from . import dining, hooks, mingling, reveal
from .offers import offer, place_offer
from .serialize import to_json
from .state import (
    CHOOSE_EXAMINER,
    FINISHED,
    MINGLING,
    ROLE_REVEAL,
    TIEBREAK,
    Dining,
    Knowledge,
    State,
)
from .table import team
from .vocabulary import ActionName

# Module-level aliases: an enum member read through its class costs a lookup (vocabulary.py).
PLACE_TOKEN = ActionName.PLACE_TOKEN
INTERVENTION_VOTE = ActionName.INTERVENTION_VOTE
TIEBREAK_VOTE = ActionName.TIEBREAK_VOTE


def pending(state: State, seat: int) -> list[dict[str, Any]]:
    """Every action `seat` may take now, with its legal options (`offers`); [] means "wait"."""
    if state.outcome is not None:
        return []
    phase = state.phase
    if phase == MINGLING:
        actions = _mingling_offers(state, seat)
    elif phase == TIEBREAK:
        actions = []
        tie = state.tie
        if seat in tie.voters and (
            tie.decider is not None or seat not in [v.voter for v in tie.votes]
        ):
            actions.append(offer(TIEBREAK_VOTE, tie.candidates))
    elif phase == CHOOSE_EXAMINER and seat == state.dining.examined:
        actions = [offer(ActionName.CHOOSE_EXAMINER, dining.examiner_targets(state))]
    elif phase == ROLE_REVEAL:
        actions = list(reveal.pending(state, seat))
    else:
        actions = []
    for module in hooks.using_in(state, "pending", phase):
        actions.extend(module.pending(state, seat))
    return actions


def _mingling_offers(state: State, seat: int) -> list[dict[str, Any]]:
    """R3: a living player's tokens to place; a Ghost's (or a module's voter's) dial."""
    actions = []
    if state.players[seat - 1].alive:
        hand = state.hands[seat - 1]
        if hand:
            place = _place_offer(state, seat, hand)
            if place is not None:
                actions.append(place)
        if not hooks.using(state, "optional_intervention_voters"):
            return actions
        may_vote = mingling.optional_voter(state, seat)  # e.g. the Seer's Orb
    else:
        may_vote = seat in mingling.intervention_voters(state)
    if may_vote and not mingling.has_voted(state, seat):
        targets = mingling.intervention_targets(state)
        if targets:
            actions.append(offer(INTERVENTION_VOTE, targets))
    return actions


def _place_offer(state: State, seat: int, hand: tuple[str, ...]) -> dict[str, Any] | None:
    """The `place_token` offer: each token in hand and the seats it may go on (R3.1, R11)."""
    tokens = sorted(set(hand))
    if hooks.using(state, "may_stack"):  # a token may stack (the Dagger): one by one
        by_token = {tok: mingling.token_targets(state, seat, tok) for tok in tokens}
        by_token = {tok: seats for tok, seats in by_token.items() if seats}
        if not by_token:
            return None
        union = sorted({s for seats in by_token.values() for s in seats})
    else:  # every token has the same targets: work them out once
        union = mingling.token_targets(state, seat)
        if not union:
            return None
        by_token = {tok: union.copy() for tok in tokens}
    return place_offer(union, by_token)


def _keeps_last(compute):
    """`compute(obj)`, kept for the last object asked (by identity; the cache holds it, so the
    identity cannot be reused). For answers asked again about the same immutable object: a
    round's Dining is shown on every view of the round, and a driver (the simulator, the bots)
    asks `waiting_for` and then `view`, which asks it again. Callers get the kept answer itself:
    they copy what they hand out."""
    last = (None, None)

    def remembered(obj):
        nonlocal last
        asked, answer = last
        if asked is not obj:
            answer = compute(obj)
            last = (obj, answer)
        return answer

    def forget():
        nonlocal last
        last = (None, None)

    def kept_for(obj):
        """The answer kept for `obj`, or None."""
        asked, answer = last
        return answer if asked is obj else None

    def keep(obj, answer):
        """Keep `answer`, known to be `compute(obj)`, for `obj`."""
        nonlocal last
        last = (obj, answer)

    remembered.forget = forget
    remembered.kept_for = kept_for
    remembered.keep = keep
    return remembered


def waiting_for(state: State) -> list[int]:
    """The seats the game is waiting on now (cheaper than asking `pending` of every seat)."""
    return list(_waiting_on(state))


def carry_wait(before: State, after: State, done: int | None = None) -> None:
    """`after` is `before` with one more move in a Mingling or a tie vote that goes on, which
    changed nobody's wait (R3.3, R5.5) but that of `done`, if given (who placed their last token,
    a Ghost who voted: no longer waited on). So `waiting_for(before)`, if kept, less `done`, is
    `after`'s (a driver asks it before nearly every move). Not so if a module may wait on
    someone in that phase."""
    if hooks.using_in(after, "waiting", after.phase):
        return
    seats = _waiting_on.kept_for(before)
    if seats is not None:
        _waiting_on.keep(after, seats if done is None else [s for s in seats if s != done])


@_keeps_last
def _waiting_on(state: State) -> list[int]:
    if state.outcome is not None:
        return []
    phase = state.phase
    merged = False  # seats from two sources: sort them and drop repeats
    if phase == MINGLING:
        # R3.3: the living with tokens in hand, then the Ghosts yet to vote, in seat order; the
        # two never overlap (a Ghost holds no tokens). Written out: asked before nearly every move.
        hands = state.hands
        seats = [s for s in state.living if hands[s - 1]]
        ghosts = mingling.intervention_voters(state)
        if ghosts:
            voted = [v.voter for v in state.intervention]
            missing = [g for g in ghosts if g not in voted]
            if missing:
                seats += missing
                seats.sort()
    elif phase == TIEBREAK:
        tie = state.tie
        merged = True  # the voters may be Ghosts, in the order they died
        if tie.decider is not None:
            seats = list(tie.voters)
        else:
            voted = [v.voter for v in tie.votes]
            seats = [s for s in tie.voters if s not in voted]
    elif phase == CHOOSE_EXAMINER:
        seats = [state.dining.examined]
    elif phase == ROLE_REVEAL:
        seats = reveal.not_ready(state)
    else:
        seats = []
    for module in hooks.using_in(state, "waiting", phase):
        more = module.waiting(state)
        if more:
            seats.extend(more)
            merged = True
    return sorted(set(seats)) if merged else seats


def view(state: State, seat: int | None) -> dict[str, Any]:
    finished = state.outcome is not None
    out: dict[str, Any] = {
        "round": state.round,
        "phase": state.phase,
        "deadline": state.deadline,
        "seats": _seats(state, seat),
        "pending": pending(state, seat) if seat is not None else [],
        "waiting_for": _waiting_for(state, seat),
        "tie": _tie(state),
        "last_dining": _dining(state.dining or state.last_dining),
        "winner": state.outcome.winner if finished else None,
        "outcome": state.outcome.reason if finished else None,
        "roles": (
            [
                {
                    "seat": p.seat,
                    "role": p.role,
                    "mesmerized": p.mesmerized,
                    "team": team(p),
                    "won": team(p) == state.outcome.winner,
                }
                for p in state.players
            ]
            if finished
            else None
        ),
    }
    if seat is not None:
        out["me"] = _me(state, seat)
    for module in hooks.active(state):
        extra = module.view(state, seat)
        dining_extra = extra.pop("last_dining_extra", {})
        if out["last_dining"] is not None:
            out["last_dining"].update(dining_extra)
        mine = extra.pop("me", {})
        if "me" in out:
            out["me"].update(mine)
        out.update(extra)
    return out


def _waiting_for(state: State, viewer: int | None) -> list[int]:
    """A Ghost away from the table (R3.2) does not see who is still placing tokens."""
    seats = waiting_for(state)
    if _away(state, viewer):
        seats = [s for s in seats if s in state.ghosts]
    return seats


def public_waiting(state: State) -> list[int]:
    """The seats the table sees the game wait on, before R3.2's away Ghosts take the living out
    of a spectator's view: what counts for the away flags (games.services.seats)."""
    return waiting_for(state)


def _away(state: State, viewer: int | None) -> bool:
    """R3.2: a Ghost who has not cast their intervention vote is away from the table.

    **Ruling**: a spectator (`viewer` None: the room's shared screen, the API
    without a seat, a logged-out page) sees what an away Ghost would see while any Ghost is
    away, or a Ghost could read the placements off the screen in the room."""
    if state.phase != MINGLING:
        return False
    voters = mingling.intervention_voters(state)
    if viewer is None:
        return any(not mingling.has_voted(state, g) for g in voters)
    return viewer in voters and not mingling.has_voted(state, viewer)


def _seats(state: State, viewer: int | None) -> list[dict[str, Any]]:
    protected = state.dining.protected if state.dining else None
    alpha = state.alpha if state.phase != FINISHED else None
    placed_by = _placed_by(state, viewer)
    return [
        {
            "seat": p.seat,
            "alive": p.alive,
            "alpha": p.seat == alpha,
            "protected": p.seat == protected,
            "placed_by": placed_by.get(p.seat, []),
        }
        for p in state.players
    ]


def _placed_by(state: State, viewer: int | None) -> dict[int, list[int]]:
    """R3.2: who placed a token on whom is public, its type is not; a Ghost who has not cast
    their intervention vote is away from the table and sees nothing."""
    if state.dining is not None or state.phase == FINISHED or _away(state, viewer):
        return {}
    owners: dict[int, list[int]] = {}
    for p in state.placements:
        owners.setdefault(p.target, []).append(p.owner)
    return {target: sorted(seats) for target, seats in owners.items()}


def _me(state: State, seat: int) -> dict[str, Any]:
    p = state.player(seat)
    return {
        "seat": seat,
        "role": p.role,
        "mesmerized": p.mesmerized,
        "alive": p.alive,
        "tokens": list(state.hands[seat - 1]) if state.hands else [],
        "placed": [
            {"target": x.target, "token": x.token} for x in state.placements if x.owner == seat
        ],
        "intervention_vote": next((v.target for v in state.intervention if v.voter == seat), None),
        "relic": None,  # the Sacred Relics module fills it in
        "knowledge": [_fact(k) for k in p.knowledge],
    }


def _fact(k: Knowledge) -> dict[str, Any]:
    fact = {"seat": k.seat, "source": k.source, "round": k.round}
    if k.role is not None:
        fact["role"] = k.role
    if k.mesmerized is not None:
        fact["mesmerized"] = k.mesmerized
    return fact


def _tie(state: State) -> dict[str, Any] | None:
    """An open tie: who is tied and who votes; who has voted, never for whom (until settled)."""
    tie = state.tie
    if tie is None or state.phase != TIEBREAK:
        return None
    return {
        "kind": tie.kind,
        "candidates": list(tie.candidates),
        "voters": list(tie.voters),
        "voted": [v.voter for v in tie.votes] if tie.decider is None else [],
        "decider": tie.decider,
        "tallies": _tallies(state, tie.kind, tie.candidates),
    }


def _tallies(state: State, kind: str, candidates) -> list[dict[str, int]] | None:
    """The votes each tied player has (public: Dining revealed every token, R4.3, R4.4), with
    automatic ones (an unplaced token, a Last Will) counted; None for a Ghost vote's tie."""
    if state.dining is None or kind not in ("elimination", "examination", "election"):
        return None
    tally = dining.feast_tally(state) if kind == "election" else dining.stake_tally(state)
    return [{"seat": c, "count": tally.get(c, 0)} for c in candidates]


def _dining(d: Dining | None) -> dict[str, Any] | None:
    """A revealed Dining is public: tokens, dials, results. Role results stay private.
    A copy of the top level is handed out (modules add their keys); the lists inside are shared
    and read-only."""
    return dict(_dining_json(d)) if d is not None else None


_dining_json = _keeps_last(to_json)
