"""The services queue Celery tasks by their registered names (staked/queue.py), so a process
that never imports a tasks module itself (a web server) must still know every name it sends:
otherwise a timer or a bot's move is never queued, and only the sweeper closes the window."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SENT = re.compile(r'queue\.send\(\s*"([\w.]+)"')


def names_sent() -> set[str]:
    found = set()
    for path in [*ROOT.glob("games/**/*.py"), *ROOT.glob("relics/**/*.py")]:
        found.update(SENT.findall(path.read_text()))
    return found


def test_every_task_a_service_sends_by_name_is_registered_in_a_fresh_web_process():
    sent = names_sent()
    assert {
        "games.tasks.expire_window",
        "games.tasks.bot_move",
        "notify.tasks.window_changed",
    } <= sent
    script = (
        "import json, django; django.setup()\n"
        "from celery import current_app\n"
        "print(json.dumps(sorted(current_app.tasks.keys())))\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "staked.settings", "DEBUG": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    registered = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert sent - registered == set()
