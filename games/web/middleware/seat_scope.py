"""A browser a seat link signed in (games.services.seat_links) is that seat's, and nothing more:
outside the seat's own play at the game(s) it was signed in to, its requests count as a
visitor's.

The seat's own play (`SEAT_OWN`): the game page and its poll, the room screen, moves, the table
talk, "I'm here", the news and "Since you last looked", the seat's clock vote and vacation, the
coach, the replay, the link itself opened again; through the API the view, events, stream,
moves, talk, "here", the vote and the vacation. Everything else at that game counts as a
visitor's too: a rematch (which would open a lobby hosted by the link's owner), joining,
leaving, starting, bots, options, the host's clock and seat controls, hand-on links, making
links, and sharing a finished game's replay publicly (`replay/share`; the replay page says so).
Through the API, a finished game's story (`story/`) is read as a visitor reads it: a private
table's is then refused, since its path is also the host's switch (PATCH). A host who opened
their seat's link on another device plays their seat there; the table-wide controls stay on the
device they first played on.

So a link in an e-mail, or shown as a QR code, can never open the person's other tables, their
reminders or their account. A browser whose seat was handed on, or whose player pressed "Sign out
other devices" (games.services.seat_links.sign_out_others), loses that game; with none left it is
signed out. Signing in any other way (a new guest, a password) replaces the session and with it the
mark.
"""

from __future__ import annotations

import re

from django.contrib.auth import logout
from django.contrib.auth.models import AnonymousUser

from games.services.seat_links import SCOPE_KEY, SIGNED_OUT_KEY, still_signed_in

_GAME_PATH = re.compile(r"^/(g|t|api/v1/games)/([^/]+)/(.*)$")
SEAT_OWN = {
    "g": re.compile(
        r"(?:|changed|act/[^/]+|chat/.*|here|since|news/\d+|deadline/vote|vacation(?:/end)?"
        r"|coach|replay/|continue/[^/]+)"
    ),
    "t": re.compile(r".*"),  # the room screen: the public view
    "api/v1/games": re.compile(
        r"(?:|events/|stream/|actions/[^/]+/|chat/.*|here/|deadline/vote/|vacation/)"
    ),
}


def inside(path: str, codes: list[str]) -> bool:
    """Whether `path` is the seat's own play (`SEAT_OWN`) at one of the games `codes`."""
    match = _GAME_PATH.match(path)
    if match is None or match.group(2).upper() not in codes:
        return False
    return SEAT_OWN[match.group(1)].fullmatch(match.group(3)) is not None


class SeatScope:
    """Middleware, after AuthenticationMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        session = getattr(request, "session", None)
        codes = session.get(SCOPE_KEY) if session is not None else None
        if codes:
            kept = still_signed_in(session, request.user)
            if not kept:
                logout(request)  # empties the session: nothing of the scope is left
                session = request.session
            elif kept != codes:
                session[SCOPE_KEY] = kept
            if kept != codes:  # the game page says so, and how to get the seat back
                lost = set(codes) - set(kept) | set(session.get(SIGNED_OUT_KEY) or [])
                session[SIGNED_OUT_KEY] = sorted(lost)
            codes = kept
        if codes and not inside(request.path, codes):
            request.user = AnonymousUser()
        return self.get_response(request)
