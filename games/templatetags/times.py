"""Times for the viewer (games/presenters/times.py): `{% closes iso %}` for a deadline,
`{% stamp dt %}` for a past moment, in the time zone of the browser that asked."""

from __future__ import annotations

from django import template

from games.presenters import times

register = template.Library()


def _zone(context):
    if "zone" in context:  # a part shared by every viewer in one zone (games/web/regions.py)
        return context["zone"]
    request = context.get("request")
    return times.of_request(request) if request is not None else None


@register.simple_tag(takes_context=True)
def closes(context, iso: str | None) -> str:
    """ "closes Tue 1 Dec 22:41 (in 11 h 50 min)" for a view's deadline."""
    return times.deadline_of(iso, _zone(context))


@register.simple_tag(takes_context=True)
def stamp(context, moment) -> str:
    """ "14:05" today, "Mon 30 Nov 14:05" before today, in the viewer's zone."""
    return times.stamp(moment, _zone(context)) if moment else ""
