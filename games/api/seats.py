"""Seats in the API v1: "I'm still here", vacation mode, the host's remedies
for a seat flagged as away (a bot, a handover link) and the link's claim, the link that opens your
seat on another device, and the rematch that seats everyone again."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.api import serializers as s
from games.api.respond import ERRORS, display_name, errors, refusal, valid, view_response
from games.api.serializers import name_text, text
from games.domain import identity, seat_link_tokens
from games.domain.errors import GameError
from games.selectors import game as selectors
from games.services import seat_links, seats
from games.services.vacation import check_span


class VacationIn(serializers.Serializer):
    """An absence in a slow game: a bot plays your seat from `from` (left out: now) until
    `until`, then hands it back. Times in ISO 8601 with an offset (no offset: UTC)."""

    until = serializers.DateTimeField(
        help_text="after `from`, and at most 14 days from now: the seat is yours again then"
    )

    def get_fields(self):
        start = serializers.DateTimeField(
            required=False, allow_null=True, help_text="now or later; left out or null: now"
        )
        return {"from": start, **super().get_fields()}

    def validate(self, attrs):
        try:
            attrs["from"] = check_span(attrs.get("from"), attrs["until"], timezone.now())
        except GameError as exc:
            raise serializers.ValidationError({exc.field: [exc.detail]}) from exc
        return attrs


class SeatClaimIn(serializers.Serializer):
    token = text(64, help_text="from the host's handover link")
    name = name_text(required=False)


class SeatInviteOut(serializers.Serializer):
    seat = serializers.IntegerField()
    token = serializers.CharField(help_text="one use; POST it to /games/{code}/claim/")
    url = serializers.URLField(help_text="the page link that does the same")


class SeatLinkOut(serializers.Serializer):
    url = serializers.URLField(
        help_text="opens your seat on any browser, once; keep it secret (it signs in as you, "
        "at this game only)"
    )
    expires_at = serializers.DateTimeField()


class SeatHereView(APIView):
    """ "I'm still here": a player whose seat is flagged as away (`afk`) keeps it with one call.
    The flag and the missed-window count go, a handover link for the seat stops working, and the
    table reads that the player is back. Without a flag it only counts as a sign of presence."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: s.GameViewOut,
            **errors(401),
            403: refusal("forbidden (no seat at this table)"),
            404: refusal("not_found"),
            409: refusal("wrong_phase (the game is not running)"),
        },
    )
    def post(self, request, code: str):
        game = seats.seat_here(code=code.upper(), user=request.user)
        return view_response(game, request)


class VacationView(APIView):
    """Vacation mode (slow games, docs/slow-games.md "Vacation"): POST announces your absence
    from `from` (left out: now) until `until` (at most 14 days ahead); meanwhile a bot plays your
    seat with the sensible strategy from your seat's own view, the table sees
    `seats[].vacation_until`, and at `until` the seat is yours again. A new POST replaces the
    announcement. DELETE: "I'm back" (or drop the one announced). A move of your own ends it too."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "actions"

    @extend_schema(
        operation_id="games_vacation_set",
        request=VacationIn,
        responses={
            200: s.GameViewOut,
            **errors(400, 401, 429),
            403: refusal("forbidden (no seat at this table)"),
            404: refusal("not_found"),
            409: refusal("wrong_phase (the game is over) | not_slow (a live game)"),
        },
    )
    def post(self, request, code: str):
        data = valid(VacationIn, request.data)
        game = services.vacation_set(
            code=code.upper(), user=request.user, start=data["from"], until=data["until"]
        )
        return view_response(game, request)

    @extend_schema(
        operation_id="games_vacation_end",
        request=None,
        responses={
            200: s.GameViewOut,
            **errors(401, 429),
            403: refusal("forbidden (no seat at this table)"),
            404: refusal("not_found"),
            409: refusal("no_vacation (none announced)"),
        },
    )
    def delete(self, request, code: str):
        game = services.vacation_cancel(code=code.upper(), user=request.user)
        return view_response(game, request)


class SeatBotView(APIView):
    """The host gives a seat flagged as away (`afk`) to a bot, which plays it from now on."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: s.GameViewOut,
            **errors(401),
            403: refusal("forbidden (not the host)"),
            404: refusal("not_found"),
            409: refusal("wrong_phase | host_seat | not_afk (the seat is not flagged as away yet)"),
        },
    )
    def post(self, request, code: str, seat: int):
        game = seats.seat_to_bot(code=code.upper(), user=request.user, seat=seat)
        return view_response(game, request)


