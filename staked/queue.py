"""Queue a Celery task by its registered name: the one place the services send work to a worker
(here, beside the Celery app, so that every app's services can use it).

The tasks (games.tasks, games.notify.tasks) call the services, so a service that imported a task
module would import itself back. Naming the task instead keeps the import graph acyclic: the
task is looked up in the Celery app's registry when it is sent. Every process registers the
tasks once Django is ready (games/apps.py), so a web server finds them as a worker does; the
task's own `apply_async` then runs, so eager mode and a test's stand-in apply as they would.
"""

from __future__ import annotations

from celery import current_app


def send(name: str, *args, **options) -> None:
    """Queue the task registered as `name` with these positional arguments; `options` are
    `apply_async`'s (eta, countdown, retry). Errors (a broker outage) are the caller's to log."""
    current_app.tasks[name].apply_async(args=args, **options)
