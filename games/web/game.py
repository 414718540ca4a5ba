"""Web pages: thin views over games.services (the only writer) and games.selectors.game.

Every page is rendered from `selectors.game_view(game, user)` — the viewer's own engine view —
and the log from `selectors.events_tail`. No rule lives here: what a player may do comes from
`view["pending"]`, and a refused move shows the engine's or the service's own words.

htmx: a page works without JavaScript (forms post and redirect); with htmx the game partial
(`games/game.html#game`) is swapped in place, and `changed` answers 204 while nothing changed.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.domain import identity
from games.domain.inputs import ACTIONS as ACTION_INPUTS
from games.engine import IllegalAction
from games.models import Game
from games.selectors import game as selectors
from games.services import GameError
from games.web.forms import OptionsForm, SeatJoinForm, action_args
from games.web.game_page import NO_SPECTATORS, may_watch
from games.web.respond import (
    done,
    game_change,
    game_or_404,
    identify,
    refused_page,
    render_game,
)


@require_GET
def game(request: HttpRequest, code: str) -> HttpResponse:
    game = game_or_404(code)
    if not may_watch(game, identity.seat_of(game, request.user)):
        raise Http404(NO_SPECTATORS)
    # A window found overdue is closed first, whatever the timers are doing.
    return render_game(request, services.close_if_overdue(game))


@require_GET
def changed(request: HttpRequest, code: str) -> HttpResponse:
    """The poll: 204 (htmx swaps nothing) while the version is the one the page shows.

    Where spectators may watch, the unchanged path is one cache read (selectors.poll_state);
    only a change renders, or a window past its deadline, which this closes first.
    Elsewhere the viewer's seat is asked first: someone who may not
    watch gets the same 404 whatever version they name (a 204 would confirm it)."""
    code = code.upper()
    held = request.GET.get("v")
    version, open_to_all, fresh = selectors.poll_state(code)
    if version is None:
        raise Http404("No such game.")
    if open_to_all and fresh and held == str(version):
        return HttpResponse(status=204)
    game = game_or_404(code)
    if not open_to_all and not may_watch(game, identity.seat_of(game, request.user)):
        raise Http404(NO_SPECTATORS)
    game = services.close_if_overdue(game)  # an overdue window closes first
    if held == str(game.version):
        return HttpResponse(status=204)
    return render_game(request, game)


@require_POST
@game_change
def seat_join(request: HttpRequest, game: Game):
    """Sit down at a table from its invite link."""
    form = SeatJoinForm(request.POST)
    if not form.is_valid():
        return render_game(request, game, join_form=form, status=400)
    user = identify(request, form.cleaned_data["name"])
    return services.game_join(code=game.code, user=user, name=form.cleaned_data["name"])


@require_POST
@game_change
def start(request: HttpRequest, game: Game):
    return services.game_start(code=game.code, user=request.user)


@require_POST
@game_change
def update_options(request: HttpRequest, game: Game):
    """The host changes the table's options in the lobby (services.game_update_options)."""
    form = OptionsForm(request.POST)
    if not form.is_valid():
        return render_game(request, game, error="Those options are not valid.", status=400)
    return services.game_update_options(code=game.code, user=request.user, options=form.options())


@require_POST
@game_change
def add_bots(request: HttpRequest, game: Game):
    """The host fills seats with bots from the lobby (services.game_add_bots)."""
    try:
        count = max(1, min(int(request.POST.get("count", 1)), 12))
    except ValueError:
        count = 1
    return services.game_add_bots(code=game.code, user=request.user, count=count)


@require_POST
@game_change
def leave(request: HttpRequest, game: Game):
    services.game_leave(code=game.code, user=request.user)
    if request.htmx:
        response = HttpResponse(status=200)
        response["HX-Redirect"] = reverse("home")
        return response
    return redirect("home")


@require_POST
def act(request: HttpRequest, code: str, action: str) -> HttpResponse:
    """One action of docs/api.md from a form; answers with the updated game at once."""
    game = game_or_404(code)
    serializer_class = ACTION_INPUTS.get(action)
    if serializer_class is None:
        return render_game(request, game, error=f"There is no action '{action}'.", status=400)
    # A refused move's error shows beside the form that sent it, which keeps the
    # player's choices ("name=value" as posted).
    refused = {
        "action": action,
        "relic": request.POST.get("relic"),
        "kept": {
            f"{k}={v}"
            for k in request.POST
            if k != "csrfmiddlewaretoken"
            for v in request.POST.getlist(k)
        },
    }
    serializer = serializer_class(data=action_args(request.POST))
    if not serializer.is_valid():
        fields = ", ".join(sorted(serializer.errors))
        return render_game(
            request, game, error=f"Choose a {fields} first.", status=400, refused=refused
        )
    try:
        game = services.action_apply(
            code=game.code, user=request.user, name=action, args=dict(serializer.validated_data)
        )
    except (GameError, IllegalAction) as exc:
        return refused_page(request, game, exc, refused=refused)
    return done(request, game)
