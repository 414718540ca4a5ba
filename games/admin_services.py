"""What organisers do to running games from the admin (issue 7), through the service layer.

Like `games.services` (the only writer, whose internals these functions use), each one:

1. locks the game row (`select_for_update`; the conditional update on `version` guards SQLite),
2. changes the state only through the engine, or, for the deadline, through `deadline_set`,
   the one place outside the engine that moves `State.deadline`,
3. saves state + version + a public event + the replay step in the same transaction,
4. on commit: reschedules the deadline and bumps the poll key (`services._after_commit`).

No rule lives here; nothing here returns or logs a secret.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from datetime import UTC, datetime

from django.db import transaction

from games import engine, identity, names, services
from games.engine import state_from_json
from games.models import Game, Player
from games.services import GameError, retried

log = logging.getLogger("games")

MAX_EXTENSION_MINUTES = 7 * 24 * 60


def _admin_event(game: Game, text: str, **data) -> engine.Event:
    return engine.Event("admin", text, game.round, data=data)


def _running(code: str) -> tuple[Game, engine.State]:
    game = services._locked(code)
    if game.status != Game.Status.RUNNING or game.state is None:
        raise GameError("wrong_phase", "The game is not running.", 409)
    return game, state_from_json(game.state)


def deadline_set(game: Game, state: engine.State, deadline: float | None, events: list):
    """Move the open window's deadline in the state and in `Game.deadline` (`_save` projects
    it), as one new version, inside the caller's transaction with the row locked. The only place
    outside the engine that touches `State.deadline`; the step goes into the replay log, since
    the timeouts that follow depend on it."""
    new = dataclasses.replace(state, deadline=deadline)
    step = ("deadline", None, {"deadline": deadline}, time.time())
    services._save(game, state, new, events, step=step)
    return new


@retried
def deadline_extend(*, code: str, minutes: int, by: str) -> Game:
    """Push the open window's deadline back by `minutes` (the old ETA task then finds a stale
    version and does nothing; the new deadline is scheduled on commit)."""
    if not 1 <= minutes <= MAX_EXTENSION_MINUTES:
        raise GameError("bad_request", f"Extend by 1 to {MAX_EXTENSION_MINUTES} minutes.", 400)
    with transaction.atomic():
        game, state = _running(code)
        if state.deadline is None:
            raise GameError("wrong_phase", "No timed window is open.", 409)
        deadline = state.deadline + minutes * 60
        text = f"An organiser extended the {game.phase} deadline by {minutes} minutes."
        deadline_set(game, state, deadline, [_admin_event(game, text, minutes=minutes)])
    _log_admin("deadline extended", game, by, minutes=minutes)
    return game


@retried
def window_expire(*, code: str, by: str, now: float | None = None) -> Game:
    """Close the open window now, as its timer would have: `engine.timeout` at the deadline.

    A deadline still ahead is first brought forward to `now` (a "deadline" step), so that the
    timeout runs at the deadline and the next window opens from now, not from the old deadline.
    A deadline already past (a stuck game) times out at `now`, as the sweeper would.
    """
    now = time.time() if now is None else now
    with transaction.atomic():
        game, state = _running(code)
        if state.deadline is None:
            raise GameError("wrong_phase", "No timed window is open.", 409)
        text = f"An organiser closed the {game.phase} window early."
        events = [_admin_event(game, text)]
        if state.deadline > now:
            state = deadline_set(game, state, now, events)
            events = []
        new, more = engine.timeout(state, now)
        services._save(game, state, new, events + more, step=("timeout", None, {}, now))
    _log_admin("window expired", game, by)
    return game


@retried
def game_abandon(*, code: str, by: str) -> Game:
    """End a lobby or running game as abandoned: no winner, no open window, no more timers."""
    with transaction.atomic():
        game = services._locked(code)
        if game.status not in (Game.Status.LOBBY, Game.Status.RUNNING):
            raise GameError("wrong_phase", "The game is already over.", 409)
        game.status = Game.Status.ABANDONED
        events = [_admin_event(game, "An organiser ended this game as abandoned.")]
        if game.state is None:
            game.deadline = None
            services._touch(game, events)
        else:
            state = state_from_json(game.state)
            deadline_set(game, state, None, events)
    _log_admin("game abandoned", game, by)
    return game


@retried
def seat_replace(*, code: str, seat: int, user, by: str, name: str = "") -> Game:
    """Give a seat to another user, or to a bot when `user` is None (a player who dropped out);
    the role stays with the seat."""
    with transaction.atomic():
        game = services._locked(code)
        if game.status not in (Game.Status.LOBBY, Game.Status.RUNNING):
            raise GameError("wrong_phase", "The game is already over.", 409)
        player = game.players.filter(seat=seat).first()
        if player is None:
            raise GameError("not_found", f"There is no seat {seat}.", 404)
        elsewhere = identity.player_of(game, user)
        if elsewhere is not None and elsewhere.seat != seat:
            raise GameError("conflict", f"{user} already has a seat at this table.", 409)
        hosts_seat = identity.is_hosts_seat(player, game)
        if user is None and hosts_seat:
            raise GameError("conflict", "The host's seat goes to a person, not a bot.", 409)
        player.user = user
        player.is_bot = user is None
        if name:
            player.name = services.player_name(name)
            services.name_free(game, player.name, seat=seat)
        elif user is None:
            others = game.players.exclude(seat=seat).values_list("name", flat=True)
            player.name = names.bot_name(others, seat)
        player.missed_windows, player.claim_token = 0, None  # a new player: no streak, no link
        player.save(update_fields=["user", "is_bot", "name", "missed_windows", "claim_token"])
        if hosts_seat:
            game.host_id = user.pk
        text = f"Seat {seat} is now played by {names.quoted(player.name)}."
        services._touch(game, [_admin_event(game, text, seat=seat, name=player.name)])
    _log_admin("seat replaced", game, by, seat=seat)
    if user is None and game.status == Game.Status.RUNNING:  # the bot takes over at once
        services.nudge_bots(game.id, [seat])
    return game


def _log_admin(message: str, game: Game, by: str, **fields) -> None:
    log.info(
        message,
        extra={"game": game.code, "round": game.round, "version": game.version, "by": by, **fields},
    )


def deadline_of(game: Game) -> datetime | None:
    """The open window's deadline, from the state (the truth) rather than the projection."""
    if not game.state or game.state.get("deadline") is None:
        return None
    return datetime.fromtimestamp(game.state["deadline"], UTC)


def seated(game: Game) -> list[Player]:
    return list(game.players.select_related("user").order_by("seat"))
