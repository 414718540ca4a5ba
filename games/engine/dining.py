"""Dining (R4, R6, R7): reveal, Protection, Investigation, elimination, Alpha election.

Each step takes (state, events, now) and returns (state, paused). A step that needs a player's
input opens a window (a tie vote, the round-1 examiner choice) and pauses; the action that closes
the window settles the result and moves `step` on.
"""

from __future__ import annotations

from . import hooks, ties
from .common import ROLE_NAMES, int_arg, learn, private, public, with_player
from .errors import IllegalAction
from .mingling import intervention_open, set_aside_unplaceable
from .state import (
    CHOOSE_EXAMINER,
    DINING,
    FEAST,
    HUNTER,
    INVESTIGATION,
    LORD,
    MINGLING,
    STAKE,
    VAMPIRE,
    Action,
    Dining,
    Knowledge,
    State,
    Unplaced,
    evolve,
)
from .vocabulary import STAKE_VOTES, EventKind, TieKind

BY_DINING = "dining"  # the cause of a death by the Stake votes; others name their card
STAKE_VALUE = STAKE_VOTES  # R3.5: a Double-Stake is 2 Stake votes
# Module-level aliases: an enum member read through its class costs a lookup (vocabulary.py).
INTERVENTION = TieKind.INTERVENTION
EXAMINATION = TieKind.EXAMINATION
ELIMINATION = TieKind.ELIMINATION
ELECTION = TieKind.ELECTION


def reveal(state: State, events: list, now: float):
    """R4.1: tokens and the Ghosts' dials are turned over; unplaced tokens count (R3.4)."""
    unplaced = tuple(Unplaced(s, t) for s in state.living for t in state.hands[s - 1])
    dining = Dining(
        round=state.round,
        tokens=state.placements,
        unplaced=unplaced,
        intervention=state.intervention,
    )
    events.append(
        public(
            state,
            EventKind.DINING,
            "Dining: the tokens are revealed.",
            tokens=[
                {"owner": p.owner, "target": p.target, "token": p.token} for p in dining.tokens
            ],
            unplaced=[{"owner": u.owner, "token": u.token} for u in unplaced],
            intervention=[{"voter": v.voter, "target": v.target} for v in dining.intervention],
        )
    )
    return evolve(state, dining=dining, phase=DINING, deadline=None, step="after_reveal"), False


def intervention(state: State, events: list, now: float):
    """R7.2–R7.4: the most dial votes (≥1) is Protected; a tie goes to the latest Ghost."""
    state = evolve(state, step="after_intervention")
    if not intervention_open(state):
        return state, False
    counts: dict[int, int] = {}  # a plain dict: a Counter costs more to make than to fill
    players = state.players
    last_protected = state.last_protected
    for v in state.dining.intervention:  # R7.3: never last round's, only the living (amended)
        if v.target != last_protected and players[v.target - 1].alive:
            counts[v.target] = counts.get(v.target, 0) + ties.vote_weight(state, v.voter)
    if not counts:
        return state, False
    top = max(counts.values())
    leaders = tuple(sorted(s for s, n in counts.items() if n == top))
    if len(leaders) == 1:
        return protect(state, leaders[0], events), False
    decider = ties.module_decider(state, TieKind.INTERVENTION, leaders)
    if decider is not None:
        seat, by = decider
        state = ties.open_decider(
            state, TieKind.INTERVENTION, leaders, state.dining.intervention, seat, by, now, events
        )
        return state, True
    state, resolution = ties.latest_ghost_decides(
        state, TieKind.INTERVENTION, leaders, state.dining.intervention, now, events
    )
    if resolution is None:
        return state, True
    return settle(state, resolution, events, now), False


def protect(state: State, seat: int | None, events: list) -> State:
    if seat is None:
        return state
    events.append(
        public(
            state,
            EventKind.PROTECTED,
            "The Ghosts protect {seat:seat} this round (R7.2).",
            seat=seat,
        )
    )
    return evolve(state, dining=evolve(state.dining, protected=seat))


def investigation(state: State, events: list, now: float):
    """R4.2: the Investigation token's holder shows their role to the Alpha Hunter, privately."""
    state = evolve(state, step="stakes")
    alpha = state.alpha
    token = next(
        (p for p in state.dining.tokens if p.owner == alpha and p.token == INVESTIGATION), None
    )
    if token is None or not state.player(alpha).alive:
        return state, False
    target = token.target
    if not state.player(target).alive:  # killed this round (Blood of the One): no one to look at
        events.append(
            public(
                state,
                EventKind.INVESTIGATION,
                "The Investigation token lay on {target:seat}, who died this round: no effect.",
                investigator=alpha,
                target=target,
                outcome="target_dead",
            )
        )
        return state, False
    if target == state.dining.protected:
        events.append(
            public(
                state,
                EventKind.INVESTIGATION,
                "The Investigation token lay on {target:seat}, who is Protected: no effect (R7.2).",
                investigator=alpha,
                target=target,
                outcome="protected",
            )
        )
        return state, False
    if target in _ignoring_tokens(state) or any(
        m.blocks_examination(state, alpha, target) for m in hooks.using(state, "blocks_examination")
    ):
        events.append(
            public(
                state,
                EventKind.INVESTIGATION,
                "{target:Seat} cannot be investigated this round.",
                investigator=alpha,
                target=target,
                outcome="blocked",
            )
        )
        return state, False
    events.append(
        public(
            state,
            EventKind.INVESTIGATION,
            "The Alpha Hunter ({investigator:seat}) investigates {target:seat}.",
            investigator=alpha,
            target=target,
            outcome="examined",
        )
    )
    state = evolve(state, dining=evolve(state.dining, investigated=target))
    return examine(state, alpha, target, "investigation", events), False


