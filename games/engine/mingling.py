"""Mingling (R3): hands of tokens, placing them, and the Ghosts' intervention vote (R7.2)."""

from __future__ import annotations

from . import hooks
from .common import int_arg, private, public, str_arg
from .errors import IllegalAction
from .state import (
    DOUBLE_STAKE,
    FEAST,
    INVESTIGATION,
    MINGLING,
    STAKE,
    Action,
    Event,
    Placement,
    State,
    Vote,
    evolve,
)
from .vocabulary import TOKEN_LABELS, EventKind

NORMAL_HAND = (STAKE, STAKE, FEAST)  # R1.5
ALPHA_HAND = (DOUBLE_STAKE, FEAST, INVESTIGATION)  # R3.5
THREE_LIVING_HAND = (STAKE, FEAST)  # R9
TOKEN_PLACED = EventKind.TOKEN_PLACED  # a module-level alias: every placement writes one


def deal_hands(state: State) -> State:
    """Give every living player the tokens of this round (R1.5, R3.5, R9, then modules)."""
    hands = []
    modules = hooks.using(state, "hand")
    for p in state.players:
        if not p.alive:
            hand = ()
        elif state.three_living:
            hand = THREE_LIVING_HAND
        elif p.seat == state.alpha:
            hand = ALPHA_HAND
        else:
            hand = NORMAL_HAND
        for module in modules:
            hand = module.hand(state, p.seat, hand)
        hands.append(hand)
    return evolve(state, hands=tuple(hands), placements=(), intervention=())


def intervention_open(state: State) -> bool:
    """R7.2/R9: Ghosts vote to protect a living player, except in a three-living round."""
    return state.round_ghosts > 0 and not state.three_living


def intervention_voters(state: State) -> tuple[int, ...]:
    """Ghosts who must vote (R3.3: their votes, but never an optional one, hold Mingling open):
    those who were Ghosts when Mingling opened and left the table (R7.2 amended: a player killed
    in a relic window before it is one of them); a player killed during Mingling (Blood of the
    One) has no dial this round."""
    if not intervention_open(state):
        return ()
    return state.ghosts[: state.round_ghosts]


def has_voted(state: State, seat: int) -> bool:
    for v in state.intervention:
        if v.voter == seat:
            return True
    return False


def intervention_targets(state: State) -> list[int]:
    """Any living player, except the one Protected last round (R7.3)."""
    protected = state.last_protected
    return [s for s in state.living if s != protected]


def token_targets(state: State, seat: int, token: str | None = None) -> list[int]:
    """Living players other than `seat` that do not already hold one of its tokens (R3.1); for a
    token that may stack (the Dagger's Stakes), only those holding none that may not (R11)."""
    stacks = token is not None and may_stack(state, seat, token)
    # the living, less whom `seat`'s tokens hold: a loop, cheaper than two comprehensions
    targets = list(state.living)
    if seat in targets:
        targets.remove(seat)
    for p in state.placements:
        if p.owner == seat and p.target in targets:
            if not (stacks and may_stack(state, seat, p.token)):
                targets.remove(p.target)
    return targets


def set_aside_unplaceable(state: State, events: list, seats=None) -> State:
    """**Ruling** (R3.1, R3.4): a death during Mingling (Blood of the One) can leave a living
    player holding tokens that no longer have a legal target (every other living player already
    has one of theirs). Those tokens are set aside: not placed, and not counted as Stakes against
    their owner, since R3.4 counts the tokens a player chose not to place in time."""
    hands = list(state.hands)
    changed = False
    for s in state.living if seats is None else seats:
        hand = hands[s - 1]
        if hand and not any(token_targets(state, s, token) for token in set(hand)):
            hands[s - 1] = ()
            changed = True
            events.append(
                private(
                    state,
                    [s],
                    EventKind.TOKENS_SET_ASIDE,
                    "No living player can take your remaining tokens any more (R3.1): they are "
                    "set aside and do not count against you.",
                    tokens=list(hand),
                )
            )
    return evolve(state, hands=tuple(hands)) if changed else state


def may_run_out_of_targets(state: State) -> bool:
    """Whether a player may hold tokens no living player can take (`set_aside_unplaceable`): only
    with three or fewer living players, each holding at most three tokens, i.e. after a death this
    round (Blood of the One, before or during Mingling). A cheap test for every placement."""
    return len(state.living) <= 3


def may_stack(state: State, seat: int, token: str) -> bool:
    modules = hooks.using(state, "may_stack")
    return bool(modules) and any(m.may_stack(state, seat, token) for m in modules)


