"""The pages of vacation mode (docs/slow-games.md "Vacation"): a seated player of a slow
game announces an absence with two times in their own zone (the `tz` cookie,
games.presenters.times), and ends it with "I'm back". Thin, like games.web.game, whose rendering
they share (the card: presenters.vacation_card)."""

from __future__ import annotations

from datetime import UTC, datetime

from django.http import HttpRequest
from django.views.decorators.http import require_POST

from games import services
from games.models import Game
from games.presenters import times
from games.web.respond import game_change, render_game


def _moment(raw: str, request: HttpRequest) -> datetime | None:
    """A datetime-local field ("2026-12-01T22:41") read in the viewer's zone (UTC if unknown)."""
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=times.of_request(request) or UTC)
    return moment


@require_POST
@game_change
def vacation(request: HttpRequest, game: Game):
    raw_from, raw_until = request.POST.get("from", "").strip(), request.POST.get("until", "")
    start = _moment(raw_from, request) if raw_from else None
    until = _moment(raw_until.strip(), request)
    if until is None or (raw_from and start is None):
        detail = "Choose until when you are away (and, if not now, from when)."
        return render_game(request, game, error=detail, status=400)
    return services.vacation_set(code=game.code, user=request.user, start=start, until=until)


@require_POST
@game_change
def vacation_end(request: HttpRequest, game: Game):
    """ "I'm back" (or drop the vacation planned)."""
    return services.vacation_cancel(code=game.code, user=request.user)
