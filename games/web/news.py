"""Private news on the game page: the "Got it" that dismisses a card on every device
of the seat (games.services.news keeps what was read; games.presenters.news_cards draws the
cards)."""

from __future__ import annotations

from django.http import HttpRequest
from django.views.decorators.http import require_POST

from games.models import Game
from games.services import news
from games.web.respond import game_change


@require_POST
@game_change
def news_read(request: HttpRequest, game: Game, number: int) -> None:
    """ "Got it": the card is gone on every device of this seat."""
    news.acknowledge(game, request.user, number)


@require_POST
@game_change
def since_read(request: HttpRequest, game: Game) -> None:
    """ "Got it" on "Since you last looked": gone on every device of this seat."""
    news.since_read(game, request.user)
