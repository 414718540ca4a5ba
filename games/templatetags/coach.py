"""`{% coach_note %}`: the coach's notes on a practice game's page, for the viewer's own seat
(games/presenters/coach.py); nothing on any other game, or for someone without a seat."""

from django import template
from django.template.loader import render_to_string

from games.presenters import coach
from games.selectors import practice
from games.web.practice import PracticeForm, coach_off

register = template.Library()


@register.simple_tag(takes_context=True)
def coach_note(context) -> str:
    request, game, view = context.get("request"), context.get("game"), context.get("view")
    if request is None or game is None or not view or not view.get("me"):
        return ""
    if not practice.is_practice(game):
        return ""
    off = coach_off(request)
    finished = view["status"] == "finished"
    notes = [] if off else coach.notes(view)
    return render_to_string(
        "games/_coach.html",
        {
            "view": view,
            "off": off,
            "notes": [n for n in notes if not n["private"]],
            "secrets": [n for n in notes if n["private"]],
            "offer_more": finished and not game.options.get("relics"),
            "name": view["seats"][view["me"]["seat"] - 1]["name"],
        },
        request=request,
    )


@register.simple_tag(takes_context=True)
def practice_card(context) -> str:
    """The home page's "Learn by playing", and the relics game once a practice game is over."""
    request = context.get("request")
    if request is None:
        return ""

    user = request.user
    name = (user.first_name or user.username) if user.is_authenticated else ""
    return render_to_string(
        "games/_practice.html",
        {"form": PracticeForm(initial={"name": name}), "more": practice.has_practiced(user)},
        request=request,
    )
