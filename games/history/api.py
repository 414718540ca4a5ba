"""Your games and how you play, in the REST API v1: `GET /api/v1/me/games/` (the finished games
that count, newest first, a page at a time) and `GET /api/v1/me/stats/` (the figures). The same
reads as the page `/me/games`; errors are the project's `{"code", "detail"}`."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import paging
from games.api.serializers import ROLE_CHOICES
from games.history import selectors
from staked.rest import ErrorOut

PAGE_DEFAULT, PAGE_MAX = 20, 100


class LeftOutOut(serializers.Serializer):
    abandoned = serializers.IntegerField(
        help_text="games you sat at that an organiser stopped before the end: not counted"
    )
    practice = serializers.IntegerField(help_text="finished practice games: not counted")


class PlayerOut(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    is_bot = serializers.BooleanField()


class MyGameOut(serializers.Serializer):
    code = serializers.CharField()
    finished_at = serializers.DateTimeField(help_text="when the game's last move was made")
    rounds = serializers.IntegerField(help_text="how many rounds it lasted")
    seat = serializers.IntegerField(help_text="your seat")
    name = serializers.CharField(help_text="your name at that table")
    role = serializers.ChoiceField(choices=ROLE_CHOICES, help_text="your role, as dealt")
    team = serializers.ChoiceField(
        choices=["hunters", "vampires"],
        help_text="your team at the end (a Mesmerized Hunter plays for the Vampires, R8.3)",
    )
    mesmerized = serializers.BooleanField()
    won = serializers.BooleanField()
    winner = serializers.ChoiceField(choices=["hunters", "vampires"])
    players = PlayerOut(many=True, help_text="everyone at the table, you included, by seat")
    replay_url = serializers.URLField(help_text="the game's public replay page")


class MyGamesOut(serializers.Serializer):
    games = MyGameOut(many=True)
    count = serializers.IntegerField(help_text="how many games count, on every page")
    next = serializers.URLField(allow_null=True, help_text="the next page, or null on the last")
    left_out = LeftOutOut()


class PageIn(serializers.Serializer):
    limit = serializers.IntegerField(
        min_value=1, max_value=PAGE_MAX, default=PAGE_DEFAULT, help_text="games per page"
    )
    offset = serializers.IntegerField(
        min_value=0,
        max_value=1_000_000,
        default=0,
        help_text="games to skip: what `next` holds (follow `next` rather than build it)",
    )


class RoleFiguresOut(serializers.Serializer):
    role = serializers.ChoiceField(choices=ROLE_CHOICES)
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True, help_text="0..1; null with no game")


class MyStatsOut(serializers.Serializer):
    games = serializers.IntegerField(help_text="finished games that count")
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True, help_text="0..1; null with no game")
    by_role = RoleFiguresOut(many=True, help_text="by role as dealt: Hunter, Vampire, Lord")
    mesmerized = serializers.IntegerField(help_text="games in which you were Mesmerized")
    lord_examinations = serializers.IntegerField(
        help_text="times one of your examinations (Investigation, round-1 examination, Last "
        "Will, relic) showed you the Vampire Lord"
    )
    left_out = LeftOutOut()


NOT_AUTHENTICATED = {401: OpenApiResponse(ErrorOut, description="not_authenticated")}


class MyGamesView(APIView):
    """Your finished games that count (abandoned and practice games do not), newest first."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_games",
        parameters=[PageIn],
        responses={
            200: MyGamesOut,
            400: OpenApiResponse(ErrorOut, description="bad_request (limit, offset)"),
            **NOT_AUTHENTICATED,
        },
    )
    def get(self, request):
        page = PageIn(data=request.query_params)
        page.is_valid(raise_exception=True)
        limit, offset = page.validated_data["limit"], page.validated_data["offset"]
        rows = selectors.counted(request.user).prefetch_related("game__players")
        games = [selectors.game_row(request, r) for r in rows[offset : offset + limit]]
        count = rows.count()
        following = offset + limit < count and paging.page_url(request, offset=offset + limit)
        body = {
            "games": games,
            "count": count,
            "next": following or None,
            "left_out": selectors.left_out(request.user),
        }
        return Response(MyGamesOut(body).data)


class MyStatsView(APIView):
    """How you play: games, win rate (overall and by role), times Mesmerized, times an
    examination showed you the Vampire Lord. Abandoned and practice games do not count."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="me_stats", responses={200: MyStatsOut, **NOT_AUTHENTICATED})
    def get(self, request):
        return Response(MyStatsOut(selectors.figures(request.user)).data)
