"""API benchmark (make bench-api): the app under gunicorn on 127.0.0.1 with PostgreSQL and Redis.

Measures, in one run:
1. requests/s of the two unchanged polls against a bare Django view (/healthz) on the same
   server, with wrk, side by side (ROUNDS rounds of the three, in turn, so that the neighbours'
   load falls on all three alike): the API's (GET a game with a matching If-None-Match → 304)
   and the page's (`/g/{code}/changed?v=N&p=<poll token>` → 204, with the browser's session
   cookie), both by a seat's own player at a game with spectators off, the case that must prove
   who is asking (games/web/middleware/quickpoll.py);
2. the latency of place_token with 50 games running at once (p50, p99);
3. the stream server (uvicorn, games/api/stream.py) with STREAM_CLIENTS streams open on one
   game: the time from each move's answer to each stream's event naming it (p95).

The server runs as deployed (Procfile): gthread workers, 2 x 4 threads. The requests/s depend
on what else the machine runs at that moment, so each path's server CPU per request (all the
workers' CPU time over the requests wrk counted) is printed too: on a shared machine it is the
steadier figure.

The last line is machine-readable (`poll_vs_hello` and `cpu_us_poll` are the API's poll):
    BENCH api poll_vs_hello=<ratio> page_poll_vs_hello=<ratio> cpu_us_hello=<n>
    cpu_us_page_poll=<n> cpu_us_poll=<n> place_token_p50_ms=<n> place_token_p99_ms=<n>
    BENCH stream clients=<n> update_p95_ms=<n>
"""

from __future__ import annotations

import html
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from loadtest.listeners import Listeners  # noqa: E402
from loadtest.stack import cpu_seconds  # noqa: E402

HOST, PORT = "127.0.0.1", int(os.environ.get("BENCH_PORT", "8765"))
GAMES, PLAYERS = 50, 6
ROUNDS, ROUND_SECONDS = 5, 3
STREAM_PORT, STREAM_CLIENTS = PORT + 1, 200
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/staked_bench"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/3")


def server_env() -> dict:
    return dict(
        os.environ,
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",  # plain HTTP on 127.0.0.1: no TLS proxy in front here
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=HOST,
        DATABASE_URL=DATABASE_URL,
        REDIS_URL=REDIS_URL,
        CONN_MAX_AGE="60",
        THROTTLE_ACTIONS="1000000/min",
        THROTTLE_REFUSALS="1000000/min",
        THROTTLE_AUTH="1000000/min",
        CELERY_QUEUE="bench",  # nobody consumes it: the timers here are minutes long
        STREAM_URL=f"http://{HOST}:{STREAM_PORT}",
    )


def request(method: str, path: str, body=None, token=None, headers=None) -> tuple[int, dict, float]:
    conn = http.client.HTTPConnection(HOST, PORT, timeout=30)
    sent = {"Content-Type": "application/json", **(headers or {})}
    if token:
        sent["Authorization"] = f"Token {token}"
    started = time.perf_counter()
    conn.request(method, path, json.dumps(body) if body is not None else None, sent)
    response = conn.getresponse()
    raw = response.read()
    elapsed = time.perf_counter() - started
    conn.close()
    return response.status, (json.loads(raw) if raw else {}), elapsed


def guest(name: str) -> str:
    status, body, _ = request("POST", "/api/v1/auth/guest/", {"name": name})
    assert status == 201, body
    return body["token"]


def start_game(i: int) -> tuple[str, list[str]]:
    tokens = [guest(f"b{i}-{seat}") for seat in range(PLAYERS)]
    options = {"preset": "async", "spectators": False}
    status, body, _ = request("POST", "/api/v1/games/", options, tokens[0])
    assert status == 201, body
    code = body["code"]
    for token in tokens[1:]:
        assert request("POST", f"/api/v1/games/{code}/join/", {}, token)[0] == 200
    assert request("POST", f"/api/v1/games/{code}/start/", None, tokens[0])[0] == 200
    return code, tokens


