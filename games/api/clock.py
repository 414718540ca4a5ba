"""The table's clock in the API v1 (docs/slow-games.md "Moving a deadline"): the host
extends, pauses or resumes the open window's deadline, or a living player asks the table to."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.views import APIView

from games import services
from games.api import serializers as s
from games.api.respond import ERRORS, errors, valid, view_response
from staked.rest import ErrorOut


class NothingIn(serializers.Serializer):
    """No fields: an empty object (or no body). Any field is refused as unknown."""


def _stamp_field() -> serializers.CharField:
    return serializers.CharField(
        max_length=40,
        help_text="`clock.stamp` of the view you acted on: if the clock moved since (an "
        "extension, a vote that passed, a pause, a new window), 409 `stale` and nothing is done, "
        "so a double tap or a retried request acts once",
    )


class ClockExtendIn(serializers.Serializer):
    minutes = serializers.IntegerField(
        min_value=1, max_value=7 * 24 * 60, help_text="how much later the open window closes"
    )
    stamp = _stamp_field()


class ClockVoteIn(serializers.Serializer):
    proposal = serializers.ChoiceField(
        choices=["extend", "pause", "resume"],
        help_text="what you ask the table: proposing is a yes; the same proposal again is a yes",
    )
    minutes = serializers.IntegerField(
        min_value=1,
        max_value=7 * 24 * 60,
        required=False,
        help_text="with `extend` only: by how many minutes",
    )
    stamp = _stamp_field()

    def validate(self, attrs):
        if (attrs["proposal"] == "extend") != ("minutes" in attrs):
            raise serializers.ValidationError(
                {"minutes": ["Give minutes with 'extend', and only with it."]}
            )
        return attrs


CLOCK_REFUSALS = {
    **errors(400, 401),
    403: OpenApiResponse(ErrorOut, description="forbidden (not the host; not a living player)"),
    404: OpenApiResponse(ErrorOut, description="not_found"),
    409: OpenApiResponse(
        ErrorOut, description="wrong_phase | already_paused | not_paused | vote_open | stale"
    ),
    429: ERRORS[429],
}


class ClockExtendView(APIView):
    """The host extends the open window: it closes `minutes` later (out of the table's quiet
    hours); `stamp` is the view's `clock.stamp`, so a repeat acts once. Paused, the time the
    window gets back on resume grows instead. The players who still owe a move are told once
    that the deadline moved."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "actions"

    @extend_schema(
        operation_id="games_deadline_extend",
        request=ClockExtendIn,
        responses={200: s.GameViewOut, **CLOCK_REFUSALS},
    )
    def post(self, request, code: str):
        data = valid(ClockExtendIn, request.data)
        game = services.clock_extend(
            code=code.upper(), user=request.user, minutes=data["minutes"], stamp=data["stamp"]
        )
        return view_response(game, request)


class ClockPauseView(APIView):
    """The host pauses the game: no window closes and the timers stop until it is resumed; the
    open window keeps the time it had left."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "actions"

    @extend_schema(
        operation_id="games_deadline_pause",
        request=NothingIn,
        responses={200: s.GameViewOut, **CLOCK_REFUSALS},
    )
    def post(self, request, code: str):
        valid(NothingIn, request.data)
        game = services.clock_pause(code=code.upper(), user=request.user)
        return view_response(game, request)


class ClockResumeView(APIView):
    """The host resumes a paused game: the open window closes after the time it had left."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "actions"

    @extend_schema(
        operation_id="games_deadline_resume",
        request=NothingIn,
        responses={200: s.GameViewOut, **CLOCK_REFUSALS},
    )
    def post(self, request, code: str):
        valid(NothingIn, request.data)
        game = services.clock_resume(code=code.upper(), user=request.user)
        return view_response(game, request)


class ClockVoteView(APIView):
    """A living player asks the table to extend, pause or resume, or agrees to the open proposal
    (the same one again). It passes when more than half of the living seats played by people
    agree (`clock.vote.needed`); an open proposal ends with its window."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "actions"

    @extend_schema(
        operation_id="games_deadline_vote",
        request=ClockVoteIn,
        responses={200: s.GameViewOut, **CLOCK_REFUSALS},
    )
    def post(self, request, code: str):
        data = valid(ClockVoteIn, request.data)
        game = services.clock_vote(
            code=code.upper(),
            user=request.user,
            proposal=data["proposal"],
            minutes=data.get("minutes"),
            stamp=data["stamp"],
        )
        return view_response(game, request)
