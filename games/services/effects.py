"""What every saved change of a game sets off, declared in one list: `EFFECTS`.

Each effect is a small function of the `Change` a writer just saved (`games.services.unit`),
called inside the writer's transaction in the order of the list. The projections are written at
once, in the same transaction; everything that reaches outside the database (the cache, the
broker) waits for the commit (`transaction.on_commit`), so a rolled-back move sets nothing off.
None of them may fail a move: an outage of the cache or the broker is logged, and the sweepers
and the polls' database fallback cover it.

To add an effect: write `def name(change: Change) -> None` below, with a docstring saying when
it runs and why, and put it in `EFFECTS`.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.db import transaction
from django.db.models import Q
from django.dispatch import Signal

from games import engine
from games.domain.options import spectators_allowed
from games.domain.poll_keys import POLL_KEY_SECONDS, deadline_key, open_key, version_key
from games.engine.view import waiting_for
from games.models import Game
from games.notify import services as reminders
from relics.models import sync_holdings
from staked import queue
from staked.cache import ReusingRedisCache

log = logging.getLogger("games")

ETA_HORIZON = 3600  # seconds: longer windows are left to the sweeper (see schedule_deadline)

UNKNOWN = object()  # publish_version: the deadline was not given


@dataclass(frozen=True)
class Change:
    """One saved change: the game as saved (its new version), and for a step of the engine the
    states before and after (`new` is None for a change outside the engine: lobby, seats)."""

    game: Game
    old: engine.State | None
    new: engine.State | None


# --- in the transaction: the projections of the state -----------------------------------------


def dead_seats(change: Change) -> None:
    """`Player.alive` follows the state: the seats that died in this step."""
    old, new = change.old, change.new
    if new is None:
        return
    died = [
        p.seat for p in new.players if not p.alive and (old is None or old.player(p.seat).alive)
    ]
    if died:
        change.game.players.filter(seat__in=died).update(alive=False)


def relic_rows(change: Change) -> None:
    """The relic holdings' rows (relics.models) follow the state when the relics changed."""
    old, new = change.old, change.new
    if new is None or not new.options.relics:
        return
    sync_holdings(change.game, new, before=old)


# Sent, in the move's transaction, when a game has just ended: `game` (saved) and `state` (its
# final state). The players' history (games.history) writes their results on it, so that reading
# a history writes nothing; a signal, since the history's pages sit above the services.
game_finished = Signal()


def finished(change: Change) -> None:
    """The game just ended: tell who keeps figures (`game_finished`)."""
    old, new = change.old, change.new
    if new is not None and new.outcome is not None and (old is None or old.outcome is None):
        game_finished.send(sender=Game, game=change.game, state=new)


# --- on commit: the poll key, the timer, the bots, the reminders -------------------------------


def poll_key(change: Change) -> None:
    """Tell the cheap polls the new version (games.selectors.game.poll_state)."""
    game = change.game
    code, version = game.code, game.version
    spectators = spectators_allowed(game.options)
    deadline = game.deadline.timestamp() if game.deadline is not None else None
    transaction.on_commit(
        lambda: publish_version(code, version, spectators=spectators, deadline=deadline)
    )


def timer(change: Change) -> None:
    """Queue the task that closes the open window at its deadline."""
    game = change.game
    game_id, version, deadline = game.id, game.version, game.deadline
    if deadline is not None:
        transaction.on_commit(lambda: schedule_deadline(game_id, version, deadline))


def bots(change: Change) -> None:
    """Queue a move for every bot the game now waits on."""
    seats = _waiting_bots(change.game, change.new)
    game_id = change.game.id
    if seats:
        transaction.on_commit(lambda: nudge_bots(game_id, seats))


def reminder(change: Change) -> None:
    """ "Your move" and deadline reminders (games.notify.services), queued on commit."""
    reminders.after_change(change.game, change.new)


