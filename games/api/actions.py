"""Moves in the API v1: `POST /games/{code}/actions/{action}/`, one operation per action in the
schema (`action_view`), each with its own body (games/domain/inputs.py) and documentation
(games/api/schema.py); If-Match and Idempotency-Key as docs/api.md says."""

from __future__ import annotations

import re

from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.api import idempotency, schema
from games.api import serializers as s
from games.api.respond import errors, refusal, valid, view_response
from games.domain import inputs, offer_tokens
from games.domain.errors import DomainError
from games.engine import IllegalAction
from games.services import GameError
from staked.rest import BadRequestOut

IF_MATCH = OpenApiParameter(
    "If-Match",
    {"type": "string", "pattern": rf'^(W/)?"?([0-9]{{1,18}}|{offer_tokens.PATTERN})"?$'},
    OpenApiParameter.HEADER,
    description="act only on what you saw, else 409 stale: your view's `offer` "
    '(`"o3f2a..."`, the one to send: it moves only when what you may do changes, so other '
    "seats' moves do not make yours stale), or the game's `version` (8 or \"8\": any seat's "
    "move makes it stale)",
)


class ActionView(APIView):
    """`POST /games/{code}/actions/{action}/`: one operation per action in the schema
    (`action_view`), each with its own body; an unknown action name is a 400 listing them."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "actions"

    def post(self, request, code: str, action: str):
        key = idempotency.key_of(request)
        if key is None:
            return self._apply(request, code, action)
        return idempotency.once(
            key,
            user_id=request.user.id,
            code=code.upper(),
            fingerprint=idempotency.fingerprint(action, request.data),
            run=lambda: self._answer(request, code, action),
        )

    def _answer(self, request, code: str, action: str) -> Response:
        """The answer as the client gets it, a refusal too, so that a retry can repeat it."""
        try:
            return self._apply(request, code, action)
        except (DomainError, IllegalAction, exceptions.APIException) as exc:
            return self.handle_exception(exc)

    def _apply(self, request, code: str, action: str) -> Response:
        serializer = inputs.ACTIONS.get(action)
        if serializer is None:
            raise GameError(
                "bad_request",
                f"There is no action '{action}'. Known: {', '.join(inputs.ACTIONS)}.",
                400,
            )
        if not isinstance(request.data, dict):
            raise GameError("bad_request", "The body must be a JSON object.", 400)
        args = dict(valid(serializer, request.data))
        version, offer = _if_match(request)
        game = services.action_apply(
            code=code.upper(),
            user=request.user,
            name=action,
            args=args,
            expected_version=version,
            expected_offer=offer,
        )
        return view_response(game, request)


IDEMPOTENCY_KEY = OpenApiParameter(
    idempotency.HEADER,
    {"type": "string", "pattern": r"^[\x21-\x7e]{1,255}$"},
    OpenApiParameter.HEADER,
    description="optional, e.g. a UUID: a retry with the same key (same game, same body) gets "
    "the first answer, status and body, and the move is not made again; kept 24 h. The same "
    "key with another body: 422 idempotency_key_reused.",
)


def action_view(name: str):
    """The view of one action's own route, documented with its body, example and codes."""
    doc = schema.ACTION_DOCS[name]
    refusals = " | ".join(("bad_request", *doc.refusals))
    documented = extend_schema(
        operation_id=f"action_{name}",
        summary=doc.summary,
        description=f"{doc.description}\n\n{ACTION_NOTES}",
        request=EMPTY_BODY if inputs.ACTIONS[name] is inputs.EmptyIn else inputs.ACTIONS[name],
        examples=schema.example(name),
        parameters=[IF_MATCH, IDEMPOTENCY_KEY],
        responses={
            200: OpenApiResponse(s.GameViewOut, description="the game as you now see it"),
            400: OpenApiResponse(BadRequestOut, description=refusals),
            **errors(401),
            403: refusal("forbidden (you hold no seat at this table)"),
            404: refusal("not_found"),
            409: refusal(
                "window_closed (the window's deadline had passed: nothing was done, and the "
                "window is closed now) | wrong_phase | game_over | stale | "
                "idempotency_in_progress (a request with this Idempotency-Key is still running)"
            ),
            422: refusal("idempotency_key_reused (the key came with another request)"),
            **errors(429),
        },
    )
    view = type(f"{name.title().replace('_', '')}ActionView", (ActionView,), {})
    return extend_schema_view(post=documented)(view).as_view()


# Any other action name (a 400 listing the known ones): nothing to document.
any_action_view = extend_schema_view(post=extend_schema(exclude=True))(
    type("AnyActionView", (ActionView,), {})
).as_view()

# drf-spectacular leaves out a serializer with no field: `pass`'s body is stated as it is.
EMPTY_BODY = {
    "application/json": {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
        "description": "no fields: {} (or no body)",
    }
}

ACTION_NOTES = (
    "Answers with the new view and its `ETag`. Seats are named in `targets`, a list; the older "
    "`target` (one seat) is still accepted but deprecated, and both together are a 400. "
    "See docs/api.md, Actions."
)


def _if_match(request) -> tuple[int | None, str | None]:
    """(version, offer): what If-Match names, the game's version or the seat's offer."""
    header = request.headers.get("If-Match")
    if header is None:
        return None, None
    value = header.strip().removeprefix("W/").strip('"')
    if re.fullmatch(offer_tokens.PATTERN, value):
        return None, value
    if re.fullmatch(r"[0-9]{1,18}", value):
        return int(value), None
    raise GameError(
        "bad_request", "If-Match must be your view's offer or the game's version number.", 400
    )
