"""The pages of games.services.seats: the host's remedies for a seat flagged as away, the
handover link a new friend opens, and the rematch button of the end screen. Thin, like
games.web.game, whose rendering they share (the game page lists the remedies: views.remedies)."""

from __future__ import annotations

from django.contrib.auth import login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.domain import identity, seat_link_tokens
from games.models import Game
from games.presenters import game as presenters
from games.presenters import times
from games.services import GameError, seat_links, seats
from games.web.forms import SeatJoinForm
from games.web.game_page import display_name
from games.web.respond import game_change, game_or_404, identify


@require_POST
@game_change
def seat_bot(request: HttpRequest, game: Game, seat: int):
    return seats.seat_to_bot(code=game.code, user=request.user, seat=seat)


@require_POST
@game_change
def seat_here(request: HttpRequest, game: Game):
    """The one tap of a player whose seat is flagged as away: "I'm still here"."""
    return seats.seat_here(code=game.code, user=request.user)


@require_POST
@game_change
def seat_invite(request: HttpRequest, game: Game, seat: int):
    return seats.seat_invite(code=game.code, user=request.user, seat=seat)[0]


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
@game_change
def rematch(request: HttpRequest, game: Game) -> HttpResponse:
    new, _ = seats.rematch_open(code=game.code, user=request.user)
    return redirect("game", code=new.code)


# --- your seat on any device (games.services.seat_links) ------------------------------------------

LINK_STATUS = {
    "forged": 404,
    "expired": 410,
    "used": 410,
    "signed_out": 410,
    "seat_changed": 403,
    "guest_would_be_lost": 409,  # this browser's guest holds other seats: nothing is used up
}


@require_GET
def another_device(request: HttpRequest, code: str) -> HttpResponse:
    """ "Continue on another device": the seat's own link as text and a QR code, on a page of
    its own behind a tap (never in the game page, which a poll redraws for every glance)."""
    game = game_or_404(code)
    if request.session.get(seat_links.SCOPE_KEY):
        # A browser a link signed in makes no links of its own: a forwarded link would
        # otherwise renew itself for as long as the game lasts.
        raise PermissionDenied("Open this on the device you first played on.")
    link = seat_link_tokens.for_user(game, request.user)
    if link is None:
        raise Http404("Only a seated player has a seat to continue elsewhere.")
    url = request.build_absolute_uri(reverse("seat-link", args=[game.code, link.token]))
    context = {
        "game": game,
        "url": url,
        "qr_svg": presenters.qr_svg(url, label="QR code of your seat link"),
        "days": seat_link_tokens.MAX_AGE.days,
        "expires": times.clock(link.expires_at, times.of_request(request)),
        "expires_iso": link.expires_at.isoformat(),
        "signed_out": request.GET.get("signed_out") == "1",
    }
    return render(request, "games/another_device.html", context)


@require_POST
def sign_out_other_devices(request: HttpRequest, code: str) -> HttpResponse:
    """ "Sign out other devices": the seat's links stop working and every browser one signed in
    is signed out; this device (the one that makes the links) keeps playing."""
    game = game_or_404(code)
    if request.session.get(seat_links.SCOPE_KEY):
        raise PermissionDenied("Open this on the device you first played on.")
    player = identity.player_of(game, request.user)
    if player is None or player.is_bot:
        raise Http404("Only a seated player has other devices to sign out.")
    seat_links.sign_out_others(player)
    return redirect(reverse("another-device", args=[game.code]) + "?signed_out=1")


@require_http_methods(["GET", "POST"])
def seat_link(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """The seat link opened: a button (GET signs nobody in, so a mail scanner that follows links
    uses nothing up); pressing it signs this browser in to that one seat."""
    code = code.upper()
    try:
        if request.method == "POST":
            player = seat_links.redeem(code, token, request.user)
        else:
            player = seat_links.check(code, token, request.user)
    except seat_link_tokens.LinkRefused as exc:
        context = {"refused": exc.detail, "code": code}
        return render(request, "games/seat_link.html", context, status=LINK_STATUS[exc.code])
    if request.method == "POST":
        if not identity.owns(player, identity.user_key(request.user)):
            # login() empties the session when it held someone else: a scope that is still
            # there is this same person's, signed in by a link to another of their games.
            login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
            seat_links.signed_in(request.session, player)
        return redirect("game", code=code)
    other = request.user.is_authenticated and not identity.owns(
        player, identity.user_key(request.user)
    )
    context = {"player": player, "game": player.game, "other": other}
    return render(request, "games/seat_link.html", context)
