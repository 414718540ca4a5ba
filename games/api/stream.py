"""Server-Sent Events: a client waits for a game's next change without polling.

`GET /api/v1/games/{code}/stream/` answers `text/event-stream`. Each change of the game sends
one `version` event (`id:` and `data: {"version": N}`); the client then reads the game with
`If-None-Match` as a poll would. With `?view=1` (or `?view=true`) each change sends a `view`
event instead, whose data is the game view exactly as `GET /api/v1/games/{code}/` answers it to
the token's user (`view_of`, which builds every API answer about one game; a spectator's is the
spectator view), so a client plays with no read between events: one read of the game per event
and stream, on the stream server, in place of the GET it saves. A comment line every
HEARTBEAT_SECONDS keeps proxies from closing an idle stream, and the server ends a stream after
MAX_STREAM_SECONDS (the client reconnects with `Last-Event-ID`). The token and the seat are
checked again every STREAM_RECHECK_SECONDS: a revoked token or a seat handed on ends the stream.

Why a process of its own: a waiting client must not hold a server thread. The web server is
gunicorn with threads (WSGI), where one stream would take one of its few threads for as long as
it stays open; the stream server (`stream` in the Procfile) runs the same Django project under
uvicorn (ASGI), where a waiting stream is a coroutine. The web server answers this operation
(to whoever the stream server would admit) with `421 misdirected` and the stream server's
address (STREAM_URL, or the web server's host on STREAM_PORT); a reverse proxy may instead
route this path to the stream server.

What wakes a stream: the game's poll key (games/services/effects.py), which every commit
writes. One watcher per game and process reads it every WATCH_SECONDS and wakes every stream
of that game at once, so a thousand streams of one table cost one cache read per tick.

What a stream tells: the version number, as the ETag of the game view already does, to anyone
who may read that view (a seated player, or anyone when spectators are allowed): nothing else.
A view stream tells what that user's GET of the view would, and nothing a GET would refuse:
before each view event the token and the seat are checked again (a refusal ends the stream).
It marks the seat seen as a GET does (services.seats.seen: the organisers' "last seen"), so a
player who only listens is seen as one who reads is. (The away flag counts missed windows and
moves, never reads: services/away.py.) It closes no overdue window (a GET does: the timers and
the sweeper close them, and the stream then sends the change).

How many: at most STREAM_LIMIT_PER_USER streams open at once per user (all their tokens
together) and STREAM_LIMIT_PER_ADDRESS per client address (staked.limits.open_slot, counted in
the cache across stream processes). One more is `429 rate_limited` with `Retry-After`
(RETRY_AFTER_SECONDS): a client closes one it no longer needs, or waits for one to end. A
stream gives its slots back when it ends, however it ends.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import JsonResponse, StreamingHttpResponse
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer

from games.api.auth import CachedTokenAuthentication
from games.domain import identity
from games.domain.errors import DomainError
from games.domain.options import spectators_allowed
from games.selectors import game as selectors
from games.services import seats
from staked import limits

WATCH_SECONDS = 0.1  # how often a game's watcher reads its poll key
HEARTBEAT_SECONDS = 15.0
MAX_STREAM_SECONDS = 30 * 60
RETRY_MS = 2000  # the reconnection delay the server asks of EventSource clients
RETRY_AFTER_SECONDS = 30  # a refused stream (too many open) tries again after this
VIEW_VALUES = ("1", "true")  # ?view=: each event carries the client's view


async def game_stream(request, code: str):
    code = code.upper()
    try:
        user, _ = await sync_to_async(_admit, thread_sensitive=False)(request, code)
    except DomainError as refusal:
        return _error(refusal.code, refusal.detail, refusal.status)
    except exceptions.AuthenticationFailed as failure:
        return _error("not_authenticated", str(failure.detail), 401)
    seen, view, errors = _asked(request)
    if errors:
        return _error("bad_request", "The request has errors.", 400, errors=errors)
    if not isinstance(request, ASGIRequest):
        return misdirected(request, code)
    slots = await sync_to_async(_Slots.take, thread_sensitive=False)(user, request)
    if slots is None:
        response = _error(
            "rate_limited",
            "Too many streams open: close one you no longer read, or try again in "
            f"{RETRY_AFTER_SECONDS} seconds.",
            429,
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    response = StreamingHttpResponse(
        _events(request, code, seen, slots, view=view),
        content_type="text/event-stream; charset=utf-8",
    )
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    # Given back when the stream ends or when the server closes the response (a client that
    # went before the first event: the generator never ran), whichever comes first.
    response._resource_closers.append(slots.give_back)
    return response


class _Slots:
    """The stream's two slots (its user's and its address's), given back once."""

    def __init__(self, keys: list[tuple[str, str]]):
        self.keys, self.held = keys, True

    @classmethod
    def take(cls, user, request) -> _Slots | None:
        wanted = [
            ("stream-user", f"user:{user.pk}", settings.STREAM_LIMIT_PER_USER),
            ("stream-address", limits.client_address(request), settings.STREAM_LIMIT_PER_ADDRESS),
        ]
        taken = []
        for kind, key, limit in wanted:
            if not limits.open_slot(kind, key, limit):
                for kind_taken, key_taken in taken:
                    limits.close_slot(kind_taken, key_taken)
                return None
            taken.append((kind, key))
        return cls(taken)

    def give_back(self) -> None:
        if self.held:
            self.held = False
            for kind, key in self.keys:
                limits.close_slot(kind, key)


