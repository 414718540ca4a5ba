"""Play: a player's action, a bot's move, a window closed by its timer (and the sweeper under
the timers). The rules are the engine's; this asks it and saves what it answers."""

from __future__ import annotations

import logging
import random
import time
from datetime import UTC, datetime

from games import engine
from games.bots import bot_move
from games.engine import Action, IllegalAction
from games.errors import GameError
from games.models import Game
from games.services.away import came_back, windows_missed
from games.services.lobby import seated
from games.services.unit import Conflict, game_write, retried

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
            if not game.players.filter(seat=seat, is_bot=True).exists():
                return False
            state = write.state
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


@retried
def action_apply(
    *, code: str, user, name: str, args: dict, expected_version: int | None = None
) -> Game:
    """Apply one player's action. Raises GameError or IllegalAction, changing nothing."""
    with game_write(code) as write:
        game = write.game
        me = seated(game, user)  # first: the rest would tell a stranger the version and status
        if expected_version is not None and expected_version != game.version:
            raise GameError(
                "stale", f"The game is at version {game.version}, not {expected_version}.", 409
            )
        if game.status == Game.Status.LOBBY:
            raise GameError("wrong_phase", "The game has not started yet.", 409)
        if game.status != Game.Status.RUNNING:
            raise IllegalAction("game_over", "The game is over.")
        seat = me.seat
        state = write.state
        now = time.time()
        new, events = engine.apply(state, Action(name, seat, args), now=now)
        events = came_back(me, state, name, new.round) + events  # a seen move ends a streak
        write.advance(state, new, events, step=(name, seat, args, now))
    log.info(
        "action %s",
        name,
        extra={"game": code, "round": new.round, "version": game.version, "seat": seat},
    )
    return game


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
            state = write.state
            new, events = engine.timeout(state, now)
            if new is state:
                return False
            events = windows_missed(game, state) + events  # the seats still owing a move
            write.advance(state, new, events, step=("timeout", None, {}, now))
            log.info(
                "timer expired",
                extra={"game": game.code, "round": new.round, "version": game.version},
            )
            return True
    except (Conflict, GameError):
        return False  # someone else moved the game on, or it is gone; the sweeper looks again


def sweep_overdue(now: float | None = None) -> int:
    """Expire every game whose deadline has passed: the safety net under the ETA tasks."""
    now = time.time() if now is None else now
    overdue = Game.objects.filter(
        status=Game.Status.RUNNING, deadline__lte=datetime.fromtimestamp(now, UTC)
    ).values_list("id", flat=True)
    return sum(game_expire(game_id=game_id, now=now) for game_id in overdue[:200])
