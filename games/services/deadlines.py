"""Moving a deadline (docs/slow-games.md "Moving a deadline"): the host extends, pauses
and resumes the open window's clock; any living player may ask the table, and a majority of
the living players at the table decides. The organisers' admin extends through `extend_in` too:
every moved deadline is written by `games.services.clock.deadline_set`.

- Extend: the deadline moves `minutes` later (out of quiet hours, games.domain.quiet_hours). Paused,
  the time kept for the resume grows instead.
- Pause: the window keeps the time it had left; no deadline, so neither its timer task nor the
  sweeper closes it (moves are still taken; a window that ends by the players' moves opens the
  next one paused too).
- Resume: the deadline is now plus the time kept (out of quiet hours).
- A vote: one open proposal per window ("extend by N minutes", "pause" or "resume"). Proposing
  it is a yes; it passes at once when more than half of the living seats played by people have
  said yes; it ends unused when its window ends. Bots and Ghosts do not vote.

Each moved deadline is one public log line, and the players who still owe a move get one
notification "The deadline moved to ..." (games.notify.services.deadline_moved), never another
"Your move".
"""

from __future__ import annotations

import dataclasses
import time

from games import engine
from games.domain import identity, quiet_hours
from games.domain.clock_stamps import clock_stamp
from games.domain.errors import GameError
from games.models import Game
from games.notify import services as reminders
from games.services.away import seat_event
from games.services.clock import deadline_set, paused
from games.services.lobby import seated
from games.services.unit import GameWrite, game_write, retried

MAX_EXTENSION_MINUTES = 7 * 24 * 60
PROPOSALS = ("extend", "pause", "resume")


def unit(n: int, word: str) -> str:
    """ "1 minute", "5 minutes": a count and its word, singular or plural."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def span(minutes: int) -> str:
    """ "1 minute", "90 minutes", "2 hours", "1 day": an extension in words."""
    if minutes % (24 * 60) == 0:
        return unit(minutes // (24 * 60), "day")
    if minutes % 60 == 0:
        return unit(minutes // 60, "hour")
    return unit(minutes, "minute")


def _event(game: Game, text: str, kind: str = "clock", **data) -> engine.Event:
    """A line of the table's clock; its seat, if any, as a placeholder the pages name."""
    return seat_event(kind, text, game.round, **{k: v for k, v in data.items() if v is not None})


def running(write: GameWrite) -> engine.State:
    """The state of the game `write` holds, or 409 wrong_phase when it is not running."""
    game = write.game
    if game.status != Game.Status.RUNNING or game.state is None:
        raise GameError("wrong_phase", "The game is not running.", 409)
    return write.state


def _timed(write: GameWrite, state: engine.State) -> None:
    if state.deadline is None and not paused(write.game):
        raise GameError("wrong_phase", "No timed window is open.", 409)


def _after(game: Game, state: engine.State) -> str:
    """What the log says the clock reads after a move: when the window closes, or paused."""
    if paused(game):
        left = span(max(round(game.clock["paused_left"] / 60), 1))
        return f"the game is paused with {left} left"
    return f"the deadline is now {quiet_hours.local_text(state.deadline, game.options)}"


# --- the moves, inside a caller's game_write ----------------------------------------------------


def extend_in(write: GameWrite, minutes: int, text: str, kind: str = "clock", **data):
    """Push the open window's deadline back by `minutes` (or, paused, the time kept)."""
    if not 1 <= minutes <= MAX_EXTENSION_MINUTES:
        raise GameError("bad_request", f"Extend by 1 to {MAX_EXTENSION_MINUTES} minutes.", 400)
    game, state = write.game, running(write)
    _timed(write, state)
    game.clock = {**game.clock, "moved_in": game.clock.get("window")}  # the pages show it moved
    if paused(game):
        game.clock = {**game.clock, "paused_left": game.clock["paused_left"] + minutes * 60}
        after = _after(game, state)
        write.change([_event(game, f"{text}; {after}.", kind, minutes=minutes, **data)])
        new = state
    else:
        deadline = quiet_hours.quiet_end(state.deadline + minutes * 60, game.options)
        after = _after(game, engine_with(state, deadline))
        event = _event(game, f"{text}; {after}.", kind, minutes=minutes, **data)
        new = deadline_set(write, state, deadline, [event])
    reminders.deadline_moved(game, new)
    return new


def pause_in(write: GameWrite, text: str, now: float, **data) -> engine.State:
    game, state = write.game, running(write)
    if paused(game):
        raise GameError("already_paused", "The game is already paused.", 409)
    _timed(write, state)
    game.clock = {
        **game.clock,
        "paused_left": max(state.deadline - now, 0),
        "paused_in": game.clock.get("window"),
    }
    event = _event(game, f"{text}: no window closes until it is resumed.", **data)
    new = deadline_set(write, state, None, [event])
    reminders.deadline_moved(game, new)
    return new


def resume_in(write: GameWrite, text: str, now: float, **data) -> engine.State:
    game, state = write.game, running(write)
    if not paused(game):
        raise GameError("not_paused", "The game is not paused.", 409)
    clock = dict(game.clock)
    left, paused_in = clock.pop("paused_left"), clock.pop("paused_in", None)
    game.clock = clock
    if paused_in != clock.get("window"):  # the paused window ended; the game waits untimed now
        write.change([_event(game, f"{text}.", **data)])
        return state
    deadline = quiet_hours.quiet_end(now + left, game.options)
    after = _after(game, engine_with(state, deadline))
    new = deadline_set(write, state, deadline, [_event(game, f"{text}; {after}.", **data)])
    reminders.deadline_moved(game, new)
    return new


