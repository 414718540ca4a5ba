"""The reminders in the REST API v1: a player's preferences and their phones' push
subscriptions (`/api/v1/me/...`), and the server's VAPID public key. Errors are the project's
`{"code", "detail"}` (games/api/errors.py)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import EmailValidator
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games.domain.errors import DomainError
from games.notify import endpoints, preferences, push
from games.notify.models import (
    SETTINGS,
    EmailMode,
    Preferences,
    PushSubscription,
    reminder_address,
)
from games.notify.services import MAX_LEAD_MINUTES
from games.presenters import times
from staked.rest import ErrorOut, check_types

PUSH_DISABLED = (
    "Web Push is off on this server: VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT "
    "are not set (docs/reminders.md). E-mail reminders still work."
)


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorOut, description=description)


@extend_schema_field(
    {
        "type": "string",
        "maxLength": 254,
        "anyOf": [{"format": "email"}, {"maxLength": 0}],
        "description": 'an e-mail address, or "" for none',
    }
)
class OptionalEmailField(serializers.CharField):
    """An address or "" (DRF's EmailField, documented by one schema that "" matches once;
    it was a oneOf whose two branches both matched "")."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if value:  # checked here, not as a validator: drf-spectacular would make it a oneOf
            EmailValidator(message=serializers.EmailField.default_error_messages["invalid"])(value)
            reminder_address(value)  # no IP literal, no localhost (games/notify/models.py)
        return value


class PreferencesSerializer(serializers.ModelSerializer):
    email = OptionalEmailField(max_length=254, allow_blank=True, required=False)
    lead_minutes = serializers.IntegerField(
        min_value=0,
        max_value=MAX_LEAD_MINUTES,
        help_text="minutes before a deadline to remind you if you still have a move; 0: never",
    )
    email_mode = serializers.ChoiceField(
        choices=EmailMode.choices,
        required=False,
        help_text='"each_window": an e-mail for each window ("your move", "deadline soon", '
        '"deadline moved"); "daily_digest": none of those, one e-mail a day at `digest_hour` '
        "listing every running game of yours instead (push is not affected)",
    )
    digest_hour = serializers.IntegerField(
        min_value=0,
        max_value=23,
        required=False,
        help_text="the hour (0-23) of the daily digest, in your time zone (the one your browser "
        "last showed us; UTC until then)",
    )
    time_zone = serializers.CharField(
        max_length=64,
        allow_blank=True,
        required=False,
        help_text='your IANA time zone ("Europe/Berlin"), for the local times in e-mails and the '
        "digest's hour; empty: UTC. The pages keep it in step with the browser you play on",
    )
    push_available = serializers.SerializerMethodField(
        help_text="whether this server sends Web Push (VAPID keys configured)"
    )
    push_devices = serializers.SerializerMethodField(
        help_text="how many browsers of yours are subscribed to Web Push"
    )
    email_confirmed = serializers.SerializerMethodField(
        help_text="whether the owner of `email` opened the link we sent there; until then no "
        "reminder goes to it (a new address gets a new link: check your inbox)"
    )

    class Meta:
        model = Preferences
        fields = [*SETTINGS, "push_available", "push_devices", "email_confirmed"]

    @extend_schema_field(serializers.BooleanField())
    def get_push_available(self, obj) -> bool:
        return push.enabled()

    @extend_schema_field(serializers.IntegerField())
    def get_push_devices(self, obj) -> int:
        return obj.user.push_subscriptions.count()

    @extend_schema_field(serializers.BooleanField())
    def get_email_confirmed(self, obj) -> bool:
        return obj.email_confirmed

    def validate_time_zone(self, value: str) -> str:
        if value and not times.zone_name(value):
            raise serializers.ValidationError(f"{value!r} is not a known IANA time zone.")
        return value

    def validate(self, data):
        email = data.get("email", getattr(self.instance, "email", ""))
        if data.get("email_enabled", getattr(self.instance, "email_enabled", False)) and not email:
            raise serializers.ValidationError({"email": "Give an address to get e-mails."})
        return data


class SubscriptionKeys(serializers.Serializer):
    p256dh = serializers.CharField(max_length=100)
    auth = serializers.CharField(max_length=50)

    def validate_p256dh(self, value: str) -> str:
        if push.key_length(value) != 65:
            raise serializers.ValidationError("Not a P-256 public key in base64url.")
        return value

    def validate_auth(self, value: str) -> str:
        if push.key_length(value) != 16:
            raise serializers.ValidationError("Not a 16-byte secret in base64url.")
        return value


class SubscriptionIn(serializers.Serializer):
    """What the browser's `PushSubscription.toJSON()` gives (expirationTime is ignored)."""

    endpoint = serializers.URLField(max_length=1000)
    keys = SubscriptionKeys()
    expirationTime = serializers.IntegerField(required=False, allow_null=True)  # noqa: N815

    def validate_endpoint(self, value: str) -> str:
        """Refused unless it names a known push service at a public address (endpoints.py)."""
        try:
            endpoints.resolve(endpoints.check(value))
        except endpoints.EndpointRefused as exc:
            raise serializers.ValidationError(str(exc)) from None
        except OSError:
            raise serializers.ValidationError("That push service cannot be found.") from None
        return value


class SubscriptionOut(serializers.ModelSerializer):
    class Meta:
        model = PushSubscription
        fields = ["id", "endpoint", "created_at"]


class EndpointIn(serializers.Serializer):
    endpoint = serializers.URLField(max_length=1000)


