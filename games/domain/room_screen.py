"""The room screen's address (`/t/{code}/`): open to anyone where spectators may watch, and
only with the display key where they may not. The host's game page and the admin both link to
it, so the key is made here, below both.

The key is an HMAC of the code and the game's `display_epoch`, and it works:
- until the host presses "New room-screen link" (the epoch moves: a screen, or anyone, holding
  the old key is refused on its next poll; the host's page shows the new link);
- while the game is in its lobby or running, and for `KEY_AFTER_END` (a day) after it ended
  (its last change), time for the room to look at the end screen; then never again.
The first key of a game (epoch 0) is the one made before epochs existed, so a room screen open
when this was deployed keeps working.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.core import signing
from django.urls import reverse
from django.utils.crypto import constant_time_compare

from games.domain.options import spectators_allowed
from games.models import Game

_signer = signing.Signer(salt="staked.display")
KEY_AFTER_END = timedelta(days=1)


def display_key(game: Game) -> str:
    epoch = game.display_epoch
    return _signer.signature(game.code if not epoch else f"{game.code}:{epoch}")


def key_works(game: Game, key: str, now: datetime | None = None) -> bool:
    """Whether `key` opens `game`'s room screen now (the current epoch, and not long over)."""
    if not constant_time_compare(key, display_key(game)):
        return False
    over = game.status in (Game.Status.FINISHED, Game.Status.ABANDONED)
    return not over or (now or datetime.now(UTC)) - game.updated_at <= KEY_AFTER_END


def display_url(game: Game, *, is_host: bool) -> str | None:
    """The link for the page's "Shared screen" (its title: Show on a shared screen): anyone's
    where spectators may watch; the host's alone (with the key) where they may not."""
    url = reverse("display", args=[game.code])
    if spectators_allowed(game.options):
        return url
    return f"{url}?key={display_key(game)}" if is_host else None