def examine(state: State, examiner: int, target: int, source: str, events: list) -> State:
    """`examiner` sees `target`'s Secret Role; a Hunter who sees the Lord is Mesmerized (R8)."""
    role = state.player(target).role
    fact = Knowledge(seat=target, source=source, round=state.round, role=role)
    state = with_player(state, examiner, knowledge=state.player(examiner).knowledge + (fact,))
    events.append(
        private(
            state,
            [examiner],
            EventKind.EXAMINED,
            f"{{seat:Seat}}'s Secret Role: {ROLE_NAMES[role]}.",
            seat=target,
            role=role,
        )
    )
    if role == LORD:
        state = _mesmerize(state, examiner, events)
    return state


def _mesmerize(state: State, seat: int, events: list) -> State:
    """R8.1/R8.2: tell the victim, the Lord and the Vampires, nobody else."""
    victim = state.player(seat)
    if victim.role != HUNTER or victim.mesmerized:
        return state
    if any(m.resists_mesmerism(state, seat) for m in hooks.using(state, "resists_mesmerism")):
        return state
    fact = Knowledge(seat=seat, source="mesmerism", round=state.round, mesmerized=True)
    told = [seat] + [p.seat for p in state.players if p.role in (VAMPIRE, LORD)]
    players = list(state.players)
    players[seat - 1] = evolve(victim, mesmerized=True)
    for s in told:
        players[s - 1] = learn(players[s - 1], fact)
    state = evolve(state, players=tuple(players))
    events.append(
        private(
            state,
            [seat],
            EventKind.MESMERIZED,
            "You saw the Vampire Lord's card and are Mesmerized: you now win only with the "
            "Vampires (R8.1). Your card still reads Hunter.",
            seat=seat,
        )
    )
    events.append(
        private(
            state,
            told[1:],
            EventKind.MESMERIZED,
            "{seat:Seat} has been Mesmerized by the Vampire Lord.",
            seat=seat,
        )
    )
    return state


def _ignoring_tokens(state: State) -> set[int]:
    """Seats whose tokens a module says to ignore this round (Key of Quick Passage)."""
    modules = hooks.using(state, "ignores_tokens")
    if not modules:
        return set()
    return {s for s in state.living for m in modules if m.ignores_tokens(state, s)}


def stake_tally(state: State) -> dict[int, int]:
    """Stake votes on each living, unprotected player (R4.3, R3.4, R3.5, R7.2), then modules."""
    eligible = set(state.living) - {state.dining.protected}
    tally = dict.fromkeys(eligible, 0)
    ignored = _ignoring_tokens(state)
    for p in state.dining.tokens:
        if p.target in tally and p.token in STAKE_VALUE and p.target not in ignored:
            tally[p.target] += STAKE_VALUE[p.token]
    for u in state.dining.unplaced:
        if u.owner in tally:
            tally[u.owner] += 1
    for module in hooks.using(state, "adjust_tally"):
        tally = module.adjust_tally(state, STAKE, tally)
    return tally


def feast_tally(state: State) -> dict[int, int]:
    """R4.4: feasts on living, unprotected players who are not this round's Alpha."""
    eligible = set(state.living) - {state.dining.protected, state.alpha}
    tally = dict.fromkeys(eligible, 0)
    ignored = _ignoring_tokens(state)
    for p in state.dining.tokens:
        if p.target in tally and p.token == FEAST and p.target not in ignored:
            tally[p.target] += 1
    for module in hooks.using(state, "adjust_tally"):
        tally = module.adjust_tally(state, FEAST, tally)
    return tally


def stakes(state: State, events: list, now: float):
    """R4.3 (R6.1 in round 1): the most Stake votes (≥1, R4.6) is eliminated or examined."""
    kind = EXAMINATION if state.round == 1 else ELIMINATION
    return _decide(state, kind, stake_tally(state), events, now)


def election(state: State, events: list, now: float):
    """R4.4: the most Feast votes (≥1) is Alpha next round; none in a three-living round (R9)."""
    if state.three_living:
        return evolve(state, step="round_end"), False
    return _decide(state, ELECTION, feast_tally(state), events, now)


