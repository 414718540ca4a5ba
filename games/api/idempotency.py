"""Idempotent retries of actions: a client that lost an answer sends the same request
again with the same `Idempotency-Key` header and gets the first answer (status and body),
without the move being made twice.

A key belongs to one player at one game, and is kept for a day in the cache (Redis in
production, shared by every web process). The first request with a key marks it as in progress
(an atomic `cache.add`) and stores its answer; a retry that arrives while the first is still
running waits for that answer, up to WAIT_SECONDS. The same key with a different action or body
is refused: `422 idempotency_key_reused`. Answers are kept whatever they were (200 or a refusal
such as `409 stale`): a retry repeats the first answer, it does not try again; use a new key to
try again. What is not an answer to the move is not kept: a request refused before it (`401`,
`429`) never reaches this module."""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable

from django.core.cache import cache
from rest_framework.response import Response

from games.services import GameError

HEADER = "Idempotency-Key"
TTL_SECONDS = 24 * 60 * 60
WAIT_SECONDS = 10  # how long a retry waits for the first request's answer
LOCK_SECONDS = 30  # an in-progress mark outlives no request (one that died frees its key)
KEY_PATTERN = re.compile(r"[\x21-\x7e]{1,255}")  # printable ASCII, no spaces
REPLAYED = "Idempotent-Replayed"


def key_of(request) -> str | None:
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not KEY_PATTERN.fullmatch(key):
        raise GameError(
            "bad_request", f"{HEADER} must be 1 to 255 printable characters, no spaces.", 400
        )
    return key


def fingerprint(action: str, body) -> str:
    """What makes a retry the same request: the action and the JSON body, keys in any order."""
    canonical = json.dumps([action, body], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def once(
    key: str, *, user_id: int, code: str, fingerprint: str, run: Callable[[], Response]
) -> Response:
    """`run()`'s answer the first time; the stored answer on every retry with this key. A retry
    that finds the key in progress waits for its answer; if the first request died without one
    (a server error), the retry runs in its place."""
    digest = hashlib.sha256(key.encode()).hexdigest()
    answer_key = f"idem:{user_id}:{code}:{digest}"
    lock_key = f"{answer_key}:running"
    deadline = time.monotonic() + WAIT_SECONDS
    while not cache.add(lock_key, fingerprint, timeout=LOCK_SECONDS):
        stored = cache.get(answer_key)
        if stored is not None:
            return _replayed(stored, fingerprint)
        running = cache.get(lock_key)
        if running is not None and running != fingerprint:
            raise _reused()
        if time.monotonic() > deadline:
            raise GameError(
                "idempotency_in_progress",
                "A request with this Idempotency-Key is still running: retry in a moment.",
                409,
            )
        time.sleep(0.05)
    try:
        stored = cache.get(answer_key)
        if stored is not None:  # answered before this request took the mark
            return _replayed(stored, fingerprint)
        response = run()
        cache.set(answer_key, _stored(response, fingerprint), timeout=TTL_SECONDS)
        return response
    finally:
        cache.delete(lock_key)


def _stored(response: Response, fingerprint: str) -> dict:
    return {
        "fingerprint": fingerprint,
        "status": response.status_code,
        "data": response.data,
        "etag": response.get("ETag"),
    }


def _replayed(stored: dict, fingerprint: str) -> Response:
    if stored["fingerprint"] != fingerprint:
        raise _reused()
    response = Response(stored["data"], status=stored["status"])
    if stored["etag"]:
        response["ETag"] = stored["etag"]
    response[REPLAYED] = "true"
    return response


def _reused() -> GameError:
    return GameError(
        "idempotency_key_reused",
        "This Idempotency-Key was used for a different request: use a new key for a new one.",
        422,
    )
