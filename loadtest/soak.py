"""Soak (`make soak`): bot games played without a pause on the zero-setup default of `make run`.

    python -m loadtest.soak [--minutes 30] [--tables 3]      (SOAK_MINUTES=3 make soak)

The deployment is exactly what `make run` starts with no DATABASE_URL/REDIS_URL: the launcher
(scripts/run_all.py) running Procfile.dev's web server, Celery worker and beat, on SQLite, the
file cache and the embedded SQLite broker, in a data folder of its own and on a free port. On it,
`--tables` games run at once, each with one API player (the host) and five bots, on the shortest
timers (10 s); the host lets about half its windows run to their timers, so the timers work hard.
When a game ends, the next one opens.

At the end every finished game is audited (loadtest/audit.py: replayed from its log; each
timeout due when it ran, and how late), and the launcher is stopped with SIGTERM. It reports:

- crashes: processes the launcher had to start again (the filesystem broker's worker died within
  about 10 minutes; this must stay 0),
- games finished, and HTTP errors met by the players (5xx or no answer),
- timers: how many windows closed by their timer, and how many ran late, more than LATE_SECONDS
  after their deadline (the ETA task misses its moment; the sweeper then closes the window within
  SWEEP_SECONDS),
- the broker's rows left (delivered messages are deleted: it stays small).

The last line is machine-readable:
    BENCH soak minutes=<n> crashes=<n> games_finished=<n> timers=<n> timers_late=<n>
        timer_late_max_s=<x> errors=<n> broker_rows=<n>
It exits 1 if a process crashed, a player met an error, a game failed its audit, or no game
finished.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from loadtest.api_players import Servers, Table
from loadtest.audit import audit_game
from loadtest.stack import ROOT, free_port, wait_until

LATE_SECONDS = 2.0
SERVICE_VARIABLES = ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")


def embedded_env(data: Path, port: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES}
    venv_bin = str(Path(sys.executable).parent)
    env.update(
        DEBUG="1",  # as `make run`
        PORT=str(port),
        STAKED_DATA_DIR=str(data),
        DJANGO_SETTINGS_MODULE="staked.settings",
        PATH=f"{venv_bin}:{env.get('PATH', '')}",
        PYTHONUNBUFFERED="1",
        THROTTLE_AUTH="100000/min",
    )
    return env


def run(minutes: float, tables: int) -> int:
    data = Path(tempfile.mkdtemp(prefix="staked-soak-"))
    port = free_port()
    env = embedded_env(data, port)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    log_path = data / "launcher.log"
    with log_path.open("wb") as log:
        launcher = subprocess.Popen(
            [sys.executable, "scripts/run_all.py", "Procfile.dev"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        servers = Servers([f"http://127.0.0.1:{port}"])
        wait_until(lambda: "ready." in log_path.read_text(), seconds=120, what="the worker ready")
        played = play(servers, minutes, tables)
    finally:
        launcher.send_signal(signal.SIGTERM)
        try:
            stopped = launcher.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(launcher.pid, signal.SIGKILL)
            stopped = launcher.wait()
    text = log_path.read_text(errors="replace")
    crashes = len(re.findall(r"exited with status .*: restarting", text))
    with sqlite3.connect(data / "db.sqlite3") as conn:
        audits = [audit_game(conn, t.code) for t in played if t.finished.is_set()]
    with sqlite3.connect(data / "broker.sqlite3") as conn:
        broker_rows = conn.execute("SELECT count(*) FROM kombu_message").fetchone()[0]
    errors = sum(1 for t in played for status in t.answers if status == 0 or status >= 500)
    problems = [f"{a.code}: {p}" for a in audits for p in a.problems]
    late = [s for a in audits for s in a.late]
    timers_late = sum(1 for s in late if s > LATE_SECONDS)
    print(f"data folder: {data} (removed if all went well); launcher stopped with {stopped}")
    for problem in problems:
        print("AUDIT:", problem)
    for line in re.findall(r".*exited with status.*", text):
        print("CRASH:", line)
    print(
        f"{len(audits)} games finished in {minutes:g} min on {tables} tables; "
        f"{len(late)} timers, {timers_late} late (> {LATE_SECONDS:g} s), max "
        f"{max(late, default=0):.2f} s; {crashes} crashes; {errors} errors; "
        f"{broker_rows} broker rows"
    )
    print(
        f"BENCH soak minutes={minutes:g} crashes={crashes} games_finished={len(audits)} "
        f"timers={len(late)} timers_late={timers_late} timer_late_max_s={max(late, default=0):.2f} "
        f"errors={errors} broker_rows={broker_rows}"
    )
    failed = crashes or errors or problems or not audits or stopped != 0
    if not failed:
        shutil.rmtree(data, ignore_errors=True)  # kept only when something went wrong
    return 1 if failed else 0


def play(servers: Servers, minutes: float, tables: int) -> list[Table]:
    """Keep `tables` games going until the time is up; every table that was played."""
    played: list[Table] = []
    end = time.monotonic() + minutes * 60
    lock = threading.Lock()

    def keep_a_table_going(n: int) -> None:
        seed = n * 100_000
        while time.monotonic() < end - 20:  # no new game in the last seconds
            seed += 1
            table = Table(servers, players=1, bots=5, skip_chance=0.5, seed=seed, pace=(0.5, 2.0))
            table.open()
            with lock:
                played.append(table)
            table.play(seconds=max(1.0, end - time.monotonic()))

    threads = [threading.Thread(target=keep_a_table_going, args=(n,)) for n in range(tables)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=float(os.environ.get("SOAK_MINUTES", 30)))
    parser.add_argument("--tables", type=int, default=3, help="games at once")
    args = parser.parse_args()
    sys.exit(run(args.minutes, args.tables))


if __name__ == "__main__":
    main()
