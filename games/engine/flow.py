"""The round's flow and the engine's entry points: setup, apply, timeout.

A round is a sequence of steps (R2). `_run` executes steps until one waits for a player (a timed
window) or the game ends; every action and every timeout ends by calling it again.

    [role_reveal (window), before round 1 only] → round_start → deal → pre_mingling
    → mingling (window) → post_mingling → reveal
    → after_reveal → intervention → after_intervention → investigation → stakes
    → [after_elimination] → election
    → round_end → the next round's round_start

A tie for the most Stakes or Feasts goes through `before_tie` (a module's window, e.g. the Scales
of Justice) before its vote opens (`open_tie`). Whenever someone has died in Dining, before the
next step, each death in turn gets its aftermath (`after_death`: the Last Will, then Van
Helsing's Journal), in the order they died (R13 amended).
"""

from __future__ import annotations

from . import dining, hooks, mingling, reveal, table, ties
from .common import ROLE_NAMES, draw_rng, private, public
from .errors import IllegalAction
from .state import (
    CHOOSE_EXAMINER,
    FINISHED,
    LORD,
    MINGLING,
    ROLE_REVEAL,
    ROLES,
    TIEBREAK,
    VAMPIRE,
    Action,
    Event,
    Knowledge,
    Options,
    Player,
    State,
    evolve,
)
from .view import carry_wait
from .vocabulary import ActionName, EventKind

ACTIONS = tuple(ActionName)  # every action of docs/api.md (vocabulary.py)
# The core's own actions, as module-level names: `apply` compares against them on every move.
PLACE_TOKEN = ActionName.PLACE_TOKEN
INTERVENTION_VOTE = ActionName.INTERVENTION_VOTE
TIEBREAK_VOTE = ActionName.TIEBREAK_VOTE
CHOOSE_EXAMINER_ACTION = ActionName.CHOOSE_EXAMINER
READY = ActionName.READY


def setup(options: Options, seats: int, seed: int, *, roles=None, now: float = 0.0) -> State:
    """A new game at the start of round 1's Mingling, or in the role reveal before it when
    `options.timers.reveal` > 0 (reveal.py). `roles` (seat -> role) fixes the deal."""
    hooks.require(options)
    limit = table.max_players(options.expansion)
    if not table.MIN_PLAYERS <= seats <= limit:
        more = "" if options.expansion else " (11–12 need the expansion option)"
        raise IllegalAction(
            "bad_request", f"Staked! is for {table.MIN_PLAYERS}–{limit} players{more} (R1.1)."
        )
    deck = _fixed_deal(roles, seats) if roles is not None else table.deal(seats, seed)
    knows = table.ROLE_TABLE[seats][2]
    players = tuple(Player(seat=i + 1, role=r) for i, r in enumerate(deck))
    state = State(options=options, seed=seed, players=players, lord_knows_vampires=knows)
    state = evolve(state, players=_night_information(state), round=0)
    if options.timers.reveal > 0:
        return reveal.open_reveal(_start_round(state), now)
    return _run(_start_round(state), [], now)


def opening_events(state: State) -> list[Event]:
    """Round 1's log lines: the night information (R1.3), privately to each Vampire."""
    events = [
        public(
            state,
            EventKind.GAME_STARTED,
            f"The game begins with {len(state.players)} players.",
            players=len(state.players),
        )
    ]
    for p in state.players:
        if p.knowledge:
            names = ", ".join(
                f"{{learned.{i}.seat:seat}} is {ROLE_NAMES[k.role]}"
                for i, k in enumerate(p.knowledge)
            )
            learned = [{"seat": k.seat, "role": k.role} for k in p.knowledge]
            events.append(
                private(
                    state,
                    [p.seat],
                    EventKind.NIGHT,
                    f"In the night you learned: {names}.",
                    learned=learned,
                )
            )
    return events


