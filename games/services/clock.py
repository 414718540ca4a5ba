"""The table's clock (docs/slow-games.md "Moving a deadline"): the one writer of a
moved deadline, and what a live writer does when a window opens.

- `deadline_set` moves the open window's deadline in the state (and `Game.deadline`, the
  projection the sweeper reads) as a "deadline" step of the replay log. It is the only place
  outside the engine that touches `State.deadline` (the organisers' admin, the host and the
  table's votes all go through it). The stored deadline is the authority: an ETA task queued for
  an older version finds another version and does nothing (games.services.play.game_expire), and
  the sweeper reads the new `Game.deadline`.
- `track` (called by `GameWrite.advance` before it saves) keeps in `Game.clock["window"]` the
  reminders' key of the open window as it opened, so that a moved deadline is still the same
  window: "Your move" is not sent again (it was, once: one duplicate e-mail per extension), and an
  open vote on the clock ends with its window.
- `settle` (called by `GameWrite.advance` after an engine step of a live game) applies the
  table's clock to a window the engine just opened: Mingling at a fixed local hour, no deadline
  within quiet hours (games.domain.quiet_hours), and no deadline at all while the game is paused
  (the window keeps its whole time for the resume).

Nothing here decides a rule of the game; the engine opened the window and closes it.
"""

from __future__ import annotations

import dataclasses
import time

from games import engine
from games.domain import quiet_hours
from games.engine.vocabulary import Phase
from games.notify.services import window_key


def deadline_set(write, state: engine.State, deadline: float | None, events: list):
    """Move the open window's deadline to `deadline` (None: no timer, as while paused) as one new
    version, inside the caller's `game_write` (`write`). The step goes into the replay log,
    since the timeouts that follow depend on it."""
    game = write.game
    if not (game.clock or {}).get("window"):  # a window opened before the clock: key it now
        game.clock = {**(game.clock or {}), "window": window_key(state)}
    new = dataclasses.replace(state, deadline=deadline)
    step = ("deadline", None, {"deadline": deadline}, time.time())
    write.advance(state, new, events, step=step)
    return new


def _window(state: engine.State | None):
    if state is None:
        return None
    return (state.round, state.phase, state.deadline)


def opened(old: engine.State | None, new: engine.State) -> bool:
    """Whether an engine step from `old` to `new` opened another window (or closed one)."""
    return _window(old) != _window(new)


def track(game, old: engine.State | None, new: engine.State, step: tuple | None) -> None:
    """Before an engine step is saved: a new window gets its reminders' key, and any open vote
    on the clock or pause left over from the old window is forgotten (a pause is then carried
    over by `settle`). A "deadline" step keeps everything: it is the same window."""
    if step is not None and step[0] == "deadline":
        return
    if not opened(old, new):
        return
    clock = dict(game.clock or {})
    clock["window"] = window_key(new)
    clock.pop("vote", None)
    game.clock = clock


def policy(options: dict, phase: str, opened_at: float, deadline: float) -> float:
    """The deadline the table's clock gives a window the engine opened at `opened_at` with
    `deadline`: Mingling at the fixed local hour (when set), then out of quiet hours."""
    if phase == Phase.MINGLING:
        timers = options.get("timers") or {}
        fixed = quiet_hours.fixed_hour(opened_at, options, timers.get("mingling", 0) / 2)
        if fixed is not None:
            deadline = fixed
    return quiet_hours.quiet_end(deadline, options)


def settle(write, old: engine.State | None, new: engine.State, step: tuple | None) -> None:
    """After an engine step of a live game: the window it opened follows the table's clock."""
    if step is None or step[0] == "deadline" or new.outcome is not None:
        return
    if new.deadline is None or not opened(old, new):
        return
    game = write.game
    now = step[3]
    deadline = policy(game.options, new.phase, now, new.deadline)
    if "paused_left" in (game.clock or {}):  # paused: this window waits for the resume too
        left = max(deadline - now, 0)
        game.clock = {**game.clock, "paused_left": left, "paused_in": game.clock.get("window")}
        deadline_set(write, new, None, [])
    elif deadline != new.deadline:
        deadline_set(write, new, deadline, [])


def paused(game) -> bool:
    return "paused_left" in (game.clock or {})
