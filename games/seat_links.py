"""Your seat on any device (issue 14 finding 2, issue 20 finding 7): a signed, expiring link that
signs its holder in to ONE seat, on any browser.

- The link carries a token signed by Django's `TimestampSigner` (salt `SALT`, the site's
  SECRET_KEY) naming the game, the seat, the player's user and a random nonce. A forged or
  altered token fails its signature; one older than `MAX_AGE` (7 days) has expired.
- It works once: the nonce of a used link is kept (`SeatLinkUse`), and a second use elsewhere is
  refused. Opening it again in the browser it already signed in changes nothing and is fine.
- It works only while that seat is still that person's: a seat handed on, a player who left, a
  bot's seat are refused.
- Its scope is that one seat: the browser it signs in is marked (`SCOPE_KEY` in the session) and
  `games.seat_scope` treats it as a visitor everywhere but that game's pages.
- "Sign out other devices" (`sign_out_others`, on the device that made the links) bumps the
  seat's `link_epoch`: links made before stop working, used or not, and every browser a link
  signed in is signed out on its next request (`still_signed_in`, called by games.seat_scope).
  The device that pressed it keeps working.
- Only the seat's own player is ever given one: the game page behind a tap of their own
  ("Continue on another device"), the API for the caller's own seat, and their reminder e-mails.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import F

from games import identity
from games.models import Game, Player, SeatLinkUse

SALT = "staked.seat-link"
MAX_AGE = timedelta(days=7)
SCOPE_KEY = "seat_scope"  # session: the game codes a seat link signed this browser in to
EPOCHS_KEY = "seat_scope_epochs"  # session: {code: the seat's link_epoch when it signed in}


@dataclass(frozen=True)
class Link:
    token: str
    expires_at: datetime


class LinkRefused(Exception):
    """The link cannot sign anyone in: `code` (forged, expired, used, seat_changed,
    signed_out), and why."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code, self.detail = code, detail


def issue(player: Player, now: datetime | None = None) -> Link:
    """A new link for `player`'s seat (their own: the callers check that)."""
    if player.is_bot or player.user_id is None:
        raise ValueError("a seat link is only for a person's seat")
    signer = signing.TimestampSigner(salt=SALT)
    payload = {
        "g": player.game.code,
        "s": player.seat,
        "u": player.user_id,
        "n": secrets.token_urlsafe(12),
        "e": player.link_epoch,
    }
    now = now or datetime.now(UTC)
    return Link(token=signer.sign_object(payload), expires_at=now + MAX_AGE)


def for_user(game, user) -> Link | None:
    """A link for `user`'s own seat at `game`, or None (not seated there)."""
    player = identity.player_of(game, user)
    return issue(player) if player is not None else None


def _payload(code: str, token: str) -> dict:
    try:
        data = signing.TimestampSigner(salt=SALT).unsign_object(token, max_age=MAX_AGE)
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


def check(code: str, token: str, user=None) -> Player:
    """The seat the link is for (LinkRefused when it cannot sign in; nothing is used up). For
    the seat's own player (`user`, the browser it already signed in) a used link is fine."""
    data = _payload(code, token)
    player = (
        Player.objects.select_related("game", "user")
        .filter(game__code=code, seat=data.get("s"), is_bot=False)
        .first()
    )
    if player is None or not identity.owns(player, data.get("u")):
        raise LinkRefused(
            "seat_changed", "This seat is no longer yours, so this link cannot open it."
        )
    if data.get("e", 0) != player.link_epoch:
        raise LinkRefused(
            "signed_out",
            "This link was cancelled: its player signed out their other devices. Open the game "
            "on the device you play on and make a new one.",
        )
    if identity.owns(player, identity.user_key(user)):
        return player
    if SeatLinkUse.objects.filter(nonce=data.get("n")).exists():
        raise LinkRefused("used", _USED)
    return player


_USED = (
    "This link was already used. Each link works once: open the game on the device you play on "
    "and make a new one."
)


def redeem(code: str, token: str, user) -> Player:
    """Use the link: the seat it signs in to (LinkRefused as `check`). Opened again by the
    seat's own player (the browser it signed in) it is not used up a second time."""
    player = check(code, token, user)
    if identity.owns(player, identity.user_key(user)):
        return player
    nonce = _payload(code, token)["n"]
    try:
        with transaction.atomic():
            SeatLinkUse.objects.create(nonce=nonce, player=player)
    except IntegrityError:
        raise LinkRefused("used", _USED) from None
    return player


def signed_in(session, player: Player) -> None:
    """Mark `session` (a browser the link just signed in) as scoped to `player`'s game, at the
    seat's current link epoch."""
    code = player.game.code
    scope = session.get(SCOPE_KEY) or []
    session[SCOPE_KEY] = [*scope, code] if code not in scope else scope
    session[EPOCHS_KEY] = {**(session.get(EPOCHS_KEY) or {}), code: player.link_epoch}


def sign_out_others(player: Player) -> None:
    """Cancel every link of `player`'s seat and sign out every browser one signed in."""
    Player.objects.filter(pk=player.pk).update(link_epoch=F("link_epoch") + 1)


def still_signed_in(session, user) -> list[str]:
    """The scoped games this link-signed browser may still play: those whose seat is still this
    user's and whose link epoch has not moved since the link signed it in."""
    codes = session.get(SCOPE_KEY) or []
    epochs = session.get(EPOCHS_KEY) or {}
    current = dict(
        identity.players_of(user)
        .filter(game__code__in=codes)
        .values_list("game__code", "link_epoch")
    )
    return [c for c in codes if c in current and current[c] == epochs.get(c, 0)]


def prune(now: datetime | None = None) -> int:
    """Forget the used links that have expired anyway (their signature's age refuses them): run
    daily by beat (games.tasks.prune). Returns how many rows went."""
    cutoff = (now or datetime.now(UTC)) - MAX_AGE - timedelta(days=1)
    return SeatLinkUse.objects.filter(used_at__lt=cutoff).delete()[0]


GUEST_WOULD_BE_LOST = (
    "This browser plays as a guest at other tables, and a guest cannot sign back in: continuing "
    "here would lose those seats. Open the link in another browser or a private window."
)


def would_lose_a_guest(user, player: Player) -> bool:
    """Signing in as the link's player would end this browser's guest (no password to come
    back with) while it still holds seats at unfinished tables."""
    guest = user.is_authenticated and not user.has_usable_password()  # as accounts.is_guest
    if not guest or identity.owns(player, identity.user_key(user)):
        return False
    unfinished = (Game.Status.LOBBY, Game.Status.RUNNING)
    return identity.players_of(user).filter(game__status__in=unfinished).exists()
