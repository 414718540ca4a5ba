"""Page benchmark (make bench-page): what a change costs the server in the game page's polls,
in-process (Django's test client, no HTTP server), with PostgreSQL and Redis.

A 10-seat relic game is played by the sensible bots (through the services, as phones would) to
round 2's Mingling. Then, change after change (one seat places one token), every phone at the
table polls as the page does (`/g/{code}/changed?v=<the version it shows>`, htmx) and the time
of each poll is taken. Beside it, in the same run and on the same game: the seat's API view
(`GET /api/v1/games/{code}/` with its token, no If-None-Match), `/healthz` and the mover's own
POST. A phone asks for compressed answers, as browsers do (Accept-Encoding): the bytes are what
it downloads. Phones have loaded the page once before (a page's bookkeeping writes at most once a
minute per seat: the first load is not what a poll after a change costs).

    python scripts/bench_page.py [--games N] [--changes N]

Prints the medians and the sum over the table; the last line is machine-readable:
    BENCH page phone_ms=<median> table_ms=<median sum> api_ms=<median> healthz_ms=<median>
    post_ms=<median> vs_api=<ratio> vs_healthz=<ratio> bytes=<median> cpu_phone_ms=<median>
    cpu_api_ms=<median> cpu_healthz_ms=<median>
(The cpu_ figures are this process's CPU per request: on a shared machine, steadier than the
wall times; they leave out PostgreSQL's and Redis's share.)
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import re
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEATS = 10
TIMERS = {"mingling": 3600, "relic": 3600, "tiebreak": 3600, "choice": 3600}


def configure() -> None:
    os.environ.setdefault(
        "DATABASE_URL",
        os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/staked_bench"),
    )
    os.environ.setdefault(
        "REDIS_URL", os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/4")
    )
    os.environ.update(
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="testserver",
        THROTTLE_ACTIONS="1000000/min",
        THROTTLE_AUTH="1000000/min",
        CELERY_QUEUE="bench",  # nobody consumes it: the timers here are an hour long
        DJANGO_SETTINGS_MODULE="staked.settings",
    )
    import django

    django.setup()
    from django.db import connection

    # Not django.test.utils.setup_test_environment: it instruments every template render for
    # the test client, a cost no server pays.
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=True)


CPU: dict[str, list[float]] = {}  # this process's CPU per request, the steadier figure


def timed(fn, kind: str = "") -> tuple[float, object]:
    """Wall milliseconds of `fn()`, and its CPU milliseconds kept under `kind`."""
    cpu = time.thread_time()
    started = time.perf_counter()
    out = fn()
    wall = (time.perf_counter() - started) * 1000
    if kind:
        CPU.setdefault(kind, []).append((time.thread_time() - cpu) * 1000)
    return wall, out


def round_two(seed: int):
    """A 10-seat relic game, played by the sensible bots to round 2's Mingling: the game's code
    and each seat's (user, phone, API token)."""
    from django.test import Client

    from games import services
    from games.bots.moves import bot_move
    from games.models import Game
    from games.selectors import game as selectors
    from games.services.api_tokens import issue_token

    users = [services.guest_create(name=f"P{i}") for i in range(1, SEATS + 1)]
    options = {"relics": True, "seed": seed, "timers": TIMERS}
    game = services.game_create(host=users[0], options=options, name="P1")
    for i, user in enumerate(users[1:], start=2):
        services.game_join(code=game.code, user=user, name=f"P{i}")
    services.game_start(code=game.code, user=users[0])
    rng = random.Random(seed)
    for _ in range(2000):
        game = Game.objects.get(code=game.code)
        state = game.state
        if state["round"] == 2 and state["phase"] == "mingling":
            break
        moved = False
        for seat, user in enumerate(users, start=1):
            view = selectors.game_view(game, user)
            action = view.get("pending") and bot_move(rng, seat, view)
            if action:
                services.action_apply(code=game.code, user=user, name=action.name, args=action.args)
                moved = True
                break
        if not moved:
            raise RuntimeError(f"nobody can move at {state['phase']} (round {state['round']})")
    phones = []
    for user in users:
        client = Client()
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        phones.append((user, client, issue_token(user)))
    return game.code, phones


REGION = re.compile(r'<div id="(\w+)-region" class="region" data-region-version="(\w+)"')


# What a phone's browser sends with every request of the page: it takes a compressed answer.
PHONE = {"HX-Request": "true", "Accept-Encoding": "gzip, deflate, br"}


def text(answer) -> str:
    """An answer's HTML, uncompressed as the browser does (the bytes it downloaded:
    `len(answer.content)`)."""
    body = answer.content
    return (gzip.decompress(body) if answer.get("Content-Encoding") == "gzip" else body).decode()


def hold(held: dict, html: str) -> None:
    """What the page's script does (static/js/staked.js): keep the versions of the shared
    regions the page holds, and send them with the next request."""
    held.update(REGION.findall(html))


