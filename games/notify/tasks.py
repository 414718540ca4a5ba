"""Celery tasks of the reminders: every one re-reads the game and sends only what is still due."""

from celery import shared_task

from games.notify import services


@shared_task(name="notify.tasks.window_changed", acks_late=True)
def window_changed(game_id: int, window: str) -> None:
    """The seats the game waits on changed: "your move" to the new ones, deadline ETAs queued."""
    services.on_window(game_id, window)


@shared_task(name="notify.tasks.deadline_soon", acks_late=True)
def deadline_soon(game_id: int, window: str) -> int:
    """The fast path of "deadline soon", queued for the lead time before the deadline."""
    return services.remind_deadline(game_id, window)


@shared_task(name="notify.tasks.away_flagged", acks_late=True)
def away_flagged(game_id: int, seat: int, window: str) -> bool:
    """A seat was flagged as away: tell its player, once, that one tap keeps it."""
    return services.remind_away(game_id, seat, window)


@shared_task(name="notify.tasks.sweep")
def sweep() -> int:
    """The safety net, run by beat every minute: deadline reminders the ETA tasks missed."""
    return services.sweep()


@shared_task(name="notify.tasks.clock_moved", acks_late=True)
def clock_moved(game_id: int, window: str, version: int) -> int:
    """The host or the table moved the deadline: "The deadline moved to ..." once, to the players
    who still owe a move, and the deadline reminders queued again for the new deadline."""
    return services.on_deadline_moved(game_id, window, version)


@shared_task(name="notify.tasks.digest_sweep")
def digest_sweep() -> int:
    """Run by beat every 10 minutes: the daily digests whose local hour has come (once a day)."""
    return services.digest_sweep()


@shared_task(name="notify.tasks.digest_prune")
def digest_prune() -> int:
    """Run by beat once a day: forget the digest days that are long past."""
    return services.digest_prune()
