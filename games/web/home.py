"""The home page: make a table, join one by its code, and "Your tables" (an inbox across
games: those waiting on your move first)."""

from __future__ import annotations

from datetime import UTC, datetime

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.domain import identity
from games.models import Game
from games.presenters import game as presenters
from games.presenters import times
from games.selectors import game as selectors
from games.selectors import listing
from games.services import GameError
from games.web.forms import CreateForm, JoinForm
from games.web.game_page import display_name
from games.web.respond import identify


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render_home(request)


def render_home(request, *, create=None, join=None, error=None, status=200) -> HttpResponse:
    """The home page, with a refused form (and its error) where one was posted."""
    name = display_name(request.user)
    context = {
        "create_form": create or CreateForm(initial={"name": name}),
        "join_form": join or JoinForm(initial={"name": name}),
        **inbox_context(request),
        "name": name,
        "error": error,
    }
    return render(request, "home.html", context, status=status)


def inbox_context(request) -> dict:
    """ "Your tables" (an inbox across games): games that wait on your move first,
    then by deadline, each with its phase and deadline in the viewer's time zone; then the
    latest finished ones (not practice games: they are over once played). `move_count` goes in
    the page title and the app's icon badge."""
    zone, now = times.of_request(request), datetime.now(UTC)
    games = listing.my_games(request.user)
    rows = listing.inbox(request.user, games)
    for row in rows:
        game = row["game"]
        row["phase_label"] = presenters.phase_label(game.phase)
        row["deadline_text"] = game.deadline and times.deadline(game.deadline, zone, now)
    finished = [
        {"game": game, "seat": identity.player_in(game.players.all(), request.user)}
        for game in listing.for_home(request.user, games)
        if game.status not in (Game.Status.LOBBY, Game.Status.RUNNING)
        and not game.options.get("practice")  # a practice game is done once played
    ]
    mine = rows + [row for row in finished if row["seat"] is not None]
    return {"my_games": mine, "move_count": sum(1 for row in rows if row["your_move"])}


@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    """The home page's "Your tables" alone: its poll keeps the list and the badge count fresh."""
    return render(request, "home.html#inbox", inbox_context(request))


@require_POST
def create(request: HttpRequest) -> HttpResponse:
    form = CreateForm(request.POST)
    if not form.is_valid():
        return render_home(request, create=form, status=400)
    user = identify(request, form.cleaned_data["name"])
    try:
        game = services.game_create(
            host=user, options=form.options(), name=form.cleaned_data["name"]
        )
    except GameError as exc:  # too_many_lobbies
        return render_home(request, create=form, error=exc.detail, status=exc.status)
    return redirect("game", code=game.code)


@require_POST
def join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST)
    if not form.is_valid():
        return render_home(request, join=form, status=400)
    code = form.cleaned_data["code"]
    try:
        selectors.game_get(code)
    except GameError as exc:
        return render_home(request, join=form, error=exc.detail, status=exc.status)
    user = identify(request, form.cleaned_data["name"])
    try:
        services.game_join(code=code, user=user, name=form.cleaned_data["name"])
    except GameError as exc:
        return render_home(request, join=form, error=exc.detail, status=exc.status)
    return redirect("game", code=code)
