"""The stream server (games/api/stream.py): clients wait for changes without polling.

On the production-like deployment of tests/stack_fixture.py: uvicorn serving the stream beside
gunicorn, private PostgreSQL and Redis. The 200 streams are held open while six players make
their moves through the web server, and every stream must hear of every move.
"""

from __future__ import annotations

import json
import statistics
import time
import urllib.error
import urllib.request

import pytest

from loadtest.listeners import Listeners
from tests.stack_fixture import pytest_runtest_makereport, stack  # noqa: F401

PLAYERS = 6


def call(base: str, method: str, path: str, token: str | None = None, body=None, headers=None):
    """(status, parsed body or None) of one API request."""
    sent = {"Content-Type": "application/json", **(headers or {})}
    if token:
        sent["Authorization"] = f"Token {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data, sent, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, json.loads(raw) if raw else None


def guest(base: str, name: str) -> str:
    status, body = call(base, "POST", "/api/v1/auth/guest/", body={"name": name})
    assert status == 201, body
    return body["token"]


def private_game(base: str, *, spectators: bool = False) -> tuple[str, list[str]]:
    """A started six-seat game with long timers, spectators off unless asked: (code, seat
    tokens)."""
    tokens = [guest(base, f"Player {seat}") for seat in range(1, PLAYERS + 1)]
    options = {"preset": "async", "spectators": spectators}
    status, lobby = call(base, "POST", "/api/v1/games/", tokens[0], options)
    assert status == 201, lobby
    code = lobby["code"]
    for token in tokens[1:]:
        assert call(base, "POST", f"/api/v1/games/{code}/join/", token, {})[0] == 200
    assert call(base, "POST", f"/api/v1/games/{code}/start/", tokens[0], {})[0] == 200
    return code, tokens


def stream_request(url: str, token: str | None, **headers) -> urllib.request.Request:
    if token:
        headers["Authorization"] = f"Token {token}"
    return urllib.request.Request(url, None, {"Accept": "text/event-stream", **headers})


def first_lines(url: str, token: str, count: int, **headers) -> list[str]:
    with urllib.request.urlopen(stream_request(url, token, **headers), timeout=30) as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        return [response.readline().decode().rstrip("\n") for _ in range(count)]


def next_event(response) -> tuple[int, str, dict]:
    """The stream's next event as (id, event, data), past its `retry:` and comment lines."""
    fields: dict[str, str] = {}
    while True:
        raw = response.readline()
        assert raw, "the stream ended"
        line = raw.decode().rstrip("\n")
        if not line and "id" in fields:
            return int(fields["id"]), fields["event"], json.loads(fields["data"])
        if line and not line.startswith(":"):
            name, _, value = line.partition(": ")
            fields[name] = value


def refusal(url: str, token: str | None) -> tuple[int, dict]:
    try:
        urllib.request.urlopen(stream_request(url, token), timeout=30)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
    raise AssertionError(f"{url} answered 200")


def test_stream_names_the_version_at_once_and_refuses_whom_the_game_view_refuses(stack):  # noqa: F811
    streams = stack.stream()
    web = stack.web(workers=1, threads=2)
    code, tokens = private_game(web.url)
    status, view = call(web.url, "GET", f"/api/v1/games/{code}/", tokens[1])
    url = view["stream_url"]
    assert url == f"{streams.url}/api/v1/games/{code}/stream/"

    lines = first_lines(url, tokens[1], 5)
    version = view["version"]
    assert lines == ["retry: 2000", "", f"id: {version}", "event: version", lines[4]]
    assert json.loads(lines[4].removeprefix("data: ")) == {"version": version}

    stranger = guest(web.url, "Stranger")
    assert refusal(url, stranger) == (403, {"code": "forbidden", "detail": refusal_detail()})
    assert refusal(url, None)[0] == 401
    assert refusal(url, "0" * 40)[0] == 401
    assert refusal(url.replace(code, "ZZZZZZ"), tokens[1])[0] == 404
    status, body = refusal(f"{web.url}/api/v1/games/{code}/stream/", tokens[1])
    assert (status, body["code"], body["stream_url"]) == (421, "misdirected", url)
    assert refusal(f"{web.url}/api/v1/games/{code}/stream/", stranger)[0] == 403
    for server in (url, f"{web.url}/api/v1/games/{code}/stream/"):  # only view=1 or view=true
        status, body = refusal(f"{server}?view=2", tokens[1])
        assert (status, body["code"], list(body["errors"])) == (400, "bad_request", ["view"])


def refusal_detail() -> str:
    return "The host does not allow spectators at this table."


