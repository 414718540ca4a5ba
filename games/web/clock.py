"""The pages of the table's clock (docs/slow-games.md "Moving a deadline"): the host's
extend, pause and resume, and a player's proposal to the table. Thin, like games.web.game, whose
rendering they share (the game page shows the clock: views.clock_card)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from games import services
from games.web.game_page import EXTEND_CHOICES
from games.web.respond import game_change, game_or_404, render_game

_MINUTES = {minutes for minutes, _ in EXTEND_CHOICES}


def _minutes(request: HttpRequest) -> int | None:
    raw = request.POST.get("minutes", "")
    return int(raw) if raw.isdigit() and int(raw) in _MINUTES else None


def _answer(request: HttpRequest, code: str, write) -> HttpResponse:
    return game_change(lambda request, game: write(game))(request, code)


def _refused(request: HttpRequest, code: str, detail: str) -> HttpResponse:
    return render_game(request, game_or_404(code), error=detail, status=400)


@require_POST
def extend(request: HttpRequest, code: str) -> HttpResponse:
    minutes = _minutes(request)
    if minutes is None:
        return _refused(request, code, "Choose how much longer first.")
    return _answer(
        request,
        code,
        lambda g: services.clock_extend(code=g.code, user=request.user, minutes=minutes),
    )


@require_POST
def pause(request: HttpRequest, code: str) -> HttpResponse:
    return _answer(request, code, lambda g: services.clock_pause(code=g.code, user=request.user))


@require_POST
def resume(request: HttpRequest, code: str) -> HttpResponse:
    return _answer(request, code, lambda g: services.clock_resume(code=g.code, user=request.user))


@require_POST
def vote(request: HttpRequest, code: str) -> HttpResponse:
    proposal = request.POST.get("proposal", "")
    if proposal not in services.deadlines.PROPOSALS:
        return _refused(request, code, "Choose what to ask the table first.")
    minutes = _minutes(request) if proposal == "extend" else None
    if proposal == "extend" and minutes is None:
        return _refused(request, code, "Choose how much longer first.")
    return _answer(
        request,
        code,
        lambda g: services.clock_vote(
            code=g.code, user=request.user, proposal=proposal, minutes=minutes
        ),
    )
