"""The reminders in the REST API v1: a player's preferences and their phones' push
subscriptions (`/api/v1/me/...`), and the server's VAPID public key. Errors are the project's
`{"code", "detail"}` (games/api/errors.py)."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import ErrorOut
from games.api.strict import check_types
from games.notify import push
from games.notify.models import Preferences, PushSubscription
from games.notify.services import MAX_LEAD_MINUTES
from games.services import GameError

PUSH_DISABLED = (
    "Web Push is off on this server: VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT "
    "are not set (README.md, Reminders). E-mail reminders still work."
)


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorOut, description=description)


class PreferencesSerializer(serializers.ModelSerializer):
    lead_minutes = serializers.IntegerField(
        min_value=0,
        max_value=MAX_LEAD_MINUTES,
        help_text="minutes before a deadline to remind you if you still have a move; 0: never",
    )
    push_available = serializers.SerializerMethodField(
        help_text="whether this server sends Web Push (VAPID keys configured)"
    )
    push_devices = serializers.SerializerMethodField(
        help_text="how many browsers of yours are subscribed to Web Push"
    )

    class Meta:
        model = Preferences
        fields = [
            "push_enabled",
            "email",
            "email_enabled",
            "lead_minutes",
            "push_available",
            "push_devices",
        ]

    @extend_schema_field(serializers.BooleanField())
    def get_push_available(self, obj) -> bool:
        return push.enabled()

    @extend_schema_field(serializers.IntegerField())
    def get_push_devices(self, obj) -> int:
        return obj.user.push_subscriptions.count()

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
        if not push.endpoint_allowed(value):
            raise serializers.ValidationError("Not the address of a known push service.")
        return value


class SubscriptionOut(serializers.ModelSerializer):
    class Meta:
        model = PushSubscription
        fields = ["id", "endpoint", "created_at"]


class EndpointIn(serializers.Serializer):
    endpoint = serializers.URLField(max_length=1000)


class VapidKeyOut(serializers.Serializer):
    public_key = serializers.CharField(help_text="applicationServerKey for pushManager.subscribe")


def _preferences(user) -> Preferences:
    return Preferences.objects.get_or_create(user=user)[0]


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
        return Response(PreferencesSerializer(_preferences(request.user)).data)

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
        serializer = PreferencesSerializer(
            _preferences(request.user), data=request.data, partial=partial
        )
        check_types(serializer, request.data)
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(serializer.data)


class PushSubscriptionsView(APIView):
    """Subscribe this browser to Web Push reminders, or unsubscribe it."""

    @extend_schema(
        operation_id="me_push_subscribe",
        request=SubscriptionIn,
        responses={
            201: SubscriptionOut,
            400: _error("bad_request"),
            401: _error("not_authenticated"),
            503: _error("push_disabled"),
        },
    )
    def post(self, request):
        if not push.enabled():
            raise GameError("push_disabled", PUSH_DISABLED, 503)
        data = SubscriptionIn(data=request.data)
        check_types(data, request.data)
        data.is_valid(raise_exception=True)
        # One browser, one subscription: whoever subscribed it last gets its reminders.
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=data.validated_data["endpoint"],
            defaults={
                "user": request.user,
                "p256dh": data.validated_data["keys"]["p256dh"],
                "auth": data.validated_data["keys"]["auth"],
                "last_error": "",
                "last_error_at": None,
            },
        )
        _preferences(request.user)
        return Response(SubscriptionOut(subscription).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="me_push_unsubscribe",
        request=EndpointIn,
        responses={
            204: OpenApiResponse(description="unsubscribed"),
            400: _error("bad_request"),
            401: _error("not_authenticated"),
            404: _error("not_found"),
        },
    )
    def delete(self, request):
        data = EndpointIn(data=request.data)
        check_types(data, request.data)
        data.is_valid(raise_exception=True)
        deleted, _ = PushSubscription.objects.filter(
            user=request.user, endpoint=data.validated_data["endpoint"]
        ).delete()
        if not deleted:
            raise GameError("not_found", "You have no push subscription with that endpoint.", 404)
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
            raise GameError("push_disabled", PUSH_DISABLED, 503)
        return Response({"public_key": settings.VAPID_PUBLIC_KEY})
