"""Errors outside the views' own handling: on the API every error is
the JSON `{"code", "detail"}` the schema promises, whatever raised it; pages keep their HTML.

Django calls these for a URL that matches no route (a malformed game code among them), an
exception no view caught (500), a SuspiciousOperation such as a body over
DATA_UPLOAD_MAX_MEMORY_SIZE in a form (400) and a PermissionDenied (403). DRF's own errors go
through games.api.errors.handle.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.views import defaults

API_PREFIX = "/api/"


def is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


def json_error(code: str, detail: str, status: int, errors: dict | None = None) -> JsonResponse:
    body = {"code": code, "detail": detail}
    if errors is not None:  # a 400 bad_request's field -> problems (games.api.errors)
        body["errors"] = errors
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response


def bad_request(request, exception):
    if is_api(request):
        if isinstance(exception, RequestDataTooBig):
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            return json_error("too_large", f"The body is larger than {limit} bytes.", 413)
        return json_error("bad_request", "The request could not be read.", 400)
    return defaults.bad_request(request, exception)


def permission_denied(request, exception):
    if is_api(request):
        return json_error("forbidden", "You may not do this.", 403)
    return defaults.permission_denied(request, exception)


NOT_FOUND = "Nothing is here: check the address."


def page_not_found(request, exception):
    if is_api(request):
        return json_error("not_found", NOT_FOUND, 404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    if is_api(request):
        return json_error(
            "server_error", "Something went wrong on our side. It was logged; try again.", 500
        )
    return defaults.server_error(request)