def engine_with(state: engine.State, deadline: float) -> engine.State:
    """`state` with `deadline`: for the log line's words only (the writer is deadline_set)."""
    return dataclasses.replace(state, deadline=deadline)


# --- the host -----------------------------------------------------------------------------------


def _host(game: Game, user) -> None:
    if not identity.is_host(game, user):
        raise GameError("forbidden", "Only the host can move the deadline; ask the table.", 403)


def check_clock_stamp(game: Game, seen: str | None) -> None:
    """Refuse (409 stale, nothing done) a clock action made on a view whose clock has moved
    since (games.domain.clock_stamps): a second tap, or a retry, of an extension that was
    applied or a vote that passed. `seen` None: the caller checks nothing (the admin's own
    stamp, the services' own callers)."""
    if seen is None or seen == clock_stamp(game):
        return
    raise GameError(
        "stale",
        "The clock moved since you looked (an extension, a vote that passed, a pause or a new "
        "window). Nothing was done: look again.",
        409,
    )


@retried
def clock_extend(*, code: str, user, minutes: int, stamp: str | None = None) -> Game:
    """The host extends the open window by `minutes`; with the `stamp` of the view they acted
    on, a repeat after the clock moved is refused (409 stale)."""
    with game_write(code) as write:
        _host(write.game, user)
        check_clock_stamp(write.game, stamp)
        extend_in(write, minutes, f"The host extended the deadline by {span(minutes)}")
    return write.game


@retried
def clock_pause(*, code: str, user, now: float | None = None) -> Game:
    now = time.time() if now is None else now
    with game_write(code) as write:
        _host(write.game, user)
        pause_in(write, "The host paused the game", now)
    return write.game


@retried
def clock_resume(*, code: str, user, now: float | None = None) -> Game:
    now = time.time() if now is None else now
    with game_write(code) as write:
        _host(write.game, user)
        resume_in(write, "The host resumed the game", now)
    return write.game


# --- the table's vote ---------------------------------------------------------------------------


def electorate(game: Game, state: engine.State) -> list[int]:
    """Who votes on the clock: the living seats played by people (not on vacation)."""
    people = game.players.filter(is_bot=False, user__isnull=False, vacation_on=False)
    people = people.values_list("seat", flat=True)
    return sorted(s for s in people if state.player(s).alive)


def needed(voters: list[int]) -> int:
    """More than half of the voters."""
    return len(voters) // 2 + 1


def _proposal_text(proposal: str, minutes: int | None) -> str:
    if proposal == "extend":
        return f"extend the deadline by {span(minutes)}"
    return f"{proposal} the game"


def _check_proposal(write: GameWrite, state: engine.State, proposal: str, minutes) -> None:
    if proposal not in PROPOSALS:
        raise GameError("bad_request", f"Propose one of {', '.join(PROPOSALS)}.", 400)
    if proposal == "extend":
        if not isinstance(minutes, int) or not 1 <= minutes <= MAX_EXTENSION_MINUTES:
            raise GameError("bad_request", f"Extend by 1 to {MAX_EXTENSION_MINUTES} minutes.", 400)
        _timed(write, state)
    elif minutes is not None:
        raise GameError("bad_request", "Only an extension takes minutes.", 400)
    elif proposal == "pause":
        if paused(write.game):
            raise GameError("already_paused", "The game is already paused.", 409)
        _timed(write, state)
    elif not paused(write.game):
        raise GameError("not_paused", "The game is not paused.", 409)


@retried
def clock_vote(
    *,
    code: str,
    user,
    proposal: str,
    minutes: int | None = None,
    now: float | None = None,
    stamp: str | None = None,
) -> Game:
    """A living player proposes `proposal` to the table, or says yes to the same open proposal.
    It passes when more than half of the living people at the table said yes (`needed`). With
    the `stamp` of the view they voted on, a vote made before the clock moved (the same
    proposal again once it passed) is refused (409 stale) instead of opening a new one."""
    now = time.time() if now is None else now
    with game_write(code) as write:
        game = write.game
        me = seated(game, user)
        state = running(write)
        voters = electorate(game, state)
        if me.seat not in voters:
            raise GameError("forbidden", "Only the living players vote on the clock.", 403)
        check_clock_stamp(game, stamp)
        _check_proposal(write, state, proposal, minutes)
        vote = dict(game.clock.get("vote") or {})
        if vote and (vote["proposal"], vote.get("minutes")) != (proposal, minutes):
            open_text = _proposal_text(vote["proposal"], vote.get("minutes"))
            raise GameError(
                "vote_open",
                f"The table is already voting to {open_text}: agree to that, or wait until "
                "this window ends.",
                409,
            )
        if me.seat in vote.get("yes", []):
            return game  # said already: nothing changes
        what = _proposal_text(proposal, minutes)
        yes = [*vote.get("yes", []), me.seat]
        count = len([s for s in yes if s in voters])
        need = needed(voters)
        if count < need:
            game.clock = {
                **game.clock,
                "vote": {"proposal": proposal, "minutes": minutes, "by": yes[0], "yes": yes},
            }
            asks = "asks the table to" if len(yes) == 1 else "agrees to"
            text = f"{{seat:Seat}} {asks} {what} ({count} of {need} needed)."
            write.change([_event(game, text, seat=me.seat, proposal=proposal, minutes=minutes)])
            return game
        game.clock = {k: v for k, v in game.clock.items() if k != "vote"}
        agreed = f"The table agreed ({count} of {len(voters)}) to {what}"
        data = {"seat": me.seat, "proposal": proposal}
        if proposal == "extend":
            extend_in(write, minutes, agreed, **data)
        elif proposal == "pause":
            pause_in(write, agreed, now, **data)
        else:
            resume_in(write, agreed, now, **data)
    return game