class VapidKeyOut(serializers.Serializer):
    public_key = serializers.CharField(help_text="applicationServerKey for pushManager.subscribe")


_UPDATE_RESPONSES = {
    200: PreferencesSerializer,
    400: _error("bad_request"),
    401: _error("not_authenticated"),
}


class PreferencesView(APIView):
    """Your reminder channels: Web Push (on the phones you subscribed) and/or e-mail."""

    @extend_schema(
        operation_id="me_notifications_read",
        responses={200: PreferencesSerializer, 401: _error("not_authenticated")},
    )
    def get(self, request):
        prefs = preferences.preferences_of(request.user, _browser_zone(request))
        return Response(PreferencesSerializer(prefs).data)

    @extend_schema(
        operation_id="me_notifications_update",
        request=PreferencesSerializer,
        responses=_UPDATE_RESPONSES,
    )
    def put(self, request):
        return self._update(request, partial=False)

    @extend_schema(
        operation_id="me_notifications_partial_update",
        request=PreferencesSerializer,
        responses=_UPDATE_RESPONSES,
    )
    def patch(self, request):
        return self._update(request, partial=True)

    def _update(self, request, *, partial: bool):
        zone = _browser_zone(request)
        serializer = PreferencesSerializer(
            preferences.preferences_of(request.user, zone), data=request.data, partial=partial
        )
        check_types(serializer, request.data)
        serializer.is_valid(raise_exception=True)
        prefs = preferences.preferences_save(request.user, serializer.validated_data, zone)
        return Response(PreferencesSerializer(prefs).data)


def _browser_zone(request) -> str | None:
    """The time zone of the browser that calls, signed in by its session (the pages' `tz`
    cookie), or None (a client of its own sends no cookie: then the body's `time_zone`, or for
    a new row the zone last seen from the player's browser, decides)."""
    return request.COOKIES.get(times.COOKIE)


class EmailConfirmationView(APIView):
    """Send the confirmation link to your e-mail address again (limited: see docs/reminders.md)."""

    @extend_schema(
        operation_id="me_notifications_email_confirmation",
        request=None,
        responses={
            202: OpenApiResponse(description="a new link is on its way"),
            400: _error("bad_request"),
            401: _error("not_authenticated"),
            409: _error("already_confirmed"),
            429: _error("rate_limited"),
        },
    )
    def post(self, request):
        preferences.link_resend(request.user)
        return Response(status=status.HTTP_202_ACCEPTED)


class PushSubscriptionsView(APIView):
    """Subscribe this browser to Web Push reminders, or unsubscribe it."""

    @extend_schema(
        operation_id="me_push_subscribe",
        request=SubscriptionIn,
        responses={
            201: SubscriptionOut,
            400: _error("bad_request"),
            401: _error("not_authenticated"),
            409: _error("endpoint_taken"),
            503: _error("push_disabled"),
        },
    )
    def post(self, request):
        if not push.enabled():
            raise DomainError("push_disabled", PUSH_DISABLED, 503)
        data = SubscriptionIn(data=request.data)
        check_types(data, request.data)
        data.is_valid(raise_exception=True)
        keys = data.validated_data["keys"]
        subscription = preferences.push_subscribe(
            request.user,
            endpoint=data.validated_data["endpoint"],
            p256dh=keys["p256dh"],
            auth=keys["auth"],
        )
        return Response(SubscriptionOut(subscription).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="me_push_unsubscribe",
        description="Unsubscribe one browser: its `endpoint` in the query (`?endpoint=...`, "
        "URL-encoded; many HTTP libraries drop a DELETE's body) or, as before, in a JSON body "
        '`{"endpoint": "..."}`. Both at once: 400.',
        parameters=[
            OpenApiParameter(
                "endpoint",
                {"type": "string", "format": "uri", "maxLength": 1000},
                OpenApiParameter.QUERY,
                description="the subscription's endpoint (PushSubscription.endpoint)",
            )
        ],
        # drf-spectacular writes no body for DELETE: games.api.schema.delete_bodies does.
        extensions={
            "x-delete-body": {
                "type": "object",
                "properties": {"endpoint": {"type": "string", "format": "uri", "maxLength": 1000}},
                "required": ["endpoint"],
            }
        },
        responses={
            204: OpenApiResponse(description="unsubscribed"),
            400: _error("bad_request"),
            401: _error("not_authenticated"),
            404: _error("not_found"),
            414: _error("uri_too_long"),  # an endpoint in the query past MAX_URL_LENGTH
        },
    )
    def delete(self, request):
        body = request.data if request.data else {}
        if "endpoint" in request.query_params:
            if body:
                raise DomainError(
                    "bad_request", "Send the endpoint in the query or in the body, not both.", 400
                )
            body = {"endpoint": request.query_params["endpoint"]}
        data = EndpointIn(data=body)
        check_types(data, body)
        data.is_valid(raise_exception=True)
        preferences.push_unsubscribe(request.user, endpoint=data.validated_data["endpoint"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class VapidPublicKeyView(APIView):
    """The server's VAPID public key, for `pushManager.subscribe({applicationServerKey})`."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="push_vapid_public_key",
        responses={200: VapidKeyOut, 503: _error("push_disabled")},
    )
    def get(self, request):
        if not push.enabled():
            raise DomainError("push_disabled", PUSH_DISABLED, 503)
        return Response({"public_key": settings.VAPID_PUBLIC_KEY})
