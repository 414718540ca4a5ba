"""A browser a seat link signed in (games.services.seat_links) is that seat's, and nothing more:
outside the pages and API of the game(s) it was signed in to, its requests count as a visitor's.

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

from games.services.seat_links import SCOPE_KEY, still_signed_in

_GAME_PATH = re.compile(r"^/(?:g|t|api/v1/games)/([^/]+)/")


def inside(path: str, codes: list[str]) -> bool:
    """Whether `path` is a page or API route of one of the games `codes`."""
    match = _GAME_PATH.match(path)
    return match is not None and match.group(1).upper() in codes


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
            elif kept != codes:
                session[SCOPE_KEY] = kept
            codes = kept
        if codes and not inside(request.path, codes):
            request.user = AnonymousUser()
        return self.get_response(request)
