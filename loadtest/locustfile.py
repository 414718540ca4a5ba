"""Simulated phones for Locust (`make load` runs it; loadtest/capacity.py explains the figure).

Each simulated user is one player on a phone, doing what the page does:

1. it opens the home page, and either opens a table (POST /new, the host) or joins one with its
   code (POST /join); tables have 6 to 10 seats (LOAD_PLAYERS users make tables that add up);
   the host starts the game once everyone is seated;
2. it polls what the page polls (the game's change endpoint, `/g/{code}/changed?v=N`, and the
   chat list), at the page's own intervals (`hx-trigger="every Ns"`), and reads the new game when
   the answer is not 204; LOAD_POLL_SECONDS overrides the game poll's interval;
3. when the page offers a move (an action form), it fills it in at random after a human pause
   (LOAD_THINK seconds, "2-5") and posts it as htmx does (`HX-Request`), reading the new game
   from the answer;
4. when the game is over, the host taps "Rematch" and starts the new game: the same players play
   again, so the number of players stays the same for the whole run.

What it measures, written as JSON to LOAD_RESULTS when Locust quits:
- tap-to-update: for every move, from its commit (when the mover's phone gets its answer) to each
  other phone of that game holding a page at that version or later (from a poll, or its own
  move's answer); a phone that saw it before the mover's answer counts 0;
- action latency: the time of each move's POST;
- errors: answers 5xx, no answer, and pages that could not be read; moves the server refused
  (4xx: e.g. the window closed while the player was choosing) are counted apart.
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode

import gevent
from gevent.event import Event
from locust import FastHttpUser, events, task

from loadtest.phone import Page, read

PLAYERS = int(os.environ.get("LOAD_PLAYERS", "12"))
THINK = tuple(float(x) for x in os.environ.get("LOAD_THINK", "2-5").split("-"))
POLL_SECONDS = (
    float(os.environ["LOAD_POLL_SECONDS"]) if os.environ.get("LOAD_POLL_SECONDS") else None
)
MINGLING_SECONDS = os.environ.get("LOAD_MINGLING_SECONDS", "20")
SEED = int(os.environ.get("LOAD_SEED", "1"))
HTMX = {"HX-Request": "true"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def table_sizes(players: int, rng: random.Random) -> list[int]:
    """Tables of 6 to 10 seats (8 on average) for `players` players, the seats spread at random.
    (11 players cannot all sit at such tables: then one table of 10, and one player idle.)"""
    if players < 6:
        return []
    tables = max(-(-players // 10), min(round(players / 7.5), players // 6))
    if 6 * tables > players:
        tables = players // 6
    sizes = [6] * tables
    for _ in range(min(players, 10 * tables) - 6 * tables):
        sizes[rng.choice([i for i, size in enumerate(sizes) if size < 10])] += 1
    return sizes


@dataclass
class Table:
    size: int
    code: str = ""
    seated: int = 0
    opened: Event = field(default_factory=Event)
    full: Event = field(default_factory=Event)


class Recorder:
    """Everything measured, kept in this one process (Locust runs the users as greenlets)."""

    def __init__(self):
        self.commits: dict[tuple[str, int], tuple[float, int]] = {}  # (code, version) -> (t, user)
        self.seen: dict[tuple[str, int, int], float] = {}  # (code, version, user) -> t
        self.actions: list[float] = []  # seconds
        self.errors: dict[str, int] = {}
        self.refused = 0
        self.games_finished = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    def updates(self) -> list[float]:
        out = []
        for (code, version, user), t in self.seen.items():
            commit = self.commits.get((code, version))
            if commit and commit[1] != user:
                out.append(max(0.0, t - commit[0]))
        return out


recorder = Recorder()
_rng = random.Random(SEED)
_sizes = table_sizes(PLAYERS, _rng)
_tables = [Table(size) for size in _sizes]
_seats = [(t, n) for t in _tables for n in range(t.size)]
_next_seat = iter(range(len(_seats)))


class Phone(FastHttpUser):
    """One player's phone."""

    def on_start(self):
        self.number = next(_next_seat, None)
        if self.number is None:  # more users than seats: this one stays idle
            self.table = None
            return
        self.table, self.seat = _seats[self.number]
        self.rng = random.Random(SEED * 1000 + self.number)
        self.name = f"p{self.number}"
        self.page = Page()
        self.code = ""
        self.last_seen = 0
        self.due: dict[str, float] = {}
        self.move_at: float | None = None
        self.sit_down()

    # --- the lobby ---------------------------------------------------------------------------

    def sit_down(self) -> None:
        home = self.fetch("GET", "/", name="/")
        join = next((f for f in read(home).forms if f.url.endswith("/join")), None)
        token = dict(join.hidden)["csrfmiddlewaretoken"]
        table = self.table
        if self.seat == 0:
            fields = {"csrfmiddlewaretoken": token, "name": self.name, "preset": "live"}
            fields.update(last_wills="on", mingling=MINGLING_SECONDS)
            html, url = self.post("/new", fields, name="/new", htmx=False)
            table.code = url.rstrip("/").rsplit("/", 1)[-1]
            table.seated = 1
            table.opened.set()
        else:
            table.opened.wait()
            fields = {"csrfmiddlewaretoken": token, "name": self.name, "code": table.code}
            html, _ = self.post("/join", fields, name="/join", htmx=False)
            table.seated += 1
        if table.seated == table.size:
            table.full.set()
        table.full.wait()
        self.enter(table.code, html)
        if self.seat == 0:
            self.start_game()

    def start_game(self) -> None:
        start = self.page.form("/start")
        if start is None:
            recorder.error("no start form")
            return
        html, _ = self.post(start.url, dict(start.hidden), name="/g/[code]/start")
        self.show(html)

    def enter(self, code: str, html: str) -> None:
        self.code = code
        self.last_seen = 0
        self.show(html)

    # --- the page ------------------------------------------------------------------------------

    def show(self, html: str | None) -> None:
        """Take in a new page or game partial: its version is now seen, its pollers and forms
        replace the old ones."""
        if not html:
            return
        page = read(html)
        if page.version is None and not page.pollers:
            return
        now = time.monotonic()
        if page.version is not None:
            for version in range(self.last_seen + 1, page.version + 1):
                recorder.seen.setdefault((self.code, version, self.number), now)
            self.last_seen = max(self.last_seen, page.version)
            self.page.version, self.page.status = page.version, page.status
            self.page.forms = page.forms
            if not page.moves:
                self.move_at = None
            elif self.move_at is None:  # a change while the player thinks does not restart it
                self.move_at = now + self.rng.uniform(*THINK)
        known = {p.key: p for p in self.page.pollers}
        for poller in page.pollers:
            if poller.key == "game" and POLL_SECONDS:
                poller.seconds = POLL_SECONDS
            if poller.key not in known:  # a new poller starts at a random point of its period
                self.due[poller.key] = now + self.rng.uniform(0, poller.seconds)
            known[poller.key] = poller
        self.page.pollers = list(known.values())

    @task
    def live(self):
        if self.table is None:
            gevent.sleep(60)
            return
        while True:
            if self.page.status == "finished":
                self.rematch()
                continue
            now = time.monotonic()
            times = list(self.due.values()) + ([self.move_at] if self.move_at else [])
            gevent.sleep(max(0.0, min(times) - now))
            now = time.monotonic()
            if self.move_at and self.move_at <= now:
                self.move()
            for poller in self.page.pollers:
                if self.due.get(poller.key, 0) <= now:
                    self.due[poller.key] = now + poller.seconds
                    self.poll(poller)

    def poll(self, poller) -> None:
        name = "/g/[code]/changed" if poller.key == "game" else "/g/[code]/chat/messages"
        html, _ = self.fetch_status("GET", poller.url, name=name, htmx=True)
        if html:
            self.show(html)

    def move(self) -> None:
        self.move_at = None
        moves = self.page.moves
        if not moves:
            return
        form = self.rng.choice(moves)
        fields = form.filled(self.rng)
        started = time.monotonic()
        with self.client.request(
            "POST", form.url, data=urlencode(fields), headers={**HTMX, **FORM},
            name=f"act {form.action}", catch_response=True,
        ) as response:  # fmt: skip
            answered = time.monotonic()
            status = response.status_code
            if 200 <= status < 300:
                recorder.actions.append(answered - started)
                page = read(response.text)
                if page.version is not None:
                    recorder.commits.setdefault((self.code, page.version), (answered, self.number))
                response.success()
            elif 400 <= status < 500:
                recorder.refused += 1  # the page shows why; the player chooses again
                response.success()
            else:
                recorder.error(f"act {status}")
                response.failure(f"status {status}")
        self.show(response.text if status < 500 else None)

    def rematch(self) -> None:
        """The game is over: the host opens the rematch (everyone seated) and starts it; the
        others follow the host to the new table."""
        table = self.table
        if self.seat == 0:
            recorder.games_finished += 1
            form = self.page.form("/rematch")
            if form is None:
                recorder.error("no rematch form")
                gevent.sleep(5)
                return
            self.post(form.url, dict(form.hidden), name="/g/[code]/rematch", htmx=False)
            code = self.client_last_url.rstrip("/").rsplit("/", 1)[-1]
            table.code = code
            html = self.fetch("GET", f"/g/{code}/", name="/g/[code]/")
            self.enter(code, html)
            self.start_game()
        else:
            while table.code == self.code:
                gevent.sleep(0.5)
            html = self.fetch("GET", f"/g/{table.code}/", name="/g/[code]/")
            self.enter(table.code, html)

    # --- HTTP ----------------------------------------------------------------------------------

    def fetch(self, method: str, url: str, *, name: str) -> str:
        html, _ = self.fetch_status(method, url, name=name)
        return html or ""

    def fetch_status(self, method, url, *, name, htmx=False) -> tuple[str | None, int]:
        with self.client.request(
            method, url, name=name, headers=HTMX if htmx else {}, catch_response=True
        ) as response:
            status = response.status_code
            if status == 204:
                response.success()
                return None, status
            if 200 <= status < 400:
                response.success()
                return response.text, status
            recorder.error(f"{name} {status}")
            response.failure(f"status {status}")
            return None, status

    def post(self, url, fields: dict, *, name, htmx=True) -> tuple[str, str]:
        headers = {**FORM, **(HTMX if htmx else {})}
        with self.client.request(
            "POST", url, data=urlencode(fields), headers=headers, name=name, catch_response=True
        ) as response:
            if response.status_code >= 400 or response.status_code == 0:
                recorder.error(f"{name} {response.status_code}")
                response.failure(f"status {response.status_code}")
            else:
                response.success()
            self.client_last_url = response.url or url
            return response.text or "", self.client_last_url


@events.quitting.add_listener
def write_results(environment, **kwargs):
    path = os.environ.get("LOAD_RESULTS")
    if not path:
        return
    with open(path, "w") as out:
        json.dump(
            {
                "players": PLAYERS,
                "tables": _sizes,
                "updates": recorder.updates(),
                "actions": recorder.actions,
                "errors": recorder.errors,
                "refused": recorder.refused,
                "games_finished": recorder.games_finished,
                "requests": environment.stats.total.num_requests,
                "failures": environment.stats.total.num_failures,
            },
            out,
        )