def _decide(state: State, kind: str, tally: dict[int, int], events: list, now: float):
    top = max(tally.values(), default=0)
    if top < 1:  # R4.6
        return settle(state, ties.Resolution(kind, None, None), events, now), False
    leaders = tuple(sorted(s for s, n in tally.items() if n == top))
    if len(leaders) == 1:
        return settle(state, ties.Resolution(kind, leaders[0], None), events, now), False
    return ties.pending_tie(state, kind, leaders), False


def settle(state: State, resolution: ties.Resolution, events: list, now: float) -> State:
    """Apply a decided result (directly or after a tie) and move the flow on."""
    if resolution.record is not None:
        state = evolve(
            state, dining=evolve(state.dining, ties=state.dining.ties + (resolution.record,))
        )
    seat = resolution.winner
    if resolution.kind == INTERVENTION:
        return evolve(protect(state, seat, events), step="after_intervention", phase=DINING)
    if resolution.kind == EXAMINATION:
        if seat is None:
            return evolve(state, step="election", phase=DINING)
        return _ask_examiner(state, seat, events, now)
    if resolution.kind == ELIMINATION:
        if seat is None:
            events.append(
                public(state, EventKind.NO_ELIMINATION, "Nobody is eliminated this round.")
            )
            return evolve(state, step="election", phase=DINING)
        return eliminate(evolve(state, step="after_elimination", phase=DINING), seat, events)
    if seat is not None:
        events.append(
            public(
                state,
                EventKind.ALPHA_ELECTED,
                "{seat:Seat} will be the Alpha Hunter next round (R4.4).",
                seat=seat,
            )
        )
    else:
        events.append(
            public(state, EventKind.NO_ALPHA, "Nobody is elected Alpha Hunter this round.")
        )
    return evolve(
        state, dining=evolve(state.dining, alpha_elected=seat), step="round_end", phase=DINING
    )


def eliminate(state: State, seat: int, events: list, cause: str = BY_DINING) -> State:
    """The player becomes a Ghost at once (R2 ruling); their role stays secret (R1.4).

    `cause` says why (`BY_DINING`, or the id of the card that killed); modules react through
    `on_eliminated`.
    """
    players = list(state.players)
    if not players[seat - 1].alive:
        return state
    players[seat - 1] = evolve(players[seat - 1], alive=False)
    dining = state.dining
    if dining is not None and not dining.complete:  # its aftermath: flow._aftermath
        dining = evolve(dining, deaths=dining.deaths + (seat,))
    if cause == BY_DINING:
        dining = evolve(dining, eliminated=seat)
    state = evolve(state, players=tuple(players), ghosts=state.ghosts + (seat,), dining=dining)
    if cause == BY_DINING:
        events.append(
            public(
                state,
                EventKind.ELIMINATED,
                "{seat:Seat} is Staked! and becomes a Ghost.",
                seat=seat,
                cause=cause,
            )
        )
    else:
        events.append(
            public(
                state,
                EventKind.ELIMINATED,
                "{seat:Seat} dies and becomes a Ghost.",
                seat=seat,
                cause=cause,
            )
        )
    if state.phase == MINGLING:
        state = set_aside_unplaceable(state, events)
    for module in hooks.using(state, "on_eliminated"):
        state = module.on_eliminated(state, seat, cause, events)
    return state


def dying(state: State) -> int:
    """The death in Dining whose aftermath is under way (`after_death`, R13 amended)."""
    return state.dining.deaths[state.dining.settled]


def _ask_examiner(state: State, seat: int, events: list, now: float) -> State:
    """R6.1: the most-staked player of round 1 chooses who examines their role."""
    events.append(
        public(
            state,
            EventKind.MOST_STAKED,
            "{seat:Seat} has the most Stakes and chooses who examines their role (R6.1).",
            seat=seat,
        )
    )
    return evolve(
        state,
        dining=evolve(state.dining, examined=seat),
        phase=CHOOSE_EXAMINER,
        step="choose_examiner",
        deadline=now + state.options.timers.choice,
    )


def examiner_targets(state: State) -> list[int]:
    return [s for s in state.living if s != state.dining.examined]


def choose_examiner(state: State, action: Action, events: list, target: int | None = None) -> State:
    if state.phase != CHOOSE_EXAMINER:
        raise IllegalAction("wrong_phase", "Nobody is choosing an examiner now.")
    if action is not None:
        if action.seat != state.dining.examined:
            raise IllegalAction(
                "wrong_phase", "Only the player with the most Stakes chooses the examiner (R6.1)."
            )
        target = int_arg(action, "target")
        if target not in examiner_targets(state):
            raise IllegalAction(
                "illegal_target", "Choose another living player to examine your role (R6.1)."
            )
    examined = state.dining.examined
    events.append(
        public(
            state,
            EventKind.EXAMINATION,
            "{examiner:Seat} examines {target:seat}'s Secret Role (R6.1).",
            examiner=target,
            target=examined,
        )
    )
    state = evolve(
        state,
        dining=evolve(state.dining, examiner=target),
        deadline=None,
        phase=DINING,
        step="election",
    )
    return examine(state, target, examined, "examination", events)