def place_token(state: State, action: Action) -> State:
    """R3.1: one token from `seat`'s hand onto another living player."""
    seat = action.seat
    token = str_arg(action, "token")
    target = int_arg(action, "target")
    _require_mingling(state)
    if not state.players[seat - 1].alive:
        raise IllegalAction("wrong_phase", "Ghosts never place tokens (R7.1).")
    hands = state.hands
    hand = hands[seat - 1]
    if token not in hand:
        if token not in TOKEN_LABELS:
            raise IllegalAction("illegal_token", f"There is no token called '{token}'.")
        raise IllegalAction("illegal_token", f"You have no {TOKEN_LABELS[token]} token to place.")
    _check_target(state, target)
    if target == seat:
        raise IllegalAction("illegal_target", "You may not place a token on yourself (R3.1).")
    # What `token_targets` offers (R3.1, R11), asked of the one target: no other token of
    # `seat`'s there, unless both may stack (the Dagger's Stakes).
    for p in state.placements:
        if (
            p.target == target
            and p.owner == seat
            and not (may_stack(state, seat, token) and may_stack(state, seat, p.token))
        ):
            raise IllegalAction(
                "illegal_target", "You may not place two of your tokens on the same player (R3.1)."
            )
    i = hand.index(token)  # the first such token, as `list.remove` takes it
    return evolve(
        state,
        hands=hands[: seat - 1] + (hand[:i] + hand[i + 1 :],) + hands[seat:],
        placements=state.placements + (Placement(seat, target, token),),
    )


def intervention_vote(state: State, action: Action) -> State:
    seat = action.seat
    target = int_arg(action, "target")
    _require_mingling(state)
    if seat not in intervention_voters(state) and not optional_voter(state, seat):
        if state.three_living and state.ghosts:
            raise IllegalAction(
                "wrong_phase", "No Ghostly Intervention in a three-living round (R9)."
            )
        raise IllegalAction("wrong_phase", "Only Ghosts vote for Ghostly Intervention (R7.2).")
    if has_voted(state, seat):
        raise IllegalAction(
            "wrong_phase", "Your intervention vote is already cast; it is final (R7.2)."
        )
    _check_target(state, target)
    if target not in intervention_targets(state):
        if target == state.last_protected:
            raise IllegalAction(
                "illegal_target", "The same player cannot be Protected two rounds in a row (R7.3)."
            )
        raise IllegalAction(
            "illegal_target", "Ghostly Intervention protects a living player (R7.2)."
        )
    return evolve(state, intervention=state.intervention + (Vote(seat, target),))


def optional_voter(state: State, seat: int) -> bool:
    """A living player a module lets vote in the intervention (Seer's Orb); never required."""
    modules = hooks.using(state, "optional_intervention_voters")
    return bool(modules) and any(seat in m.optional_intervention_voters(state) for m in modules)


def mingling_done(state: State) -> bool:
    """R3.3: every living player has placed everything and every Ghost has voted."""
    hands = state.hands
    for s in state.living:
        if hands[s - 1]:
            return False
    ghosts = intervention_voters(state)
    if not ghosts:
        return True
    voted = [v.voter for v in state.intervention]
    return all(g in voted for g in ghosts)


MINGLING_OVER = {  # why Mingling is over, and the line everyone reads
    "all_placed": "Every token is placed: Mingling is over.",  # R3.3
    "time_up": "Time is up: Mingling is over.",  # R3.4
}


def over(state: State, events: list, reason: str) -> State:
    """Mingling is over (R3.3, R3.4): everyone reads why, and the round goes on to post_mingling.

    The one place that says so: the core's flow (every token placed, or time up) and any module
    whose move places the last token (e.g. Blood of the One killing the last holder) both end
    Mingling here. `reason` is a key of MINGLING_OVER."""
    events.append(public(state, EventKind.MINGLING_OVER, MINGLING_OVER[reason], reason=reason))
    return evolve(state, deadline=None, step="post_mingling")


def over_if_done(state: State, events: list) -> State | None:
    """R3.3: Mingling is over once it is done (`mingling_done`); None while it goes on."""
    return over(state, events, "all_placed") if mingling_done(state) else None


def placement_receipt(state: State, action: Action):
    """The mover's receipt, as `private` writes it (the commonest line of a game: every placement
    writes one)."""
    token, target = action.args["token"], action.args["target"]
    return Event.from_template(
        TOKEN_PLACED,
        _RECEIPTS[token],
        state.round,
        {"token": token, "target": target},
        (action.seat,),
    )


def _a(word: str) -> str:
    return f"{'an' if word[0] in 'AEIOU' else 'a'} {word}"


# One per token, written once: "You placed an Investigation on {target:seat}." (a move's receipt).
_RECEIPTS = {t: f"You placed {_a(label)} on {{target:seat}}." for t, label in TOKEN_LABELS.items()}


def _require_mingling(state: State) -> None:
    if state.phase != MINGLING:
        raise IllegalAction(
            "wrong_phase", f"This can only be done during Mingling; it is {state.phase} now."
        )


def _check_target(state: State, target: int) -> None:
    players = state.players
    if not 1 <= target <= len(players):
        raise IllegalAction("illegal_target", f"There is no seat {target} at this table.")
    if not players[target - 1].alive:
        raise IllegalAction(
            "illegal_target",
            "{target:Seat} is a Ghost; Ghosts receive no tokens (R7.1).",
            target=target,
        )
