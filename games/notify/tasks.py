"""Celery tasks of the reminders: every one re-reads the game and sends only what is still due.
(The reminders' services queue these tasks by a function-local import: see games.notify.services.)
"""

from celery import shared_task

from games.notify.services import on_window, remind_deadline
from games.notify.services import sweep as sweep_deadlines


@shared_task(name="notify.tasks.window_changed", acks_late=True)
def window_changed(game_id: int, window: str) -> None:
    """The seats the game waits on changed: "your move" to the new ones, deadline ETAs queued."""
    on_window(game_id, window)


@shared_task(name="notify.tasks.deadline_soon", acks_late=True)
def deadline_soon(game_id: int, window: str) -> int:
    """The fast path of "deadline soon", queued for the lead time before the deadline."""
    return remind_deadline(game_id, window)


@shared_task(name="notify.tasks.sweep")
def sweep() -> int:
    """The safety net, run by beat every minute: deadline reminders the ETA tasks missed."""
    return sweep_deadlines()
