"""The Celery app: configured from Django settings (keys prefixed CELERY_), tasks autodiscovered."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "staked.settings")

app = Celery("staked")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
