"""The Django admin for running games.

Every page, column and filter here is public information (hidden information): no
role, no Mesmerism, no private event, no seed and no engine state. Superusers see the secrets
only behind the explicit, logged "Reveal roles" step, and only they export or import a replay
(which holds every secret). Every change goes through `games.services.organiser` (the service
layer), never through a form that edits a row; each asks first (a confirmation page, for a
bulk action too) and carries the stamp of what that page showed, refused if the game moved on.
How a game looks here (seats, who the game waits on, the log): games/admin/display.py.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count
from django.db.models.fields.json import KT
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from games.admin import accounts as admin_accounts
from games.admin import display as show
from games.domain import identity
from games.engine import state_from_json
from games.engine.common import ROLE_NAMES
from games.models import Event, Game
from games.presenters.game import PHASE_LABELS, phase_label, window_name
from games.services import GameError, clock
from games.services import organiser as admin_services
from games.services.replay import ReplayError, loads, replay_export, replay_import

audit = logging.getLogger("games.audit")

admin.site.site_header = "Staked! administration"
admin.site.site_title = "Staked! admin"
admin.site.index_title = "Games, players and table talk"
# The left-hand model list takes a quarter of a laptop's width: the game list's columns need it.
admin.site.enable_nav_sidebar = False
admin_accounts.register(admin.site)


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


class IdleFilter(admin.SimpleListFilter):
    """Lobbies and running games nobody has touched for settings.ABANDONED_AFTER_HOURS. Called
    "idle", not "abandoned": that is a status (a game an organiser ended)."""

    title = "idle (no update)"
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


class PhaseFilter(admin.AllValuesFieldListFilter):
    """The phase filter in the words the players read ("Role reveal", "Round 1 examination"),
    in the order a game goes through them; the query string keeps the stored value
    (`?phase__exact=role_reveal`), so a bookmarked filter still works."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        order = {phase: i for i, phase in enumerate(PHASE_LABELS)}
        self.lookup_choices = sorted(
            self.lookup_choices, key=lambda v: (v is None, order.get(v, len(order)), v or "")
        )

    def choices(self, changelist):
        values = [str(v) for v in self.lookup_choices if v is not None]
        choices = super().choices(changelist)
        yield next(choices)  # "All"
        # One choice per value, in order ("mingling (3)" with facets); zip leaves the rest.
        for value, choice in zip(values, choices, strict=False):
            yield {**choice, "display": choice["display"].replace(value, phase_label(value), 1)}
        yield from choices  # the empty value, if any


class OriginFilter(admin.SimpleListFilter):
    title = "origin"
    parameter_name = "origin"

    def lookups(self, request, model_admin):
        return [("here", "Played here"), ("imported", "Imported replay")]

    def queryset(self, request, queryset):
        if self.value() == "here":
            return queryset.filter(imported_from="")
        if self.value() == "imported":
            return queryset.exclude(imported_from="")
        return queryset


# --- forms ------------------------------------------------------------------------------------


class StampedForm(forms.Form):
    """An organiser's form: it carries the stamp of what its page showed
    (`admin_services.stamp`); the service refuses it if the game moved on since."""

    stamp = forms.CharField(widget=forms.HiddenInput)


class ExtendForm(StampedForm):
    minutes = forms.IntegerField(
        min_value=1,
        max_value=admin_services.MAX_EXTENSION_MINUTES,
        help_text=f"1 to {admin_services.MAX_EXTENSION_MINUTES:,} minutes "
        f"({show.duration(admin_services.MAX_EXTENSION_MINUTES * 60)}) at a time.",
    )


ORGANISERS_HAND_TO_BOTS = (
    "Organisers hand a seat to a bot only: leave this empty. A person takes a seat from the "
    "host's hand-on link, or from a superuser."
)


