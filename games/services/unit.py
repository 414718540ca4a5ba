"""The unit of work every writer of a game goes through: lock the row, read, change, save.

    with game_write(code) as write:          # a transaction, the game row locked
        state = write.state                  # the engine state, read once
        new, events = engine.apply(state, action, now=now)
        write.advance(new, events, step=(name, seat, args, now))  # state + version + events

`advance` saves a step of the engine, `change` a change outside it (lobby, seats, organisers):
each is one new version, so every poll sees it, and each runs the effects of
`games.services.effects.EFFECTS` (the projections now, the poll key, timers, bots and reminders
once the transaction commits). Leaving the block commits; an exception rolls everything back.

A version is bumped with a conditional update (`Conflict` when another writer won it: SQLite
has no row locks), which `retried` turns into another attempt, or 409 stale after five.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cached_property

from django.db import transaction

from games import engine
from games.domain.errors import GameError
from games.engine import state_from_json, to_json
from games.models import Action as Step
from games.models import Event, Game
from games.services import clock
from games.services.effects import Change, run_effects


class Conflict(Exception):
    """Another writer changed the game between our read and our write (SQLite); retried."""


def retried(func):
    """Run a writer again when it lost a race on the version (it changed nothing then)."""

    @functools.wraps(func)
    def run(*args, **kwargs):
        for attempt in range(5):
            try:
                return func(*args, **kwargs)
            except Conflict:
                time.sleep(0.01 * (attempt + 1))
        raise GameError("stale", "The game is busy; try again.", 409)

    return run


@contextmanager
def game_write(code: str | None = None, *, game_id: int | None = None) -> Iterator[GameWrite]:
    """A transaction holding the game row (by `code`, or by `game_id` for tasks); 404 not_found
    when there is no such game."""
    with transaction.atomic():
        key = {"code": code} if game_id is None else {"id": game_id}
        game = Game.objects.select_for_update().filter(**key).first()
        if game is None:
            which = f"the code {code!r}" if game_id is None else f"the id {game_id}"
            raise GameError("not_found", f"No game has {which}.", 404)
        yield GameWrite(game)


class GameWrite:
    """What a writer holds inside `game_write` (or on a game it just created, in its own
    transaction): the game, its state, and the two ways to save a change.

    `live`: a window the engine opens follows the table's clock (games.services.clock: quiet
    hours, a fixed hour, a pause). A replay passes False: its log already holds those steps."""

    def __init__(self, game: Game, *, live: bool = True):
        self.game = game
        self.live = live

    @cached_property
    def state(self) -> engine.State:
        """The state as the row holds it (a running or finished game only)."""
        return state_from_json(self.game.state)

    def advance(
        self, old: engine.State | None, new: engine.State, events: list, *, step=None
    ) -> None:
        """Save the engine's step from `old` to `new` with its projections and events.

        `step` is the engine call that made `new`: (name, seat, args, now). It is kept in the
        replay log (`games.models.Action`), since a game replays exactly only from its
        seed and every step with the `now` it ran at (timeouts and random choices depend on
        it)."""
        game = self.game
        expected = game.version
        game.state = to_json(new)
        game.phase = new.phase
        game.round = new.round
        deadline = new.deadline
        game.deadline = datetime.fromtimestamp(deadline, UTC) if deadline is not None else None
        if new.outcome is not None:
            game.status = Game.Status.FINISHED
        clock.track(game, old, new, step)
        self.log(events)
        self._bump(expected)
        if step is not None:
            name, seat, args, now = step
            Step.objects.create(
                game=game, seq=game.version, seat=seat, name=name, args=args, at=now
            )
        self.__dict__["state"] = new
        run_effects(Change(game, old, new))
        if self.live:
            clock.settle(self, old, new, step)

    def change(self, events: list) -> None:
        """Save a change made outside the engine (the `Game` fields and rows the caller changed:
        a seat, the host, the status) as a new version with `events`, so every poll sees it."""
        self.log(events)
        self._bump(self.game.version)
        run_effects(Change(self.game, None, None))

    def opened(self, events: list) -> None:
        """A game just created: its first events, at version 0; the effects announce it."""
        self.log(events)
        self.game.save()
        run_effects(Change(self.game, None, None))

    def log(self, events: list) -> None:
        """Append `events` to the game's log, numbered after the last (no new version)."""
        game, rows = self.game, []
        for e in events:
            game.last_seq += 1
            audience = list(e.audience) if e.audience is not None else None
            rows.append(
                Event(
                    game=game,
                    seq=game.last_seq,
                    round=e.round,
                    kind=e.kind,
                    text=e.text,
                    template=e.template,
                    data=e.data,
                    audience=audience,
                )
            )
        Event.objects.bulk_create(rows)

    def _bump(self, expected: int) -> None:
        """Bump the version with a conditional update: exactly one writer wins each version."""
        game = self.game
        game.version = expected + 1
        fields = [
            "state",
            "status",
            "phase",
            "round",
            "deadline",
            "clock",
            "last_seq",
            "host_id",
            "version",
        ]
        changed = Game.objects.filter(id=game.id, version=expected).update(
            **{f: getattr(game, f) for f in fields}, updated_at=datetime.now(UTC)
        )
        if changed != 1:
            raise Conflict()
