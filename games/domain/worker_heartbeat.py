"""The Celery worker's heartbeat: a beat task writes the time under this key, and `/readyz`
reads it (a worker silent for longer than HEARTBEAT_MAX_AGE is not ready)."""

HEARTBEAT_KEY = "worker:heartbeat"
HEARTBEAT_MAX_AGE = 60  # seconds
