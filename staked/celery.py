"""The Celery app: configured from Django settings (keys prefixed CELERY_), tasks autodiscovered."""

import os
import time

from celery import Celery
from celery.signals import task_postrun, task_prerun

from staked import metrics

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "staked.settings")

app = Celery("staked")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# Each task's run time for the metrics (staked/metrics.py; nothing is kept while METRICS is off).
_started: dict[str, float] = {}


@task_prerun.connect
def _task_started(task_id=None, **_):
    _started[task_id] = time.perf_counter()


@task_postrun.connect
def _task_done(task_id=None, task=None, state=None, **_):
    started = _started.pop(task_id, None)
    if started is not None:
        metrics.task_done(getattr(task, "name", "?"), state or "?", time.perf_counter() - started)
