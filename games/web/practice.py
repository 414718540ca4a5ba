"""The pages of "Learn by playing": start a practice game from the home page, and
turn the coach's notes off or on. The notes themselves are drawn on the game page by
`{% coach_note %}` (games/templatetags/coach.py)."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from games.services import GameError, practice
from games.web.forms import NameField
from games.web.home import render_home
from games.web.respond import identify

COACH_OFF = "coach_off"  # session key: this phone has turned the coach's notes off


class PracticeForm(forms.Form):
    name = NameField()
    more = forms.BooleanField(required=False)  # the second game: relics and Last Wills

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "practice_%s")
        super().__init__(*args, **kwargs)


def coach_off(request: HttpRequest) -> bool:
    return bool(request.session.get(COACH_OFF))


@require_POST
def practice_new(request: HttpRequest) -> HttpResponse:
    """A practice game against five bots, started at once: straight to its page."""
    form = PracticeForm(request.POST)
    if not form.is_valid():
        return render_home(request, error="Tell us your name to start a practice game.", status=400)
    name = form.cleaned_data["name"]
    user = identify(request, name)
    try:
        game = practice.practice_start(user=user, name=name, more=form.cleaned_data["more"])
    except GameError as exc:  # too_many_lobbies: the cap on open tables counts this one too
        return render_home(request, error=exc.detail, status=exc.status)
    return redirect("game", code=game.code)


@require_POST
def coach_switch(request: HttpRequest, code: str) -> HttpResponse:
    """Notes off (or on again, `on=1`) for this phone, in every practice game; back to the game."""
    request.session[COACH_OFF] = request.POST.get("on") != "1"
    return redirect("game", code=code.upper())
