"""Relic effects with a moment of their own (R11): Blood of the One, the Cross of Saint John, the
Bangle of Oaths' link and the deaths it defers."""

from __future__ import annotations

from games.engine import dining, hooks, mingling, ties
from games.engine.common import public
from games.engine.errors import IllegalAction
from games.engine.serialize import to_json
from games.engine.state import (
    DINING,
    DOUBLE_STAKE,
    LAST_WILL,
    MINGLING,
    STAKE,
    TIEBREAK,
    Action,
    Outcome,
    State,
    evolve,
)
from games.engine.table import on_vampire_side
from games.engine.vocabulary import STAKE_VOTES, EventKind, RelicId, Team, TieKind

from .cards import BLOOD_PHASES, CHOICE, WINDOW, kind
from .holdings import (
    Cross,
    acting_as,
    active_cards,
    cards_of,
    close_choice,
    close_window,
    data_of,
    discard_card,
    holder,
    negated,
    seat_targets,
    update,
)


def blood(state: State, seat: int, card: str, targets: list[int], events: list):
    """R11: discard, name a living player; the app tells whether they are Mesmerized; if so they
    die, their placed tokens this round are removed (even revealed ones), and their Last Will is
    drawn as usual: in Dining once Protection is settled (R11 amended), or at once in Dining
    (flow._aftermath)."""
    (target,) = targets
    if target not in state.living:
        raise IllegalAction("illegal_target", "Blood of the One names a living player.")
    state = discard_card(state, card)
    mesmerized = state.player(target).mesmerized
    verdict = (
        "is Mesmerized: they die, and their tokens this round are removed"
        if mesmerized
        else "is not Mesmerized"
    )
    events.append(
        public(
            state,
            EventKind.RELIC_USED,
            f"{{seat:Seat}} uses Blood of the One: {{target:seat}} {verdict}.",
            relic=RelicId.BLOOD_OF_THE_ONE,
            seat=seat,
            target=target,
            mesmerized=mesmerized,
        )
    )
    if not mesmerized:
        return state, events
    state = evolve(state, placements=tuple(p for p in state.placements if p.owner != target))
    in_dining = state.dining is not None and not state.dining.complete
    if in_dining:
        state = evolve(
            state,
            dining=evolve(
                state.dining, tokens=tuple(p for p in state.dining.tokens if p.owner != target)
            ),
        )
    living = state.living
    state = dining.eliminate(state, target, events, cause=RelicId.BLOOD_OF_THE_ONE)
    if not in_dining:
        for module in hooks.using(state, "on_killed_before_dining"):
            state = module.on_killed_before_dining(state, target)
    dead = [s for s in living if not state.player(s).alive]
    return _without_the_dead(state, dead, events), events


def blood_at_any_time(state: State, seat: int, action: Action):
    """R11 amended: Blood of the One outside its own windows, whenever the game waits on someone."""
    card = next(
        (c for c in active_cards(state, RelicId.BLOOD_OF_THE_ONE) if holder(state, c) == seat), None
    )
    if card is None or state.phase not in BLOOD_PHASES:
        raise IllegalAction("wrong_phase", "You hold no usable Blood of the One now.")
    state, events = blood(state, seat, card, seat_targets(action, 1), [])
    if state.phase == MINGLING:  # R3.3: the dead's tokens may have been the last ones
        over = mingling.over_if_done(state, events)
        if over is not None:
            return over, events, False
    # Whatever still waits on a player goes on as it was (its deadline too); else the flow goes on.
    return state, events, state.phase in (MINGLING, WINDOW, CHOICE, TIEBREAK, LAST_WILL)


RECOUNT = {  # the step that counts again a tie not yet settled
    TieKind.INTERVENTION: "intervention",
    TieKind.EXAMINATION: "stakes",
    TieKind.ELIMINATION: "stakes",
    TieKind.ELECTION: "election",
}


