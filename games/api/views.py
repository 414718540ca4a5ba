"""The public REST API v1 (docs/api.md): one thin view per operation, the services working."""

from __future__ import annotations

import hashlib
import json
import secrets

from django.contrib.auth import update_session_auth_hash
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.api import idempotency, schema, stream
from games.api import serializers as s
from games.api.auth import presented_token
from games.domain import identity, inputs, polls, seat_link_tokens
from games.domain.errors import DomainError
from games.domain.options import spectators_allowed
from games.engine import IllegalAction
from games.selectors import game as selectors
from games.selectors import listing
from games.services import GameError, accounts, seat_links, seats
from games.services.api_tokens import issue_token, revoke
from staked import limits
from staked.rest import PER_VIEWER, BadRequestOut, ErrorOut, check_types

ERRORS = {
    400: OpenApiResponse(BadRequestOut, description="bad_request"),
    401: OpenApiResponse(ErrorOut, description="not_authenticated"),
    403: OpenApiResponse(ErrorOut, description="forbidden"),
    404: OpenApiResponse(ErrorOut, description="not_found"),
    409: OpenApiResponse(ErrorOut, description="wrong_phase | game_over | stale | game_full"),
    429: OpenApiResponse(ErrorOut, description="rate_limited"),
}


def _errors(*codes: int) -> dict:
    return {c: ERRORS[c] for c in codes}


def display_name(user) -> str:
    return user.first_name or user.username


def _token_out(user, token: str | None = None) -> dict:
    """`token`, or a new one shown this once: only its digest is kept (games/api/auth.py)."""
    token = token or issue_token(user)
    return {"token": token, "user_id": user.id, "name": display_name(user)}