def page(method: str, path: str, cookies: dict, form: str = "") -> tuple[int, str]:
    """A browser's request: the cookies it holds, updated from the answer; (status, text)."""
    conn = http.client.HTTPConnection(HOST, PORT, timeout=30)
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
    if method == "POST":
        headers |= {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": cookies["csrftoken"],
        }
    conn.request(method, path, form or None, headers)
    response = conn.getresponse()
    text = response.read().decode()
    for name, value in response.getheaders():
        if name.lower() == "set-cookie":
            key, _, rest = value.partition("=")
            cookies[key] = rest.split(";", 1)[0]
    conn.close()
    return response.status, text


def page_poller(host_token: str) -> tuple[str, dict]:
    """A player who sat down from the invite link in a browser, at a private game that then
    started: the poll URL of their page and their cookies."""
    options = {"preset": "async", "spectators": False}
    status, body, _ = request("POST", "/api/v1/games/", options, host_token)
    assert status == 201, body
    code, cookies = body["code"], {}
    assert page("GET", f"/g/{code}/", cookies)[0] == 200  # the lobby: its CSRF cookie
    assert page("POST", f"/g/{code}/join", cookies, "name=Browser")[0] == 302
    for seat in range(PLAYERS - 2):
        assert request("POST", f"/api/v1/games/{code}/join/", {}, guest(f"p{seat}"))[0] == 200
    assert request("POST", f"/api/v1/games/{code}/start/", None, host_token)[0] == 200
    status, text = page("GET", f"/g/{code}/", cookies)
    assert status == 200, status
    url = html.unescape(re.search(r'hx-get="(/g/[^"]+/changed[^"]+)"', text).group(1))
    return url, cookies


def wrk(path: str, headers: dict, server: int, seconds: int = ROUND_SECONDS) -> tuple[float, float]:
    """Requests/s of `path`, and the server's CPU seconds (all its workers) per request."""
    args = ["wrk", "-t2", "-c16", f"-d{seconds}s"]
    for k, v in headers.items():
        args += ["-H", f"{k}: {v}"]
    cpu = cpu_seconds(server)
    out = subprocess.run(
        args + [f"http://{HOST}:{PORT}{path}"], capture_output=True, text=True, check=True
    ).stdout
    cpu = cpu_seconds(server) - cpu
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    assert not non2xx, out
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), cpu / requests


