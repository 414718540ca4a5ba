"""What every resource of the API v1 lends (games/api/urls.py): the documented refusals, a
request body checked against its serializer, and the game as this viewer sees it, with its ETag.
The game view's shape is games/api/serializers.py; each resource's own operations and bodies are
in its module (accounts, games, events, clock, actions, seats)."""

from __future__ import annotations

from django.utils.cache import patch_vary_headers
from drf_spectacular.utils import OpenApiResponse
from rest_framework import status
from rest_framework.response import Response

from games.api import stream
from games.domain import identity
from games.domain.options import spectators_allowed
from games.services import GameError
from staked.rest import PER_VIEWER, BadRequestOut, ErrorOut, check_types

ERRORS = {
    400: OpenApiResponse(BadRequestOut, description="bad_request"),
    401: OpenApiResponse(ErrorOut, description="not_authenticated"),
    403: OpenApiResponse(ErrorOut, description="forbidden"),
    404: OpenApiResponse(ErrorOut, description="not_found"),
    429: OpenApiResponse(ErrorOut, description="rate_limited"),
}


def errors(*codes: int) -> dict:
    """The usual refusals of these status codes, for an operation's `responses`. A 409 has no
    usual code: each operation names its own (`refusal`), and its description's codes become
    the enum of the answer's `code` (games/api/schema.py, `error_codes`)."""
    return {c: ERRORS[c] for c in codes}


def refusal(codes: str) -> OpenApiResponse:
    """A refusal whose codes the operation names itself (`codes`: "not_found | ...")."""
    return OpenApiResponse(ErrorOut, description=codes)


def display_name(user) -> str:
    return user.first_name or user.username


def valid(serializer_class, data):
    """`data` checked by `serializer_class` (a 400 bad_request otherwise), as validated data."""
    serializer = serializer_class(data=data)
    check_types(serializer, data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def etag(version: int) -> str:
    return f'"{version}"'


def if_none_match(header: str) -> set[str]:
    """The versions an If-None-Match names: `"8"`, `W/"8"` and a bare `8` alike."""
    return {t.strip().removeprefix("W/").strip('"') for t in header.split(",")}


def may_watch(game, user) -> None:
    """Refuse (403) a viewer with no seat at a table whose host allows no spectators."""
    if not spectators_allowed(game.options) and identity.seat_of(game, user) is None:
        raise GameError("forbidden", "The host does not allow spectators at this table.", 403)


def view_response(game, request, code=status.HTTP_200_OK) -> Response:
    """The game as the requester now sees it (GameViewOut), with its ETag: the answer of every
    operation that reads or changes one game."""
    view = stream.view_of(game, request.user, request)  # also a view stream's event
    response = Response(view, status=code)
    response["ETag"] = etag(game.version)
    if view.get("offer"):  # the seat's offer (send it as If-Match with a move), as in the body
        response["Offer"] = view["offer"]
    patch_vary_headers(response, PER_VIEWER)
    return response