class ReplaceSeatForm(StampedForm):
    seat = forms.TypedChoiceField(coerce=int, help_text="Seats marked away missed windows.")
    username = forms.CharField(
        max_length=150,
        required=False,
        help_text="The user who takes the seat over; leave empty to hand the seat to a bot.",
    )
    name = forms.CharField(
        max_length=40,
        required=False,
        help_text="The seat's new name. Leave empty: a bot takes the first free “Bot N”, a "
        "person their own name.",
    )

    def __init__(self, *args, game: Game, superuser: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [(r.player.seat, r.summary) for r in show.seat_rows(game)]
        self.superuser = superuser
        if not superuser:
            self.fields["username"].help_text = ORGANISERS_HAND_TO_BOTS

    def clean_username(self):
        if not self.cleaned_data["username"]:
            return None  # a bot
        if not self.superuser:  # the service refuses it too (games.services.organiser)
            raise forms.ValidationError(ORGANISERS_HAND_TO_BOTS)
        user = get_user_model().objects.filter(username=self.cleaned_data["username"]).first()
        if user is None:
            raise forms.ValidationError("No user has this username.")
        return user


class ConfirmForm(StampedForm):
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
        "game_code",
        "status",
        "phase_shown",
        "round",
        "player_count",
        "winner_shown",
        "deadline_shown",
        "updated_at",
    )
    list_display_links = ("game_code",)
    list_filter = (
        "status",
        ("phase", PhaseFilter),
        RelicsFilter,
        LastWillsFilter,
        StuckFilter,
        IdleFilter,
        OriginFilter,
    )
    search_fields = ("code", "players__name")
    ordering = ("-updated_at",)
    date_hierarchy = None
    list_per_page = 50
    # Never `state`, `seed` or the raw `options` (they hold fixed roles and the relic deck).
    readonly_fields = (
        "code",
        "links",
        "status",
        "phase_shown",
        "round",
        "winner_shown",
        "deadline_shown",
        "host_shown",
        "options_shown",
        "origin",
        "created_at",
        "updated_at",
        "version",
        "seats_table",
        "relics_table",
        "public_log",
    )
    fieldsets = (
        (None, {"fields": readonly_fields[:-3]}),
        ("Seats: who the game is waiting on", {"fields": ("seats_table",)}),
        ("Sacred Relics (public: face-up on the table)", {"fields": ("relics_table",)}),
        ("Public event log (what an observer reads)", {"fields": ("public_log",)}),
    )
    actions = ("expire_windows", "abandon_games")

    def get_fieldsets(self, request, obj=None):
        """The relics' section only where the game plays with them (or a replay dealt some)."""
        if obj is not None and (obj.options.get("relics") or obj.relic_holdings.exists()):
            return self.fieldsets
        return [f for f in self.fieldsets if "relics_table" not in f[1]["fields"]]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("host")
            .annotate(
                _players=Count("players", distinct=True), _winner=KT("state__outcome__winner")
            )
        )

    # --- columns and fields (public information only) ---

    @admin.display(description="code", ordering="code")
    def game_code(self, game):
        return f"{game.code} (imported)" if game.imported_from else game.code

    @admin.display(description="phase", ordering="phase")
    def phase_shown(self, game):
        return phase_label(game.phase)

    @admin.display(description="players", ordering="_players")
    def player_count(self, game):
        return game._players

    @admin.display(description="winner", ordering="_winner")
    def winner_shown(self, game):
        return show.winner(game)

    @admin.display(description="deadline", ordering="deadline")
    def deadline_shown(self, game):
        if clock.paused(game):
            return paused_text(game)
        return show.when_and_distance(game.deadline)

    @admin.display(description="host")
    def host_shown(self, game):
        """The host by their name at this table (or display name), linked to their user page."""
        seat = identity.host_player(game.players.all(), game)
        link = show.user_link(game.host)
        return format_html("{} at seat {} · {}", seat.name, seat.seat, link) if seat else link

    @admin.display(description="options")
    def options_shown(self, game):
        return show.options_list(game.options)

    @admin.display(description="origin")
    def origin(self, game):
        if not game.imported_from:
            return "Played here"
        return f"Imported replay of {game.imported_from}; imported by {game.host}"

    @admin.display(description="links")
    def links(self, game):
        return show.links(game)

    @admin.display(description="seats")
    def seats_table(self, game):
        return show.seats_table(game)

    @admin.display(description="relics")
    def relics_table(self, game):
        return show.relics_table(game)

    @admin.display(description="lines")
    def public_log(self, game):
        return show.log_tail(game)

    def view_on_site(self, game):
        return reverse("game", args=[game.code])

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

    # --- bulk actions: a confirmation page first, then the same services as the buttons ---

    @admin.action(description="Expire the current window now", permissions=["change"])
    def expire_windows(self, request, queryset):
        return self._bulk(
            request,
            queryset,
            action="expire_windows",
            title="Expire the current windows",
            question="Close the open window of each game below now, as if its timer had run "
            "out? A game that moved on since this page opened is left alone.",
            plan=_expire_plan,
            service=admin_services.window_expire,
            done="window expired",
        )

    @admin.action(description="End as abandoned", permissions=["change"])
    def abandon_games(self, request, queryset):
        return self._bulk(
            request,
            queryset,
            action="abandon_games",
            title="End games as abandoned",
            question="End each game below as abandoned? It ends with no winner and its timers "
            "stop. This cannot be undone.",
            plan=_abandon_plan,
            service=admin_services.game_abandon,
            done="abandoned",
        )

    def _bulk(self, request, queryset, *, action, title, question, plan, service, done):
        if request.POST.get("post") != "yes":
            rows = []
            for game in queryset.order_by("code"):
                acts, what = plan(game)
                rows.append(
                    {"obj": game, "acts": acts, "what": what, "stamp": admin_services.stamp(game)}
                )
            context = {
                **self.admin_site.each_context(request),
                "opts": self.model._meta,
                "title": title,
                "question": question,
                "plan": rows,
                "action": action,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                "media": self.media,
            }
            return TemplateResponse(request, "admin/confirm_selected.html", context)
        for game in queryset:
            confirmed = request.POST.get(f"stamp-{game.pk}")
            if not confirmed:
                self.message_user(request, f"{game.code}: not confirmed.", messages.WARNING)
                continue
            try:
                service(code=game.code, by=request.user.get_username(), stamp=confirmed)
            except GameError as e:
                self.message_user(request, f"{game.code}: {e.detail}", messages.WARNING)
            else:
                self.log_change(request, game, done.capitalize())
                self.message_user(request, f"{game.code}: {_sentence(done)}", messages.SUCCESS)
        return None

    # --- the change page and its own views ---

    def change_view(self, request, object_id, form_url="", extra_context=None):
        game = self.get_object(request, object_id)
        extra_context = {
            **(extra_context or {}),
            "title": f"Game {game.code}" if game else "Game",
            "subtitle": None,
            "show_save": False,
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
            "can_act": self.has_change_permission(request),
            "is_superuser": request.user.is_superuser,
        }
        return super().change_view(request, object_id, form_url, extra_context)

    def changelist_view(self, request, extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "title": "Games",
            "can_import": request.user.is_superuser,
        }
        return super().changelist_view(request, extra_context)

    def get_urls(self):
        view = self.admin_site.admin_view
        own = [
            path("import/", view(self.import_view), name="games_game_import"),
            path("<int:game_id>/log/", view(self.log_view), name="games_game_log"),
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

    def _page(self, request, game, template: str, title: str, status: int = 200, **more):
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": game,
            "title": f"{title}: {game.code}" if game else title,
            **more,
        }
        return TemplateResponse(request, template, context, status=status)

    def _form_page(self, request, game, form, title: str, button: str, notes=(), **more):
        return self._page(
            request,
            game,
            "admin/games/game/action_form.html",
            title,
            form=form,
            button=button,
            notes=notes,
            **more,
        )

    def _organiser_form(self, request, game, *, form_class, title, button, describe, run, done):
        """An organiser's action page: GET describes the game and asks; POST runs `run` with
        the page's stamp. If the game moved on (409 stale) the page is shown again, as the game
        is now, with the refusal; nothing was done. Other refusals go back to the game's page."""

        def make(data=None):
            kwargs = {}
            if form_class is ReplaceSeatForm:
                kwargs = {"game": game, "superuser": request.user.is_superuser}
            return form_class(data, initial={"stamp": admin_services.stamp(game)}, **kwargs)

        form = make(request.POST if request.method == "POST" else None)
        refusal = None
        if request.method == "POST" and form.is_valid():
            try:
                result = run(form.cleaned_data)
            except GameError as e:
                if e.code != "stale":
                    self.message_user(request, e.detail, messages.ERROR)
                    return self._back(game)
                refusal = e.detail
                game.refresh_from_db()
                data = request.POST.copy()
                data["stamp"] = admin_services.stamp(game)
                form = make(data)
            else:
                message = done(result) if callable(done) else done
                self.log_change(request, game, message)
                self.message_user(request, f"{game.code}: {_sentence(message)}", messages.SUCCESS)
                return self._back(game)
        extra = {"table": show.seats_table(game)} if form_class is ReplaceSeatForm else {}
        return self._form_page(
            request,
            game,
            form,
            title,
            button,
            notes=describe(game),
            refusal=refusal,
            status=409 if refusal else 200,
            **extra,
        )

    def extend_view(self, request, game_id: int):
        game = self._game(request, game_id)

        def run(data):
            minutes = data["minutes"]
            admin_services.deadline_extend(
                code=game.code, minutes=minutes, by=_by(request), stamp=data["stamp"]
            )
            return minutes

        return self._organiser_form(
            request,
            game,
            form_class=ExtendForm,
            title="Extend the deadline",
            button="Extend",
            describe=_extend_notes,
            run=run,
            done=lambda minutes: f"Deadline extended by {admin_services.minutes_text(minutes)}",
        )

    def expire_view(self, request, game_id: int):
        game = self._game(request, game_id)
        return self._organiser_form(
            request,
            game,
            form_class=ConfirmForm,
            title="Expire the window",
            button="Expire",
            describe=lambda g: [_expire_plan(g)[1]],
            run=lambda data: admin_services.window_expire(
                code=game.code, by=_by(request), stamp=data["stamp"]
            ),
            done="Window expired",
        )

    def abandon_view(self, request, game_id: int):
        game = self._game(request, game_id)
        return self._organiser_form(
            request,
            game,
            form_class=ConfirmForm,
            title="End as abandoned",
            button="Abandon",
            describe=lambda g: [_abandon_plan(g)[1]],
            run=lambda data: admin_services.game_abandon(
                code=game.code, by=_by(request), stamp=data["stamp"]
            ),
            done="Abandoned",
        )

    def replace_seat_view(self, request, game_id: int):
        game = self._game(request, game_id)
        return self._organiser_form(
            request,
            game,
            form_class=ReplaceSeatForm,
            title="Replace a seat's player",
            button="Replace",
            describe=lambda g: [
                "The role stays with the seat; only who plays it changes. The log says who "
                "left and who took over.",
                "A superuser may hand it to a person; that handover is written to the audit log."
                if request.user.is_superuser
                else "You may hand it to a bot; a person would read the seat's secrets, so a "
                "person takes a seat from the host's hand-on link, or from a superuser.",
            ],
            run=lambda data: admin_services.seat_replace(
                code=game.code,
                seat=data["seat"],
                user=data["username"],
                name=data["name"],
                by=_by(request),
                stamp=data["stamp"],
                to_a_person=request.user.is_superuser,
            ),
            done=str,  # the Handover says who left and who took over
        )

    def log_view(self, request, game_id: int):
        """The whole public log, LOG_PAGE lines a page, numbered among the public lines."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        game = get_object_or_404(Game, id=game_id)
        page = Paginator(show.public_events(game), show.LOG_PAGE).get_page(request.GET.get("page"))
        return self._page(
            request,
            game,
            "admin/games/game/log.html",
            "Public event log",
            page=page,
            lines=show.log_list(page.object_list, page.start_index()),
        )

    def export_view(self, request, game_id: int):
        """GET asks (the file holds every secret); POST downloads it. Its own page, since a
        form inside the game's page would be nested in the change form and submit that."""
        game = self._game(request, game_id, superuser=True)
        if request.method != "POST":
            notes = [
                "The replay file holds every secret of this game: the seed, the fixed roles and "
                "every move. Keep it among superusers. The export is logged under your name."
            ]
            return self._form_page(
                request, game, forms.Form(), "Export the replay", "Download the replay", notes
            )
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
                self.log_addition(request, game, f"Imported a replay of {game.imported_from}")
                self.message_user(request, f"Replayed into {game.code}.", messages.SUCCESS)
                return self._back(game)
        return self._form_page(request, None, form, "Import a replay", "Import", multipart=True)

    def reveal_view(self, request, game_id: int):
        """Roles, Mesmerism, fixed roles and private events, to a superuser, once per POST; each
        reveal is logged (admin history, audit log). `admin_view` adds no-cache."""
        game = self._game(request, game_id, superuser=True)
        if request.method != "POST":
            notes = ["The roles are shown once, and this reveal is logged under your name."]
            return self._form_page(request, game, forms.Form(), "Reveal roles", "Reveal", notes)
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
        return self._page(
            request,
            game,
            "admin/games/game/reveal.html",
            "Roles",
            seats=seats,
            fixed_roles=game.options.get("roles"),
            private_events=Event.objects.filter(game=game, audience__isnull=False),
        )


