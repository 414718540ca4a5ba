"""A seat link's token (the rest of the link's life, using it and cancelling links, is in
games.services.seat_links): made for a person's seat, read back with its seal and age checked.
Nothing here writes, so the reminder e-mails can carry a link without a service.

The token is sealed (staked/sealed.py: encrypted and authenticated), not only signed: a signed
token's base64 showed the game, the seat and the player's internal user id to anyone who saw
the link. Links made before this change (signed) no longer open ("not a working seat link"): a
seat link lives 7 days and the player makes a new one with a tap, so none is kept working."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.core import signing

from games.domain import identity
from games.models import Player
from staked import sealed

SALT = "staked.seat-link"
MAX_AGE = timedelta(days=7)


@dataclass(frozen=True)
class Link:
    token: str
    expires_at: datetime


class LinkRefused(Exception):
    """The link cannot sign anyone in: `code` (forged, expired, used, seat_changed,
    signed_out, guest_would_be_lost), and why."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code, self.detail = code, detail


def issue(player: Player, now: datetime | None = None) -> Link:
    """A new link for `player`'s seat (their own: the callers check that)."""
    if player.is_bot or player.user_id is None:
        raise ValueError("a seat link is only for a person's seat")
    payload = {
        "g": player.game.code,
        "s": player.seat,
        "u": player.user_id,
        "n": secrets.token_urlsafe(12),
        "e": player.link_epoch,
    }
    now = now or datetime.now(UTC)
    return Link(token=sealed.seal(payload, SALT, now=now.timestamp()), expires_at=now + MAX_AGE)


def for_user(game, user) -> Link | None:
    """A link for `user`'s own seat at `game`, or None (not seated there)."""
    player = identity.player_of(game, user)
    return issue(player) if player is not None else None


def payload(code: str, token: str) -> dict:
    try:
        data = sealed.unseal(token, SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise LinkRefused(
            "expired",
            f"This link has expired (links work for {MAX_AGE.days} days). Open the game on the "
            "device you play on and make a new one, or use the link in your latest reminder.",
        ) from None
    except (signing.BadSignature, ValueError, TypeError):
        raise LinkRefused("forged", "This is not a working seat link.") from None
    if not isinstance(data, dict) or data.get("g") != code:
        raise LinkRefused("forged", "This is not a working seat link.")
    return data
