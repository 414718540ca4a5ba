"""Your seat on any device: a signed, expiring link that
signs its holder in to ONE seat, on any browser.

- The link carries a token signed by Django's `TimestampSigner` (salt `SALT`, the site's
  SECRET_KEY) naming the game, the seat, the player's user and a random nonce. A forged or
  altered token fails its signature; one older than `MAX_AGE` (7 days) has expired.
- It works once: the nonce of a used link is kept (`SeatLinkUse`), and a second use elsewhere is
  refused. Opening it again in the browser it already signed in changes nothing and is fine.
- It works only while that seat is still that person's: a seat handed on, a player who left, a
  bot's seat are refused.
- Its scope is that one seat: the browser it signs in is marked (`SCOPE_KEY` in the session) and
  `games.web.middleware.seat_scope` treats it as a visitor everywhere but that seat's own play
  at that game (moves, talk, its vote; no rematch, no host controls, no links).
- "Sign out other devices" (`sign_out_others`, on the device that made the links) bumps the
  seat's `link_epoch`: links made before stop working, used or not, and every browser a link
  signed in is signed out on its next request (`still_signed_in`, called by
  games.web.middleware.seat_scope). The device that pressed it keeps working.
- Only the seat's own player is ever given one: the game page behind a tap of their own
  ("Continue on another device"), the API for the caller's own seat, and their reminder e-mails.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import F

from games.domain import identity
from games.domain.seat_link_tokens import MAX_AGE, LinkRefused, payload
from games.models import Game, Player, SeatLinkUse

SCOPE_KEY = "seat_scope"  # session: the game codes a seat link signed this browser in to
SIGNED_OUT_KEY = "seat_scope_signed_out"  # session: the games this browser lost its seat at
EPOCHS_KEY = "seat_scope_epochs"  # session: {code: the seat's link_epoch when it signed in}


def check(code: str, token: str, user=None) -> Player:
    """The seat the link is for (LinkRefused when it cannot sign in; nothing is used up). For
    the seat's own player (`user`, the browser it already signed in) a used link is fine."""
    data = payload(code, token)
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
    """Use the link: the seat it signs in to (LinkRefused as `check`, or `guest_would_be_lost`
    for a guest browser that holds seats elsewhere). Opened again by the seat's own player (the
    browser it signed in) it is not used up a second time.

    Check first, spend last, in one transaction: every refusal comes before the use is written,
    so a link refused in one browser still works in the next (a guest browser that holds another
    seat used to spend it on its 409). Two browsers pressing at once: the nonce is unique, one
    wins and the other is told the link was used."""
    with transaction.atomic():
        player = check(code, token, user)
        if identity.owns(player, identity.user_key(user)):
            return player
        if would_lose_a_guest(user, player):
            raise LinkRefused("guest_would_be_lost", GUEST_WOULD_BE_LOST)
        nonce = payload(code, token)["n"]
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
