"""The only writer of a player's reminder settings and of their browsers' push subscriptions;
the API (games/notify/api.py) and the reminders page (games/notify/views.py) parse the input and
call these. Refusals are `DomainError`s (games/domain/errors.py), answered alike by both."""

from __future__ import annotations

from django.core.cache import cache

from games.domain import identity
from games.domain.errors import DomainError
from games.notify import confirm, services
from games.notify.models import SETTINGS, Preferences, PushSubscription
from games.presenters import times

ENDPOINT_TAKEN = (
    "This browser is subscribed to another player's reminders: they turn push off on it first."
)


ZONE_TRIED_SECONDS = 3600  # one UPDATE of the time zone an hour per player and zone
# How long the zone last seen from a player's browser is remembered for a settings row made
# later (a player who plays first and turns reminders on days after).
ZONE_KEPT_SECONDS = 30 * 24 * 3600


def preferences_of(user, zone: str | None = None) -> Preferences:
    """`user`'s settings, made with the defaults on first use. A row made here starts in the
    time zone `zone` (the browser's, from the request that asks: its `tz` cookie) or, without a
    known one, in the zone last seen from the player's browser (`time_zone_seen`), so a player
    who played before turning reminders on gets her e-mails and her digest hour in her own zone
    from the first one. An existing row is returned as it is (a GET writes nothing more)."""
    prefs = Preferences.objects.filter(user=user).first()
    if prefs is not None:
        return prefs
    made = times.zone_name(zone) or _zone_last_seen(user)
    return Preferences.objects.get_or_create(user=user, defaults={"time_zone": made})[0]


def preferences_save(user, changes: dict, zone: str | None = None) -> Preferences:
    """Save the settings in `changes` (checked by the caller's form or serializer). A new e-mail
    address is unconfirmed and gets a confirmation link (games.notify.confirm).

    `zone` is the time zone of the browser that sent the change (its `tz` cookie), if any. The
    reminders page never asks for a zone (the pages keep it in step with the browser), so a
    known `zone` is saved with the change, as a game page would save it; a `time_zone` named in
    `changes` (the API's explicit field) wins over it."""
    prefs = preferences_of(user, zone)  # read again: a ModelForm has already changed its instance
    previous = prefs.email
    was = _channels(prefs)
    zone = times.zone_name(zone)
    if zone and "time_zone" not in changes:
        changes = {**changes, "time_zone": zone}
    for field in SETTINGS:
        if field in changes:
            setattr(prefs, field, changes[field])
    prefs.save()
    confirm.address_saved(prefs, previous)
    if _channels(prefs) - was:  # a channel turned on mid-window: this window's "Your move" too
        services.catch_up(user)
    return prefs


def _channels(prefs: Preferences) -> set[str]:
    """The channels that reach the player now (an e-mail address only once confirmed)."""
    on = set()
    if prefs.push_enabled and prefs.user.push_subscriptions.exists():
        on.add("push")
    if prefs.email_enabled and prefs.email_confirmed and prefs.email_per_window:
        on.add("email")  # the daily digest: no per-window e-mail, so switching back catches up
    return on


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
    prefs = preferences_of(user)
    if created and prefs.push_enabled:  # a new phone: this window's "Your move" reaches it too
        services.catch_up(user)
    return subscription


def push_unsubscribe(user, *, endpoint: str) -> None:
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    if not deleted:
        raise DomainError("not_found", "You have no push subscription with that endpoint.", 404)


def time_zone_seen(user, name: str | None) -> None:
    """The player's browser says its time zone is `name`: the e-mails use it from now on (kept
    only when it is a known zone and has changed; at most one query an hour per player and zone,
    a cache add decides). The game page calls this on a read: docs/slow-games.md "Coming back".

    A player with no settings row yet has nothing to update; the zone is remembered instead
    (ZONE_KEPT_SECONDS) and `preferences_of` makes the row in it. So the hour's "tried" mark
    never keeps a zone from a row made within that hour: the row starts with it."""
    name = times.zone_name(name)
    key = identity.user_key(user)
    if not name or key is None:
        return
    tried = f"tz-seen:{key}:{name}"
    if cache.get(tried) is not None or not cache.add(tried, 1, timeout=ZONE_TRIED_SECONDS):
        return  # a read, mostly
    cache.set(_zone_key(key), name, timeout=ZONE_KEPT_SECONDS)
    Preferences.objects.filter(user_id=key).exclude(time_zone=name).update(time_zone=name)


def _zone_key(key: int) -> str:
    return f"tz-last:{key}"


def _zone_last_seen(user) -> str:
    """The zone last seen from `user`'s browser (time_zone_seen), or "" (not known)."""
    key = identity.user_key(user)
    return "" if key is None else times.zone_name(cache.get(_zone_key(key)))
