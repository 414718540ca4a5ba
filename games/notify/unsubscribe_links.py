"""The one-click unsubscribe link of every reminder e-mail: signed, 90 days,
only while the address is still the player's; it needs no sign-in."""

from __future__ import annotations

from datetime import timedelta

from django.core import signing

from games.domain.errors import DomainError
from games.notify.models import Preferences

UNSUBSCRIBE_SALT = "staked.notify.unsubscribe"
UNSUBSCRIBE_MAX_AGE = timedelta(days=90)


def unsubscribe_token(prefs: Preferences) -> str:
    """The one-click unsubscribe link's token: the player and the address it was sent to."""
    return signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).sign_object(
        {"u": prefs.user_id, "e": prefs.email}
    )


def unsubscribe_target(token: str) -> Preferences:
    """The preferences an unsubscribe link names (DomainError when it names none)."""
    try:
        data = signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).unsign_object(
            token, max_age=UNSUBSCRIBE_MAX_AGE
        )
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


def unsubscribe(token: str) -> Preferences:
    """Stop the e-mail reminders the link's address gets (push is left as it is)."""
    prefs = unsubscribe_target(token)
    if prefs.email_enabled:
        prefs.email_enabled = False
        prefs.save(update_fields=["email_enabled", "updated_at"])
    return prefs
