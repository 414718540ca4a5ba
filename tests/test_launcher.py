"""The `make run` launcher (scripts/run_all.py) keeps the others up when one process dies.

The worker died after minutes of play, and the launcher then stopped the web server and
beat too. Now a process that exits is started again after a pause that doubles with each quick
failure, with a log line; the others go on untouched; SIGTERM still stops everything.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLEEPER = f'exec {sys.executable} -c "import time; time.sleep(600)"'


def pids(output: Path, name: str) -> list[int]:
    return [int(p) for p in re.findall(rf"{name} started \(pid (\d+)\)", output.read_text())]


def wait_for(check, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("timed out")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_dead_process_is_restarted_with_backoff_and_sigterm_stops_all(tmp_path):
    procfile = tmp_path / "Procfile"
    procfile.write_text(f"worker: {SLEEPER}\nweb: {SLEEPER}\n")
    output = tmp_path / "out.log"
    with output.open("w") as out:
        launcher = subprocess.Popen(
            [sys.executable, "scripts/run_all.py", str(procfile)],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        web = wait_for(lambda: pids(output, "web"))[0]
        first = wait_for(lambda: pids(output, "worker"))[0]

        os.kill(first, signal.SIGKILL)
        second = wait_for(lambda: pids(output, "worker")[1:])[0]
        os.kill(second, signal.SIGKILL)  # a quick second failure: twice the pause
        third = wait_for(lambda: pids(output, "worker")[2:])[0]

        text = output.read_text()
        assert "worker exited with status -9: restarting it in 1 s (restart 1)" in text
        assert "worker exited with status -9: restarting it in 2 s (restart 2)" in text
        assert alive(third) and alive(web) and pids(output, "web") == [web]

        launcher.send_signal(signal.SIGTERM)
        assert launcher.wait(timeout=30) == 0
        assert not alive(third) and not alive(web)
        assert "worker stopped (status -15, 2 restarts)" in output.read_text()
    finally:
        if launcher.poll() is None:
            os.killpg(launcher.pid, signal.SIGKILL)
        for pid in pids(output, "worker") + pids(output, "web"):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