def main() -> None:
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk (make bench-api installs it)")
    env = server_env()
    db = DATABASE_URL.rsplit("/", 1)[1]
    subprocess.run(
        [
            "psql",
            DATABASE_URL.rsplit("/", 1)[0] + "/postgres",
            "-qc",
            f"DROP DATABASE IF EXISTS {db}",
        ],
        check=True,
    )
    subprocess.run(
        ["psql", DATABASE_URL.rsplit("/", 1)[0] + "/postgres", "-qc", f"CREATE DATABASE {db}"],
        check=True,
    )
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(["redis-cli", "-u", REDIS_URL, "flushdb"], check=True, capture_output=True)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "staked.wsgi",
            "--bind",
            f"{HOST}:{PORT}",
            "--workers",
            "2",
            "--worker-class",
            "gthread",
            "--threads",
            "4",
            "--access-logfile",
            "/dev/null",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    streamer = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "staked.asgi:application", "--host", HOST,
         "--port", str(STREAM_PORT), "--no-access-log", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                if request("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        with ThreadPoolExecutor(4) as pool:
            games = list(pool.map(start_game, range(GAMES)))
        print(f"{GAMES} games of {PLAYERS} running")

        code, tokens = games[0]
        status, view, _ = request("GET", f"/api/v1/games/{code}/", token=tokens[1])
        etag = f'"{view["version"]}"'
        status, _, _ = request(
            "GET", f"/api/v1/games/{code}/", token=tokens[1], headers={"If-None-Match": etag}
        )
        assert status == 304, status
        poll_url, cookies = page_poller(guest("host"))
        browser = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
            "HX-Request": "true",
        }
        assert page("GET", poll_url, dict(cookies))[0] == 204
        paths = {
            "hello": ("/healthz", {}),
            "page": (poll_url, browser),
            "api": (
                f"/api/v1/games/{code}/",
                {"Authorization": f"Token {tokens[1]}", "If-None-Match": etag},
            ),
        }
        rates, cpu = {name: 0.0 for name in paths}, {name: 0.0 for name in paths}
        order = list(paths)
        for turn in range(ROUNDS):  # each round in another order: none always follows another
            for name in order[turn % 3 :] + order[: turn % 3]:
                rate, seconds = wrk(*paths[name], server.pid)
                rates[name] += rate / ROUNDS
                cpu[name] += seconds / ROUNDS
        hello, page_poll, poll = rates["hello"], rates["page"], rates["api"]
        for label, name in [
            ("bare view /healthz:        ", "hello"),
            ("page poll, unchanged (204):", "page"),
            ("API poll, unchanged (304): ", "api"),
        ]:
            print(
                f"{label} {rates[name]:6.0f} req/s ({rates[name] / hello:.2f} of bare), "
                f"server CPU {cpu[name] * 1e6:4.0f} us/request"
            )

        moves = []
        for code, tokens in games:
            for seat in range(1, PLAYERS + 1):
                plan = [("stake", 1), ("stake", 2), ("feast", 3)]
                for token, step in plan:
                    target = (seat - 1 + step) % PLAYERS + 1
                    moves.append((code, tokens[seat - 1], token, target))
        # Round-robin over the games, so that 50 games are mid-Mingling at once.
        moves.sort(key=lambda m: (m[2] == "feast", m[3], m[0]))

        def place(move):
            code, token, kind, target = move
            status, body, elapsed = request(
                "POST",
                f"/api/v1/games/{code}/actions/place_token/",
                {"token": kind, "target": target},
                token,
            )
            assert status == 200, body
            return elapsed

        with ThreadPoolExecutor(8) as pool:
            latencies = sorted(pool.map(place, moves))
        p50 = statistics.median(latencies) * 1000
        p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
        print(
            f"place_token, {len(latencies)} moves over {GAMES} games, 8 clients: "
            f"p50 {p50:.1f} ms, p99 {p99:.1f} ms"
        )
        update_p95 = stream_delays(start_game(GAMES))
        print(
            f"BENCH api poll_vs_hello={poll / hello:.2f} "
            f"page_poll_vs_hello={page_poll / hello:.2f} "
            f"cpu_us_hello={cpu['hello'] * 1e6:.0f} cpu_us_page_poll={cpu['page'] * 1e6:.0f} "
            f"cpu_us_poll={cpu['api'] * 1e6:.0f} "
            f"place_token_p50_ms={p50:.1f} place_token_p99_ms={p99:.1f}"
        )
        print(f"BENCH stream clients={STREAM_CLIENTS} update_p95_ms={update_p95:.0f}")
    finally:
        for process in (server, streamer):
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=20)


def stream_delays(game: tuple[str, list[str]]) -> float:
    """p95 (ms) of the time from a move's answer to each open stream's event naming it."""
    code, tokens = game
    url = request("GET", f"/api/v1/games/{code}/", token=tokens[0])[1]["stream_url"]
    delays = []
    with Listeners(url, tokens, STREAM_CLIENTS) as listeners:
        for seat in range(1, PLAYERS + 1):
            for step in (1, 2):
                body = {"token": "stake", "targets": [(seat - 1 + step) % PLAYERS + 1]}
                path = f"/api/v1/games/{code}/actions/place_token/"
                status, view, _ = request("POST", path, body, tokens[seat - 1])
                answered = time.monotonic()
                assert status == 200, view
                heard = listeners.heard_at(view["version"], seconds=60)
                delays.extend(max(0.0, t - answered) for t in heard)
    delays.sort()
    print(
        f"stream: {STREAM_CLIENTS} streams on one game, {len(delays) // STREAM_CLIENTS} moves: "
        f"each stream heard of each move after p50 {statistics.median(delays) * 1000:.0f} ms, "
        f"p95 {delays[int(len(delays) * 0.95)] * 1000:.0f} ms"
    )
    return delays[int(len(delays) * 0.95)] * 1000


if __name__ == "__main__":
    main()
