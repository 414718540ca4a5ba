"""Celery tasks of the games app: each parses its arguments and calls one service."""

import time
from importlib import import_module

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from games import services
from games.domain.worker_heartbeat import HEARTBEAT_KEY
from games.services import seat_links


@shared_task(name="games.tasks.ping")
def ping(token: str) -> str:
    """Prove a worker is alive: store "pong" under ``ping:<token>`` in the shared cache."""
    cache.set(f"ping:{token}", "pong", timeout=300)
    return "pong"


@shared_task(name="games.tasks.expire_window", acks_late=True)
def expire_window(game_id: int, version: int) -> bool:
    """The fast path of a timer: close the window of `version` if it is still open and due."""
    return services.game_expire(game_id=game_id, version=version)


@shared_task(name="games.tasks.sweep")
def sweep() -> int:
    """The safety net, run by beat every few seconds: close every overdue window, and begin or
    end every vacation that is due (games.services.vacation)."""
    return services.sweep_overdue() + services.sweep_vacations()


@shared_task(name="games.tasks.vacation_due", acks_late=True)
def vacation_due(game_id: int) -> bool:
    """The fast path of a vacation's start or end: do what is due in the game, if anything."""
    return services.vacation_due(game_id=game_id)


@shared_task(name="games.tasks.heartbeat")
def heartbeat() -> None:
    """Run by a worker every few seconds (beat): /readyz checks that one ran lately."""
    cache.set(HEARTBEAT_KEY, time.time(), timeout=3600)


@shared_task(name="games.tasks.bot_move", acks_late=True)
def bot_move(game_id: int, seat: int) -> bool:
    """A bot's move, after its pause; its own commit queues its next one."""
    cache.delete(f"bot:{game_id}:{seat}")
    return services.bot_act(game_id=game_id, seat=seat)


@shared_task(name="games.tasks.prune")
def prune() -> int:
    """Run by beat once a day: drop what only grows and is no longer needed (used seat links
    past their lifetime, expired sessions: the guests' sessions would otherwise pile up)."""
    SessionStore = import_module(settings.SESSION_ENGINE).SessionStore
    SessionStore.clear_expired()
    return seat_links.prune()