def _valid(serializer_class, data):
    serializer = serializer_class(data=data)
    check_types(serializer, data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def etag(version: int) -> str:
    return f'"{version}"'


def _view_response(game, request, code=status.HTTP_200_OK) -> Response:
    view = selectors.game_view(game, request.user)
    view["stream_url"] = stream.stream_url(request, game.code)
    seats.seen(game, (view.get("me") or {}).get("seat"))
    response = Response(view, status=code)
    response["ETag"] = etag(game.version)
    patch_vary_headers(response, PER_VIEWER)
    return response


# --- identities ----------------------------------------------------------------------------


class GuestView(APIView):
    """A friend with no account gets a guest identity and a token."""

    permission_classes = [AllowAny]
    throttle_scope = "auth"

    @extend_schema(request=s.NameIn, responses={201: s.TokenOut, **_errors(400, 429)})
    def post(self, request):
        user = services.guest_create(name=_valid(s.NameIn, request.data)["name"])
        return Response(_token_out(user), status=status.HTTP_201_CREATED)


class RegisterView(APIView):
    """Register a user with a password (keeps their games across phones). Sent with a guest's
    token or session, it makes that guest the account: same user and games (200), and the same
    token when it came with one (a session gets a new token)."""

    permission_classes = [AllowAny]
    throttle_scope = "auth"

    @extend_schema(
        request=s.RegisterIn,
        responses={
            200: OpenApiResponse(s.TokenOut, description="the guest who sent it, now registered"),
            201: s.TokenOut,
            **_errors(400, 409, 429),
        },
    )
    def post(self, request):
        data = _valid(s.RegisterIn, request.data)
        user, was_guest = accounts.account_register(
            user=request.user,
            username=data["username"],
            password=data["password"],
            name=data.get("name", ""),
        )
        if was_guest and isinstance(request.successful_authenticator, SessionAuthentication):
            update_session_auth_hash(request._request, user)  # the new password keeps it signed in
        kept = presented_token(request) if was_guest else None
        return Response(
            _token_out(user, kept),
            status=status.HTTP_200_OK if was_guest else status.HTTP_201_CREATED,
        )


class TokenView(APIView):
    """Exchange a username and password for a new token (one per device); revoke one."""

    permission_classes = [AllowAny]
    throttle_scope = "auth"

    @extend_schema(request=s.TokenIn, responses={200: s.TokenOut, **_errors(400, 429)})
    def post(self, request):
        username = request.data.get("username") if isinstance(request.data, dict) else None
        if isinstance(username, str):  # guesses at one account, from any number of addresses
            verdict = limits.hit("password", f"account:{username.lower()}")
            if not verdict.allowed:
                raise exceptions.Throttled(wait=verdict.retry_after)
        data = _valid(AuthTokenSerializer, request.data)
        return Response(_token_out(data["user"]))

    @extend_schema(
        request=None,
        parameters=[
            OpenApiParameter(
                "all",
                bool,
                description="revoke every token of yours (every device), not only this one",
            )
        ],
        responses={
            204: OpenApiResponse(description="revoked: the token no longer signs anyone in"),
            **_errors(400, 401),
        },
    )
    def delete(self, request):
        """Sign out: revoke the token this request carries (`?all=true`: all of yours)."""
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        if request.query_params.get("all") in ("true", "1"):
            revoke(request.user)
        elif isinstance(request.auth, str):  # the digest of the token this request carries
            revoke(request.user, [request.auth])
        else:
            raise GameError(
                "bad_request",
                "Send the token to revoke in 'Authorization: Token <token>', or ?all=true.",
                400,
            )
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- games ---------------------------------------------------------------------------------


class GamesView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "games"}

    @extend_schema(
        operation_id="games_list",
        parameters=[
            OpenApiParameter(
                "page",
                {"type": "integer", "minimum": 1, "maximum": 100_000},
                description=f"page of others' open lobbies ({listing.LOBBY_PAGE} a page); "
                "your own games are all on page 1, before them",
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
            200: s.GameListOut,
            304: OpenApiResponse(description="not changed"),
            **_errors(400, 401),
        },
    )
    def get(self, request):
        page = _whole_number(request, "page", default=1, low=1, high=100_000)
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
            lobbies, more = listing.open_lobbies(request.user, page=page)
            games = [_list_item(game, request.user) for game in mine + lobbies]
            if more:
                query = request.query_params.copy()
                query["page"] = str(page + 1)
                following = request.build_absolute_uri(f"{request.path}?{query.urlencode()}")
        data = s.GameListOut({"games": games, "next": following}).data
        tag = _list_etag(data)
        if tag.strip('"') in _tags(request.headers.get("If-None-Match", "")):
            response = Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": tag})
        else:
            response = Response(data, headers={"ETag": tag})
        patch_vary_headers(response, PER_VIEWER)
        return response

    @extend_schema(
        request=s.GameCreateIn,
        responses={
            201: s.GameViewOut,
            **_errors(400, 401, 403),
            409: OpenApiResponse(ErrorOut, description="too_many_lobbies"),
            429: ERRORS[429],
        },
    )
    def post(self, request):
        options = dict(_valid(s.GameCreateIn, request.data))
        user = request.user
        if not user.is_staff and ("roles" in options or "relic_deck" in options):
            raise GameError("forbidden", "Only staff may fix the deal or the relic deck.", 403)
        if "seed" in options and not user.is_staff:
            options["seed"] = _mixed_seed(options["seed"])
        name = options.pop("name", None) or display_name(user)
        game = services.game_create(host=user, options=options, name=name)
        return _view_response(game, request, status.HTTP_201_CREATED)


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


def _whole_number(request, name: str, *, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.isascii() or not raw.isdigit() or not low <= int(raw) <= high:
        raise GameError(
            "bad_request", f"'{name}' must be a whole number from {low} to {high}.", 400
        )
    return int(raw)


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
            **_errors(401, 403, 404),
        },
    )
    def get(self, request, code: str):
        game = selectors.game_get(code.upper())
        _may_watch(game, request.user)
        game = services.close_if_overdue(game)  # an overdue window closes first
        polls.remember_viewer(game, request.auth)
        if str(game.version) in _tags(request.headers.get("If-None-Match", "")):
            response = Response(
                status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag(game.version)}
            )
            patch_vary_headers(response, PER_VIEWER)
            return response
        return _view_response(game, request)