def apply(state: State, action: Action, now: float = 0.0) -> tuple[State, list[Event]]:
    """Apply one player's action; raises IllegalAction (and changes nothing) if it is not legal."""
    if state.outcome is not None:
        raise IllegalAction("game_over", "The game is over.")
    if not 1 <= action.seat <= len(state.players):
        raise IllegalAction("bad_request", f"There is no seat {action.seat} at this table.")
    events: list[Event] = []
    name = action.name
    if name == PLACE_TOKEN:
        before = state
        state = mingling.place_token(state, action)
        events.append(mingling.placement_receipt(state, action))
        if state.hands[action.seat - 1] and mingling.may_run_out_of_targets(state):
            state = mingling.set_aside_unplaceable(state, events, [action.seat])
        if state.hands[action.seat - 1]:  # the mover still holds tokens: Mingling goes on
            carry_wait(before, state)
            return state, events
        return _after_mingling_move(before, state, events, now, action.seat)
    if name == INTERVENTION_VOTE:
        before = state
        state = mingling.intervention_vote(state, action)
        target = action.args["target"]
        events.append(
            private(
                state,
                [action.seat],
                EventKind.INTERVENTION_VOTE,
                "Your dial names {target:seat}.",
                target=target,
            )
        )
        # an optional voter (the Seer's Orb) may still be waited on for their tokens
        done = action.seat if action.seat in mingling.intervention_voters(before) else None
        return _after_mingling_move(before, state, events, now, done)
    if name == TIEBREAK_VOTE:
        before = state
        state, resolution = ties.cast(state, action, now, events)
        if resolution is not None:
            state = dining.settle(state, resolution, events, now)
        elif state.tie.decider is None:  # the vote goes on without the voter (R5.5)
            carry_wait(before, state, action.seat)
        return _run(state, events, now), events
    if name == CHOOSE_EXAMINER_ACTION:
        state = dining.choose_examiner(state, action, events)
        return _run(state, events, now), events
    if name == READY:
        state = reveal.ready(state, action, events)
        return _run(state, events, now), events
    module = hooks.owner_of(state, action)
    if module is None and name in ACTIONS:
        raise IllegalAction("wrong_phase", f"'{name}' is not something you can do now.")
    if module is None:
        raise IllegalAction("bad_request", f"There is no action called '{name}'.")
    state, more, paused = module.act(state, action, now)
    events.extend(more)
    return (state if paused else _run(state, events, now)), events


def timeout(state: State, now: float) -> tuple[State, list[Event]]:
    """Close the open window if its deadline has passed; otherwise change nothing.

    Mingling: unplaced tokens become Stakes against their owners (R3.4), silent Ghosts abstain
    (R7.5). A tie vote: absent voters abstain (R5.5). A mandatory choice: made at random.
    The role reveal: round 1 begins without those not ready yet.
    """
    if state.outcome is not None or state.deadline is None or now < state.deadline:
        return state, []
    events: list[Event] = []
    for module in hooks.using(state, "timeout"):
        result = module.timeout(state, now)
        if result is not None:
            state, more, paused = result
            events.extend(more)
            return (state if paused else _run(state, events, now)), events
    if state.phase == MINGLING:
        state = mingling.over(state, events, "time_up")
    elif state.phase == TIEBREAK:
        state, resolution = ties.resolve(state, now, events)
        if resolution is not None:
            state = dining.settle(state, resolution, events, now)
    elif state.phase == ROLE_REVEAL:
        state = reveal.time_up(state, events)
    elif state.phase == CHOOSE_EXAMINER:
        rng, state = draw_rng(state)
        target = rng.choice(dining.examiner_targets(state))
        state = dining.choose_examiner(state, None, events, target=target)
    return _run(state, events, now), events


def _after_mingling_move(before: State, state: State, events: list, now: float, done: int | None):
    """Mingling ends once it is done; until then, `done` (if not None) is no longer waited on
    (`view.carry_wait`)."""
    over = mingling.over_if_done(state, events)
    if over is None:
        if done is not None:
            carry_wait(before, state, done)
        return state, events
    return _run(over, events, now), events


def _run(state: State, events: list, now: float) -> State:
    while state.outcome is None:
        dining = state.dining
        if dining is not None and dining.settled < len(dining.deaths):
            state, paused = _aftermath(state, events, now)
        else:
            state, paused = _STEPS[state.step](state, events, now)
        if paused:
            break
    if state.outcome is not None and state.phase != FINISHED:  # ended at once by a module
        state = _finish(state, state.outcome, events)
    return state


def _modules_at(step: str, next_step: str):
    """A step that only gives the modules their turn, then moves on to `next_step`."""

    hook = f"at_step:{step}"

    def run(state: State, events: list, now: float):
        for module in hooks.using(state, hook):
            result = module.at_step(state, step, now)
            if result is None:
                continue
            state, more, paused = result
            events.extend(more)
            if paused or state.outcome is not None:
                return state, True
        return (evolve(state, step=next_step) if next_step else state), False

    return run


def _aftermath(state: State, events: list, now: float):
    """The next death in Dining not yet dealt with (`dining.dying`): the modules' turn on it (its
    Last Will, then the relics), then the next one (R13 amended: in the order they died)."""
    state, paused = _AFTER_DEATH(state, events, now)
    if paused:
        return state, True
    dining = state.dining
    return evolve(state, dining=evolve(dining, settled=dining.settled + 1)), False


_AFTER_DEATH = _modules_at("after_death", None)


