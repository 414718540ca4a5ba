"""The Django admin for running games (issue 7).

Every page, column, filter and inline here is public information (DESIGN.md, "Hidden
information"): no role, no Mesmerism, no private event, no seed and no engine state. Superusers
see the secrets only behind the explicit, logged "Reveal roles" step, and only they export or
import a replay (which holds every secret). Every change goes through `games.admin_services`
(the service layer), never through a form that edits a row.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.timezone import localtime

from games import admin_services
from games.engine import state_from_json
from games.engine.common import ROLE_NAMES
from games.models import Event, Game, Player
from games.options import public_options
from games.replay import ReplayError, loads, replay_export, replay_import
from games.services import GameError
from relics.models import RelicHolding

audit = logging.getLogger("games.audit")


# --- filters ----------------------------------------------------------------------------------


class _OptionFilter(admin.SimpleListFilter):
    option = ""

    def lookups(self, request, model_admin):
        return [("on", "On"), ("off", "Off")]

    def queryset(self, request, queryset):
        if self.value() == "on":
            return queryset.filter(**{f"options__{self.option}": True})
        if self.value() == "off":
            return queryset.exclude(**{f"options__{self.option}": True})
        return queryset


class RelicsFilter(_OptionFilter):
    title = "Sacred Relics"
    parameter_name = "relics"
    option = "relics"


class LastWillsFilter(_OptionFilter):
    title = "Last Wills"
    parameter_name = "last_wills"
    option = "last_wills"


class StuckFilter(admin.SimpleListFilter):
    """Running games whose deadline passed more than a minute ago: no timer closed the window."""

    title = "stuck"
    parameter_name = "stuck"
    GRACE = timedelta(minutes=1)

    def lookups(self, request, model_admin):
        return [("yes", "Stuck (deadline passed over a minute ago)")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(
                status=Game.Status.RUNNING, deadline__lt=timezone.now() - self.GRACE
            )
        return queryset


class AbandonedFilter(admin.SimpleListFilter):
    """Lobbies and running games nobody has touched for settings.ABANDONED_AFTER_HOURS."""

    title = "abandoned"
    parameter_name = "idle"

    def lookups(self, request, model_admin):
        return [("yes", f"No update for {settings.ABANDONED_AFTER_HOURS} h")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            since = timezone.now() - timedelta(hours=settings.ABANDONED_AFTER_HOURS)
            return queryset.filter(
                status__in=[Game.Status.LOBBY, Game.Status.RUNNING], updated_at__lt=since
            )
        return queryset


# --- inlines ----------------------------------------------------------------------------------


class _ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class PlayerInline(_ReadOnlyInline):
    """Seats: only what every player sees (roles only behind "Reveal roles")."""

    model = Player
    fields = readonly_fields = ("seat", "name", "user", "is_bot", "alive")
    ordering = ("seat",)


def _when(moment) -> str:
    return date_format(localtime(moment), "DATETIME_FORMAT")


class RelicHoldingInline(_ReadOnlyInline):
    """Who holds which Sacred Relic: public, as on the table (R10.2a, the cards lie face-up)."""

    model = RelicHolding
    verbose_name_plural = "Sacred Relics (public: face-up on the table)"
    fields = readonly_fields = ("seat", "relic", "discarded", "negated", "markers")
    ordering = ("seat", "card")

    def has_view_permission(self, request, obj=None):
        return True  # public like the seats: whoever may open the game's page sees it


# --- forms ------------------------------------------------------------------------------------


class ExtendForm(forms.Form):
    minutes = forms.IntegerField(min_value=1, max_value=admin_services.MAX_EXTENSION_MINUTES)


class ReplaceSeatForm(forms.Form):
    seat = forms.TypedChoiceField(coerce=int)
    username = forms.CharField(
        max_length=150,
        required=False,
        help_text="The user who takes the seat over; leave empty to hand the seat to a bot.",
    )
    name = forms.CharField(
        max_length=40, required=False, help_text="The seat's new display name (optional)."
    )

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [(p.seat, f"{p.seat}: {p.name}") for p in game.players.all()]

    def clean_username(self):
        if not self.cleaned_data["username"]:
            return None  # a bot
        user = get_user_model().objects.filter(username=self.cleaned_data["username"]).first()
        if user is None:
            raise forms.ValidationError("No user has this username.")
        return user


class ConfirmForm(forms.Form):
    pass


class ImportForm(forms.Form):
    file = forms.FileField(help_text="A replay exported from this admin (JSON).")
    keep_running = forms.BooleanField(
        required=False,
        help_text="Leave a still-running copy running (its timers then run); by default it is "
        "frozen as abandoned.",
    )


# --- the games admin --------------------------------------------------------------------------


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "code",
        "status",
        "phase",
        "round",
        "player_count",
        "created_at",
        "updated_at",
        "deadline",
    )
    list_filter = (
        "status",
        "phase",
        RelicsFilter,
        LastWillsFilter,
        StuckFilter,
        AbandonedFilter,
    )
    search_fields = ("code", "players__name")
    ordering = ("-updated_at",)
    date_hierarchy = None
    list_per_page = 50
    # Never `state`, `seed` or the raw `options` (they hold fixed roles and the relic deck).
    readonly_fields = (
        "code",
        "status",
        "phase",
        "round",
        "version",
        "host",
        "public_options",
        "deadline",
        "created_at",
        "updated_at",
        "public_log",
    )
    fieldsets = (
        (None, {"fields": readonly_fields[:-1]}),
        ("Public event log", {"fields": ("public_log",)}),
    )
    inlines = (PlayerInline, RelicHoldingInline)
    actions = ("expire_windows", "abandon_games")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_players=Count("players", distinct=True))

    @admin.display(description="players", ordering="_players")
    def player_count(self, game):
        return game._players

    @admin.display(description="options")
    def public_options(self, game):
        return json.dumps(public_options(game.options), sort_keys=True)

    @admin.display(description="lines")
    def public_log(self, game):
        """The public log, each line numbered among the public lines only (issue 12).

        Private lines (night information, examinations, Mesmerism) are secrets: they appear only
        on the superusers' "Reveal roles" page. Nor may their traces: the game's own sequence and
        the rows' ids count them too, and a gap of 3 would tell who was Mesmerized."""
        rows = Event.objects.filter(game=game, audience__isnull=True).order_by("seq")
        lines = format_html_join(
            "\n",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (number, e.round, e.kind, e.text, _when(e.created_at))
                for number, e in enumerate(rows, start=1)
            ),
        )
        head = "<tr><th>#</th><th>round</th><th>kind</th><th>text</th><th>at</th></tr>"
        return format_html("<table>{}{}</table>", mark_safe(head), lines)

    def has_add_permission(self, request):
        return False  # games are created by players (or imported from a replay)

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not self.has_change_permission(request):
            actions.pop("expire_windows", None)
            actions.pop("abandon_games", None)
        return actions

    # --- list actions (the same services as the change page's buttons) ---

    @admin.action(description="Expire the current window now", permissions=["change"])
    def expire_windows(self, request, queryset):
        self._each(request, queryset, "window expired", admin_services.window_expire)

    @admin.action(description="End as abandoned", permissions=["change"])
    def abandon_games(self, request, queryset):
        self._each(request, queryset, "abandoned", admin_services.game_abandon)

    def _each(self, request, queryset, done: str, service) -> None:
        for game in queryset:
            try:
                service(code=game.code, by=request.user.get_username())
            except GameError as e:
                self.message_user(request, f"{game.code}: {e.detail}", messages.WARNING)
            else:
                self.log_change(request, game, done.capitalize())
                self.message_user(request, f"{game.code}: {done}.", messages.SUCCESS)

    # --- the change page and its own views ---

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "show_save": False,
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
            "can_act": self.has_change_permission(request),
            "is_superuser": request.user.is_superuser,
        }
        return super().change_view(request, object_id, form_url, extra_context)

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "can_import": request.user.is_superuser}
        return super().changelist_view(request, extra_context)

    def get_urls(self):
        view = self.admin_site.admin_view
        own = [
            path("import/", view(self.import_view), name="games_game_import"),
            path("<int:game_id>/extend/", view(self.extend_view), name="games_game_extend"),
            path("<int:game_id>/expire/", view(self.expire_view), name="games_game_expire"),
            path("<int:game_id>/abandon/", view(self.abandon_view), name="games_game_abandon"),
            path(
                "<int:game_id>/replace-seat/",
                view(self.replace_seat_view),
                name="games_game_replace_seat",
            ),
            path("<int:game_id>/export/", view(self.export_view), name="games_game_export"),
            path("<int:game_id>/reveal/", view(self.reveal_view), name="games_game_reveal"),
        ]
        return own + super().get_urls()

    def _game(self, request, game_id: int, *, superuser: bool = False) -> Game:
        if superuser and not request.user.is_superuser:
            raise PermissionDenied
        if not superuser and not self.has_change_permission(request):
            raise PermissionDenied
        return get_object_or_404(Game, id=game_id)

    def _back(self, game: Game) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.id]))

    def _form_page(self, request, game, form, title: str, button: str, note: str = ""):
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": game,
            "title": f"{title}: {game.code}",
            "form": form,
            "button": button,
            "note": note,
        }
        return TemplateResponse(request, "admin/games/game/action_form.html", context)

    def _run(self, request, game, done: str, service, **kwargs):
        try:
            service(code=game.code, by=request.user.get_username(), **kwargs)
        except GameError as e:
            self.message_user(request, e.detail, messages.ERROR)
        else:
            self.log_change(request, game, done)
            self.message_user(request, f"{game.code}: {done}.", messages.SUCCESS)
        return self._back(game)

    def extend_view(self, request, game_id: int):
        game = self._game(request, game_id)
        form = ExtendForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            minutes = form.cleaned_data["minutes"]
            return self._run(
                request,
                game,
                f"Deadline extended by {minutes} minutes",
                admin_services.deadline_extend,
                minutes=minutes,
            )
        note = f"Current deadline: {game.deadline or 'none'}."
        return self._form_page(request, game, form, "Extend the deadline", "Extend", note)

    def expire_view(self, request, game_id: int):
        game = self._game(request, game_id)
        if request.method == "POST":
            return self._run(request, game, "Window expired", admin_services.window_expire)
        note = f"The {game.phase} window closes now, as if its timer had run out."
        return self._form_page(request, game, ConfirmForm(), "Expire the window", "Expire", note)

    def abandon_view(self, request, game_id: int):
        game = self._game(request, game_id)
        if request.method == "POST":
            return self._run(request, game, "Abandoned", admin_services.game_abandon)
        note = "The game ends with no winner; its timers stop. This cannot be undone."
        return self._form_page(request, game, ConfirmForm(), "End as abandoned", "Abandon", note)

    def replace_seat_view(self, request, game_id: int):
        game = self._game(request, game_id)
        form = ReplaceSeatForm(request.POST or None, game=game)
        if request.method == "POST" and form.is_valid():
            seat = form.cleaned_data["seat"]
            return self._run(
                request,
                game,
                f"Seat {seat} replaced",
                admin_services.seat_replace,
                seat=seat,
                user=form.cleaned_data["username"],
                name=form.cleaned_data["name"],
            )
        return self._form_page(request, game, form, "Replace a seat's player", "Replace")

    def export_view(self, request, game_id: int):
        game = self._game(request, game_id, superuser=True)
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        try:
            data = replay_export(game)
        except ReplayError as e:
            self.message_user(request, str(e), messages.ERROR)
            return self._back(game)
        self.log_change(request, game, "Exported the replay")
        audit.info(
            "replay exported",
            extra={"game": game.code, "round": game.round, "version": game.version},
        )
        response = HttpResponse(
            json.dumps(data, indent=1), content_type="application/json; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="staked-{game.code}.json"'
        response["Cache-Control"] = "no-store"
        return response

    def import_view(self, request):
        if not request.user.is_superuser:
            raise PermissionDenied
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                data = loads(form.cleaned_data["file"].read())
                game = replay_import(
                    data, host=request.user, keep_running=form.cleaned_data["keep_running"]
                )
            except (ReplayError, GameError) as e:
                form.add_error("file", str(e))
            else:
                self.log_addition(request, game, f"Imported a replay of {data.get('code')}")
                self.message_user(request, f"Replayed into {game.code}.", messages.SUCCESS)
                return self._back(game)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Import a replay",
            "form": form,
            "button": "Import",
            "multipart": True,
        }
        return TemplateResponse(request, "admin/games/game/action_form.html", context)

    def reveal_view(self, request, game_id: int):
        """Roles, Mesmerism, fixed roles and private events, to a superuser, once per POST; each
        reveal is logged (admin history, audit log). `admin_view` adds no-cache."""
        game = self._game(request, game_id, superuser=True)
        if request.method != "POST":
            note = "The roles are shown once, and this reveal is logged under your name."
            return self._form_page(request, game, ConfirmForm(), "Reveal roles", "Reveal", note)
        self.log_change(request, game, "Revealed roles and Mesmerism")
        audit.warning(
            "roles revealed",
            extra={
                "game": game.code,
                "round": game.round,
                "version": game.version,
                "by": request.user.get_username(),
            },
        )
        players = {p.seat: p for p in game.players.all()}
        seats = []
        if game.state is not None:
            for p in state_from_json(game.state).players:
                seats.append(
                    {
                        "seat": p.seat,
                        "name": players[p.seat].name if p.seat in players else "?",
                        "role": ROLE_NAMES.get(p.role, p.role),
                        "mesmerized": p.mesmerized,
                        "alive": p.alive,
                    }
                )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": game,
            "title": f"Roles: {game.code}",
            "seats": seats,
            "fixed_roles": game.options.get("roles"),
            "private_events": Event.objects.filter(game=game, audience__isnull=False),
        }
        return TemplateResponse(request, "admin/games/game/reveal.html", context)