def stream_url(request, code: str) -> str:
    """Where this game's stream is served (the `stream_url` of the game view)."""
    path = f"/api/v1/games/{code}/stream/"
    if settings.STREAM_URL:
        return settings.STREAM_URL.rstrip("/") + path
    if settings.STREAM_PORT and not isinstance(request, ASGIRequest):
        host = urlsplit(f"//{request.get_host()}").hostname
        host = f"[{host}]" if ":" in host else host  # an IPv6 address
        return f"{request.scheme}://{host}:{settings.STREAM_PORT}{path}"
    return request.build_absolute_uri(path)


def view_of(game, user, request) -> dict:
    """The game as `user` sees it (GameViewOut), with its `stream_url`: the body of every API
    answer about one game (games/api/respond.py) and the data of a view stream's events. Like
    any read of the view, it marks the user's seat seen (at most one write a minute)."""
    view = selectors.game_view(game, user)
    view["stream_url"] = stream_url(request, game.code)
    seats.seen(game, (view.get("me") or {}).get("seat"))
    return view


def _admit(request, code: str):
    """(The token's user, the game) when that user may read this game's view (the rules of
    GameView.get), or a refusal."""
    header = request.headers.get("Authorization", "").split()
    if len(header) != 2 or header[0].lower() != "token":
        raise _Refused("not_authenticated", "Send Authorization: Token <your token>.", 401)
    user, _ = CachedTokenAuthentication().authenticate_credentials(header[1])
    game = selectors.game_get(code)
    if not spectators_allowed(game.options) and identity.seat_of(game, user) is None:
        raise _Refused("forbidden", "The host does not allow spectators at this table.", 403)
    return user, game


async def _still_admitted(request, code: str) -> bool:
    try:
        await sync_to_async(_admit, thread_sensitive=False)(request, code)
    except (DomainError, exceptions.AuthenticationFailed):
        return False
    return True


class _Refused(DomainError):
    pass


def misdirected(request, code: str) -> JsonResponse:
    url = stream_url(request, code)
    return _error("misdirected", f"This game's stream is served at {url}", 421, stream_url=url)


