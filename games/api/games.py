"""Games in the API v1: the list (your games, your inbox, open lobbies), a new game, one game as
its viewer sees it, and the lobby's join, leave, bots and start (bodies: games_serializers.py)."""

from __future__ import annotations

import hashlib
import json
import secrets

from django.utils.cache import patch_vary_headers
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.api import paging
from games.api import serializers as s
from games.api.games_serializers import BotsIn, GameCreateIn, GameListOut, OptionalNameIn
from games.api.respond import (
    ERRORS,
    display_name,
    errors,
    etag,
    if_none_match,
    may_watch,
    refusal,
    valid,
    view_response,
)
from games.domain import identity, polls
from games.selectors import game as selectors
from games.selectors import listing
from games.services import GameError
from staked.rest import PER_VIEWER, ErrorOut


class GamesView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "games"}

    @extend_schema(
        operation_id="games_list",
        parameters=[
            OpenApiParameter(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": listing.LOBBY_PAGE_MAX},
                description=f"others' open lobbies per page (default {listing.LOBBY_PAGE}); "
                "your own games are all on the first page, before them",
            ),
            OpenApiParameter(
                "page",
                {"type": "integer", "minimum": 1, "maximum": 100_000},
                description="which page: what `next` holds (follow `next` rather than build it)",
            ),
            OpenApiParameter(
                "my_move",
                {"type": "string", "enum": ["true", "false"]},
                description="true: your inbox, only your games that wait on a move of yours "
                "now, soonest deadline first (no lobbies of others, no next page)",
            ),
            OpenApiParameter(
                "If-None-Match",
                str,
                OpenApiParameter.HEADER,
                description="the ETag of a list you hold: 304 with no body while it is the same",
            ),
        ],
        responses={
            200: GameListOut,
            304: OpenApiResponse(description="not changed"),
            **errors(400, 401),
        },
    )
    def get(self, request):
        page = paging.whole_number(request, "page", default=1, low=1, high=100_000)
        limit = paging.limit_of(request, default=listing.LOBBY_PAGE, high=listing.LOBBY_PAGE_MAX)
        my_move = request.query_params.get("my_move", "false")
        if my_move not in ("true", "false"):
            raise GameError("bad_request", "'my_move' must be true or false.", 400)
        following = None
        if my_move == "true":
            games = [
                _list_item(row["game"], request.user, row["seat"], row["your_move"])
                for row in listing.inbox(request.user)
                if row["your_move"]
            ]
        else:
            mine = listing.my_games(request.user) if page == 1 else []
            lobbies, more = listing.open_lobbies(request.user, page=page, size=limit)
            games = [_list_item(game, request.user) for game in mine + lobbies]
            if more:
                following = paging.page_url(request, page=page + 1)
        data = GameListOut({"games": games, "next": following}).data
        tag = _list_etag(data)
        if tag.strip('"') in if_none_match(request.headers.get("If-None-Match", "")):
            response = Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": tag})
        else:
            response = Response(data, headers={"ETag": tag})
        patch_vary_headers(response, PER_VIEWER)
        return response

    @extend_schema(
        request=GameCreateIn,
        responses={
            201: s.GameViewOut,
            **errors(400, 401, 403),
            409: OpenApiResponse(ErrorOut, description="too_many_lobbies"),
            429: ERRORS[429],
        },
    )
    def post(self, request):
        options = dict(valid(GameCreateIn, request.data))
        user = request.user
        if not user.is_staff and ("roles" in options or "relic_deck" in options):
            raise GameError("forbidden", "Only staff may fix the deal or the relic deck.", 403)
        if "seed" in options and not user.is_staff:
            options["seed"] = _mixed_seed(options["seed"])
        name = options.pop("name", None) or display_name(user)
        game = services.game_create(host=user, options=options, name=name)
        return view_response(game, request, status.HTTP_201_CREATED)


