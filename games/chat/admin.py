"""Chat messages in the Django admin: read-only, with a "Hide" action through the service.

The `ghosts` and `den` channels are private: who writes in the den is a Vampire. As elsewhere in
the admin (games/admin.py), only superusers see them; staff see the `table` channel only."""

from __future__ import annotations

from django.contrib import admin, messages

from games.chat import services
from games.chat.models import Message
from games.services import GameError


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("game", "channel", "number", "author_name", "text", "created_at", "hidden")
    list_filter = ("channel", "hidden")
    search_fields = ("game__code", "author_name", "text")
    list_select_related = ("game",)
    readonly_fields = [f.name for f in Message._meta.fields]
    actions = ["hide_messages"]

    def get_queryset(self, request):
        rows = super().get_queryset(request)
        if request.user.is_superuser:
            return rows
        return rows.filter(channel=Message.Channel.TABLE)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Hide the selected messages")
    def hide_messages(self, request, queryset):
        hidden = 0
        for message in queryset.select_related("game"):
            try:
                services.message_hide(
                    game=message.game,
                    user=request.user,
                    channel=message.channel,
                    number=message.number,
                )
                hidden += 1
            except GameError as exc:
                self.message_user(request, f"{message}: {exc.detail}", messages.ERROR)
        self.message_user(request, f"{hidden} message(s) hidden.", messages.SUCCESS)