def test_a_stream_that_already_saw_the_version_waits_for_the_next(stack):  # noqa: F811
    stack.stream()
    web = stack.web(workers=1, threads=2)
    code, tokens = private_game(web.url)
    view = call(web.url, "GET", f"/api/v1/games/{code}/", tokens[0])[1]
    request = stream_request(view["stream_url"], tokens[0], **{"Last-Event-ID": view["version"]})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.readline() == b"retry: 2000\n"
        assert response.readline() == b"\n"
        move = {"token": "stake", "targets": [2]}
        status, after = call(
            web.url, "POST", f"/api/v1/games/{code}/actions/place_token/", tokens[0], move
        )
        assert status == 200, after
        assert response.readline() == f"id: {after['version']}\n".encode()


def test_a_view_stream_carries_what_a_get_of_the_view_answers_that_viewer(stack):  # noqa: F811
    """With ?view=1 each event is the viewer's own game view, as its GET answers it at that
    version: a seat's view to the seat, the spectator view (no secret) to a spectator."""
    stack.stream()
    web = stack.web(workers=1, threads=2)
    code, tokens = private_game(web.url, spectators=True)
    spectator = guest(web.url, "Spectator")
    path = f"/api/v1/games/{code}/"
    seen = call(web.url, "GET", path, tokens[1])[1]
    url = seen["stream_url"]
    held = {"Last-Event-ID": seen["version"]}  # the seat has this one: its next event is news
    seat = urllib.request.urlopen(stream_request(f"{url}?view=1", tokens[1], **held), timeout=30)
    watcher = urllib.request.urlopen(stream_request(f"{url}?view=true", spectator), timeout=30)
    with seat, watcher:
        now = call(web.url, "GET", path, spectator)[1]  # nothing moved since `seen`
        assert next_event(watcher) == (seen["version"], "view", now)  # at once: none was held
        move = {"token": "stake", "targets": [3]}
        status, after = call(web.url, "POST", f"{path}actions/place_token/", tokens[0], move)
        assert status == 200, after
        version = after["version"]
        mine = call(web.url, "GET", path, tokens[1])[1]
        assert mine["version"] == version and mine["me"]["seat"] == 2
        assert next_event(seat) == (version, "view", mine)
        public = call(web.url, "GET", path, spectator)[1]
        assert next_event(watcher) == (version, "view", public)
        assert "me" not in public and public["offer"] is None and public["pending"] == []


@pytest.mark.long(14)
def test_200_open_streams_each_hear_of_every_move_while_the_moves_are_answered(stack):  # noqa: F811
    # 200 streams of six players from one address: above the default caps, raised here.
    stack.stream(env={"STREAM_LIMIT_PER_USER": "50", "STREAM_LIMIT_PER_ADDRESS": "250"})
    web = stack.web(workers=2, threads=4)
    code, tokens = private_game(web.url)
    url = call(web.url, "GET", f"/api/v1/games/{code}/", tokens[0])[1]["stream_url"]
    moves, delays = [], []
    with Listeners(url, tokens, 200) as listeners:
        for seat in range(1, PLAYERS + 1):
            for kind, step in (("stake", 1), ("stake", 2)):
                target = (seat - 1 + step) % PLAYERS + 1
                started = time.monotonic()
                status, view = call(
                    web.url,
                    "POST",
                    f"/api/v1/games/{code}/actions/place_token/",
                    tokens[seat - 1],
                    {"token": kind, "targets": [target]},
                )
                answered = time.monotonic()
                assert status == 200, view
                moves.append(answered - started)
                heard = listeners.heard_at(view["version"], seconds=60)
                delays.extend(max(0.0, t - answered) for t in heard)
    assert len(delays) == 200 * len(moves)
    print(
        f"{len(moves)} moves with 200 streams open: move p50 {statistics.median(moves) * 1000:.0f}"
        f" ms; each stream heard of each move after p95 "
        f"{sorted(delays)[int(len(delays) * 0.95)] * 1000:.0f} ms"
    )


def test_a_stream_ends_when_its_token_is_revoked(stack):  # noqa: F811
    stack.stream(env={"STREAM_RECHECK_SECONDS": "1"})
    web = stack.web(workers=1, threads=2)
    code, tokens = private_game(web.url)
    view = call(web.url, "GET", f"/api/v1/games/{code}/", tokens[1])[1]
    with urllib.request.urlopen(stream_request(view["stream_url"], tokens[1]), timeout=30) as s:
        assert s.readline() == b"retry: 2000\n"
        assert call(web.url, "DELETE", "/api/v1/auth/token/", tokens[1])[0] in (200, 204)
        ended_at = time.monotonic() + 20
        while s.readline():  # the version event, heartbeats, then the end of the stream
            assert time.monotonic() < ended_at, "the stream outlived its token"
