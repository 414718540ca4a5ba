"""A request never fails because the broker is down: the timer is left to the sweeper."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import time, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from games import services
users = [get_user_model().objects.create_user(f"u{i}") for i in range(6)]
game = services.game_create(host=users[0], options={"timers": {"mingling": 30}}, name="u0")
for i, user in enumerate(users[1:], start=1):
    services.game_join(code=game.code, user=user, name=f"u{i}")
started = time.monotonic()
services.game_start(code=game.code, user=users[0])
print("STARTED", round(time.monotonic() - started, 2))
game.refresh_from_db()
assert game.status == "running" and game.deadline is not None
"""


@pytest.mark.redis
def test_starting_a_game_with_the_broker_down_still_succeeds(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
    env.update(
        DEBUG="1",
        STAKED_DATA_DIR=str(tmp_path),
        CELERY_BROKER_URL="redis://127.0.0.1:1/0",  # nothing listens there
        DJANGO_SETTINGS_MODULE="staked.settings",
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    took = float(done.stdout.split("STARTED")[1].split()[0])
    assert took < 10, f"the request waited {took}s on the dead broker"
    print(f"game_start with the broker down took {took}s")
    assert time.monotonic() - started < 110
