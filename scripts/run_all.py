"""Run the processes of a Procfile together (`make run`): python scripts/run_all.py Procfile.dev

Each line ``name: command`` is started with /bin/sh in its own session, and its output is
printed with a ``name |`` prefix. Ctrl-C (SIGINT) or SIGTERM stops them all: each gets SIGTERM,
then its process group gets SIGKILL if it still runs after GRACE_SECONDS (at once on a second
Ctrl-C). If one process exits by itself, the others are stopped too and its exit status is
returned.

Why not honcho: it kills after a fixed 5 s, and a Celery worker on the filesystem broker needs
about 6 s for its warm shutdown (finish the running task, then close the pool).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

GRACE_SECONDS = 20
print_lock = threading.Lock()


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


def stop_all(processes: dict[str, subprocess.Popen], width: int, hurry: threading.Event) -> None:
    for name, process in processes.items():
        if process.poll() is None:
            say("system", width, f"stopping {name} (pid {process.pid})")
            try:
                # The main process only: gunicorn and Celery stop their own children in order
                # (a Celery pool child killed under its parent can stall the warm shutdown).
                os.kill(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + GRACE_SECONDS
    while time.monotonic() < deadline and any(p.poll() is None for p in processes.values()):
        if hurry.is_set():
            break
        time.sleep(0.1)
    for name, process in processes.items():
        if process.poll() is None:
            say("system", width, f"killing {name}")
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()


def main(argv: list[str]) -> int:
    entries = read_procfile(Path(argv[1] if len(argv) > 1 else "Procfile.dev"))
    width = max(len(name) for name, _ in entries + [("system", "")])
    stop_requested = threading.Event()
    hurry = threading.Event()

    def request_stop(signum, frame):
        if stop_requested.is_set():
            hurry.set()
        stop_requested.set()

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)

    processes: dict[str, subprocess.Popen] = {}
    pumps = []
    for name, command in entries:
        process = subprocess.Popen(
            ["/bin/sh", "-c", command],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            # Own session: a terminal's Ctrl-C reaches only this supervisor, which then stops
            # each process (and its children) in order.
            start_new_session=True,
        )
        processes[name] = process
        say("system", width, f"{name} started (pid {process.pid})")
        thread = threading.Thread(target=pump, args=(process, name, width), daemon=True)
        thread.start()
        pumps.append(thread)

    status = 0
    while not stop_requested.is_set():
        exited = [(n, p.returncode) for n, p in processes.items() if p.poll() is not None]
        if exited:
            name, code = exited[0]
            say("system", width, f"{name} exited with status {code}: stopping the others")
            status = code or 1
            break
        stop_requested.wait(0.2)
    if stop_requested.is_set():
        say("system", width, "stop requested")

    stop_all(processes, width, hurry)
    for thread in pumps:
        thread.join(timeout=2)
    for name, process in processes.items():
        say("system", width, f"{name} stopped (status {process.returncode})")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
