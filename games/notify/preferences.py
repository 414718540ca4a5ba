"""The only writer of a player's reminder settings and of their browsers' push subscriptions;
the API (games/notify/api.py) and the reminders page (games/notify/views.py) parse the input and
call these. Refusals are `DomainError`s (games/errors.py), answered alike by both."""

from __future__ import annotations

from datetime import timedelta

from django.core import signing
from django.core.cache import cache

from games import identity, times
from games.errors import DomainError
from games.notify import confirm
from games.notify.models import Preferences, PushSubscription

ENDPOINT_TAKEN = (
    "This browser is subscribed to another player's reminders: they turn push off on it first."
)
SETTINGS = ("push_enabled", "email", "email_enabled", "lead_minutes")


def preferences_of(user) -> Preferences:
    """`user`'s settings, made with the defaults on first use."""
    return Preferences.objects.get_or_create(user=user)[0]


def preferences_save(user, changes: dict) -> Preferences:
    """Save the settings in `changes` (checked by the caller's form or serializer). A new e-mail
    address is unconfirmed and gets a confirmation link (games.notify.confirm)."""
    prefs = preferences_of(user)  # read again: a ModelForm has already changed its instance
    previous = prefs.email
    for field in SETTINGS:
        if field in changes:
            setattr(prefs, field, changes[field])
    prefs.save()
    confirm.address_saved(prefs, previous)
    return prefs


def link_resend(user) -> None:
    """Send the confirmation link to `user`'s address again (within confirm's send limit)."""
    prefs = preferences_of(user)
    if not prefs.email:
        raise DomainError("bad_request", "Give an e-mail address first.", 400)
    if prefs.email_confirmed:
        raise DomainError("already_confirmed", "That address is already confirmed.", 409)
    try:
        confirm.send_link(prefs)
    except confirm.RateLimited as exc:
        raise DomainError("rate_limited", str(exc), 429) from None


def push_subscribe(user, *, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Subscribe this browser (its `endpoint`) to `user`'s reminders; again: new keys.

    One browser, one subscription, kept by whoever subscribed it first: an endpoint is a
    capability, and whoever learned another player's must not take it over (409)."""
    keys = {"p256dh": p256dh, "auth": auth, "last_error": "", "last_error_at": None}
    subscription, created = PushSubscription.objects.get_or_create(
        endpoint=endpoint, defaults={"user": user, **keys}
    )
    if not created:
        if not identity.is_user(subscription.user_id, user):
            raise DomainError("endpoint_taken", ENDPOINT_TAKEN, 409)
        PushSubscription.objects.filter(pk=subscription.pk).update(**keys)
    preferences_of(user)
    return subscription


def push_unsubscribe(user, *, endpoint: str) -> None:
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    if not deleted:
        raise DomainError("not_found", "You have no push subscription with that endpoint.", 404)


# --- the e-mails' own links (issue 20, finding 7) -------------------------------------------------

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


def time_zone_seen(user, name: str | None) -> None:
    """The player's browser says its time zone is `name`: the e-mails use it from now on (kept
    only when it is a known zone and has changed; at most one query an hour per player)."""
    name = times.zone_name(name)
    key = identity.user_key(user)
    if not name or key is None or not cache.add(f"tz-seen:{key}:{name}", 1, timeout=3600):
        return
    Preferences.objects.filter(user_id=key).exclude(time_zone=name).update(time_zone=name)
