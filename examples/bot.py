#!/usr/bin/env python3
"""A small Staked! bot: signs in as a guest, sits at a table and plays legal moves to the end.

Written from docs/api.md and the OpenAPI schema (`GET /api/v1/schema/`) alone, with the standard
library only, as a third-party author would. It plays at random among the moves `pending` offers:

- waits for changes on the game's stream with its view in each event (`stream_url?view=1`,
  Server-Sent Events): every event is the bot's whole view, as `GET /games/{code}/` would answer
  it, so the bot plays with no GET between events (from the lobby to the end); without a stream
  server (a `421`, or no answer) it polls its view with `If-None-Match` instead (a `304` means
  nothing changed);
- sends each move to the action's own route with `targets` (always a list), `If-Match` (the
  version it saw) and an `Idempotency-Key` (so a lost answer can be retried safely);
- on `409 stale` (the game moved on meanwhile) it decides again from its next view;
- builds every move from the offer's typed options (`targets` with `min` and `max`, `tokens`
  and `targets_by_token`, `cards`, `cards_by_seat`, `moves`): each is a move the rules accept;
- in its own relic window or relic choice it tries the relic first and passes only if that
  fails; Blood of the One, which may be used unasked, it leaves alone;
- stops when the game is finished and prints the result.

    python examples/bot.py http://127.0.0.1:8000 --join ABCD
    python examples/bot.py http://127.0.0.1:8000 --create --humans 1 --seats 6 --relics
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request
import uuid


class ApiError(Exception):
    def __init__(self, status: int, body: dict):
        super().__init__(f"{status} {body.get('code')}: {body.get('detail')}")
        self.status, self.code = status, body.get("code")


class Client:
    """JSON over HTTP with a guest token; waits out `429` as `Retry-After` says."""

    def __init__(self, server: str):
        self.base = server.rstrip("/") + "/api/v1"
        self.token: str | None = None

    def call(self, method: str, path: str, body=None, headers=None):
        """(status, headers, parsed body or None)."""
        data = None if body is None else json.dumps(body).encode()
        all_headers = {"Accept": "application/json", **(headers or {})}
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        if self.token:
            all_headers["Authorization"] = f"Token {self.token}"
        request = urllib.request.Request(self.base + path, data, all_headers, method=method)
        retries = 3 if "Idempotency-Key" in all_headers else 0
        while True:
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    raw = response.read()
                    return response.status, response.headers, json.loads(raw) if raw else None
            except urllib.error.HTTPError as error:
                raw = error.read()
                if error.code == 304:
                    return 304, error.headers, None
                if error.code == 429:
                    time.sleep(float(error.headers.get("Retry-After", "1")))
                    continue
                raise ApiError(error.code, json.loads(raw) if raw else {}) from None
            except (urllib.error.URLError, TimeoutError):
                if not retries:  # the answer was lost: the same key makes the retry safe
                    raise
                retries -= 1
                time.sleep(1)

    def open_stream(self, url: str, seen: int):
        """The game's stream with our view in each event (an open HTTP response), or None
        where none is served. Its first event is our view at once if it is newer than `seen`."""
        headers = {"Accept": "text/event-stream", "Last-Event-ID": str(seen)}
        headers["Authorization"] = f"Token {self.token}"
        request = urllib.request.Request(f"{url}?view=1", None, headers)
        try:
            return urllib.request.urlopen(request, timeout=30)
        except (urllib.error.URLError, TimeoutError):  # an HTTPError too (421: no stream here)
            return None

    def sign_in(self, name: str) -> None:
        _, _, body = self.call("POST", "/auth/guest/", {"name": name})
        self.token = body["token"]


def say(*parts) -> None:
    print(*parts, flush=True)


def choose(entry: dict, view: dict) -> dict | None:
    """A body for the pending `entry`, chosen at random among its legal moves (docs/api.md,
    "pending"): every body built this way is one the server accepts."""
    options = entry.get("options") or {}
    body = {key: options[key] for key in ("relic", "choice") if key in options}
    if "moves" in options:  # the exact legal moves (e.g. the Whisper-Wick Candle)
        return {**body, **random.choice(options["moves"])} if options["moves"] else None
    if "tokens" in options:  # place_token: a token, then a seat that token may go on
        body["token"] = random.choice(options["tokens"])
        body["targets"] = [random.choice(options["targets_by_token"][body["token"]])]
        return body
    if "cards" in options:  # give_relic, when you drew several
        body["card"] = random.choice(options["cards"])
    count = random.randint(options["min"], options["max"])
    if count > len(options["targets"]):
        return None
    if count:
        body["targets"] = random.sample(options["targets"], count)
    if "cards_by_seat" in options and count:  # a relic that names a card on that seat
        body["card"] = random.choice(options["cards_by_seat"][str(body["targets"][0])])
    return body


def plan(view: dict) -> list[tuple[str, dict]]:
    """The moves to try now, best first: a relic move before its `pass`, everything else as
    offered. An optional relic use without a `pass` (it is never waited on) is left alone."""
    pending = view.get("pending") or []
    may_pass = any(p["action"] == "pass" for p in pending)
    moves = []
    for entry in pending:
        if entry["action"] == "use_relic" and not may_pass:
            continue
        body = choose(entry, view)
        if body is not None:
            moves.append((entry["action"], body))
    moves.sort(key=lambda move: move[0] == "pass")  # pass only once the rest was refused
    return moves


class Bot:
    """Plays one seat from `view` (the answer of joining or opening the table) on."""

    def __init__(self, client: Client, view: dict, poll: float):
        self.client, self.code, self.poll = client, view["code"], poll
        self.view, self.etag = view, None
        self.stream = client.open_stream(view["stream_url"], view["version"])
        say("waiting on the stream" if self.stream else "no stream: polling")

    def wait(self) -> None:
        """Until the game changes: the stream's next view, or a poll where there is none."""
        while True:
            if self.stream is not None:
                view = next_view(self.stream, self.view["version"])
                if view is not None:
                    self.view = view
                    return
                # The stream ended (the server ends one after 30 minutes) or dropped: open it
                # again from the version we hold; its first event is then any newer view.
                self.stream = self.client.open_stream(self.view["stream_url"], self.view["version"])
                if self.stream is not None:
                    continue
            time.sleep(self.poll)  # no stream server: poll
            if self.read():
                return

    def read(self) -> bool:
        """Read the view unless unchanged (304); True if it changed. Only without a stream."""
        headers = {"If-None-Match": self.etag} if self.etag else {}
        path = f"/games/{self.code}/"
        status, response_headers, body = self.client.call("GET", path, None, headers)
        if status == 304:
            return False
        self.view, self.etag = body, response_headers.get("ETag")
        return True

    def act(self) -> bool:
        """Make one move from `pending`; True if the view changed (the server took the move, or,
        polling, refused it as stale and the view read again is newer): decide again before
        waiting. On the stream a refused move waits for the next view instead."""
        for action, body in plan(self.view):
            headers = {"If-Match": str(self.view["version"]), "Idempotency-Key": str(uuid.uuid4())}
            try:
                _, response_headers, view = self.client.call(
                    "POST", f"/games/{self.code}/actions/{action}/", body, headers
                )
            except ApiError as error:
                if error.status == 409:  # stale, or the phase moved on: decide again
                    if self.stream is not None:  # from the next view, already on its way
                        return False
                    seen = self.view["version"]
                    self.etag = None
                    self.read()
                    return self.view["version"] != seen
                if error.status == 400:  # e.g. a relic combination the rules refuse: next option
                    say(f"refused {action} {json.dumps(body)}: {error}")
                    continue
                raise
            say(f"round {self.view['round']} {self.view['phase']}: {action} {json.dumps(body)}")
            self.view, self.etag = view, response_headers.get("ETag")
            return True
        return False

    def host(self, args) -> None:
        """Wait in our lobby for the other people, fill it with server bots and start."""
        while len(self.view["seats"]) < args.humans:
            self.wait()
        missing = args.seats - len(self.view["seats"])
        if missing > 0:
            self.client.call("POST", f"/games/{self.code}/bots/", {"count": missing})
        _, _, self.view = self.client.call("POST", f"/games/{self.code}/start/", {})

    def play(self) -> dict:
        while self.view["status"] not in ("finished", "abandoned"):
            if not self.act():
                self.wait()
        return self.view


