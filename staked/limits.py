"""Rate limits: one module for the API and the pages.

A *scope* is a named budget, `hits` per `seconds`, counted per *key*: the signed-in user, the
client's address, or an account name. The budgets are `settings.RATE_LIMITS`
(docs/operations.md, "Rate limits and abuse"); what each scope counts, and by what, is `SCOPES`
below. Both faces use them: the API views name theirs in `throttle_scope` (read by `LimitThrottle`,
DRF's throttle class), the page routes wrap their views in `limited(...)` (games/web/urls.py). A
move made on the page and one made through the API therefore draw on the same budget.

Counting is a sliding window over two fixed windows (the current one and, weighted by how much
of it still overlaps the last `seconds`, the previous one), kept in the Django cache so every
web process shares the count (Redis in production; `cache.incr` is atomic there). A burst
across a window's edge is therefore still limited, unlike plain fixed windows. Refused attempts
do not count: a client that waits `Retry-After` gets through.

Refusals of a move (`REFUSALS`): a move that the server refuses and that changes nothing (a 4xx
answer other than 429: `409 stale`, `400 illegal_target`, ...) is given back to the move budget
and counted in a budget of its own instead (`settle`, run by staked.middleware once the answer
is known). A client whose moves race the table's (a seat's offer moved on under it) keeps its
whole move budget; one that loops on refusals is still stopped, by the refusals budget, which
every move checks before it is counted (`LimitThrottle`).

The client's address is `REMOTE_ADDR`, unless `TRUSTED_PROXIES` (docs/configuration.md) says how
many proxies of ours stand in front of the app: only then is `X-Forwarded-For` read, and only
the entry the nearest of our proxies wrote. An IPv6 client is counted by its /64 network, which
one subscriber can otherwise rotate through freely.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render
from rest_framework.throttling import BaseThrottle

from staked.cache import OUTAGE_ERRORS
from staked.rates import Rate

# scope: (what the key is, what it limits) - the rates are settings.RATE_LIMITS[scope]
SCOPES = {
    "auth": ("address", "new guests, registrations and sign-ins, per address"),
    "password": ("account", "password attempts on one account, from anywhere"),
    "games": ("user", "new tables (and rematches) opened, per player"),
    "actions": ("user", "moves, per player"),
    "refusals": ("user", "moves refused with nothing changed, per player (not in `actions`)"),
    "chat": ("seat", "table talk, per seat (games/chat/services.py)"),
    "chat_burst": ("seat", "table talk in a short burst, per seat"),
}


@dataclass(frozen=True)
class Verdict:
    """One counted attempt: allowed or not, and what is left (the RateLimit-* headers)."""

    scope: str
    limit: int
    remaining: int
    reset: int  # seconds until the current counting window ends
    retry_after: int | None  # None when allowed
    window: int
    counter: str | None = None  # the cache entry that counted it (an allowed hit): `refund`
    key: str = ""  # who was counted (a user, an address): `settle`

    @property
    def allowed(self) -> bool:
        return self.retry_after is None


# scope -> the scope its refused attempts are counted in instead (see the module's docstring)
REFUSALS = {"actions": "refusals"}


def rate(scope: str) -> Rate:
    return Rate.parse(settings.RATE_LIMITS[scope])


# The verdicts of the request being answered (staked.middleware.ResponseHeaders reports them in
# RateLimit-* headers), wherever the count was taken: a throttle, a page, a service.
_verdicts: ContextVar[list[Verdict] | None] = ContextVar("rate_limit_verdicts", default=None)


@contextmanager
def counting() -> Iterator[list[Verdict]]:
    """Collect the verdicts of every `hit` made inside (one request)."""
    token = _verdicts.set([])
    try:
        yield _verdicts.get()
    finally:
        _verdicts.reset(token)


def hit(scope: str, key: str, *, now: float | None = None) -> Verdict:
    """Count one attempt in `scope` for `key` (an address, a user id, an account name)."""
    verdict = _count(scope, key, time.time() if now is None else now)
    collected = _verdicts.get()
    if collected is not None:
        collected.append(verdict)
    return verdict


def _count(scope: str, key: str, now: float, *, peek: bool = False) -> Verdict:
    """Count one attempt (`peek`: only say whether one more would fit, counting nothing)."""
    r = rate(scope)
    start = math.floor(now / r.seconds) * r.seconds
    elapsed = now - start
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    current = f"limit:{scope}:{digest}:{start}"
    previous = f"limit:{scope}:{digest}:{start - r.seconds}"
    try:
        if peek:
            count = cache.get(current, 0) + 1
        else:
            cache.add(current, 0, timeout=2 * r.seconds + 1)
            count = cache.incr(current)
    except ValueError:  # expired between the two calls
        cache.set(current, 1, timeout=2 * r.seconds + 1)
        count = 1
    except OUTAGE_ERRORS:  # Redis is down: the limit loosens for the outage, moves still commit
        return Verdict(scope, r.hits, r.hits, math.ceil(r.seconds - elapsed) or 1, None, r.seconds)
    earlier = cache.get(previous, 0)
    before = earlier * (1 - elapsed / r.seconds)
    reset = max(1, math.ceil(r.seconds - elapsed))
    if before + count <= r.hits:
        remaining = max(0, math.floor(r.hits - before - count))
        counter = None if peek else current
        return Verdict(scope, r.hits, remaining, reset, None, r.seconds, counter, key)
    if not peek:
        cache.decr(current)  # a refused attempt does not count
    wait = _wait(r, earlier, count - 1, elapsed)
    return Verdict(scope, r.hits, 0, reset, wait, r.seconds)


def refund(verdict: Verdict) -> Verdict:
    """Give back the attempt `verdict` counted (it turned out to be a refusal): the verdict as
    it now stands, one more remaining."""
    if verdict.counter is None:
        return verdict
    try:
        cache.decr(verdict.counter)
    except (ValueError, *OUTAGE_ERRORS):  # the window's counter is gone: nothing to give back
        pass
    remaining = min(verdict.limit, verdict.remaining + 1)
    return replace(verdict, remaining=remaining, counter=None)


def settle(verdicts: list[Verdict], status: int) -> None:
    """Once a request's answer is known: when it is a refusal that changed nothing (a 4xx
    other than 429), each attempt counted in a scope of `REFUSALS` is given back and counted
    in that scope's refusals budget instead, under the same key. In place."""
    if not 400 <= status < 500 or status == 429:
        return
    for i, verdict in enumerate(list(verdicts)):
        instead = REFUSALS.get(verdict.scope)
        if instead is not None and verdict.allowed and verdict.counter is not None:
            verdicts[i] = refund(verdict)
            hit(instead, verdict.key)  # appended to `verdicts` by `hit`