def _error(code: str, detail: str, status: int, **extra) -> JsonResponse:
    response = JsonResponse({"code": code, "detail": detail, **extra}, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _asked(request) -> tuple[int | None, bool, dict]:
    """The version the client holds (Last-Event-ID, or ?since=), whether it asks for its view
    in each event (?view=1 or ?view=true), and what is wrong with the request: unknown query
    parameters, versions that are not whole numbers and any other value of `view` are
    refused."""
    errors = {name: ["Unknown parameter."] for name in request.GET if name not in ("since", "view")}
    view = request.GET.get("view")
    if view is not None and view not in VIEW_VALUES:
        errors["view"] = ["1 or true (each event then carries your view), or leave it out."]
    seen = None
    held_as = (
        ("since", request.GET.get("since")),
        ("Last-Event-ID", request.headers.get("Last-Event-ID")),
    )
    for name, held in held_as:
        if held is None:
            continue
        if not held.isascii() or not held.isdigit() or len(held) > 18:
            errors[name] = ["A version: a whole number, 0 or more."]
        else:
            seen = int(held)
    return seen, view is not None, errors


def _view_event(request, code: str) -> tuple[int, str] | None:
    """(The version, the event's data: this user's view of the game now, as JSON exactly as
    the GET of the view renders it), or None when the token or the seat no longer admits it."""
    try:
        user, game = _admit(request, code)
    except (DomainError, exceptions.AuthenticationFailed):
        return None
    # JSON text has no line break outside its strings, and none inside them: one `data:` line.
    return game.version, JSONRenderer().render(view_of(game, user, request)).decode()


async def _events(
    request, code: str, seen: int | None, slots: _Slots, *, view: bool
) -> AsyncIterator[str]:
    watcher = _Watcher.of(code)
    watcher.streams += 1
    sent = seen  # the version of the last view sent (or the client's)
    try:
        yield f"retry: {RETRY_MS}\n\n"
        ends_at = time.monotonic() + MAX_STREAM_SECONDS
        admitted_at = time.monotonic()
        while time.monotonic() < ends_at:
            if time.monotonic() - admitted_at > settings.STREAM_RECHECK_SECONDS:
                if not await _still_admitted(request, code):
                    return  # a revoked token, a seat handed on: the stream ends
                admitted_at = time.monotonic()
            wait = min(HEARTBEAT_SECONDS, settings.STREAM_RECHECK_SECONDS)
            version = await watcher.newer_than(seen, timeout=wait)
            if version is None:
                yield ": still here\n\n"
                continue
            seen = version
            if not view:
                yield f"id: {version}\nevent: version\ndata: {json.dumps({'version': version})}\n\n"
                continue
            event = await sync_to_async(_view_event, thread_sensitive=False)(request, code)
            if event is None:
                return  # a revoked token, a seat handed on: the stream ends
            admitted_at = time.monotonic()
            if event[0] != sent:  # the row may be ahead of the watcher: never the same twice
                sent = event[0]
                yield f"id: {event[0]}\nevent: view\ndata: {event[1]}\n\n"
    finally:
        watcher.streams -= 1
        await sync_to_async(slots.give_back, thread_sensitive=False)()


_WATCHERS: dict = {}  # (event loop, game code) -> its _Watcher


@dataclass
class _Watcher:
    """The newest version of one game in this process, and the streams waiting for a newer one."""

    code: str
    version: int | None = None
    streams: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task | None = None

    @classmethod
    def of(cls, code: str) -> _Watcher:
        key = (asyncio.get_running_loop(), code)
        watcher = _WATCHERS.get(key)
        if watcher is None:
            watcher = _WATCHERS[key] = cls(code)
        if watcher.task is None or watcher.task.done():
            watcher.task = asyncio.get_running_loop().create_task(watcher._watch(key))
        return watcher

    async def newer_than(self, seen: int | None, *, timeout: float) -> int | None:
        """The current version once it differs from `seen`, or None after `timeout` seconds."""
        ends_at = time.monotonic() + timeout
        while self.version is None or self.version == seen:
            left = ends_at - time.monotonic()
            if left <= 0:
                return None
            event = self.changed
            try:
                await asyncio.wait_for(event.wait(), left)
            except TimeoutError:
                return None
        return self.version

    async def _watch(self, key) -> None:
        read = sync_to_async(selectors.game_version, thread_sensitive=False)
        idle_since = time.monotonic()
        while True:
            version = await read(self.code)
            if version != self.version:
                self.version = version
                self.changed.set()
                self.changed = asyncio.Event()  # the next wait is for the next change
            if self.streams:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > 5:  # nobody has listened for a while
                _WATCHERS.pop(key, None)
                return
            await asyncio.sleep(WATCH_SECONDS)
