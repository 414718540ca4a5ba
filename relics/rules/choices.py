"""The optional choices after a death in Dining (R11): the False Idol's hand-over, then Van
Helsing's Journal."""

from __future__ import annotations

from games.engine import dining, hooks
from games.engine.common import private, public
from games.engine.errors import IllegalAction
from games.engine.state import (
    DOUBLE_STAKE,
    STAKE,
    Action,
    State,
)
from games.engine.vocabulary import EventKind, RelicId

from .cards import BY_ID, CHOICE, kind
from .holdings import (
    close_choice,
    data_of,
    idol_key,
    journal_key,
    moved,
    negated,
    open_choice,
    seat_targets,
    update,
    with_card,
)


def after_death(state: State, now: float):
    """After a death in Dining and its Last Will: the False Idol's hand-over, then the Journal."""
    if state.phase == CHOICE:  # a choice on this death is still open
        return state, [], True
    result = offer_idol(state, now)
    if result is not None and result[2]:
        return result
    silenced = result is not None  # a negated Idol, marked as offered
    if silenced:
        state = result[0]
    result = _offer_journal(state, dining.dying(state), now)
    if result is None and silenced:
        return state, [], False
    return result


def offer_idol(state: State, now: float):
    data = data_of(state)
    if data.idol_handovers >= 2 or data.choice:
        return None
    for h in data.holdings:
        key = idol_key(h.card, h.seat)
        if (
            kind(h.card) != RelicId.FALSE_IDOL
            or h.discarded
            or state.player(h.seat).alive
            or key in data.offered
        ):
            continue
        if negated(state, h.card) or state.three_living:  # silent at the moment of death
            return update(state, offered=(*data.offered, key)), [], False
        return open_choice(state, RelicId.FALSE_IDOL, h.seat, list(state.living), now, card=h.card)
    return None


def _offer_journal(state: State, eliminated: int, now: float):
    """R11: after a death in Dining and its Last Will, each Journal holder none of whose Stakes
    lies on that seat may examine them (R13 amended: after each death, in order)."""
    data = data_of(state)
    if data.choice or state.three_living:
        return None
    for seat in with_card(state, RelicId.VAN_HELSINGS_JOURNAL):
        key = journal_key(seat, state.round, eliminated)
        if key in data.offered or seat == eliminated:
            continue
        if any(
            p.owner == seat and p.target == eliminated and p.token in (STAKE, DOUBLE_STAKE)
            for p in state.dining.tokens
        ):
            continue
        if any(m.blocks_examination(state, seat, eliminated) for m in hooks.active(state)):
            continue
        return open_choice(state, RelicId.VAN_HELSINGS_JOURNAL, seat, [eliminated], now, key=key)
    return None


def resolve_choice(state: State, action: Action):
    choice = data_of(state).choice
    if action.seat != choice.seat:
        raise IllegalAction("wrong_phase", "It is not your choice.")
    if action.args.get("choice") not in (None, choice.relic):
        raise IllegalAction("bad_request", f"The open choice is {BY_ID[choice.relic].the_name}'s.")
    (target,) = seat_targets(action, 1)
    if target not in choice.targets:
        raise IllegalAction(
            "illegal_target", "Choose one of {targets:seats}.", targets=list(choice.targets)
        )
    events: list = []
    if choice.relic == RelicId.FALSE_IDOL:
        state = update(
            state,
            holdings=moved(state, {choice.card: target}),
            idol_handovers=data_of(state).idol_handovers + 1,
        )
        events.append(
            public(
                state,
                EventKind.RELIC_USED,
                "{seat:Seat} hands the False Idol to {target:seat}.",
                relic=RelicId.FALSE_IDOL,
                seat=choice.seat,
                target=target,
            )
        )
        events.append(
            private(
                state,
                [target],
                EventKind.RELIC_RECEIVED,
                "{giver:Seat} hands you the False Idol, beside your own relic.",
                relics=[RelicId.FALSE_IDOL],
                giver=choice.seat,
            )
        )
    else:
        events.append(
            public(
                state,
                EventKind.RELIC_USED,
                "{seat:Seat} reads Van Helsing's Journal on {target:seat}.",
                relic=RelicId.VAN_HELSINGS_JOURNAL,
                seat=choice.seat,
                target=target,
            )
        )
        state = dining.examine(state, choice.seat, target, "van_helsing", events)
    return close_choice(state, choice, declined=False), events, False
