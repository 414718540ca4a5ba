"""The table display: `/t/{code}/`, the public view in large type for a shared screen
in the room (a TV or a laptop), refreshing itself like the game page.

It is a spectator: it is always built from `selectors.game_view(game, None)` and the public log,
whoever is signed in on that browser, so a player's own secrets never reach the shared screen.
Its times are the table's (the host's time zone, `time_zone` in the options; UTC, said as such,
when none was set), not the screen's browser's: the log's lines about the deadline name that
zone ("the deadline is now Tue 21:00 (Europe/Berlin)"), and the header's countdown must read the
same clock as the lines under it.
A game whose host turned spectators off shows it only with the display key in the address (an
HMAC of the code; games/domain/room_screen.py says how long it works and how the host replaces
it): the host's page carries that link, so the host's own room can still use it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.domain import polls, quiet_hours
from games.domain.options import spectators_allowed
from games.domain.room_screen import display_key, key_works
from games.engine.vocabulary import Phase
from games.models import Game
from games.presenters import game as presenters
from games.presenters import narration
from games.presenters.wording import for_people, joined
from games.selectors import game as selectors
from games.services import GameError
from games.web.respond import game_change
from relics import presenters as relic_pages

EVENTS_SHOWN = 6


def _allowed(request: HttpRequest, game: Game) -> bool:
    if spectators_allowed(game.options):
        return True
    return key_works(game, request.GET.get("key", ""))


def _game(request: HttpRequest, code: str) -> Game:
    try:
        game = selectors.game_get(code.upper())
    except GameError as exc:
        raise Http404(exc.detail) from None
    if not _allowed(request, game):
        raise Http404("The host does not allow spectators at this table.")
    return services.close_if_overdue(game)  # an overdue window closes first


@require_GET
def display(request: HttpRequest, code: str) -> HttpResponse:
    return _render(request, _game(request, code))


@require_GET
def display_changed(request: HttpRequest, code: str) -> HttpResponse:
    """The display's poll: 204 while the version is the one on the screen."""
    game = _game(request, code)
    if request.GET.get("v") == str(game.version):
        return HttpResponse(status=204)
    return _render(request, game)


@require_POST
@game_change
def room_key_renew(request: HttpRequest, game: Game):
    """The host's "New room-screen link": the old key stops working (games.domain.room_screen);
    the host's page, drawn again, carries the new one."""
    return services.room_key_renew(code=game.code, user=request.user)


def _table_zone(zone):
    """The table's zone for the times tags; None for UTC, so that they say "UTC"."""
    return None if zone.key in ("UTC", "Etc/UTC") else zone


def _render(request: HttpRequest, game: Game) -> HttpResponse:
    template = "games/display.html#display" if request.htmx else "games/display.html"
    return render(request, template, display_context(request, game))


def display_context(request: HttpRequest, game: Game) -> dict:
    view = selectors.game_view(game, None)  # never the signed-in user's: a shared screen
    names = {s["seat"]: s["name"] for s in view["seats"]}
    events = selectors.events_tail(game, None, EVENTS_SHOWN)
    events = [{**e, "text": for_people(e["text"], names, e["data"], e["template"])} for e in events]
    events.reverse()
    open_to_all = spectators_allowed(game.options)
    finished = view["status"] == Game.Status.FINISHED
    table_zone = quiet_hours.zone_of(game.options)
    context = {
        "game": game,
        "view": view,
        "seats": presenters.seating(view, None),
        "events": events,
        "phase_label": presenters.phase_label(view["phase"]),
        "tie": presenters.tie_vote(view.get("tie"), names),
        "relic_board": relic_pages.board(view, names),
        "dining": presenters.dining_steps(
            view.get("last_dining"),
            names,
            view.get("last_wills"),
            selectors.last_will_lines(game) if view.get("last_wills") else None,
        ),
        "roles": presenters.roles_revealed(view, names) if finished else [],
        "poll_seconds": polls.pace(view),
        "server_now": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "zone": _table_zone(table_zone),  # the times tags read it (games/templatetags/times.py)
        "zone_name": table_zone.key,  # and the countdown's script
        "key_query": "" if open_to_all else f"&key={display_key(game)}",
        # The public view as spoken lines, the Last Wills' results named from their templates.
        "narration": json.dumps(
            narration.narration({**view, "last_will_lines": selectors.last_will_lines(game)})
        ),
    }
    if finished:
        context["end_why"] = presenters.end_sentence(view, context["dining"])
    if view["phase"] == Phase.ROLE_REVEAL:  # who has seen their role (the rest: `waiting_for`)
        waiting = set(view["waiting_for"])
        context["ready_names"] = joined([names[s] for s in sorted(names) if s not in waiting])
    if view["status"] == Game.Status.LOBBY:
        invite = request.build_absolute_uri(reverse("game", args=[game.code]))
        context.update(invite=invite, qr_svg=presenters.qr_svg(invite))
    return context
