"""The room screen's address (`/t/{code}/`): open to anyone where spectators may watch, and
only with the display key (an HMAC of the code) where they may not. The host's game page and
the admin both link to it, so the key is made here, below both."""

from __future__ import annotations

from django.core import signing
from django.urls import reverse

from games.domain.options import spectators_allowed
from games.models import Game

_signer = signing.Signer(salt="staked.display")


def display_key(code: str) -> str:
    return _signer.signature(code)


def display_url(game: Game, *, is_host: bool) -> str | None:
    """The link for the page's "Show on a shared screen": anyone's where spectators may watch;
    the host's alone (with the key) where they may not."""
    url = reverse("display", args=[game.code])
    if spectators_allowed(game.options):
        return url
    return f"{url}?key={display_key(game.code)}" if is_host else None