def _may_watch(game, user) -> None:
    if not spectators_allowed(game.options) and identity.seat_of(game, user) is None:
        raise GameError("forbidden", "The host does not allow spectators at this table.", 403)


def _tags(header: str) -> set[str]:
    """The versions an If-None-Match names: `"8"`, `W/"8"` and a bare `8` alike."""
    return {t.strip().removeprefix("W/").strip('"') for t in header.split(",")}


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
        request=s.OptionalNameIn, responses={200: s.GameViewOut, **_errors(400, 401, 404, 409)}
    )
    def post(self, request, code: str):
        name = _valid(s.OptionalNameIn, request.data).get("name") or display_name(request.user)
        game = services.game_join(code=code.upper(), user=request.user, name=name)
        return _view_response(game, request)


class LeaveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: s.GameViewOut,
            204: OpenApiResponse(description="the table closed"),
            **_errors(401, 403, 404, 409),
        },
    )
    def post(self, request, code: str):
        game = services.game_leave(code=code.upper(), user=request.user)
        if game is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return _view_response(game, request)


class BotsView(APIView):
    """The host seats bots in empty seats of the lobby. They play the `sensible` strategy
    (games/bots/strategies; `random` is the other), from their own seat's view only, after a 1–3 s
    pause."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.BotsIn, responses={200: s.GameViewOut, **_errors(400, 401, 403, 404, 409)}
    )
    def post(self, request, code: str):
        count = _valid(s.BotsIn, request.data)["count"]
        game = services.game_add_bots(code=code.upper(), user=request.user, count=count)
        return _view_response(game, request)


class StartView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: s.GameViewOut, **_errors(401, 403, 404, 409)})
    def post(self, request, code: str):
        game = services.game_start(code=code.upper(), user=request.user)
        return _view_response(game, request)


# --- the table's clock (docs/slow-games.md "Moving a deadline") ----------------------

CLOCK_REFUSALS = {
    **_errors(400, 401),
    403: OpenApiResponse(ErrorOut, description="forbidden (not the host; not a living player)"),
    404: OpenApiResponse(ErrorOut, description="not_found"),
    409: OpenApiResponse(
        ErrorOut, description="wrong_phase | already_paused | not_paused | vote_open | stale"
    ),
    429: ERRORS[429],
}


class ClockExtendView(APIView):
    """The host extends the open window: it closes `minutes` later (out of the table's quiet
    hours). Paused, the time the window gets back on resume grows instead. The players who still
    owe a move are told once that the deadline moved."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "actions"

    @extend_schema(
        operation_id="games_deadline_extend",
        request=s.ClockExtendIn,
        responses={200: s.GameViewOut, **CLOCK_REFUSALS},
    )
    def post(self, request, code: str):
        minutes = _valid(s.ClockExtendIn, request.data)["minutes"]
        game = services.clock_extend(code=code.upper(), user=request.user, minutes=minutes)
        return _view_response(game, request)


class ClockPauseView(APIView):
    """The host pauses the game: no window closes and the timers stop until it is resumed; the
    open window keeps the time it had left."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "actions"

    @extend_schema(
        operation_id="games_deadline_pause",
        request=s.NothingIn,
        responses={200: s.GameViewOut, **CLOCK_REFUSALS},
    )
    def post(self, request, code: str):
        _valid(s.NothingIn, request.data)
        game = services.clock_pause(code=code.upper(), user=request.user)
        return _view_response(game, request)


class ClockResumeView(APIView):
    """The host resumes a paused game: the open window closes after the time it had left."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "actions"

    @extend_schema(
        operation_id="games_deadline_resume",
        request=s.NothingIn,
        responses={200: s.GameViewOut, **CLOCK_REFUSALS},
    )
    def post(self, request, code: str):
        _valid(s.NothingIn, request.data)
        game = services.clock_resume(code=code.upper(), user=request.user)
        return _view_response(game, request)