def _without_the_dead(state: State, dead: list[int], events: list) -> State:
    """What the deaths by Blood of the One change in whatever is open (module docstring)."""
    data = data_of(state)
    if state.tie is not None:  # in Dining, a tie not yet settled: counted again without them
        kind_ = state.tie.kind
        events.append(
            public(
                state,
                EventKind.TIE_RECOUNT,
                f"The tie for {ties.KIND_WORDS[kind_]} is counted again without the dead; "
                "its votes so far are void.",
                kind=kind_,
            )
        )
        state = update(state, window=None)
        return evolve(state, tie=None, phase=DINING, deadline=None, step=RECOUNT[kind_])
    if state.phase == WINDOW and data.window.seat in dead:
        return close_window(state, data.window.card)
    if state.phase == CHOICE:
        choice = data.choice
        if choice.relic == RelicId.VAN_HELSINGS_JOURNAL:  # it reads a dead player for a living one
            if choice.seat in dead:
                return close_choice(state, choice, declined=True)
            return state
        targets = tuple(t for t in choice.targets if t not in dead)  # the Idol goes to the living
        if not targets:
            return close_choice(state, choice, declined=True)
        return update(state, choice=evolve(choice, targets=targets))
    for module in hooks.using(state, "forget_the_dead"):
        state = module.forget_the_dead(state, dead, events)
    return state


def check_cross(state: State, seat: int, cause: str, events: list) -> State:
    """R11/R12.3: checked by the app at the moment of any death in Dining (R11 amended: the
    Stake votes' elimination, a Last Stand, the Bangle partner's death, Blood of the One), with
    the Stake votes that lie on that seat in this Dining. A death before Dining opens (Mingling,
    the relic windows) or at the start of a round (a deferred Bangle death) is not in Dining."""
    card = next(
        (c for c in cards_of(state, seat) if acting_as(state, c) == RelicId.CROSS_OF_SAINT_JOHN),
        None,
    )
    in_dining = state.dining is not None and not state.dining.complete
    if not in_dining or card is None or negated(state, card):
        return state
    stakes = [
        (p.owner, STAKE_VOTES[p.token])
        for p in state.dining.tokens
        if p.target == seat and p.token in (STAKE, DOUBLE_STAKE)
    ]
    total = sum(n for _, n in stakes)
    vampire = sum(n for owner, n in stakes if on_vampire_side(state.player(owner).role))
    if total == 0 or 2 * vampire < total:
        return state
    cross = Cross(state.round, seat, total, vampire)
    events.append(
        public(
            state,
            EventKind.RELIC_CROSS,
            f"{{seat:Seat}} held the Cross of Saint John: {vampire} of the {total} Stake votes "
            "placed on them came from the Vampires and the Lord (automatic votes do not count), "
            "at least half: the Hunters win at once.",
            **to_json(cross),
        )
    )
    state = update(state, cross=cross)  # shown in the Dining's recap (view: last_dining.cross)
    return evolve(state, outcome=Outcome(Team.HUNTERS, "The Cross of Saint John (R11, R12.3)."))


def bangle_link(state: State, seat: int, events: list) -> State:
    """R11: if one Bangle holder dies, the other dies too, even if Protected; a negated Bangle's
    holder dies at the start of the next round instead."""
    mine = next((c for c in cards_of(state, seat) if kind(c) == RelicId.BANGLE_OF_OATHS), None)
    if mine is None:
        return state
    other = next(
        (
            h
            for h in data_of(state).holdings
            if kind(h.card) == RelicId.BANGLE_OF_OATHS and h.card != mine
        ),
        None,
    )
    if other is None or other.discarded or not state.player(other.seat).alive:
        return state
    if negated(state, other.card):
        return update(state, pending_deaths=(*data_of(state).pending_deaths, other.seat))
    events.append(
        public(
            state,
            EventKind.RELIC_BANGLE,
            "Bound by the Bangle of Oaths, {seat:seat} dies too.",
            seat=other.seat,
            outcome="dies_too",
        )
    )
    return dining.eliminate(state, other.seat, events, cause=RelicId.BANGLE_OF_OATHS)


def deferred_deaths(state: State):
    pending = data_of(state).pending_deaths
    if not pending:
        return None
    events: list = []
    state = update(state, pending_deaths=())
    for seat in pending:
        events.append(
            public(
                state,
                EventKind.RELIC_BANGLE,
                "The Bangle of Oaths claims {seat:seat} at last.",
                seat=seat,
                outcome="claimed",
            )
        )
        state = dining.eliminate(state, seat, events, cause=RelicId.BANGLE_OF_OATHS)
    return state, events, False
