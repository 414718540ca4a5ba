"""The one-click unsubscribe link of every reminder e-mail: sealed, 90 days,
only while the address is still the player's; it needs no sign-in.

The token is sealed (staked/sealed.py: encrypted and authenticated): a signed token's base64
showed the e-mail address to anyone who saw the link. Links already sent in e-mails are signed;
they keep working for their 90 days (read, never made again), since stopping e-mails must always
work from the e-mail itself."""

from __future__ import annotations

from datetime import timedelta

from django.core import signing

from games.domain.errors import DomainError
from games.notify.models import Preferences
from staked import sealed

UNSUBSCRIBE_SALT = "staked.notify.unsubscribe"
UNSUBSCRIBE_MAX_AGE = timedelta(days=90)


def unsubscribe_token(prefs: Preferences) -> str:
    """The one-click unsubscribe link's token: the player and the address it was sent to."""
    return sealed.seal({"u": prefs.user_id, "e": prefs.email}, UNSUBSCRIBE_SALT)


def unsubscribe_target(token: str) -> Preferences:
    """The preferences an unsubscribe link names (DomainError when it names none)."""
    try:
        data = _opened(token)
    except signing.SignatureExpired:
        raise DomainError(
            "link_expired", "This link is too old: turn e-mails off on the reminders page.", 410
        ) from None
    except (signing.BadSignature, ValueError, TypeError):
        raise DomainError("bad_request", "This is not an unsubscribe link of ours.", 400) from None
    prefs = Preferences.objects.filter(user_id=data.get("u")).first()
    if prefs is None or not prefs.email or prefs.email != data.get("e"):
        raise DomainError(
            "link_invalid", "No reminders go to that address any more: nothing to stop.", 404
        )
    return prefs


def _opened(token: str):
    """A sealed token, or one signed before tokens were sealed (still in e-mails sent then)."""
    try:
        return sealed.unseal(token, UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_MAX_AGE)
    except signing.SignatureExpired:
        raise
    except signing.BadSignature:
        return signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).unsign_object(
            token, max_age=UNSUBSCRIBE_MAX_AGE
        )


def unsubscribe(token: str) -> Preferences:
    """Stop the e-mail reminders the link's address gets (push is left as it is)."""
    prefs = unsubscribe_target(token)
    if prefs.email_enabled:
        prefs.email_enabled = False
        prefs.save(update_fields=["email_enabled", "updated_at"])
    return prefs
