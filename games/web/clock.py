"""The pages of the table's clock (docs/slow-games.md "Moving a deadline"): the host's
extend, pause and resume, and a player's proposal to the table. Thin, like games.web.game, whose
rendering they share (the game page shows the clock: views.clock_card)."""

from __future__ import annotations

from django.http import HttpRequest
from django.views.decorators.http import require_POST

from games import services
from games.models import Game
from games.web.game_page import EXTEND_CHOICES
from games.web.respond import game_change, render_game

_MINUTES = {minutes for minutes, _ in EXTEND_CHOICES}


def _minutes(request: HttpRequest) -> int | None:
    raw = request.POST.get("minutes", "")
    return int(raw) if raw.isdigit() and int(raw) in _MINUTES else None


def _stamp(request: HttpRequest) -> str:
    """The clock's stamp the page's form carries (games.domain.clock_stamps): a second tap, or
    a form from before the clock moved, is refused (409 stale) and changes nothing. A form
    without one (a page from before stamps) counts as out of date."""
    return request.POST.get("stamp", "") or "missing"


@require_POST
@game_change
def extend(request: HttpRequest, game: Game):
    minutes = _minutes(request)
    if minutes is None:
        return render_game(request, game, error="Choose how much longer first.", status=400)
    return services.clock_extend(
        code=game.code, user=request.user, minutes=minutes, stamp=_stamp(request)
    )


@require_POST
@game_change
def pause(request: HttpRequest, game: Game):
    return services.clock_pause(code=game.code, user=request.user)


@require_POST
@game_change
def resume(request: HttpRequest, game: Game):
    return services.clock_resume(code=game.code, user=request.user)


@require_POST
@game_change
def vote(request: HttpRequest, game: Game):
    proposal = request.POST.get("proposal", "")
    if proposal not in services.deadlines.PROPOSALS:
        return render_game(request, game, error="Choose what to ask the table first.", status=400)
    minutes = _minutes(request) if proposal == "extend" else None
    if proposal == "extend" and minutes is None:
        return render_game(request, game, error="Choose how much longer first.", status=400)
    return services.clock_vote(
        code=game.code, user=request.user, proposal=proposal, minutes=minutes, stamp=_stamp(request)
    )
