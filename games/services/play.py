"""Play: a player's action, a bot's move, a window closed by its timer (and the sweeper under
the timers). The rules are the engine's; this asks it and saves what it answers."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db.models import Q
from django.utils import timezone

from games import engine
from games.bots.moves import bot_move
from games.domain.errors import GameError
from games.domain.offer_tokens import offer_token
from games.engine import Action, IllegalAction
from games.models import Action as Step
from games.models import Game
from games.services import vacation
from games.services.away import came_back, windows_missed
from games.services.lobby import seated
from games.services.unit import Conflict, GameWrite, game_write, retried

log = logging.getLogger("games")


def bot_act(*, game_id: int, seat: int) -> bool:
    """One move for the bot at `seat`, if it has one to make now (run by a Celery task).

    The bot decides from its own seat's `engine.view` alone, with the strategy the game's
    `bot_strategy` option names ("sensible" by default, or "random")."""
    try:
        with game_write(game_id=game_id) as write:
            game = write.game
            if game.status != Game.Status.RUNNING:
                return False
            if vacation.has_due(game, timezone.now()):  # a vacation ends (or begins) first
                begun_or_ended = vacation.due_in(write, timezone.now())
                if begun_or_ended:  # its own commit nudges the bots again
                    write.change(begun_or_ended)
                    return False
            held = Q(is_bot=True) | Q(vacation_on=True)  # a seat on vacation: a bot holds it
            if not game.players.filter(held, seat=seat).exists():
                return False
            state = write.state
            if state.deadline is not None and time.time() >= state.deadline:
                close_window(write, state, time.time())  # too late to move: the window closes
                return False
            rng = random.Random(f"{game.seed}:bot:{seat}:{game.version}")
            strategy = game.options.get("bot_strategy", "sensible")
            action = bot_move(rng, seat, engine.view(state, seat), strategy)
            if action is None:
                return False
            now = time.time()
            try:
                new, events = engine.apply(state, action, now=now)
            except IllegalAction:
                return False  # options are a superset for some moves; the next nudge tries again
            write.advance(state, new, events, step=(action.name, seat, action.args, now))
    except GameError:  # the game is gone
        return False
    return True


def action_apply(
    *,
    code: str,
    user,
    name: str,
    args: dict,
    expected_version: int | None = None,
    expected_offer: str | None = None,
) -> Game:
    """Apply one player's action. Raises GameError or IllegalAction, changing nothing.

    `expected_version` (the whole game's) or `expected_offer` (this seat's offer,
    games/domain/offer_tokens.py): the move is made only if it is still that, else `409 stale`.
    Other seats' moves change the version but not this seat's offer.

    The deadline is the authority: a move that arrives once its window's deadline has
    passed is refused (`409 window_closed`), whether or not a timer has closed the window yet. If
    none has, this closes it first, with the same expiry the timers run, under the same lock."""
    arrived = time.time()  # before the lock: a move is judged by when it came, not by its wait
    done = _apply(code, user, name, args, (expected_version, expected_offer), arrived)
    if isinstance(done, Closed):
        raise window_closed(done.at)  # after the commit: the window's expiry is kept
    return done


@dataclass(frozen=True)
class Closed:
    """A move came after its window closed, at `at` (epoch seconds)."""

    at: float


@retried
def _apply(
    code: str, user, name: str, args: dict, expected: tuple[int | None, str | None], arrived: float
) -> Game | Closed:
    """The move, or `Closed` when it came too late for its window."""
    with game_write(code) as write:
        game = write.game
        me = seated(game, user)  # first: the rest would tell a stranger the version and status
        running = game.status == Game.Status.RUNNING
        state = write.state if running else None
        if state is not None and state.deadline is not None and arrived >= state.deadline:
            # Too late for this window, and no timer has closed it yet: close it now (the
            # expiry is committed with this transaction), then refuse the move.
            close_window(write, state, time.time())
            return Closed(float(state.deadline))
        expected_version, expected_offer = expected
        if expected_version is not None and expected_version != game.version:
            raise GameError(
                "stale", f"The game is at version {game.version}, not {expected_version}.", 409
            )
        if game.status == Game.Status.LOBBY:
            raise GameError("wrong_phase", "The game has not started yet.", 409)
        if not running:
            raise IllegalAction("game_over", "The game is over.")
        closed_at = _closed_since(game, arrived)
        if closed_at is not None:  # a timer closed the window while this move waited its turn
            return Closed(closed_at)
        seat = me.seat
        if expected_offer is not None and expected_offer != offer_token(game.code, state, seat):
            raise GameError(
                "stale", "What you may do has changed since that offer: read your view again.", 409
            )
        now = time.time()
        new, events = engine.apply(state, Action(name, seat, args), now=now)
        events = came_back(me, state, name, new.round, now) + events  # a seen move ends a streak
        events = vacation.ends_with_move(write, me, timezone.now()) + events  # back from vacation
        write.advance(state, new, events, step=(name, seat, args, now))
    log.info(
        "action %s",
        name,
        extra={"game": code, "round": new.round, "version": game.version, "seat": seat},
    )
    return game


def window_closed(at: float) -> GameError:
    """The refusal of a move that came after its window's deadline."""
    moment = datetime.fromtimestamp(at, UTC)
    return GameError("window_closed", f"This window closed at {moment:%Y-%m-%d %H:%M:%S} UTC.", 409)


