"""Private news on the game page: the "Got it" that dismisses a card on every device
of the seat (games.services.news keeps what was read; games.presenters.news_cards draws the
cards)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from games.services import GameError, news
from games.web.game import done, game_or_404, render_game


@require_POST
def news_read(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """ "Got it": the card is gone on every device of this seat."""
    game = game_or_404(code)
    try:
        news.acknowledge(game, request.user, number)
    except GameError as exc:
        return render_game(request, game, error=exc.detail, status=exc.status)
    return done(request, game)


@require_POST
def since_read(request: HttpRequest, code: str) -> HttpResponse:
    """ "Got it" on "Since you last looked": gone on every device of this seat."""
    game = game_or_404(code)
    try:
        news.since_read(game, request.user)
    except GameError as exc:
        return render_game(request, game, error=exc.detail, status=exc.status)
    return done(request, game)
