"""Reminders: "your move" and "deadline soon", by Web Push and e-mail, and the
installable app (web app manifest and service worker).

`games.services` calls `services.after_change` on every committed state change; everything else
runs in Celery tasks, so a slow push service or mail server never slows a move down."""
