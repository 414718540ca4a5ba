"""Distribution after round 1 (R10.2): each player in turn gives the relic they drew."""

from __future__ import annotations

from games.engine.common import draw_rng, private, public
from games.engine.errors import IllegalAction
from games.engine.state import (
    DINING,
    Action,
    State,
    evolve,
)
from games.engine.vocabulary import EventKind, RelicId

from .cards import BY_ID, CARDS, GIVING, kind
from .holdings import Giving, Holding, Relics, cards_of, data_of, update


def distribution_turn(state: State, now: float):
    data = data_of(state)
    if data.giving is None:
        state = _draw_for_giver(_start_distribution(state))
        data = data_of(state)
    giving = data.giving
    if giving.index >= len(giving.order):
        return _after_distribution(state)
    return evolve(state, phase=GIVING, deadline=now + state.options.timers.relic), [], True


def _start_distribution(state: State) -> State:
    deck = [c for c in state.options.relic_deck if c in BY_ID]
    pile = list(CARDS)
    chosen = []
    for relic in deck:  # staff-fixed order first, by relic id (a second Bangle takes its #2)
        card = next((c for c in pile if kind(c) == relic), None)
        if card:
            pile.remove(card)
            chosen.append(card)
    rng, state = draw_rng(state)
    rng.shuffle(pile)
    alpha = state.dining.alpha_elected or 1  # R10.2 ruling: seat 1 if nobody was elected
    n = len(state.players)
    order = tuple((alpha - 1 + i) % n + 1 for i in range(n))
    state = update(state, deck=(*chosen, *pile))
    return update(state, giving=Giving(order, 0))


def giver_of(data: Relics) -> int:
    giving = data.giving
    return giving.order[giving.index]


def _draw_for_giver(state: State) -> State:
    data = data_of(state)
    giving = data.giving
    if giving.drawn:
        return state
    last = giving.index == len(giving.order) - 1
    drawn = data.deck[:2] if last else data.deck[:1]
    return update(state, deck=data.deck[len(drawn) :], giving=evolve(giving, drawn=drawn))


def give_targets(state: State) -> list[int]:
    """R10.2: another player who has none; never leaving the last giver as the only one without."""
    data = data_of(state)
    order = data.giving.order
    giver, last = giver_of(data), order[-1]
    without = [s for s in order if not cards_of(state, s, discarded=True)]
    options = [t for t in without if t != giver]
    if giver != last:
        options = [t for t in options if [s for s in without if s != t] != [last]]
    return options


def give(state: State, action: Action, now: float):
    if state.phase != GIVING:
        raise IllegalAction("wrong_phase", "Nobody is giving out Sacred Relics now.")
    data = data_of(state)
    if action.seat != giver_of(data):
        raise IllegalAction(
            "wrong_phase",
            "It is {giver:seat}'s turn to give a relic (R10.2).",
            giver=giver_of(data),
        )
    giving = data.giving
    target = action.args.get("target")
    if isinstance(target, bool) or not isinstance(target, int):
        raise IllegalAction("bad_request", "'target' must be a seat number.")
    if target not in give_targets(state):
        raise IllegalAction(
            "illegal_target", "Give it to another player who has no relic yet (R10.2)."
        )
    card = giving.drawn[0]
    if len(giving.drawn) > 1:
        wanted = action.args.get("card")
        picks = [c for c in giving.drawn if kind(c) == wanted]
        if not picks:
            raise IllegalAction(
                "bad_request", "Name the 'card' you give: one of the two you drew (R10.2)."
            )
        card = picks[0]
    return hand_over(state, giving, card, target, [], now)


def hand_over(state: State, giving: Giving, card: str, target: int, events: list, now: float):
    giver = giving.order[giving.index]
    others = tuple(c for c in giving.drawn if c != card)
    data = data_of(state)
    state = update(
        state,
        holdings=(*data.holdings, Holding(card, target)),
        box=data.box + others,
        giving=evolve(giving, index=giving.index + 1, drawn=()),
    )
    name = BY_ID[kind(card)].the_name
    events.append(  # R10.2a: the card goes face-up under the recipient's tile
        public(
            state,
            EventKind.RELIC_GIVEN,
            f"{{giver:Seat}} gives {name} to {{target:seat}}.",
            giver=giver,
            target=target,
            relic=kind(card),
        )
    )
    events.append(
        private(
            state,
            [target],
            EventKind.RELIC_RECEIVED,
            f"{{giver:Seat}} gives you {BY_ID[kind(card)].the_name}.",
            relics=[kind(card)],
            giver=giver,
        )
    )
    if data_of(state).giving.index < len(giving.order):
        state = _draw_for_giver(state)
        return evolve(state, deadline=now + state.options.timers.relic), events, True
    state, more, paused = _after_distribution(state)
    return state, events + more, paused


def _after_distribution(state: State):
    """R10.2: a lone Bangle of Oaths is discarded and its holder draws a replacement."""
    events: list = []
    data = data_of(state)
    bangles = [h for h in data.holdings if kind(h.card) == RelicId.BANGLE_OF_OATHS]
    holdings = data.holdings
    box = list(data.box)
    deck = list(data.deck)
    if len(bangles) == 1:
        lone = bangles[0]
        box += [lone.card] + [c for c in deck if kind(c) == RelicId.BANGLE_OF_OATHS]
        deck = [c for c in deck if kind(c) != RelicId.BANGLE_OF_OATHS]  # the other is not drawable
        replacement = deck.pop(0)
        holdings = (*(h for h in holdings if h is not lone), Holding(replacement, lone.seat))
        events.append(
            public(
                state,
                EventKind.RELIC_BANGLE,
                "A lone Bangle of Oaths goes back to the box: {seat:seat} draws "
                f"{BY_ID[kind(replacement)].the_name} instead.",
                seat=lone.seat,
                outcome="returned",
                relic=kind(replacement),
            )
        )
        events.append(
            private(
                state,
                [lone.seat],
                EventKind.RELIC_RECEIVED,
                f"You draw {BY_ID[kind(replacement)].the_name} instead of the Bangle of Oaths.",
                relics=[kind(replacement)],
            )
        )
    state = update(
        state, holdings=holdings, deck=tuple(deck), box=tuple(box), giving=None, distributed=True
    )
    events.append(public(state, EventKind.RELICS_READY, "Every player holds a Sacred Relic."))
    return evolve(state, phase=DINING, deadline=None), events, False
