"""The chat API: `GET/POST /api/v1/games/{code}/chat/{channel}/` and
`POST /api/v1/games/{code}/chat/{channel}/{message_id}/hide/`. Thin views over
games.chat.services (the only writer) and games.chat.selectors; errors are `{"code", "detail"}`
through games/api/errors.py."""

from __future__ import annotations

from django.utils.cache import patch_vary_headers
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import paging
from games.chat import selectors, services
from games.chat import serializers as s
from games.chat.audience import CHANNELS, channel_access
from games.domain.identity import seat_of
from games.selectors.game import game_get
from games.services import GameError
from staked.rest import PER_VIEWER, BadRequestOut, ErrorOut, UnknownFields, unknown_fields

CHANNEL = OpenApiParameter(
    "channel",
    str,
    OpenApiParameter.PATH,
    enum=list(CHANNELS),
    description="table: everyone seated (spectators read it where the host allows); ghosts: "
    "the Ghosts; den: the Vampires (and the Lord where R1.3 says so), where the host allows",
)
ERRORS = {
    400: OpenApiResponse(ErrorOut, description="bad_request"),
    401: OpenApiResponse(ErrorOut, description="not_authenticated"),
    403: OpenApiResponse(
        ErrorOut, description="channel_forbidden (not your channel now) | forbidden (not host)"
    ),
    404: OpenApiResponse(ErrorOut, description="not_found: no such game, channel or message"),
    409: OpenApiResponse(ErrorOut, description="stale: try again"),
    429: OpenApiResponse(
        ErrorOut, description="rate_limited: 5 messages in 10 s, 30 a minute; see Retry-After"
    ),
}


def _errors(*codes: int) -> dict:
    return {c: ERRORS[c] for c in codes}


def _channel(channel: str) -> str:
    if channel not in CHANNELS:
        known = ", ".join(CHANNELS)
        raise GameError("not_found", f"There is no channel '{channel}'. Known: {known}.", 404)
    return channel


def _number(request, name: str, *, default=None, low: int = 0, high: int | None = None):
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise GameError("bad_request", f"'{name}' must be a whole number.", 400) from None
    if value < low or (high is not None and value > high):
        limits = f"{low}–{high}" if high is not None else f"at least {low}"
        raise GameError("bad_request", f"'{name}' must be {limits}.", 400)
    return value


def _per_viewer(response: Response) -> Response:
    patch_vary_headers(response, PER_VIEWER)
    return response


class ChatView(APIView):
    """A channel of a game's table talk: read a page of it, or post to it."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="games_chat_list",
        parameters=[
            CHANNEL,
            OpenApiParameter("after", int, description="the messages after this id, oldest first"),
            OpenApiParameter(
                "before",
                int,
                description="without `after`: the latest messages before this id (default: the "
                "latest of all)",
            ),
            OpenApiParameter(
                "limit",
                int,
                description=f"at most this many (1–{selectors.MAX_LIMIT}, default "
                f"{selectors.DEFAULT_LIMIT})",
            ),
        ],
        responses={200: s.MessageListOut, **_errors(400, 401, 403, 404)},
    )
    def get(self, request, code: str, channel: str):
        game = game_get(code)
        channel = _channel(channel)
        after = _number(request, "after")
        before = _number(request, "before", low=1)
        if after is not None and before is not None:
            raise GameError("bad_request", "Send 'after' or 'before', not both.", 400)
        limit = _number(
            request, "limit", default=selectors.DEFAULT_LIMIT, low=1, high=selectors.MAX_LIMIT
        )
        page = selectors.messages_for(
            game, request.user, channel, after=after, before=before, limit=limit
        )
        ids = [m["id"] for m in page["messages"]]
        newer = page["more"] and ids and paging.page_url(request, after=ids[-1], before=None)
        older = page["earlier"] and ids and paging.page_url(request, before=ids[0], after=None)
        page.update(next=newer or None, previous=older or None)
        return _per_viewer(Response(page))

    @extend_schema(
        operation_id="games_chat_create",
        parameters=[CHANNEL],
        request=s.MessageIn,
        responses={
            201: s.MessageOut,
            400: OpenApiResponse(
                BadRequestOut, description="bad_request: `errors` says what is wrong"
            ),
            **_errors(401, 403, 404, 409, 429),
        },
    )
    def post(self, request, code: str, channel: str):
        game = game_get(code)
        channel = _channel(channel)
        text = request.data.get("text") if isinstance(request.data, dict) else None
        if isinstance(request.data, dict) and unknown_fields(s.MessageIn(), request.data):
            raise UnknownFields(unknown_fields(s.MessageIn(), request.data))
        try:
            if not isinstance(text, str):
                raise services.InvalidText("Send the message as a string 'text'.")
            message = services.message_post(
                game=game, user=request.user, channel=channel, text=text
            )
        except services.InvalidText as exc:
            errors = {"text": [exc.detail]}
            body = {"code": exc.code, "detail": f"text: {exc.detail}", "errors": errors}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        except services.RateLimited as exc:
            raise exceptions.Throttled(wait=exc.retry_after, detail=exc.detail) from None
        out = selectors.message_out(message, show_hidden=False)
        return _per_viewer(Response(out, status=status.HTTP_201_CREATED))


class HideView(APIView):
    """The host (in a channel they may read) or an organiser hides a message from everyone."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="games_chat_hide",
        parameters=[CHANNEL],
        request=None,
        responses={200: s.MessageOut, **_errors(401, 403, 404)},
    )
    def post(self, request, code: str, channel: str, message_id: int):
        game = game_get(code)
        channel = _channel(channel)
        message = services.message_hide(
            game=game, user=request.user, channel=channel, number=message_id
        )
        reads = channel_access(game, seat_of(game, request.user))[channel].read
        return _per_viewer(Response(selectors.message_out(message, show_hidden=reads)))
