"""Middleware of our own."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.middleware.gzip import GZipMiddleware

from staked import limits, query_params
from staked.errors import NOT_FOUND, is_api, json_error


class CompressPages(GZipMiddleware):
    """Gzip for HTML (a game page's update is about 30 KB of HTML, a few KB compressed), as
    the phone asks for it (Accept-Encoding). Django's own middleware, with its BREACH mitigation
    (random bytes in each gzip header), limited to pages:

    - never the API: compressing turns the version ETag weak (`W/"12"`), which If-Match, a strong
      comparison, could no longer match;
    - never an event stream (text/event-stream): gzip would hold its events back until a block
      filled."""

    def process_response(self, request, response):
        if not response.get("Content-Type", "").startswith("text/html"):
            return response
        return super().process_response(request, response)


class RequestLineLimit:
    """A path and query string longer than MAX_URL_LENGTH is refused with 414 (JSON on the
    API). gunicorn reads request lines of up to 8190 bytes (`limit_request_line`, raised from
    its 4094 in the Procfile and scripts/gunicorn.conf.py) and answers longer ones itself with a
    plain-text 400 that Django never sees; between the two limits, this answer is ours."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.MAX_URL_LENGTH
        if len(request.get_full_path()) > limit:
            detail = f"The address is longer than {limit} characters."
            if is_api(request):
                return json_error("uri_too_long", detail, 414)
            return HttpResponse(detail, status=414, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


class ResponseHeaders:
    """Headers every dynamic answer gets:

    - `Cache-Control: no-store` unless the view chose its own: pages and API answers carry one
      player's secrets, and no cache (a shared proxy, the browser's disk) may keep them.
    - `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (the IETF draft's names) and
      `RateLimit-Policy` where a rate limit counted the request (staked/limits.py): the scope
      with the least left, when several did; a refused move is moved to the refusals budget
      first (`limits.settle`).
    - On the API, a 404 is JSON even under DEBUG, whose HTML page Django shows instead of
      handler404 (an unknown route, a malformed game code).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with limits.counting() as verdicts:
            response = self.get_response(request)
            # A refused move goes to the refusals budget, not the moves' (staked/limits.py).
            limits.settle(verdicts, response.status_code)
        if response.status_code == 404 and is_api(request) and _is_html(response):
            # DEBUG's technical 404 page (Django skips handler404 then): the API answers JSON
            # always, as staked.errors.page_not_found does without DEBUG.
            response = json_error("not_found", NOT_FOUND, 404)
        if not response.has_header("Cache-Control"):
            response["Cache-Control"] = "no-store"
        if verdicts:
            tightest = min(verdicts, key=lambda v: (v.remaining, -v.reset))
            response["RateLimit-Limit"] = str(tightest.limit)
            response["RateLimit-Remaining"] = str(tightest.remaining)
            response["RateLimit-Reset"] = str(tightest.retry_after or tightest.reset)
            response["RateLimit-Policy"] = ", ".join(
                f'{v.limit};w={v.window};comment="{v.scope}"' for v in verdicts
            )
        return response


def _is_html(response) -> bool:
    return response.get("Content-Type", "").startswith("text/html")


class KnownQueryParameters:
    """On the API, a query parameter the operation does not read is `400 bad_request` naming
    it (staked/query_params.py), as an unknown body field is: a client's typo or a parameter of
    another operation (`?page=2` where paging is `offset`) is never silently ignored."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not is_api(request) or not request.GET:
            return None
        match = request.resolver_match
        unknown = query_params.unknown(match.view_name if match else "", request.GET.keys())
        if not unknown:
            return None
        names = ", ".join(unknown)
        problems = {name: ["Unknown query parameter."] for name in unknown}
        return json_error("bad_request", f"Unknown query parameters: {names}.", 400, problems)
