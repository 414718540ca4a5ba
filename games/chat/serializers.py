"""The chat API's request and response shapes (and the OpenAPI schema's)."""

from __future__ import annotations

from rest_framework import serializers

from games.chat.models import MAX_LENGTH


class MessageIn(serializers.Serializer):
    text = serializers.CharField(
        max_length=MAX_LENGTH, help_text=f"plain text, 1–{MAX_LENGTH} characters"
    )


class MessageOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="numbered per game and channel, from 1")
    hidden = serializers.BooleanField(
        help_text="hidden by the host or an organiser: then only `id` and `hidden`, except to "
        "the host and organisers"
    )
    channel = serializers.CharField(required=False)
    seat = serializers.IntegerField(
        required=False, allow_null=True, help_text="the author's seat (null: left the lobby)"
    )
    name = serializers.CharField(required=False)
    text = serializers.CharField(required=False, help_text="plain text: escape it when shown")
    created_at = serializers.DateTimeField(required=False)


class MessageListOut(serializers.Serializer):
    messages = MessageOut(many=True, help_text="oldest first")
    more = serializers.BooleanField(help_text="newer messages follow: ask with after=<last id>")
    earlier = serializers.BooleanField(help_text="older messages exist: ask with before=<first id>")
    next = serializers.URLField(
        allow_null=True, help_text="the newer messages (after the last here), or null"
    )
    previous = serializers.URLField(
        allow_null=True, help_text="the older messages (before the first here), or null"
    )
