"""The pages of games.seats (issue 9): the host's remedies for a seat flagged as away, the
handover link a new friend opens, and the rematch button of the end screen. Thin, like
games.views, whose rendering they share (the game page lists the remedies: views.remedies)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games import identity, seats
from games.forms import SeatJoinForm
from games.services import GameError
from games.views import display_name, done, game_or_404, identify, render_game


@require_POST
def seat_bot(request: HttpRequest, code: str, seat: int) -> HttpResponse:
    game = game_or_404(code)
    try:
        game = seats.seat_to_bot(code=game.code, user=request.user, seat=seat)
    except GameError as exc:
        return render_game(request, game, error=exc.detail, status=exc.status)
    return done(request, game)


@require_POST
def seat_here(request: HttpRequest, code: str) -> HttpResponse:
    """The one tap of a player whose seat is flagged as away: "I'm still here" (issue 20)."""
    game = game_or_404(code)
    try:
        game = seats.seat_here(code=game.code, user=request.user)
    except GameError as exc:
        return render_game(request, game, error=exc.detail, status=exc.status)
    return done(request, game)


@require_POST
def seat_invite(request: HttpRequest, code: str, seat: int) -> HttpResponse:
    game = game_or_404(code)
    try:
        game, _ = seats.seat_invite(code=game.code, user=request.user, seat=seat)
    except GameError as exc:
        return render_game(request, game, error=exc.detail, status=exc.status)
    return done(request, game)


@require_http_methods(["GET", "POST"])
def seat_claim(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """The new friend's page: a name, one button, and the seat is theirs."""
    player = seats.invited_seat(code.upper(), token)
    if player is None:
        raise Http404("This link was already used or withdrawn.")
    form = SeatJoinForm(request.POST or None, initial={"name": display_name(request.user)})
    error, status = None, 200
    if request.method == "POST":
        if form.is_valid():
            name = form.cleaned_data["name"]
            try:
                if identity.is_seated(player.game, request.user):  # before the name is touched
                    raise GameError("already_seated", "You already have a seat here.", 409)
                user = identify(request, name)
                seats.seat_claim(code=player.game.code, user=user, token=token, name=name)
            except GameError as exc:
                error, status = exc.detail, exc.status
            else:
                return redirect("game", code=player.game.code)
        else:
            status = 400
    context = {"player": player, "game": player.game, "form": form, "error": error}
    return render(request, "games/claim.html", context, status=status)


@require_POST
def rematch(request: HttpRequest, code: str) -> HttpResponse:
    game = game_or_404(code)
    try:
        new, _ = seats.rematch_open(code=game.code, user=request.user)
    except GameError as exc:
        return render_game(request, game, error=exc.detail, status=exc.status)
    return redirect("game", code=new.code)