def _by(request) -> str:
    return request.user.get_username()


def _sentence(text: str) -> str:
    """`text` ending in one full stop: a message that is a sentence already (a Handover's "...
    took over.") gets no second one."""
    return text if text.endswith((".", "!", "?")) else f"{text}."


# --- what an action will do to a game, in words (confirmation pages) --------------------------


def _window(game: Game, *, first: bool = False) -> str:
    """ "the Mingling window of round 2" ("The ..." to begin a sentence); "the Round 1
    examination window", whose name says its round already."""
    return f"{'The' if first else 'the'} {window_name(game.phase, game.round)}"


def _due(deadline) -> str:
    """ "is due" for a deadline still ahead, "was due" for one that has passed (a stuck game)."""
    return "was due" if deadline <= timezone.now() else "is due"


def _expire_plan(game: Game) -> tuple[bool, str]:
    if game.status != Game.Status.RUNNING:
        return False, f"Nothing: the game is {game.get_status_display().lower()}."
    if game.deadline is None:
        return False, "Nothing: no timed window is open."
    return True, (
        f"{_window(game, first=True)} closes now, as if its timer had run out; it "
        f"{_due(game.deadline)} {show.when_and_distance(game.deadline)}. The next window opens "
        "from now."
    )


def _abandon_plan(game: Game) -> tuple[bool, str]:
    if game.status == Game.Status.LOBBY:
        seated = game.players.count()
        return True, f"The lobby ({seated} seated) closes with no game. This cannot be undone."
    if game.status == Game.Status.RUNNING:
        return True, (
            f"The game ends in round {game.round} with no winner and its timers stop. "
            "This cannot be undone."
        )
    return False, f"Nothing: the game is already {game.get_status_display().lower()}."


def paused_text(game: Game) -> str:
    """A clock the table paused (games.services.clock): no deadline runs until it resumes."""
    left = show.duration(round(game.clock["paused_left"]))
    return f"paused by the table, {left} left when it resumes"


def _extend_notes(game: Game) -> list[str]:
    if game.status == Game.Status.RUNNING and clock.paused(game):
        return [f"The clock is {paused_text(game)}: there is no deadline to extend until then."]
    deadline = admin_services.deadline_of(game)
    if game.status != Game.Status.RUNNING or deadline is None:
        return ["No timed window is open: there is no deadline to extend."]
    due = "was due" if deadline <= timezone.now() else "closes"
    return [
        f"{_window(game, first=True)} {due} {show.when_and_distance(deadline)}.",
        f"Extend it by 1 to {admin_services.MAX_EXTENSION_MINUTES:,} minutes "
        f"({show.duration(admin_services.MAX_EXTENSION_MINUTES * 60)}) at a time; the players "
        "see the new deadline and a line in the log.",
    ]