def _refusals_left(scope: str, key: str) -> Verdict | None:
    """A refused verdict when `scope`'s refusals budget is spent for `key`, else None."""
    instead = REFUSALS.get(scope)
    if instead is None:
        return None
    verdict = _count(instead, key, time.time(), peek=True)
    return None if verdict.allowed else verdict


def _wait(r: Rate, previous: int, current: int, elapsed: float) -> int:
    """Seconds until one more attempt fits: the previous window's weight fades linearly."""
    room = r.hits - 1 - current  # what the current window leaves for the previous one's weight
    if room >= 0 and previous > 0:
        at = r.seconds * (1 - room / previous)  # when previous * (1 - t/seconds) <= room
        return max(1, math.ceil(at - elapsed))
    # The current window alone is full: wait for the next one, where it fades in turn.
    at_next = r.seconds * (1 - (r.hits - 1) / current) if current else 0
    return max(1, math.ceil(r.seconds - elapsed + at_next))


# --- who is counted --------------------------------------------------------------------------


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or the X-Forwarded-For entry our nearest trusted
    proxy wrote (TRUSTED_PROXIES of them stand before the app; a client can prepend anything
    to the header, but never append after what our proxies add)."""
    remote = request.META.get("REMOTE_ADDR", "")
    trusted = settings.TRUSTED_PROXIES
    if trusted > 0:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [a for a in forwarded if a]
        if forwarded:
            remote = forwarded[-min(trusted, len(forwarded))]
    return _network(remote)


def _network(address: str) -> str:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address or "unknown"
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def key_for(scope: str, request) -> str:
    """The key a request is counted under in `scope` (the `account` and `seat` scopes are
    keyed by their callers: `hit("password", f"account:{name}")`)."""
    kind = SCOPES[scope][0]
    user = getattr(request, "user", None)
    if kind == "user" and user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"address:{client_address(request)}"


def check(scope: str, request) -> Verdict:
    """Count one attempt of `request` in `scope`, on either face. A client that spent the
    scope's refusals budget (looping on refused moves) is refused first, without a count."""
    key = key_for(scope, request)
    spent = _refusals_left(scope, key)
    if spent is None:
        return hit(scope, key)
    collected = _verdicts.get()
    if collected is not None:
        collected.append(spent)
    return spent


