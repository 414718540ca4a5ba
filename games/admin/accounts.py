"""Accounts in the admin: a user's page lists their games, and API tokens are never
shown (only a prefix, to superusers, who may revoke them).

Registered from games/admin/games.py (`register`), so that the User admin is replaced after
django.contrib.auth's own registration.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games.models import ApiToken, Game
from games.services.api_tokens import revoke


class PlayerUserAdmin(UserAdmin):
    """Django's user page, with the user's games: the seats they hold and the games they host.

    An organiser (staff, not a superuser: the Organisers group's `auth.view_user`) sees players'
    pages only: users who are neither staff nor superusers. The list leaves the others out, and
    opening one of theirs by its address finds nothing (Django's "doesn't exist", back to the
    admin's index; its history and password pages alike), so no organiser reads another staff
    member's or a superuser's e-mail, password summary or permissions. An organiser's own page
    is one of those: their account is changed by a superuser (or through "Change password").
    Superusers see every user."""

    readonly_fields = (*UserAdmin.readonly_fields, "games")
    STAFF_FILTERS = ("is_staff", "is_superuser")

    def get_queryset(self, request):
        users = super().get_queryset(request)
        if request.user.is_superuser:
            return users
        return users.filter(is_staff=False, is_superuser=False)

    def get_list_filter(self, request):
        """No "staff status" or "superuser status" filter for an organiser: every row is a
        player's."""
        filters = super().get_list_filter(request)
        if request.user.is_superuser:
            return filters
        return tuple(f for f in filters if f not in self.STAFF_FILTERS)

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None:
            return fieldsets
        return (*fieldsets, ("Games", {"fields": ("games",)}))

    @admin.display(description="games")
    def games(self, user):
        seats = list(user.seats.select_related("game").order_by("-game__updated_at")[:100])
        seated = {p.game_id for p in seats}
        hosted = Game.objects.filter(host=user).exclude(id__in=seated).order_by("-updated_at")
        rows = [
            (_game_link(p.game), f"seat {p.seat} as {p.name}", p.game.get_status_display())
            for p in seats
        ] + [(_game_link(g), "host, not seated", g.get_status_display()) for g in hosted[:100]]
        if not rows:
            return "None."
        return format_html(
            '<ul class="staked-options">{}</ul>',
            format_html_join("", "<li>{}: {} ({})</li>", rows),
        )


def _game_link(game: Game):
    return format_html(
        '<a href="{}">{}</a>', reverse("admin:games_game_change", args=[game.pk]), game.code
    )


class ApiTokenAdmin(admin.ModelAdmin):
    """Superusers only: whose tokens exist (a prefix each, never a token), and revoking them.
    The tokens themselves are not stored (games/api/auth.py)."""

    list_display = ("shown_prefix", "user", "created_at")
    fields = readonly_fields = ("shown_prefix", "user", "created_at")
    search_fields = ("user__username",)
    list_select_related = ("user",)

    @admin.display(description="token")
    def shown_prefix(self, token):
        return f"{token.prefix}…"

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def delete_model(self, request, obj):
        revoke(obj.user, [obj.digest])

    def delete_queryset(self, request, queryset):
        for token in queryset.select_related("user"):
            revoke(token.user, [token.digest])


def register(site: admin.AdminSite) -> None:
    user_model = get_user_model()
    if site.is_registered(user_model):
        site.unregister(user_model)
    site.register(user_model, PlayerUserAdmin)
    site.register(ApiToken, ApiTokenAdmin)
