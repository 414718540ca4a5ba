"""How the game's pages answer: find the game (404 when there is none), redraw the game page
for this viewer (with a refusal's words where a move was refused), or redirect after a change.
Every page family of games/web uses these."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games import services
from games.domain.errors import refusal
from games.engine import IllegalAction
from games.models import Game
from games.selectors import game as selectors
from games.services import GameError, accounts
from games.web import regions
from games.web.game_page import game_context


def identify(request: HttpRequest, name: str):
    """The phone's guest identity, kept in the session (made like the API's GuestView)."""
    user = request.user
    if user.is_authenticated:
        accounts.display_name_set(user, name)
        return user
    user = services.guest_create(name=name)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def problem(exc: Exception) -> tuple[str, int]:
    """The refusal in words (the rule that forbids it) and its HTTP status, as the API answers
    it (games/domain/errors.py)."""
    refused = refusal(exc)
    if refused is None:
        raise exc
    return refused.detail, refused.status


def said(exc: Exception, detail: str) -> tuple[str, dict, str]:
    """A refusal's words, with the seats an engine refusal names (its template and data)."""
    if isinstance(exc, IllegalAction) and exc.template:
        return detail, exc.data, exc.template
    return detail, {}, ""


def game_or_404(code: str) -> Game:
    try:
        return selectors.game_get(code.upper())
    except GameError as exc:
        raise Http404(exc.detail) from None


def done(request: HttpRequest, game: Game) -> HttpResponse:
    """After a change: htmx gets the new partial now; a plain form post is redirected."""
    if request.htmx:
        return render_game(request, game)
    return redirect("game", code=game.code)


def refused_page(request, game: Game, exc: Exception, *, refused=None) -> HttpResponse:
    """The game page as the row now is, with a refusal's words (the seats it names as people)
    and its status: how every page of a game answers a GameError or an engine refusal.
    `refused` is the form that was sent, kept so the player's choices stay where they were."""
    detail, status = problem(exc)
    game.refresh_from_db()
    return render_game(request, game, error=said(exc, detail), status=status, refused=refused)


def game_change(view):
    """A POST that changes a game from its page: `view(request, game, **kwargs)` gets the game
    (404 when there is none) and returns the changed game, or a response of its own. The page
    then answers with `done`; a refusal redraws the game page (`refused_page`)."""

    @wraps(view)
    def page(request: HttpRequest, code: str, **kwargs) -> HttpResponse:
        game = game_or_404(code)
        try:
            result = view(request, game, **kwargs)
        except (GameError, IllegalAction) as exc:
            return refused_page(request, game, exc)
        if isinstance(result, HttpResponse):
            return result
        return done(request, result if result is not None else game)

    return page


def render_game(
    request, game: Game, *, error=None, join_form=None, status=200, refused=None
) -> HttpResponse:
    """The whole page; to htmx, the viewer's own part (`#game`) and, out of band, only the
    shared regions whose version moved since the page's (games/web/regions.py)."""
    context = game_context(request, game, error=error, join_form=join_form, refused=refused)
    if not request.htmx:
        return render(request, "games/game.html", context, status=status)
    response = render(request, "games/game.html#game", context, status=status)
    response.write(regions.out_of_band(request, context["regions"]))
    return response