class SeatInviteView(APIView):
    """The host makes a one-time link handing a seat flagged as away (or a bot's) to a new friend;
    a new link replaces the seat's previous one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            201: SeatInviteOut,
            **errors(401),
            403: refusal("forbidden (not the host)"),
            404: refusal("not_found"),
            409: refusal("wrong_phase | host_seat | not_afk (the seat is not flagged as away yet)"),
        },
    )
    def post(self, request, code: str, seat: int):
        game, token = seats.seat_invite(code=code.upper(), user=request.user, seat=seat)
        url = request.build_absolute_uri(reverse("seat-claim", args=[game.code, token]))
        return Response({"seat": seat, "token": token, "url": url}, status=status.HTTP_201_CREATED)


class SeatClaimView(APIView):
    """Take over the seat a host's handover link is for: its role and secrets are yours now."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=SeatClaimIn,
        responses={
            200: s.GameViewOut,
            **errors(400, 401),
            404: refusal("not_found | invite_invalid (used or withdrawn)"),
            409: refusal("wrong_phase | already_seated"),
        },
    )
    def post(self, request, code: str):
        data = valid(SeatClaimIn, request.data)
        name = data.get("name") or display_name(request.user)
        game = seats.seat_claim(
            code=code.upper(), user=request.user, token=data["token"], name=name
        )
        return view_response(game, request)


class RematchView(APIView):
    """A finished game's player opens the rematch lobby (201), with the same options and everyone
    seated; later taps return it (200), seating again a player who had left it."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "games"

    @extend_schema(
        request=None,
        responses={
            200: s.GameViewOut,
            201: s.GameViewOut,
            **errors(401),
            403: refusal("forbidden (not a player of this game)"),
            404: refusal("not_found"),
            409: refusal("wrong_phase (not over yet)"),
            429: ERRORS[429],
        },
    )
    def post(self, request, code: str):
        game, created = seats.rematch_open(code=code.upper(), user=request.user)
        return view_response(game, request, status.HTTP_201_CREATED if created else 200)


class SeatLinkView(APIView):
    """A signed link that signs a browser in to the caller's own seat at this game (the game
    page's "Continue on another device"): how a player who plays through the API, a guest with
    a token, reaches their seat on the pages. It works once, for 7 days, at this table only."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            201: SeatLinkOut,
            **errors(401),
            403: refusal("not_seated (you have no seat at this game)"),
            404: refusal("not_found"),
        },
    )
    def post(self, request, code: str):
        game = selectors.game_get(code.upper())
        if request.session.get(seat_links.SCOPE_KEY):  # a browser a link signed in makes none
            raise GameError("forbidden", "Ask for a link on the device you first played on.", 403)
        link = seat_link_tokens.for_user(game, request.user)
        if link is None:
            raise GameError("not_seated", "You have no seat at this game.", 403)
        url = request.build_absolute_uri(reverse("seat-link", args=[game.code, link.token]))
        return Response({"url": url, "expires_at": link.expires_at}, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={
            204: None,
            **errors(401),
            403: refusal("not_seated (you have no seat at this game)"),
            404: refusal("not_found"),
        },
    )
    def delete(self, request, code: str):
        """Sign out other devices: every link of the caller's seat is cancelled, used or not,
        and every browser one signed in is signed out; the caller keeps playing."""
        game = selectors.game_get(code.upper())
        if request.session.get(seat_links.SCOPE_KEY):
            raise GameError(
                "forbidden", "Sign out other devices from the device you first played on.", 403
            )
        player = identity.player_of(game, request.user)
        if player is None or player.is_bot:
            raise GameError("not_seated", "You have no seat at this game.", 403)
        seat_links.sign_out_others(player)
        return Response(status=status.HTTP_204_NO_CONTENT)
