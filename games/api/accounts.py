"""Identities in the API v1: a guest, a registered account, and the tokens that sign them in
(`/auth/...`; the tokens themselves: games.services.api_tokens)."""

from __future__ import annotations

from django.contrib.auth import update_session_auth_hash
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services
from games.api.auth import presented_token
from games.api.respond import display_name, errors, refusal, valid
from games.api.serializers import name_text, text
from games.services import GameError, accounts
from games.services.accounts import USERNAME_PATTERN
from games.services.api_tokens import issue_token, revoke
from staked import limits


class NameIn(serializers.Serializer):
    name = name_text()


class RegisterIn(serializers.Serializer):
    username = serializers.RegexField(USERNAME_PATTERN, help_text="3–40 letters, digits or .@+-_")
    password = serializers.CharField(min_length=8, max_length=128, write_only=True)
    name = name_text(required=False)


class TokenIn(serializers.Serializer):
    """DRF's AuthTokenSerializer's fields, with the schema saying that neither may be empty."""

    username = text(150)
    password = serializers.CharField(
        min_length=1, max_length=128, trim_whitespace=False, write_only=True
    )


class TokenOut(serializers.Serializer):
    token = serializers.CharField()
    user_id = serializers.IntegerField()
    name = serializers.CharField()


def _token_out(user, token: str | None = None) -> dict:
    """`token`, or a new one shown this once: only its digest is kept (games/api/auth.py)."""
    token = token or issue_token(user)
    return {"token": token, "user_id": user.id, "name": display_name(user)}


class GuestView(APIView):
    """A friend with no account gets a guest identity and a token."""

    permission_classes = [AllowAny]
    throttle_scope = "auth"

    @extend_schema(request=NameIn, responses={201: TokenOut, **errors(400, 429)})
    def post(self, request):
        user = services.guest_create(name=valid(NameIn, request.data)["name"])
        return Response(_token_out(user), status=status.HTTP_201_CREATED)


class RegisterView(APIView):
    """Register a user with a password (keeps their games across phones). Sent with a guest's
    token or session, it makes that guest the account: same user and games (200), and the same
    token when it came with one (a session gets a new token)."""

    permission_classes = [AllowAny]
    throttle_scope = "auth"

    @extend_schema(
        request=RegisterIn,
        responses={
            200: OpenApiResponse(TokenOut, description="the guest who sent it, now registered"),
            201: TokenOut,
            **errors(400, 429),
            409: refusal("username_taken"),
        },
    )
    def post(self, request):
        data = valid(RegisterIn, request.data)
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


def _all_of_them(value: str | None) -> bool:
    """`?all=` is a boolean: `true`/`1` revokes every token, `false`/`0` (or no `all`) the one
    this request carries. Anything else is a 400 that revokes nothing: a client that sent
    `?all=yes` meaning "all" must not be signed out of this device only, thinking it was done."""
    if value is None or value in ("false", "0"):
        return False
    if value in ("true", "1"):
        return True
    raise exceptions.ValidationError({"all": ["Must be true or false (or 1 or 0)."]})


class TokenView(APIView):
    """Exchange a username and password for a new token (one per device); revoke one."""

    permission_classes = [AllowAny]
    throttle_scope = "auth"

    @extend_schema(request=TokenIn, responses={200: TokenOut, **errors(400, 429)})
    def post(self, request):
        username = request.data.get("username") if isinstance(request.data, dict) else None
        if isinstance(username, str):  # guesses at one account, from any number of addresses
            verdict = limits.hit("password", f"account:{username.lower()}")
            if not verdict.allowed:
                raise exceptions.Throttled(wait=verdict.retry_after)
        data = valid(AuthTokenSerializer, request.data)
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
            **errors(400, 401),
        },
    )
    def delete(self, request):
        """Sign out: revoke the token this request carries (`?all=true`: all of yours)."""
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        if _all_of_them(request.query_params.get("all")):
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