class ClockVoteView(APIView):
    """A living player asks the table to extend, pause or resume, or agrees to the open proposal
    (the same one again). It passes when more than half of the living seats played by people
    agree (`clock.vote.needed`); an open proposal ends with its window."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "actions"

    @extend_schema(
        operation_id="games_deadline_vote",
        request=s.ClockVoteIn,
        responses={200: s.GameViewOut, **CLOCK_REFUSALS},
    )
    def post(self, request, code: str):
        data = _valid(s.ClockVoteIn, request.data)
        game = services.clock_vote(
            code=code.upper(),
            user=request.user,
            proposal=data["proposal"],
            minutes=data.get("minutes"),
        )
        return _view_response(game, request)


class EventsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="only events with a larger seq")],
        responses={200: s.EventListOut, **_errors(400, 401, 404)},
    )
    def get(self, request, code: str):
        try:
            after = int(request.query_params.get("after", 0))
        except ValueError:
            raise GameError("bad_request", "'after' must be a whole number.", 400) from None
        game = selectors.game_get(code)
        _may_watch(game, request.user)
        events, more = selectors.events_for(game, request.user, after=after)
        for e in events:
            del e["template"]  # the pages' own (their names in its seats); the text says it all
        return Response({"events": events, "more": more})


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
        "Read the game with If-None-Match after each event. Reconnect with Last-Event-ID; the "
        "server ends a stream after 30 minutes. The web server answers 421 `misdirected` with "
        "the `stream_url`.",
        parameters=[
            OpenApiParameter(
                "Last-Event-ID",
                VERSION,
                OpenApiParameter.HEADER,
                description="the last version you saw: no event until a newer one",
            ),
            OpenApiParameter("since", VERSION, description="the same as Last-Event-ID"),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                OpenApiTypes.STR, description="version events (stream server only)"
            ),
            421: OpenApiResponse(s.MisdirectedOut, description="misdirected"),
            **_errors(400, 401, 403, 404),
        },
    )
    def get(self, request, code: str):
        return stream.misdirected(request, code.upper())


game_stream = stream.game_stream
game_stream.cls = StreamView  # drf-spectacular documents the APIView behind this function
game_stream.initkwargs = {}


IF_MATCH = OpenApiParameter(
    "If-Match",
    {"type": "string", "pattern": r'^(W/)?"?[0-9]{1,18}"?$'},
    OpenApiParameter.HEADER,
    description='act only on the version you saw: 8 or "8" (else 409 stale)',
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
        args = dict(_valid(serializer, request.data))
        game = services.action_apply(
            code=code.upper(),
            user=request.user,
            name=action,
            args=args,
            expected_version=_if_match(request),
        )
        return _view_response(game, request)


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
            **_errors(401),
            403: _refusal("forbidden (you hold no seat at this table)"),
            404: _refusal("not_found"),
            409: _refusal(
                "window_closed (the window's deadline had passed: nothing was done, and the "
                "window is closed now) | wrong_phase | game_over | stale | "
                "idempotency_in_progress (a request with this Idempotency-Key is still running)"
            ),
            422: _refusal("idempotency_key_reused (the key came with another request)"),
            **_errors(429),
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


def _if_match(request) -> int | None:
    header = request.headers.get("If-Match")
    if header is None:
        return None
    try:
        return int(header.strip().removeprefix("W/").strip('"'))
    except ValueError:
        raise GameError("bad_request", "If-Match must be a version number.", 400) from None


# --- seats that change hands, and the rematch --------------------------------------


def _refusal(codes: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorOut, description=codes)


class SeatHereView(APIView):
    """ "I'm still here": a player whose seat is flagged as away (`afk`) keeps it with one call.
    The flag and the missed-window count go, a handover link for the seat stops working, and the
    table reads that the player is back. Without a flag it only counts as a sign of presence."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: s.GameViewOut,
            **_errors(401),
            403: _refusal("forbidden (no seat at this table)"),
            404: _refusal("not_found"),
            409: _refusal("wrong_phase (the game is not running)"),
        },
    )
    def post(self, request, code: str):
        game = seats.seat_here(code=code.upper(), user=request.user)
        return _view_response(game, request)


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
        request=s.VacationIn,
        responses={
            200: s.GameViewOut,
            **_errors(400, 401, 429),
            403: _refusal("forbidden (no seat at this table)"),
            404: _refusal("not_found"),
            409: _refusal("wrong_phase (the game is over) | not_slow (a live game)"),
        },
    )
    def post(self, request, code: str):
        data = _valid(s.VacationIn, request.data)
        game = services.vacation_set(
            code=code.upper(), user=request.user, start=data["from"], until=data["until"]
        )
        return _view_response(game, request)

    @extend_schema(
        operation_id="games_vacation_end",
        request=None,
        responses={
            200: s.GameViewOut,
            **_errors(401, 429),
            403: _refusal("forbidden (no seat at this table)"),
            404: _refusal("not_found"),
            409: _refusal("no_vacation (none announced)"),
        },
    )
    def delete(self, request, code: str):
        game = services.vacation_cancel(code=code.upper(), user=request.user)
        return _view_response(game, request)