EFFECTS = (dead_seats, relic_rows, finished, poll_key, timer, bots, reminder)


def run_effects(change: Change) -> None:
    for effect in EFFECTS:
        effect(change)


# --- the poll key --------------------------------------------------------------------------


def bump_version(code: str, version: int) -> None:
    """Write `version` to the poll key unless a newer one is there (hooks may run out of order,
    or at once).

    On Redis in one step (staked.cache): two moves' hooks running at the same moment (two web
    processes) could otherwise both read the old value, and the older move's write land last,
    telling pages at the older version "no change"."""
    key = version_key(code)
    backend = caches[DEFAULT_CACHE_ALIAS]
    if isinstance(backend, ReusingRedisCache):
        backend.set_if_greater(key, version, POLL_KEY_SECONDS)
    elif (backend.get(key) or 0) <= version:  # the file cache of a local `make run`
        backend.set(key, version, timeout=POLL_KEY_SECONDS)


def publish_version(code: str, version: int, *, spectators: bool, deadline=UNKNOWN) -> None:
    """Tell the cheap polls (selectors.poll_state) the game's new version, whether anyone may
    watch it, and its window's deadline (epoch seconds or None; left out, the polls ask the
    database). A cache outage must not fail the request: polls fall back to the database."""
    try:
        cache.set(open_key(code), spectators, timeout=POLL_KEY_SECONDS)
        if deadline is not UNKNOWN:
            cache.set(deadline_key(code), (version, deadline), timeout=POLL_KEY_SECONDS)
        bump_version(code, version)
    except Exception:
        log.warning("could not bump the poll key", exc_info=True, extra={"game": code})


# --- bots and timers -------------------------------------------------------------------------


def _waiting_bots(game: Game, state: engine.State | None) -> list[int]:
    """The bot seats the game waits on now (a seat on vacation is held by a bot too)."""
    if state is None or state.outcome is not None:
        return []
    held = game.players.filter(Q(is_bot=True) | Q(vacation_on=True))
    bot_seats = set(held.values_list("seat", flat=True))
    if not bot_seats:
        return []
    return [s for s in waiting_for(state) if s in bot_seats]


def nudge_bots(game_id: int, seats: list[int]) -> None:
    """Queue one move per waiting bot, after a short human-like pause. A bot already queued is
    not queued again (the key expires if its task is lost)."""
    for seat in seats:
        try:
            if cache.add(f"bot:{game_id}:{seat}", 1, timeout=30):
                queue.send(
                    "games.tasks.bot_move",
                    game_id,
                    seat,
                    countdown=random.uniform(0.5, 1.5) * settings.BOT_PAUSE_MS / 1000,
                    retry=False,
                )
        except Exception:
            log.warning("could not queue a bot move", exc_info=True)


def schedule_vacation(game_id: int, moment: datetime) -> None:
    """Queue the ETA task that begins or ends a vacation at `moment` (games.services.vacation),
    within ETA_HORIZON like the windows' timers; the sweeper does the later ones."""
    if (moment - datetime.now(UTC)).total_seconds() > ETA_HORIZON:
        return
    try:
        queue.send("games.tasks.vacation_due", game_id, eta=moment, retry=False)
    except Exception:
        log.warning("could not queue the vacation timer; the sweeper will", exc_info=True)


def schedule_deadline(game_id: int, version: int, deadline: datetime) -> None:
    """Queue the ETA task for a window (fast path). Windows longer than ETA_HORIZON are left to
    the sweeper: a Redis broker redelivers long ETA tasks after its visibility timeout anyway, and
    a worker would hold days of them in memory. A broker outage never fails the request."""
    if (deadline - datetime.now(UTC)).total_seconds() > ETA_HORIZON:
        return
    try:
        queue.send("games.tasks.expire_window", game_id, version, eta=deadline, retry=False)
    except Exception:
        log.warning("could not queue the timer; the sweeper will close it", exc_info=True)
