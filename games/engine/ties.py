"""Ties (R5, R7.4): the dial vote among the tied players and who settles a second tie."""

from __future__ import annotations

from dataclasses import dataclass

from . import hooks
from .common import int_arg, private, public, seat_list
from .errors import IllegalAction
from .state import TIEBREAK, Action, State, Tie, TieResult, Vote, evolve
from .vocabulary import EventKind, TieKind

KIND_WORDS = {
    TieKind.ELIMINATION: "elimination",
    TieKind.ELECTION: "Alpha Hunter",
    TieKind.EXAMINATION: "the most Stakes",
    TieKind.INTERVENTION: "Ghostly Intervention",
}


@dataclass(frozen=True)
class Resolution:
    """A settled tie: what it was about, who won (None: no result) and how, for the log."""

    kind: str
    winner: int | None
    record: TieResult


def open_tie(state: State, kind: str, tied: tuple[int, ...], now: float, events: list) -> State:
    """Open the tie-break window for `tied`: a module's decider, else Ghosts, else the living."""
    decider = module_decider(state, kind, tied)
    if decider is not None:
        seat, by = decider
        tie = Tie(kind, tied, (seat,), False, decider=seat, decided_by=by)
        how = f"{{decider:seat}} decides ({by.replace('_', ' ')})"
    elif state.ghosts:
        tie = Tie(kind, tied, state.ghosts, True)
        how = "the Ghosts vote (R5.2)"
    else:
        tie = Tie(kind, tied, state.living, False)
        how = "every living player votes (R5.3)"
    events.append(
        public(
            state,
            EventKind.TIE,
            f"{{candidates:Seats}} are tied for {KIND_WORDS[kind]}: {how}.",
            kind=kind,
            candidates=list(tied),
            voters=list(tie.voters),
            decider=tie.decider,
            **({"decided_by": tie.decided_by} if tie.decider is not None else {}),
        )
    )
    return _open(state, tie, now)


def pending_tie(state: State, kind: str, tied: tuple[int, ...]) -> State:
    """A tie for the most Stakes or Feasts has arisen: modules act first (`before_tie`, e.g. the
    Scales of Justice), then its vote opens (`open_pending`). Kept in `state.tie`, not yet open."""
    return evolve(state, tie=Tie(kind, tuple(tied), (), False), step="before_tie")


def open_pending(state: State, events: list, now: float):
    """The flow step that opens the vote of the tie `pending_tie` kept."""
    tie = state.tie
    return open_tie(state, tie.kind, tie.candidates, now, events), True


def open_decider(
    state: State, kind: str, tied, votes, seat: int, by: str, now: float, events
) -> State:
    """One player alone settles a tie still standing (R5.2, R7.4; or a relic's holder)."""
    tie = Tie(kind, tuple(tied), (seat,), False, votes=tuple(votes), decider=seat, decided_by=by)
    events.append(
        public(
            state,
            EventKind.TIE,
            f"{{candidates:Seats}} are still tied for {KIND_WORDS[kind]}: "
            "{decider:seat} decides.",
            kind=kind,
            candidates=list(tied),
            voters=[seat],
            decider=seat,
            decided_by=by,
        )
    )
    return _open(state, tie, now)


def _open(state: State, tie: Tie, now: float) -> State:
    return evolve(
        state, tie=tie, phase=TIEBREAK, deadline=now + state.options.timers.tiebreak, step="tie"
    )


def module_decider(state: State, kind: str, tied) -> tuple[int, str] | None:
    for module in hooks.using(state, "decide_tie"):
        seat = module.decide_tie(state, kind, tuple(tied))
        if seat is not None:
            return seat, module.name
    return None


