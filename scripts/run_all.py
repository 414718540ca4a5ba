"""Run the processes of a Procfile together (`make run`): python scripts/run_all.py Procfile.dev

Each line ``name: command`` is started with /bin/sh in its own session, and its output is
printed with a ``name |`` prefix.

A process that exits by itself (a crash, a kill) is started again, after a pause that doubles
with each quick failure (RESTART_DELAY up to MAX_RESTART_DELAY; back to RESTART_DELAY once it
has run STABLE_SECONDS), with a ``system |`` line saying so: a dead worker must not take the web
server down with it. The others keep running meanwhile.

Ctrl-C (SIGINT) or SIGTERM stops them all: each gets SIGTERM, then its process group gets
SIGKILL if it still runs after GRACE_SECONDS (at once on a second Ctrl-C).

Why not honcho: it stops everything when one process exits, and kills after a fixed 5 s, while
a Celery worker's warm shutdown (finish the running task, then close the pool) takes longer.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

GRACE_SECONDS = 20
RESTART_DELAY = 1.0  # seconds before the first restart of a process that exited
MAX_RESTART_DELAY = 30.0
STABLE_SECONDS = 60.0  # a process that ran this long before it exited restarts at once again
print_lock = threading.Lock()


@dataclass
class Supervised:
    name: str
    command: str
    process: subprocess.Popen | None = None
    started_at: float = 0.0
    restarts: int = 0
    delay: float = RESTART_DELAY
    restart_at: float | None = None  # when a process that exited is due to start again
    pumps: list[threading.Thread] = field(default_factory=list)


def read_procfile(path: Path) -> list[tuple[str, str]]:
    entries = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, command = line.partition(":")
            entries.append((name.strip(), command.strip()))
    return entries


def say(name: str, width: int, text: str) -> None:
    with print_lock:
        sys.stdout.write(f"{time.strftime('%H:%M:%S')} {name:<{width}} | {text}\n")
        sys.stdout.flush()


def pump(process: subprocess.Popen, name: str, width: int) -> None:
    for raw in iter(process.stdout.readline, b""):
        say(name, width, raw.decode(errors="replace").rstrip("\n"))


def start(entry: Supervised, width: int) -> None:
    entry.process = subprocess.Popen(
        ["/bin/sh", "-c", entry.command],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        # Own session: a terminal's Ctrl-C reaches only this supervisor, which then stops
        # each process (and its children) in order.
        start_new_session=True,
    )
    entry.started_at = time.monotonic()
    entry.restart_at = None
    say("system", width, f"{entry.name} started (pid {entry.process.pid})")
    thread = threading.Thread(target=pump, args=(entry.process, entry.name, width), daemon=True)
    thread.start()
    entry.pumps.append(thread)


def watch(entries: list[Supervised], width: int) -> None:
    """One look at every process: schedule the restart of one that exited, start one that is due."""
    now = time.monotonic()
    for entry in entries:
        process = entry.process
        if entry.restart_at is None and process is not None and process.poll() is not None:
            # Whatever it left behind in its group (a Celery pool child) goes with it.
            _kill_group(process.pid)
            if now - entry.started_at >= STABLE_SECONDS:
                entry.delay = RESTART_DELAY
            entry.restarts += 1
            entry.restart_at = now + entry.delay
            say(
                "system",
                width,
                f"{entry.name} exited with status {process.returncode}: restarting it in "
                f"{entry.delay:g} s (restart {entry.restarts})",
            )
            entry.delay = min(entry.delay * 2, MAX_RESTART_DELAY)
        elif entry.restart_at is not None and now >= entry.restart_at:
            start(entry, width)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def stop_all(entries: list[Supervised], width: int, hurry: threading.Event) -> None:
    running = [e for e in entries if e.process is not None and e.process.poll() is None]
    for entry in running:
        say("system", width, f"stopping {entry.name} (pid {entry.process.pid})")
        try:
            # The main process only: gunicorn and Celery stop their own children in order
            # (a Celery pool child killed under its parent can stall the warm shutdown).
            os.kill(entry.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + GRACE_SECONDS
    while time.monotonic() < deadline and any(e.process.poll() is None for e in running):
        if hurry.is_set():
            break
        time.sleep(0.1)
    for entry in running:
        if entry.process.poll() is None:
            say("system", width, f"killing {entry.name}")
            _kill_group(entry.process.pid)
            entry.process.wait()


def main(argv: list[str]) -> int:
    entries = [
        Supervised(name, command)
        for name, command in read_procfile(Path(argv[1] if len(argv) > 1 else "Procfile.dev"))
    ]
    width = max(len(e.name) for e in entries + [Supervised("system", "")])
    stop_requested = threading.Event()
    hurry = threading.Event()

    def request_stop(signum, frame):
        if stop_requested.is_set():
            hurry.set()
        stop_requested.set()

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)

    for entry in entries:
        start(entry, width)
    while not stop_requested.is_set():
        watch(entries, width)
        stop_requested.wait(0.2)
    say("system", width, "stop requested")

    stop_all(entries, width, hurry)
    for entry in entries:
        for thread in entry.pumps:
            thread.join(timeout=2)
        status = entry.process.returncode if entry.process else None
        say("system", width, f"{entry.name} stopped (status {status}, {entry.restarts} restarts)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
