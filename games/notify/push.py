"""Web Push delivery (RFC 8030/8291/8292) with pywebpush: aes128gcm payloads signed with the
server's VAPID key. The endpoint is a URL the browser gave us and the server POSTs to it, so only
known push services are accepted (settings.PUSH_SERVICES)."""

from __future__ import annotations

import base64
import binascii
import functools
import json
import logging
from datetime import UTC, datetime
from urllib.parse import urlsplit

import requests
from django.conf import settings

from games.notify.models import PushSubscription

log = logging.getLogger("games.notify")

GONE = {404, 410}  # the push service forgot the subscription: delete it
TIMEOUT = 10  # seconds per push service request


def enabled() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY)


def endpoint_allowed(url: str) -> bool:
    """An https URL of a known push service, or an origin listed as it is (a local fake)."""
    parts = urlsplit(url)
    for entry in settings.PUSH_SERVICES:
        if "://" in entry:
            if f"{parts.scheme}://{parts.netloc}" == entry.rstrip("/"):
                return True
        elif (
            parts.scheme == "https"
            and parts.hostname
            and (parts.hostname == entry or parts.hostname.endswith("." + entry))
        ):
            return True
    return False


def key_length(value: str) -> int | None:
    """How many bytes a base64url key holds (None: not base64url)."""
    try:
        return len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    except (binascii.Error, ValueError):
        return None


@functools.lru_cache(maxsize=2)
def _vapid(private_key: str):
    from py_vapid import Vapid

    return Vapid.from_string(private_key)


def send(subscription: PushSubscription, payload: dict, *, ttl: int, urgency: str) -> bool:
    """Deliver one notification; True when the push service took it. Never raises."""
    from pywebpush import WebPushException, webpush  # slow to import: only where it is used

    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(payload),
            vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
            vapid_claims={"sub": settings.VAPID_SUBJECT},  # pywebpush adds aud and exp to it
            ttl=ttl,
            timeout=TIMEOUT,
            headers={"Urgency": urgency},
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in GONE:
            log.info("push subscription gone (%s): deleted", status)
            subscription.delete()
            return False
        _failed(subscription, f"{status or ''} {exc.message}".strip())
        return False
    except (requests.RequestException, ValueError) as exc:  # unreachable, or a bad key
        _failed(subscription, f"{type(exc).__name__}: {exc}")
        return False
    return True


def _failed(subscription: PushSubscription, error: str) -> None:
    log.warning("push failed: %s", error[:200])
    subscription.last_error = error[:1000]
    subscription.last_error_at = datetime.now(UTC)
    subscription.save(update_fields=["last_error", "last_error_at"])