def _list_item(game, user, seat=None, your_move: bool | None = None) -> dict:
    players = list(game.players.all())
    seat = seat or identity.player_in(players, user)
    if your_move is None:
        your_move = seat is not None and seat.seat in listing.waiting_on(game)
    return {
        "code": game.code,
        "status": game.status,
        "phase": game.phase,
        "round": game.round,
        "players": len(players),
        "my_seat": getattr(seat, "seat", None),
        "your_move": your_move,
        "deadline": game.deadline,
        "options": selectors.public_options(game.options),
        "updated_at": game.updated_at,
    }


def _list_etag(data) -> str:
    """A list's ETag: a digest of the answer itself (the same list, the same tag)."""
    body = json.dumps(data, sort_keys=True, default=str).encode()
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _mixed_seed(seed: int) -> int:
    """A player's seed mixed with a server secret: a player who could compute the deal from
    their own seed would know every role."""
    digest = hashlib.sha256(f"{seed}:{secrets.token_hex(16)}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


class GameView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                str,
                OpenApiParameter.HEADER,
                description='the ETag or version you hold, 8 or "8" (as If-Match takes it); '
                "304 with no body while the game has not changed",
            )
        ],
        responses={
            200: s.GameViewOut,
            304: OpenApiResponse(description="not changed"),
            **errors(401, 403, 404),
        },
    )
    def get(self, request, code: str):
        game = selectors.game_get(code.upper())
        may_watch(game, request.user)
        game = services.close_if_overdue(game)  # an overdue window closes first
        polls.remember_viewer(game, request.auth)
        if str(game.version) in if_none_match(request.headers.get("If-None-Match", "")):
            response = Response(
                status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag(game.version)}
            )
            patch_vary_headers(response, PER_VIEWER)
            return response
        return view_response(game, request)


_game_view = GameView.as_view()


@csrf_exempt  # as DRF's own views are: DRF checks CSRF for session-authenticated writes
def game_detail(request, code: str):
    """The game for this viewer; the unchanged poll is answered before this
    (games/web/middleware/quickpoll.py)."""
    return _game_view(request, code=code)


# drf-spectacular documents the APIView behind this function.
game_detail.cls = _game_view.cls
game_detail.initkwargs = _game_view.initkwargs


class JoinView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=OptionalNameIn,
        responses={
            200: s.GameViewOut,
            **errors(400, 401, 404),
            409: refusal("wrong_phase (the game has started) | game_full | name_taken"),
        },
    )
    def post(self, request, code: str):
        name = valid(OptionalNameIn, request.data).get("name") or display_name(request.user)
        game = services.game_join(code=code.upper(), user=request.user, name=name)
        return view_response(game, request)


class LeaveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: s.GameViewOut,
            204: OpenApiResponse(description="the table closed"),
            **errors(401, 403, 404),
            409: refusal("wrong_phase (the game has started)"),
        },
    )
    def post(self, request, code: str):
        game = services.game_leave(code=code.upper(), user=request.user)
        if game is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return view_response(game, request)


class BotsView(APIView):
    """The host seats bots in empty seats of the lobby. They play the `sensible` strategy
    (games/bots/strategies; `random` is the other), from their own seat's view only, after a 1–3 s
    pause."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=BotsIn,
        responses={
            200: s.GameViewOut,
            **errors(400, 401, 403, 404),
            409: refusal("wrong_phase (the game has started) | game_full"),
        },
    )
    def post(self, request, code: str):
        count = valid(BotsIn, request.data)["count"]
        game = services.game_add_bots(code=code.upper(), user=request.user, count=count)
        return view_response(game, request)


class StartView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: s.GameViewOut,
            **errors(401, 403, 404),
            409: refusal(
                "not_enough_players (fewer than 6 seated: add bots or wait) | wrong_phase "
                "(already started)"
            ),
        },
    )
    def post(self, request, code: str):
        game = services.game_start(code=code.upper(), user=request.user)
        return view_response(game, request)
