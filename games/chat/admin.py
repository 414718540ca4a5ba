"""Chat messages in the Django admin: read-only, with "Hide" and "Show again" through the
services, each behind a confirmation page and written to the message's history.

The `ghosts` and `den` channels are private: who writes in the den is a Vampire. As elsewhere in
the admin (games/admin/games.py), only superusers see them; staff see the `table` channel only, and
no channel filter or column (it would offer channels that always show nothing)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.text import Truncator

from games.chat import services
from games.chat.models import Message
from games.services import GameError

SHORT_TEXT = 120  # characters in the list; the message's page has it whole


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = (
        "game",
        "channel",
        "number",
        "author_name",
        "short_text",
        "created_at",
        "hidden",
    )
    list_filter = ("channel", "hidden")
    search_fields = ("game__code", "author_name", "text")
    list_select_related = ("game",)
    readonly_fields = [f.name for f in Message._meta.fields]
    actions = ["hide_messages", "unhide_messages"]

    def get_queryset(self, request):
        rows = super().get_queryset(request)
        if request.user.is_superuser:
            return rows
        return rows.filter(channel=Message.Channel.TABLE)

    def get_list_filter(self, request):
        return self.list_filter if request.user.is_superuser else ("hidden",)

    def get_list_display(self, request):
        if request.user.is_superuser:
            return self.list_display
        return tuple(c for c in self.list_display if c != "channel")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="text")
    def short_text(self, message):
        return Truncator(message.text).chars(SHORT_TEXT)

    # --- hide and show again: bulk (a confirmation page first) and one at a time ---

    @admin.action(description="Hide the selected messages", permissions=["change"])
    def hide_messages(self, request, queryset):
        return self._moderate(request, queryset, hide=True)

    @admin.action(description="Show the selected hidden messages again", permissions=["change"])
    def unhide_messages(self, request, queryset):
        return self._moderate(request, queryset, hide=False)

    def _moderate(self, request, queryset, *, hide: bool):
        rows = list(queryset.select_related("game").order_by("game__code", "channel", "number"))
        if request.POST.get("post") != "yes":
            return self._confirmation(request, rows, hide=hide)
        done, unchanged = 0, 0
        for message in rows:
            if message.hidden == hide:
                unchanged += 1
                continue
            try:
                self._apply(request, message, hide=hide)
            except GameError as exc:
                self.message_user(request, f"{message}: {exc.detail}", messages.ERROR)
            else:
                done += 1
        verb = "hidden" if hide else "shown again"
        if done:
            self.message_user(request, f"{done} message(s) {verb}.", messages.SUCCESS)
        if unchanged:
            already = "already hidden" if hide else "not hidden"
            self.message_user(
                request, f"{unchanged} message(s) were {already}: nothing to do.", messages.INFO
            )
        return None

    def _apply(self, request, message: Message, *, hide: bool) -> None:
        if hide:
            services.message_hide(
                game=message.game,
                user=request.user,
                channel=message.channel,
                number=message.number,
            )
            self.log_change(request, message, "Hidden")
        else:
            services.message_unhide(message=message, user=request.user)
            self.log_change(request, message, "Shown again")

    def _confirmation(self, request, rows, *, hide: bool, single=False):
        def what(message):
            if message.hidden == hide:
                return False, "Nothing: already hidden." if hide else "Nothing: not hidden."
            preview = Truncator(message.text).chars(SHORT_TEXT)
            if hide:
                return True, f"Hidden from the players: “{preview}”"
            return True, f"Shown to the players again: “{preview}”"

        plan = []
        for message in rows:
            acts, text = what(message)
            plan.append({"obj": message, "acts": acts, "what": text, "stamp": int(message.hidden)})
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Hide messages" if hide else "Show messages again",
            "question": (
                "Hide these messages? The players then see that a message was hidden, not its "
                "text. You can show them again later."
                if hide
                else "Show these hidden messages to the players again?"
            ),
            "plan": plan,
            "action": "hide_messages" if hide else "unhide_messages",
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "media": self.media,
            "single": single,
        }
        return TemplateResponse(request, "admin/confirm_selected.html", context)

    def get_urls(self):
        view = self.admin_site.admin_view
        own = [
            path("<int:message_id>/hide/", view(self.hide_view), name="chat_message_hide"),
            path("<int:message_id>/unhide/", view(self.unhide_view), name="chat_message_unhide"),
        ]
        return own + super().get_urls()

    def hide_view(self, request, message_id: int):
        return self._one(request, message_id, hide=True)

    def unhide_view(self, request, message_id: int):
        return self._one(request, message_id, hide=False)

    def _one(self, request, message_id: int, *, hide: bool):
        """One message's Hide / Show again: the same confirmation page as the bulk action,
        posted back to the message list (where the action runs)."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        message = get_object_or_404(
            self.get_queryset(request).select_related("game"), id=message_id
        )
        response = self._confirmation(request, [message], hide=hide, single=True)
        response.context_data["form_url"] = reverse("admin:chat_message_changelist")
        return response

    def change_view(self, request, object_id, form_url="", extra_context=None):
        message = self.get_object(request, object_id)
        extra_context = {
            **(extra_context or {}),
            "title": f"Message {message}" if message else "Message",
            "show_save": False,
            "show_save_and_continue": False,
            "can_moderate": self.has_change_permission(request, message),
        }
        return super().change_view(request, object_id, form_url, extra_context)

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "title": "Messages"}
        return super().changelist_view(request, extra_context)
