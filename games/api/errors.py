"""One exception handler for the whole API: every error is `{"code", "detail"}` (docs/api.md);
a refused body (`400 bad_request` from validation) adds `errors`: field -> problems, or for a
nested object field -> its own field -> problems."""

from __future__ import annotations

import math

from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.domain.errors import refusal
from staked import limits

DRF_CODES = {
    exceptions.ParseError: "bad_request",
    exceptions.ValidationError: "bad_request",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "not_authenticated",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "rate_limited",
}


def handle(exc, context):
    refused = refusal(exc)  # a service's or the engine's refusal (games/domain/errors.py)
    if refused is not None:
        return Response({"code": refused.code, "detail": refused.detail}, status=refused.status)
    response = exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for cls, c in DRF_CODES.items() if isinstance(exc, cls)), "error")
    body = {"code": code, "detail": _detail(exc)}
    if isinstance(exc, exceptions.Throttled):  # one wording for every 429 (staked/limits.py)
        body["detail"] = limits.refusal(max(1, math.ceil(exc.wait or 1)))
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        body["errors"] = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        body["detail"] = getattr(exc, "summary", body["detail"])
    if response.status_code == status.HTTP_401_UNAUTHORIZED:
        body["detail"] = (
            "Sign in first: send 'Authorization: Token <token>' (POST /api/v1/auth/guest/)."
        )
    response.data = body
    return response


def _detail(exc) -> str:
    detail = exc.detail
    if isinstance(detail, dict):
        field, problems = next(iter(detail.items()))
        problem = problems[0] if isinstance(problems, list) else problems
        if isinstance(problem, dict):
            return _detail(exceptions.ValidationError(problem))
        return f"{field}: {problem}"
    if isinstance(detail, list):
        return str(detail[0])
    return str(detail)