def cast(state: State, action: Action, now: float, events: list) -> tuple[State, Resolution | None]:
    """Record one tie-break vote; settle the tie once every voter has voted (R5.5)."""
    tie = state.tie
    if state.phase != TIEBREAK or tie is None:
        raise IllegalAction("wrong_phase", "There is no tie to vote on now.")
    seat = action.seat
    target = int_arg(action, "target")
    if seat not in tie.voters:
        raise IllegalAction(
            "wrong_phase", f"You are not one of the voters in this tie ({_who(tie)})."
        )
    if tie.decider is None and seat in [v.voter for v in tie.votes]:
        raise IllegalAction("wrong_phase", "You have already voted in this tie.")
    if target not in tie.candidates:
        raise IllegalAction(
            "illegal_target",
            "Votes may only name the tied players: {candidates:seats} (R5.1).",
            candidates=list(tie.candidates),
        )
    events.append(
        private(state, [seat], EventKind.TIE_VOTE, "You voted for {target:seat}.", target=target)
    )
    if tie.decider is not None:
        return settled(state, tie, target, tie.decided_by, events)
    tie = evolve(tie, votes=tie.votes + (Vote(seat, target),))
    state = evolve(state, tie=tie)
    if len(tie.votes) < len(tie.voters):
        return state, None
    return resolve(state, now, events)


def resolve(state: State, now: float, events: list) -> tuple[State, Resolution | None]:
    """Count the dials (absent voters abstain, R5.5). None: a decider's window has opened.

    A decider who lets the time run out (the latest Ghost, R5.2 and R7.4, or a module's, the
    Seer's Orb) settles nothing: as in R5.3, no elimination, election, examination or
    Protection comes of that tie this round (R5.2 amended: no random pick)."""
    tie = state.tie
    if tie.decider is not None:  # R5.2 amended: a silent decider settles nothing, no random pick
        return settled(state, tie, None, "no_result", events)
    counts = dict.fromkeys(tie.candidates, 0)
    for v in tie.votes:
        counts[v.target] += vote_weight(state, v.voter)
    top = max(counts.values())
    leaders = tuple(c for c in tie.candidates if counts[c] == top)
    if len(leaders) == 1:
        return settled(state, tie, leaders[0], "vote", events)
    if not tie.by_ghosts:
        return settled(state, tie, None, "no_result", events)  # R5.3
    return latest_ghost_decides(state, tie.kind, leaders, tie.votes, now, events)


def latest_ghost_decides(
    state, kind, leaders, votes, now, events
) -> tuple[State, Resolution | None]:
    """R5.2/R7.4: the most recent Ghost's dial settles it if it names a leader; else they choose."""
    latest = state.ghosts[-1]
    theirs = next((v.target for v in votes if v.voter == latest), None)
    tie = Tie(kind, tuple(leaders), (latest,), True, votes=tuple(votes), decider=latest)
    if theirs in leaders:
        return settled(state, tie, theirs, "latest_ghost", events)
    return open_decider(state, kind, leaders, votes, latest, "latest_ghost", now, events), None


def vote_weight(state: State, voter: int) -> int:
    weight = 1
    for module in hooks.using(state, "vote_weight"):
        weight *= module.vote_weight(state, voter)
    return weight


def settled(state, tie: Tie, winner, how: str, events) -> tuple[State, Resolution]:
    record = TieResult(tie.kind, tie.candidates, tie.votes, winner, how)
    votes = (
        ", ".join(
            f"{{votes.{i}.voter:seat}} → {{votes.{i}.target:seat}}" for i in range(len(tie.votes))
        )
        or "no votes"
    )
    result = "{winner:seat}" if winner is not None else "no result (R5.3)"
    events.append(
        public(
            state,
            EventKind.TIE_SETTLED,
            f"Tie for {KIND_WORDS[tie.kind]} settled ({how.replace('_', ' ')}): {result}. "
            f"Dials: {votes}.",
            kind=tie.kind,
            candidates=list(tie.candidates),  # a tie the latest Ghost's dial settled had no line
            winner=winner,
            votes=[{"voter": v.voter, "target": v.target} for v in tie.votes],
            decided_by=how,
        )
    )
    state = evolve(state, tie=None, deadline=None)
    return state, Resolution(tie.kind, winner, record)


def _who(tie: Tie) -> str:
    return "the tied players' decider" if tie.decider else f"voters: {seat_list(tie.voters)}"