def refusal(wait: int) -> str:
    """The one wording of a 429, on every face."""
    return f"Too many requests: try again in {wait} second{'s' if wait != 1 else ''}."


# --- the API face ----------------------------------------------------------------------------


class LimitThrottle(BaseThrottle):
    """DRF's throttle for every API view: `throttle_scope` names the view's scope (a dict by
    method, e.g. {"POST": "games"}, limits only those methods)."""

    def allow_request(self, request, view) -> bool:
        scope = getattr(view, "throttle_scope", None)
        if isinstance(scope, dict):
            scope = scope.get(request.method)
        if not scope:
            return True
        self.verdict = check(scope, request)
        return self.verdict.allowed

    def wait(self) -> int | None:
        return self.verdict.retry_after


# --- the page face ---------------------------------------------------------------------------


def limited(scope: str, *, methods=("POST",), only_anonymous: bool = False):
    """Wrap a page view: over the budget, the person gets the friendly 429 page instead.

    `only_anonymous`: count only visitors who are not signed in (the page then makes them a
    guest, which is what the `auth` scope limits on the API)."""

    def decorate(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method in methods and not (only_anonymous and request.user.is_authenticated):
                verdict = check(scope, request)
                if not verdict.allowed:
                    return too_many(request, verdict, kwargs.get("code"))
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def too_many(request, verdict: Verdict, code: str | None = None):
    """The friendly 429 page: what happened, when to retry, and the way back. With htmx it
    replaces the whole page (the usual swap target is only part of it)."""
    context = {"wait": verdict.retry_after, "detail": refusal(verdict.retry_after), "code": code}
    response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(verdict.retry_after)
    if request.headers.get("HX-Request"):
        response["HX-Retarget"] = "body"
        response["HX-Reswap"] = "innerHTML"
    return response


# --- things held open (the event streams) ----------------------------------------------------

OPEN_SLOT_SECONDS = 35 * 60  # a counter outlives the longest stream (30 min) it counts


def open_slot(kind: str, key: str, limit: int) -> bool:
    """Take one of `limit` slots of `kind` for `key` (a user, an address), or refuse (False).
    Unlike `hit`, a slot is held until `close_slot`: it counts what is open now, not what was
    asked lately. The count is in the cache, shared by every process; a process that dies
    holding slots leaves them counted until the counter, untouched for OPEN_SLOT_SECONDS,
    expires. Redis down: the limit loosens for the outage (True)."""
    counter = _slot_key(kind, key)
    try:
        cache.add(counter, 0, timeout=OPEN_SLOT_SECONDS)
        count = cache.incr(counter)
        cache.touch(counter, OPEN_SLOT_SECONDS)
        if count <= limit:
            return True
        cache.decr(counter)
    except ValueError:  # expired between the calls: count this one alone
        cache.set(counter, 1, timeout=OPEN_SLOT_SECONDS)
        return limit >= 1
    except OUTAGE_ERRORS:
        return True
    return False


def close_slot(kind: str, key: str) -> None:
    counter = _slot_key(kind, key)
    try:
        if cache.decr(counter) < 0:  # the counter expired and came back meanwhile
            cache.set(counter, 0, timeout=OPEN_SLOT_SECONDS)
    except (ValueError, *OUTAGE_ERRORS):
        pass


def _slot_key(kind: str, key: str) -> str:
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"open:{kind}:{digest}"
