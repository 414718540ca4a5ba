"""E-mail confirmation: no reminder goes to an address until its owner opened the link we sent
there, so the reminders can never be used to mail a stranger.

- Saving a new address (the page or the API) makes it unconfirmed and sends a link to it.
- The link carries a signed, timestamped token (Django's TimestampSigner) naming the player and the
  address; it works for `MAX_AGE` and only while that is still the player's address. Opening it
  shows a button (a mail scanner that follows links confirms nothing); pressing it confirms.
- Sending is limited per player: one e-mail every `RESEND_SECONDS`, at most `HOURLY_LIMIT` an
  hour (a new address saved within the limit waits for "Send the link again").
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.mail import send_mail
from django.urls import reverse

from games.notify import services
from games.notify.models import Preferences

log = logging.getLogger("games.notify")

SALT = "staked.notify.email-confirmation"
MAX_AGE = timedelta(days=3)
RESEND_SECONDS = 60
HOURLY_LIMIT = 5


class RateLimited(Exception):
    """Too many confirmation e-mails for this player just now; `str()` says when to retry."""


class LinkInvalid(Exception):
    """The link is not ours, has expired, or names an address the player no longer uses."""


def address_saved(prefs: Preferences, previous: str) -> bool:
    """After the preferences were saved: a new address is unconfirmed and gets a link. True when
    a link was sent now (False: no new address, or the send limit was reached)."""
    if prefs.email == previous:
        return False
    prefs.email_confirmed_at = None
    prefs.save(update_fields=["email_confirmed_at"])
    if not prefs.email:
        return False
    try:
        send_link(prefs)
    except RateLimited:
        return False
    return True


def send_link(prefs: Preferences) -> None:
    """E-mail the confirmation link to the current address (RateLimited when over the limit)."""
    now = datetime.now(UTC)
    if prefs.confirmation_sent_at and now - prefs.confirmation_sent_at < timedelta(
        seconds=RESEND_SECONDS
    ):
        raise RateLimited(f"A link was sent less than {RESEND_SECONDS} seconds ago: wait a bit.")
    hour = f"notify:confirm:{prefs.user_id}:{int(now.timestamp()) // 3600}"
    cache.add(hour, 0, timeout=3600)
    if cache.incr(hour) > HOURLY_LIMIT:
        raise RateLimited(f"At most {HOURLY_LIMIT} links an hour: try again later.")
    prefs.confirmation_sent_at = now
    prefs.save(update_fields=["confirmation_sent_at"])
    link = settings.SITE_URL + reverse("reminders-confirm", args=[token(prefs)])
    days = MAX_AGE.days
    body = (
        "Someone (we hope you) asked for Staked! game reminders at this address.\n\n"
        f"To get them, open this link within {days} days and press Confirm:\n{link}\n\n"
        "If it was not you, ignore this e-mail: nothing more will be sent here."
    )
    try:
        send_mail("Staked!: confirm your address for reminders", body, None, [prefs.email])
    except Exception:
        log.warning("notify: could not send a confirmation e-mail", exc_info=True)


def token(prefs: Preferences) -> str:
    return signing.TimestampSigner(salt=SALT).sign_object({"u": prefs.user_id, "e": prefs.email})


def preferences_for(link_token: str) -> Preferences:
    """The preferences a link confirms (LinkInvalid if it cannot)."""
    try:
        data = signing.TimestampSigner(salt=SALT).unsign_object(link_token, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise LinkInvalid("This link has expired.") from None
    except (signing.BadSignature, ValueError):
        raise LinkInvalid("This is not a confirmation link of ours.") from None
    prefs = Preferences.objects.filter(user_id=data.get("u")).first()
    if prefs is None or not prefs.email or prefs.email != data.get("e"):
        raise LinkInvalid("This link is for an address the player no longer uses.")
    return prefs


def confirm(link_token: str) -> Preferences:
    prefs = preferences_for(link_token)
    if prefs.email_confirmed_at is None:
        prefs.email_confirmed_at = datetime.now(UTC)
        prefs.save(update_fields=["email_confirmed_at"])
        if prefs.email_enabled:  # reminders reach the player now: this window's too
            services.catch_up(prefs.user)
    return prefs