def _deal(state: State, events: list, now: float):
    """Check for a win after a deferred death, count the living (R9), deal the tokens."""
    outcome = table.winner(state)  # a deferred death at the start of a round (R11 Bangle)
    if outcome is not None:
        return _finish(state, outcome, events), True
    three = len(state.living) == 3
    elected = state.last_dining.alpha_elected if state.last_dining else None
    alpha = elected if elected is not None and not three and state.player(elected).alive else None
    state = evolve(
        state, three_living=three, alpha=alpha, round_ghosts=len(state.ghosts), step="pre_mingling"
    )
    state = mingling.deal_hands(state)
    text = f"Round {state.round} begins."
    if alpha:
        text += " {alpha:Seat} is the Alpha Hunter."
    if three:
        text += (
            " Three players live: 1 Stake and 1 Feast each, no Alpha, no Ghostly Intervention (R9)."
        )
    events.append(public(state, EventKind.ROUND_STARTED, text, alpha=alpha, three_living=three))
    return state, False


def _open_mingling(state: State, events: list, now: float):
    """R7.2 amended: the round's Ghosts are those when Mingling opens, so a player killed in a
    relic window before it (Blood of the One) has a Ghost vote. Such a death may also leave a
    living player tokens with nowhere to go (R3.1): they are set aside as they run out of
    targets, as after a death during Mingling (`apply`, `mingling.set_aside_unplaceable`)."""
    state = evolve(
        state,
        phase=MINGLING,
        step="mingling",
        deadline=now + state.options.timers.mingling,
        round_ghosts=len(state.ghosts),
    )
    if mingling.mingling_done(state):
        return evolve(state, deadline=None, step="post_mingling"), False
    return state, True


def _waiting(state: State, events: list, now: float):
    return state, True


def _round_end(state: State, events: list, now: float):
    state, paused = _modules_at("round_end", "next_round")(state, events, now)
    if paused:
        return state, True
    state = evolve(state, dining=evolve(state.dining, complete=True))
    outcome = table.winner(state)
    if outcome is not None:
        return _finish(state, outcome, events), True
    return _start_round(state), False


def _start_round(state: State) -> State:
    return evolve(
        state,
        round=state.round + 1,
        last_dining=state.dining or state.last_dining,
        dining=None,
        tie=None,
        alpha=None,
        step="round_start",
        placements=(),
        intervention=(),
    )


def _finish(state: State, outcome, events: list) -> State:
    events.append(
        public(
            state,
            EventKind.GAME_OVER,
            f"The {outcome.winner.capitalize()} win. {outcome.reason}",
            winner=outcome.winner,
        )
    )
    if state.dining is not None and not state.dining.complete:
        state = evolve(state, dining=evolve(state.dining, complete=True))
    return evolve(state, outcome=outcome, phase=FINISHED, deadline=None, tie=None)


def _night_information(state: State) -> tuple[Player, ...]:
    """R1.3: Vampires learn the other Vampires and the Lord; the Lord only where R1.2 says so."""
    vampires = [p for p in state.players if p.role in (VAMPIRE, LORD)]
    players = list(state.players)
    for p in vampires:
        if p.role == LORD and not state.lord_knows_vampires:
            continue
        facts = tuple(
            Knowledge(seat=o.seat, source="night", round=1, role=o.role)
            for o in vampires
            if o.seat != p.seat
        )
        players[p.seat - 1] = evolve(p, knowledge=facts)
    return tuple(players)


def _fixed_deal(roles, seats: int) -> list[str]:
    """A staff-fixed deal must be a full deck of R1.2 for this table."""
    try:
        if set(roles) != set(range(1, seats + 1)):
            raise KeyError
        deck = [roles[s] for s in range(1, seats + 1)]
    except (KeyError, TypeError):
        raise IllegalAction(
            "bad_request", f"'roles' must give a role for every seat 1–{seats}."
        ) from None
    if any(r not in ROLES for r in deck) or sorted(deck) != sorted(table.role_deck(seats)):
        raise IllegalAction("bad_request", f"'roles' must be the R1.2 deck for {seats} players.")
    return deck


_STEPS = {
    "role_reveal": _waiting,  # before round 1 (reveal.py)
    "round_start": _modules_at("round_start", "deal"),
    "deal": _deal,
    "pre_mingling": _modules_at("pre_mingling", "open_mingling"),
    "open_mingling": _open_mingling,
    "mingling": _waiting,
    "post_mingling": _modules_at("post_mingling", "reveal"),
    "reveal": dining.reveal,
    "after_reveal": _modules_at("after_reveal", "intervention"),
    "intervention": dining.intervention,
    "after_intervention": _modules_at("after_intervention", "investigation"),
    "investigation": dining.investigation,
    "stakes": dining.stakes,
    "before_tie": _modules_at("before_tie", "open_tie"),
    "open_tie": ties.open_pending,
    "tie": _waiting,
    "choose_examiner": _waiting,
    "after_elimination": _modules_at("after_elimination", "election"),
    "election": dining.election,
    "round_end": _round_end,
}