class SeatBotView(APIView):
    """The host gives a seat flagged as away (`afk`) to a bot, which plays it from now on."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: s.GameViewOut,
            **_errors(401),
            403: _refusal("forbidden (not the host)"),
            404: _refusal("not_found"),
            409: _refusal(
                "wrong_phase | host_seat | not_afk (the seat is not flagged as away yet)"
            ),
        },
    )
    def post(self, request, code: str, seat: int):
        game = seats.seat_to_bot(code=code.upper(), user=request.user, seat=seat)
        return _view_response(game, request)


class SeatInviteView(APIView):
    """The host makes a one-time link handing a seat flagged as away (or a bot's) to a new friend;
    a new link replaces the seat's previous one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            201: s.SeatInviteOut,
            **_errors(401),
            403: _refusal("forbidden (not the host)"),
            404: _refusal("not_found"),
            409: _refusal(
                "wrong_phase | host_seat | not_afk (the seat is not flagged as away yet)"
            ),
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
        request=s.SeatClaimIn,
        responses={
            200: s.GameViewOut,
            **_errors(400, 401),
            404: _refusal("not_found | invite_invalid (used or withdrawn)"),
            409: _refusal("wrong_phase | already_seated"),
        },
    )
    def post(self, request, code: str):
        data = _valid(s.SeatClaimIn, request.data)
        name = data.get("name") or display_name(request.user)
        game = seats.seat_claim(
            code=code.upper(), user=request.user, token=data["token"], name=name
        )
        return _view_response(game, request)


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
            **_errors(401),
            403: _refusal("forbidden (not a player of this game)"),
            404: _refusal("not_found"),
            409: _refusal("wrong_phase (not over yet)"),
            429: ERRORS[429],
        },
    )
    def post(self, request, code: str):
        game, created = seats.rematch_open(code=code.upper(), user=request.user)
        return _view_response(game, request, status.HTTP_201_CREATED if created else 200)


class SeatLinkView(APIView):
    """A signed link that signs a browser in to the caller's own seat at this game (the game
    page's "Continue on another device"): how a player who plays through the API, a guest with
    a token, reaches their seat on the pages. It works once, for 7 days, at this table only."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            201: s.SeatLinkOut,
            **_errors(401),
            403: _refusal("not_seated (you have no seat at this game)"),
            404: _refusal("not_found"),
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
            **_errors(401),
            403: _refusal("not_seated (you have no seat at this game)"),
            404: _refusal("not_found"),
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