def regions_header(held: dict) -> dict:
    return {"X-Staked-Regions": ",".join(f"{k}={v}" for k, v in held.items())} if held else {}


def measure(seed: int, changes: int, out: dict) -> None:
    from games.bots.moves import bot_move
    from games.models import Game
    from games.selectors import game as selectors

    code, phones = round_two(seed)
    rng = random.Random(seed + 1)
    held = [{} for _ in phones]  # per phone: the shared regions' versions its page holds
    for i, (_, client, _) in enumerate(phones):  # each phone has the page open
        page = client.get(f"/g/{code}/", headers={"Accept-Encoding": PHONE["Accept-Encoding"]})
        assert page.status_code == 200
        hold(held[i], text(page))
    for _ in range(changes):
        game = Game.objects.get(code=code)
        movers = [
            (seat, user, client)
            for seat, (user, client, _) in enumerate(phones, start=1)
            if any(p["action"] == "place_token" for p in selectors.game_view(game, user)["pending"])
        ]
        # The last token of the round would start the Dining: stop before it.
        if len(movers) < 2:
            break
        seat, user, client = rng.choice(movers)
        view = selectors.game_view(game, user)
        action = bot_move(
            rng,
            seat,
            {**view, "pending": [p for p in view["pending"] if p["action"] == "place_token"]},
        )
        shown = game.version
        mover = seat - 1
        ms, answer = timed(
            lambda client=client, action=action, mover=mover: client.post(
                f"/g/{code}/act/{action.name}",
                {k: str(v) for k, v in action.args.items()},
                headers={**PHONE, **regions_header(held[mover])},
            )
        )
        assert answer.status_code == 200, answer.status_code
        out["post"].append(ms)
        out["post_bytes"].append(len(answer.content))
        hold(held[mover], text(answer))
        game = Game.objects.get(code=code)
        if game.state["phase"] != "mingling":
            break
        table = 0.0
        for i, (_, client, _) in enumerate(phones):
            if i == mover:  # the mover's page is up to date: its POST answered with it
                continue
            ms, answer = timed(
                lambda client=client, shown=shown, i=i: client.get(
                    f"/g/{code}/changed?v={shown}",
                    headers={**PHONE, **regions_header(held[i])},
                ),
                "phone",
            )
            assert answer.status_code == 200, answer.status_code
            out["phone"].append(ms)
            out["bytes"].append(len(answer.content))
            hold(held[i], text(answer))
            table += ms
        out["table"].append(table)
        for _, client, token in phones:
            ms, answer = timed(
                lambda client=client, token=token: client.get(
                    f"/api/v1/games/{code}/", headers={"Authorization": f"Token {token}"}
                ),
                "api",
            )
            assert answer.status_code == 200, answer.status_code
            out["api"].append(ms)
            ms, answer = timed(lambda client=client: client.get("/healthz"), "healthz")
            assert answer.status_code == 200, answer.status_code
            out["healthz"].append(ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games (seeds 1..N)")
    parser.add_argument("--changes", type=int, default=12, help="changes measured per game")
    args = parser.parse_args()
    configure()
    out: dict[str, list[float]] = {
        k: [] for k in ("phone", "table", "api", "healthz", "post", "bytes", "post_bytes")
    }
    for seed in range(1, args.games + 1):
        measure(seed, args.changes, out)
    med = {k: statistics.median(v) for k, v in out.items()}
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{SEATS}-seat relic game, round 2, {len(out['table'])} changes x {SEATS} phones")
    print(f"poll after a change, one phone: median {med['phone']:.2f} ms")
    print(
        f"poll after a change, the table: median {med['table']:.1f} ms "
        f"(sum of {SEATS - 1} phones; the mover's page came with its POST)"
    )
    print(f"the seat's API view:           median {med['api']:.2f} ms")
    print(f"/healthz:                       median {med['healthz']:.3f} ms")
    print(f"the mover's POST:               median {med['post']:.2f} ms")
    print(f"bytes a phone downloads:        median {med['bytes']:.0f}")
    print(f"bytes of the mover's answer:    median {med['post_bytes']:.0f}")
    cpu = {k: statistics.median(v) for k, v in CPU.items()}
    print(
        f"CPU of this process, median ms: phone {cpu['phone']:.2f}, API {cpu['api']:.2f}, "
        f"/healthz {cpu['healthz']:.3f}"
    )
    print(
        f"BENCH page phone_ms={med['phone']:.2f} table_ms={med['table']:.1f} "
        f"api_ms={med['api']:.2f} healthz_ms={med['healthz']:.3f} post_ms={med['post']:.2f} "
        f"vs_api={med['phone'] / med['api']:.2f} vs_healthz={med['phone'] / med['healthz']:.1f} "
        f"bytes={med['bytes']:.0f} cpu_phone_ms={cpu['phone']:.2f} cpu_api_ms={cpu['api']:.2f} "
        f"cpu_healthz_ms={cpu['healthz']:.3f}"
    )


if __name__ == "__main__":
    main()
