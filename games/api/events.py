"""Following a game in the API v1: its events (`/events/`, the log this viewer may read) and
the schema of its stream of changes (`/stream/`, served by games/api/stream.py)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import paging, stream
from games.api.respond import errors, may_watch
from games.selectors import game as selectors
from games.services import GameError
from staked.rest import ErrorOut

EVENTS_PAGE = 200  # events per page, at most and by default


class EventOut(serializers.Serializer):
    seq = serializers.IntegerField()
    round = serializers.IntegerField()
    kind = serializers.CharField()
    text = serializers.CharField()
    data = serializers.DictField()


class EventListOut(serializers.Serializer):
    events = EventOut(many=True)
    more = serializers.BooleanField(help_text="true: more follow (at `next`)")
    next = serializers.URLField(
        allow_null=True, help_text="the next page (after the last `seq` here), or null on the last"
    )


class MisdirectedOut(ErrorOut):
    stream_url = serializers.URLField(help_text="where this game's stream is served")


class EventsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after",
                {"type": "integer", "minimum": 0},
                description="only events with a larger seq (0 or more): what `next` holds",
            ),
            OpenApiParameter(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": EVENTS_PAGE},
                description=f"events per page (default {EVENTS_PAGE})",
            ),
        ],
        responses={200: EventListOut, **errors(400, 401, 404)},
    )
    def get(self, request, code: str):
        try:
            after = int(request.query_params.get("after", 0))
        except ValueError:
            after = -1
        if after < 0:
            raise GameError("bad_request", "'after' must be a whole number, 0 or more.", 400)
        limit = paging.limit_of(request, default=EVENTS_PAGE, high=EVENTS_PAGE)
        game = selectors.game_get(code)
        may_watch(game, request.user)
        events, more = selectors.events_for(game, request.user, after=after, limit=limit)
        for e in events:
            del e["template"]  # the pages' own (their names in its seats); the text says it all
        following = paging.page_url(request, after=events[-1]["seq"]) if more else None
        return Response({"events": events, "more": more, "next": following})


VERSION = {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}


class StreamView(APIView):
    """The schema of games/api/stream.py's async view (DRF's views are not async); what the web
    server answers there."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Wait for the game's changes (Server-Sent Events)",
        description="A `text/event-stream` from the stream server (its address is the game "
        "view's `stream_url`): `retry: 2000`, then one `event: version` with `id: N` and "
        '`data: {"version": N}` at once and after each change, and a comment line every 15 s. '
        "Read the game with If-None-Match after each event. With `view=1` (or `view=true`) "
        "each of those events is instead `event: view` with `id: N` and, as `data` (one line), "
        "your game view (GameViewOut) at version N exactly as GET /api/v1/games/{code}/ "
        "answers it to you (a spectator's: the spectator view): play from it with no GET "
        "between events. Reconnect with Last-Event-ID; the server ends a stream after 30 "
        "minutes. The web server answers 421 `misdirected` with the `stream_url`.",
        parameters=[
            OpenApiParameter(
                "Last-Event-ID",
                VERSION,
                OpenApiParameter.HEADER,
                description="the last version you saw: no event until a newer one",
            ),
            OpenApiParameter("since", VERSION, description="the same as Last-Event-ID"),
            OpenApiParameter(
                "view",
                {"type": "string", "enum": ["1", "true"]},
                description="each event carries your game view (`event: view`) instead of "
                "the version alone; any other value is 400",
            ),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                OpenApiTypes.STR,
                description="version events, or view events with view=1 (stream server only)",
            ),
            421: OpenApiResponse(MisdirectedOut, description="misdirected"),
            **errors(400, 401, 403, 404),
        },
    )
    def get(self, request, code: str):
        return stream.misdirected(request, code.upper())


game_stream = stream.game_stream
game_stream.cls = StreamView  # drf-spectacular documents the APIView behind this function
game_stream.initkwargs = {}