def _closed_since(game: Game, arrived: float) -> float | None:
    """When a timer closed a window of `game` between `arrived` and now (the move was meant for
    that window: it waited on the lock while the expiry ran), or None. One look at the replay
    log's timeouts of this game."""
    return (
        Step.objects.filter(game=game, name="timeout", at__gt=arrived, at__lte=time.time())
        .order_by("seq")
        .values_list("at", flat=True)
        .first()
    )


def close_window(
    write: GameWrite, state: engine.State, now: float, *, before: Sequence[engine.Event] = ()
) -> bool:
    """The expiry itself, inside a writer's lock: close the open window of `state` if its deadline
    has passed at `now` (engine.timeout), counting the seats that missed it. The one expiry every
    path runs: the ETA task, the sweeper, a late move, a read that finds the window overdue, and
    an organiser's "expire now" (games.services.organiser.window_expire), so whether a seat that
    owed a move is counted, and flagged as away, never depends on who closed the window.
    `before`: lines logged first, in the same step (the organiser's "closed early")."""
    new, events = engine.timeout(state, now)
    if new is state:
        return False
    game = write.game
    events = [*before, *windows_missed(game, state, now), *events]  # the seats still owing a move
    write.advance(state, new, events, step=("timeout", None, {}, now))
    log.info(
        "timer expired", extra={"game": game.code, "round": new.round, "version": game.version}
    )
    return True


def game_expire(*, game_id: int, version: int | None = None, now: float | None = None) -> bool:
    """Close the open window if (that version is still current and) its deadline has passed.

    Safe to call any number of times: a duplicate or late task finds nothing to do.
    """
    now = time.time() if now is None else now
    try:
        with game_write(game_id=game_id) as write:
            game = write.game
            if game.status != Game.Status.RUNNING:
                return False
            if version is not None and game.version != version:
                return False
            return close_window(write, write.state, now)
    except (Conflict, GameError):
        return False  # someone else moved the game on, or it is gone; the sweeper looks again


def close_if_overdue(game: Game) -> Game:
    """A read found `game`: if its stored deadline has passed, close the window first (the same
    expiry as the timers, under the game's lock), so that what the reader sees never depends on
    how late the sweeper is. Cheap otherwise: it looks at two fields of the row already read,
    and asks once whether a vacation is due (begun or ended first too, games.services.vacation)."""
    if vacation.has_due(game, timezone.now()):
        if vacation.vacation_due(game_id=game.id):
            game.refresh_from_db()
    if game.status != Game.Status.RUNNING or game.deadline is None:
        return game
    if game.deadline > datetime.now(UTC):
        return game
    if game_expire(game_id=game.id):
        game.refresh_from_db()
    return game


def sweep_overdue(now: float | None = None) -> int:
    """Expire every game whose deadline has passed: the safety net under the ETA tasks."""
    now = time.time() if now is None else now
    overdue = Game.objects.filter(
        status=Game.Status.RUNNING, deadline__lte=datetime.fromtimestamp(now, UTC)
    ).values_list("id", flat=True)
    return sum(game_expire(game_id=game_id, now=now) for game_id in overdue[:200])