def next_view(stream, seen: int) -> dict | None:
    """Read the stream to its next view newer than `seen`; None if the stream ended. A `view`
    event is `id: N`, `event: view` and `data: <the view>` (one line), then a blank line."""
    data = None
    try:
        for line in stream:
            if line.startswith(b"data:"):
                data = json.loads(line[5:])
            elif not line.strip() and data is not None:  # the end of an event
                if data["version"] > seen:
                    return data
                data = None  # a version we have (a move's answer brought it): skip it
    except (OSError, ValueError):  # a timeout, a dropped connection
        pass
    return None


def create(client: Client, args) -> dict:
    """Open a table: its lobby as we see it."""
    options = {"relics": args.relics, "last_wills": args.last_wills}
    if args.timer:
        timers = ("mingling", "relic", "tiebreak", "choice")
        options["timers"] = {name: args.timer for name in timers}
    _, _, lobby = client.call("POST", "/games/", options)
    say(f"code: {lobby['code']}")
    return lobby


def result(view: dict) -> str:
    me = view["me"]["seat"]
    mine = next(r for r in view["roles"] if r["seat"] == me)
    outcome = "won" if mine["won"] else "lost"
    return f"winner: {view['winner']} (I, seat {me}, a {mine['role']}, {outcome})"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("server", help="e.g. http://127.0.0.1:8000")
    parser.add_argument("--name", default=f"Bot {random.randint(100, 999)}")
    parser.add_argument("--join", metavar="CODE", help="join this lobby")
    parser.add_argument("--create", action="store_true", help="open a lobby and host it")
    parser.add_argument("--humans", type=int, default=1, help="--create: wait for this many")
    parser.add_argument("--seats", type=int, default=6, help="--create: fill with server bots")
    parser.add_argument("--relics", action="store_true", help="--create: play with relics")
    parser.add_argument("--no-last-wills", dest="last_wills", action="store_false")
    parser.add_argument("--timer", type=int, help="--create: every timer, in seconds (min 10)")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between polls")
    args = parser.parse_args(argv)
    if bool(args.join) == args.create:
        parser.error("give either --join CODE or --create")

    client = Client(args.server)
    client.sign_in(args.name)
    if args.create:
        bot = Bot(client, create(client, args), args.poll)
        bot.host(args)
    else:
        _, _, lobby = client.call("POST", f"/games/{args.join}/join/", {"name": args.name})
        say(f"joined: {args.join}")
        bot = Bot(client, lobby, args.poll)
    view = bot.play()
    if view["status"] == "abandoned":
        say("the game was abandoned")
        return 1
    say(result(view))
    return 0


if __name__ == "__main__":
    sys.exit(main())
