"""`{% chat_panel %}`: the table talk panel on the game page, for the viewer of the request."""

from django import template
from django.template.loader import render_to_string

from games.chat.views import panel_context

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_panel(context) -> str:
    request, game = context.get("request"), context.get("game")
    if request is None or game is None:
        return ""
    panel = panel_context(request, game)
    if not panel["tabs"]:
        return ""
    return render_to_string("chat/_section.html", panel, request=request)
