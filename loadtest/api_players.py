"""Players of the public API for the fault tests: a table of them plays a game to its end.

Each seat runs in a thread: it polls the game (`If-None-Match`), and when `pending` offers it a
move, it makes a random legal one after a short pause, always with `If-Match: <version>`, so that
a retry after a lost answer (a dead web worker, a 503) can never apply a move twice. Every move it
meant and every attempt is kept (`audit.Intent`), for `audit.moves_exactly_once`.

Requests go to the web servers in turn (no sticky sessions); a server that refuses the
connection is skipped for a while, as a load balancer would take it out of rotation.
"""

from __future__ import annotations

import itertools
import random
import threading
import time
from dataclasses import dataclass, field

import requests

from loadtest.audit import Intent

TIMERS = {"mingling": 10, "tiebreak": 10, "choice": 10, "relic": 10}  # the shortest allowed


class Servers:
    """Web servers in rotation; one whose connection failed sits out SKIP_SECONDS."""

    SKIP_SECONDS = 5.0

    def __init__(self, urls: list[str]):
        self.urls = list(urls)
        self.turn = itertools.cycle(range(len(self.urls)))
        self.down_until = [0.0] * len(self.urls)
        self.answered = [0] * len(self.urls)  # requests each server answered
        self.lock = threading.Lock()

    def next(self) -> int:
        with self.lock:
            for _ in self.urls:
                i = next(self.turn)
                if self.down_until[i] <= time.monotonic():
                    return i
            return next(self.turn)

    def answered_by(self, i: int) -> None:
        with self.lock:
            self.answered[i] += 1

    def failed(self, i: int) -> None:
        with self.lock:
            self.down_until[i] = time.monotonic() + self.SKIP_SECONDS


@dataclass
class Answer:
    status: int  # 0: no answer (connection refused or cut)
    body: dict | None
    headers: dict = field(default_factory=dict)
    error: str = ""


class Client:
    def __init__(self, servers: Servers, token: str | None = None):
        self.servers, self.token = servers, token
        self.http = requests.Session()

    def call(self, method: str, path: str, body=None, headers=None, timeout=15) -> Answer:
        i = self.servers.next()
        sent = dict(headers or {})
        if self.token:
            sent["Authorization"] = f"Token {self.token}"
        try:
            r = self.http.request(
                method, self.servers.urls[i] + path, json=body, headers=sent, timeout=timeout
            )
        except requests.RequestException as exc:
            self.servers.failed(i)
            return Answer(0, None, error=type(exc).__name__)
        self.servers.answered_by(i)
        try:
            data = r.json() if r.content else None
        except ValueError:
            data = None
        return Answer(r.status_code, data, dict(r.headers))


def random_move(rng: random.Random, pending: list[dict]) -> tuple[str, dict]:
    chosen = rng.choice(pending)
    options = chosen["options"]
    if "count" in options:  # a Last Will naming several players
        args = {
            "choice": options["choice"],
            "targets": rng.sample(options["targets"], options["count"]),
        }
    else:
        args = {"target": rng.choice(options["targets"])}
    if "tokens" in options:
        args["token"] = rng.choice(options["tokens"])
    return chosen["action"], args


@dataclass
class Seat:
    seat: int
    client: Client
    intents: list[Intent] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)  # every status code met (0: no answer)


