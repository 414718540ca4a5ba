"""Capacity of one machine (`make load`): the most players it serves well, found step by step.

    python -m loadtest.capacity [--start 20] [--step 20] [--max 400] [--seconds 120]
                                [--poll-seconds N] [--action-p99-ms N] [--quick]

The server runs as in production (docs/operations.md, "Deploy"), on private instances on this
machine (loadtest/stack.py): gunicorn (2 workers x 4 threads, the default WEB_CONCURRENCY),
PostgreSQL (fsync on), Redis, one Celery worker and one beat, DEBUG=0, persistent database
connections. Each step runs Locust's simulated phones (loadtest/locustfile.py) for `--seconds`:
`players` players at tables of 6 to 10, playing whole games (and rematches) at a human pace. A step
passes when

- p95 tap-to-update (a move's commit to every other phone of its game seeing it) < 1.5 s,
- p99 action latency (a move's POST) < 150 ms,
- and nothing failed (no 5xx, no unanswered request).

(`--update-p95-ms` and `--action-p99-ms` change the two limits.) The search goes up by `--step`
players until a step fails; the capacity is the last step that passed. The load generator runs
on the same machine and takes its share of the CPU, so the figure is a lower bound for a machine
that only serves.

Phones poll at the page's own interval (`hx-trigger`, set by the server: games/domain/polls.py),
every second while a live game runs (a change waits on average half an interval, at worst a whole
one); `--poll-seconds N` makes them poll every N seconds instead, whatever the page says.

The last line is machine-readable:
    BENCH load players=<n> update_p95_ms=<n> action_p99_ms=<n> errors=<n>
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from loadtest.stack import ROOT, Stack, cpu_seconds

UPDATE_P95_MS = 1500
ACTION_P99_MS = 150


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


SERVER_TIMES = {
    "act": re.compile(r'"POST /g/\w+/act/\w+ [^"]*" \d+ \S+ (\d+)ms'),
    "page": re.compile(r'"GET /g/\w+/changed\?v=\d+\S* [^"]*" 200 \S+ (\d+)ms'),
}


def server_times(log_text: str) -> dict[str, tuple[int, int]]:
    """(p50, p99) in ms, as gunicorn measured them, of moves and of changed-page polls."""
    out = {}
    for kind, pattern in SERVER_TIMES.items():
        values = [int(v) for v in pattern.findall(log_text)]
        if values:
            out[kind] = (round(percentile(values, 0.5)), round(percentile(values, 0.99)))
    return out


def cpu_by_part(stack: Stack) -> dict[str, float]:
    """CPU seconds used so far by each part of the deployment, and by the load generator."""
    parts = {"web": 0.0, "celery": 0.0}
    for process in stack.processes:
        part = "web" if process.name.startswith("web") else "celery"
        parts[part] += cpu_seconds(process.pid)
    parts["postgres"] = cpu_seconds(stack.postgres.process.pid)
    parts["redis"] = cpu_seconds(stack.redis.process.pid)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    parts["locust"] = children.ru_utime + children.ru_stime  # finished children: the runs
    return parts


def run_step(
    web_url: str,
    players: int,
    seconds: int,
    poll_seconds: float | None,
    limits: tuple[int, int] = (UPDATE_P95_MS, ACTION_P99_MS),
) -> dict:
    results = Path(tempfile.mkstemp(prefix="staked-load-", suffix=".json")[1])
    env = dict(
        os.environ,
        LOAD_PLAYERS=str(players),
        LOAD_RESULTS=str(results),
        LOAD_SEED=str(players),
    )
    if poll_seconds:
        env["LOAD_POLL_SECONDS"] = str(poll_seconds)
    done = subprocess.run(
        [sys.executable, "-m", "locust", "-f", str(ROOT / "loadtest" / "locustfile.py"),
         "--headless", "--users", str(players), "--spawn-rate", str(max(10, players // 3)),
         "--run-time", f"{seconds}s", "--host", web_url, "--only-summary",
         "--stop-timeout", "5", "--loglevel", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=seconds + 120,
    )  # fmt: skip
    if not results.exists() or not results.stat().st_size:
        raise RuntimeError(
            f"locust wrote no results:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    data = json.loads(results.read_text())
    results.unlink()
    updates, actions = data["updates"], data["actions"]
    errors = sum(data["errors"].values())
    step = {
        "players": players,
        "update_p95_ms": round(percentile(updates, 0.95) * 1000),
        "update_p50_ms": round(percentile(updates, 0.50) * 1000),
        "action_p99_ms": round(percentile(actions, 0.99) * 1000),
        "action_p50_ms": round(percentile(actions, 0.50) * 1000),
        "moves": len(actions),
        "updates": len(updates),
        "errors": errors,
        "error_kinds": data["errors"],
        "refused": data["refused"],
        "games_finished": data["games_finished"],
        "requests_per_s": round(data["requests"] / seconds, 1),
        "tables": data["tables"],
    }
    step["passed"] = (
        bool(updates and actions)
        and step["update_p95_ms"] < limits[0]
        and step["action_p99_ms"] < limits[1]
        and errors == 0
    )
    return step


def retire_games(stack: Stack) -> None:
    """The previous step's games stop (their players are gone): no timer keeps them going."""
    with stack.db() as conn:
        conn.execute(
            "UPDATE games_game SET status = 'abandoned' WHERE status IN ('running', 'lobby')"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=20)
    parser.add_argument("--step", type=int, default=20)
    parser.add_argument("--max", type=int, default=400)
    parser.add_argument("--seconds", type=int, default=120, help="length of each step")
    parser.add_argument("--poll-seconds", type=float, default=None, help="the game poll's interval")
    parser.add_argument("--update-p95-ms", type=int, default=UPDATE_P95_MS)
    parser.add_argument("--action-p99-ms", type=int, default=ACTION_P99_MS)
    parser.add_argument("--quick", action="store_true", help="one step of 12 players for 40 s")
    args = parser.parse_args()
    if args.quick:
        args.start, args.max, args.seconds = 12, 12, 40

    env = {
        "THROTTLE_ACTIONS": "100000/min",
        "THROTTLE_REFUSALS": "100000/min",
        "THROTTLE_AUTH": "100000/min",
        "LOG_LEVEL": "WARNING",
    }
    passed, last = None, None
    with Stack(durable=True, env=env) as stack:
        web = stack.web(workers=2, threads=4)
        stack.worker(concurrency=2)
        stack.beat()
        print(
            f"server: {web.url} (gunicorn 2x4, PostgreSQL, Redis, worker, beat); "
            f"{os.cpu_count()} CPUs; a step passes with update p95 < {args.update_p95_ms} ms, "
            f"action p99 < {args.action_p99_ms} ms and no error"
        )
        players = args.start
        while players <= args.max:
            retire_games(stack)
            started = time.monotonic()
            cpu_before = cpu_by_part(stack)
            log_start = web.process.log.stat().st_size
            limits = (args.update_p95_ms, args.action_p99_ms)
            last = run_step(web.url, players, args.seconds, args.poll_seconds, limits)
            with web.process.log.open(errors="replace") as log:
                log.seek(log_start)
                served = server_times(log.read())
            cpu = {k: v - cpu_before[k] for k, v in cpu_by_part(stack).items()}
            elapsed = time.monotonic() - started
            print(
                f"{players:4d} players ({len(last['tables'])} tables): update p50 "
                f"{last['update_p50_ms']} / p95 {last['update_p95_ms']} ms, action p50 "
                f"{last['action_p50_ms']} / p99 {last['action_p99_ms']} ms, {last['moves']} moves, "
                f"{last['games_finished']} games, {last['requests_per_s']} req/s, "
                f"errors {last['errors']} {last['error_kinds'] or ''}, refused {last['refused']}"
                f" -> {'pass' if last['passed'] else 'FAIL'} ({elapsed:.0f} s)",
                flush=True,
            )
            # Cores each part kept busy, on average over the step (the ramp-up included), and
            # the time the server itself took (gunicorn's log), apart from the network and Locust.
            print(
                "      cores busy: "
                + ", ".join(f"{part} {used / elapsed:.2f}" for part, used in cpu.items())
                + "; server time p50/p99: "
                + ", ".join(f"{kind} {p50}/{p99} ms" for kind, (p50, p99) in served.items())
                + f"; load average {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            if not last["passed"]:
                break
            passed = last
            players += args.step
    best = passed or {**last, "players": 0}
    print(
        f"BENCH load players={best['players']} update_p95_ms={best['update_p95_ms']} "
        f"action_p99_ms={best['action_p99_ms']} errors={best['errors']}"
    )


if __name__ == "__main__":
    main()
