"""The unchanged poll, answered before the rest of the stack.

Most requests a game serves are polls that find nothing new: the page's `/g/{code}/changed?v=N`
(204) and the API's `GET /api/v1/games/{code}/` with `If-None-Match` (304). This middleware,
placed right after SecurityMiddleware (which still redirects plain HTTP and adds its headers),
answers exactly those from one cache round trip: the game's poll key (its version, written by
games.services after every commit) and whether spectators may watch; for the API, the token's
cached user and the version this token was last allowed to see (games/domain/polls.py,
`viewer_key`). Sessions, users, CSRF, URL resolution and templates never run for them.

It answers only when the answer is certainly "no change, and you may know it":
- the version named is the current one, and
- anyone may watch (spectators on), or the request proves the viewer may: the page's poll token
  for this version and this session, or (API) a live token that was shown this version.
Everything else (a change, a cache miss, a stranger, a bad token, a malformed request) goes on
down the stack to the views, which decide as before: a stranger still gets the same 404 (page)
or 403 (API) whatever version they name. The headers are those the stack would add.
"""

from __future__ import annotations

import functools
import re
import time

from csp.utils import build_policy
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.core.signals import setting_changed
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers

from games.domain import polls
from games.domain.poll_keys import deadline_key, open_key, poll_fresh, version_key
from games.services.api_tokens import digest_of, token_cache_key
from games.web.converters import GameCodeConverter

_CODE = GameCodeConverter.regex
PAGE_POLL = re.compile(rf"/g/({_CODE})/changed")
API_GAME = re.compile(rf"/api/v1/games/({_CODE})/")


class QuickPoll:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = _answer(request) if request.method == "GET" else None
        return response or self.get_response(request)


def _answer(request) -> HttpResponse | None:
    path = request.path_info
    page = PAGE_POLL.fullmatch(path)
    api = None if page else API_GAME.fullmatch(path)
    if not (page or api) or not _host_allowed(request):
        return None
    if page:
        return _page_poll(request, page[1].upper())
    return _api_poll(request, api[1].upper())


def _host_allowed(request) -> bool:
    try:
        request.get_host()
    except DisallowedHost:  # the stack answers it (400)
        return False
    return True


def _page_poll(request, code: str) -> HttpResponse | None:
    keys = [version_key(code), open_key(code), deadline_key(code)]
    found = cache.get_many(keys)
    if len(found) != 3 or request.GET.get("v") != str(found[keys[0]]):
        return None
    version = found[keys[0]]
    if not poll_fresh(found[keys[2]], version, time.time()):
        return None  # the window is overdue (or we cannot tell): the view closes it
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if found[keys[1]] is not True and not polls.page_token_valid(
        request.GET.get("p"), code, version, session_key
    ):
        return None
    response = _headed(HttpResponse(status=204))
    patch_vary_headers(response, ("Cookie",))
    return response


def _api_poll(request, code: str) -> HttpResponse | None:
    held = request.headers.get("If-None-Match")
    auth = request.headers.get("Authorization", "")
    if not held or not auth.startswith("Token "):
        return None
    token = auth[6:].strip()
    keys = [
        token_cache_key(token),
        version_key(code),
        open_key(code),
        polls.viewer_key(code, digest_of(token)),
        deadline_key(code),
    ]
    found = cache.get_many(keys)
    if found.get(keys[0]) is None or keys[1] not in found:  # unknown or revoked token; a miss
        return None
    version = found[keys[1]]
    if not poll_fresh(found.get(keys[4]), version, time.time()):
        return None  # the window is overdue (or we cannot tell): the view closes it
    etag = f'"{version}"'
    if etag not in {t.strip().removeprefix("W/") for t in held.split(",")}:
        return None
    if found.get(keys[2]) is not True and found.get(keys[3]) != version:
        return None
    response = _headed(HttpResponseNotModified())
    response["ETag"] = etag
    patch_vary_headers(response, ("Authorization", "Cookie"))
    return response


def _headed(response: HttpResponse) -> HttpResponse:
    """The headers the rest of the stack gives every answer (SecurityMiddleware, above this one,
    adds its own): never stored, never framed, the same Content-Security-Policy."""
    response["Cache-Control"] = "no-store"
    response["X-Frame-Options"] = settings.X_FRAME_OPTIONS
    policy = _policy()
    if policy:
        response["Content-Security-Policy"] = policy
    return response


@functools.cache
def _policy() -> str:
    return build_policy()


def _forget_policy(*, setting, **kwargs) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _policy.cache_clear()


setting_changed.connect(_forget_policy)