class Table:
    """A game of `players` API players on `servers`: `open()` seats them, `play()` runs it."""

    def __init__(
        self,
        servers: Servers,
        *,
        players: int = 6,
        bots: int = 0,
        skip_chance: float = 0.0,
        seed: int = 0,
        pace=(0.05, 0.4),
        timers: dict | None = None,
    ):
        """`players` API players (seat 1 hosts) and `bots`; a player lets a window run to its
        timer with `skip_chance` (decided again whenever the game changes)."""
        self.servers, self.players, self.bots, self.pace = servers, players, bots, pace
        self.skip_chance = skip_chance
        self.timers = {**TIMERS, **(timers or {})}
        self.rng = random.Random(seed)
        self.seats: list[Seat] = []
        self.code = ""
        self.finished = threading.Event()
        self.hold = threading.Event()  # set: seats in `holding` do not move (a timer runs out)
        self.holding: set[int] = set()

    def open(self) -> str:
        for n in range(1, self.players + 1):
            answer = _must(
                Client(self.servers).call("POST", "/api/v1/auth/guest/", {"name": f"p{n}"}), 201
            )
            self.seats.append(Seat(n, Client(self.servers, answer.body["token"])))
        host = self.seats[0].client
        created = _must(
            host.call("POST", "/api/v1/games/", {"timers": self.timers, "name": "p1"}), 201
        )
        self.code = created.body["code"]
        for seat in self.seats[1:]:
            _must(seat.client.call("POST", f"/api/v1/games/{self.code}/join/", {}), 200)
        if self.bots:
            _must(host.call("POST", f"/api/v1/games/{self.code}/bots/", {"count": self.bots}), 200)
        _must(host.call("POST", f"/api/v1/games/{self.code}/start/"), 200)
        return self.code

    def play(self, seconds: float) -> bool:
        """Play until the game ends (True) or `seconds` pass (False)."""
        threads = [
            threading.Thread(target=self._seat_loop, args=(seat, time.monotonic() + seconds))
            for seat in self.seats
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return self.finished.is_set()

    def start(self, seconds: float) -> threading.Thread:
        """`play` in the background."""
        thread = threading.Thread(target=self.play, args=(seconds,), daemon=True)
        thread.start()
        return thread

    @property
    def intents(self) -> list[Intent]:
        return [i for seat in self.seats for i in seat.intents]

    @property
    def answers(self) -> list[int]:
        return [a for seat in self.seats for a in seat.answers]

    def _seat_loop(self, seat: Seat, deadline: float) -> None:
        rng = random.Random(self.rng.random())
        path = f"/api/v1/games/{self.code}/"
        view, intent, skipped = None, None, None
        while time.monotonic() < deadline and not self.finished.is_set():
            headers = {"If-None-Match": f'"{view["version"]}"'} if view else {}
            got = seat.client.call("GET", path, headers=headers)
            seat.answers.append(got.status)
            if got.status == 200:
                view = got.body
            elif got.status != 304:
                time.sleep(0.3)  # no answer or 503: try again shortly
                continue
            if view["status"] == "finished":
                self.finished.set()
                return
            if not view["pending"] or (self.hold.is_set() and seat.seat in self.holding):
                time.sleep(0.25)
                continue
            if skipped != view["version"] and intent is None and rng.random() < self.skip_chance:
                skipped = view["version"]
            if skipped == view["version"]:
                time.sleep(0.25)
                continue
            if intent is None or intent.attempts[-1] != view["version"]:
                name, args = random_move(rng, view["pending"])
                intent = Intent(seat.seat, name, args)
                seat.intents.append(intent)
            time.sleep(rng.uniform(*self.pace))
            intent = self._attempt(seat, intent, view["version"])

    def _attempt(self, seat: Seat, intent: Intent, version: int) -> Intent | None:
        """Send `intent` with If-Match: `version`; the intent to retry, or None when it is done."""
        intent.attempts.append(version)
        answer = seat.client.call(
            "POST",
            f"/api/v1/games/{self.code}/actions/{intent.name}/",
            intent.args,
            headers={"If-Match": f'"{version}"'},
        )
        seat.answers.append(answer.status)
        intent.outcomes.append(str(answer.status or answer.error))
        if answer.status == 200:
            intent.acked_seq = answer.body["version"]
            return None
        if answer.status in (0, 502, 503, 504):
            time.sleep(0.3)
            return intent  # the same move, the same If-Match: at most one of them applies
        return None  # refused (stale, or no longer legal): decide again from a fresh view


def _must(answer: Answer, status: int) -> Answer:
    if answer.status != status:
        raise AssertionError(
            f"expected {status}, got {answer.status}: {answer.body or answer.error}"
        )
    return answer
