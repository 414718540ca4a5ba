"""Web Push delivery (RFC 8030/8291/8292) with pywebpush: aes128gcm payloads signed with the
server's VAPID key. The endpoint is a URL the browser gave us and the server POSTs to it, so only
known push services are accepted, at public addresses (endpoints.py)."""

from __future__ import annotations

import base64
import binascii
import functools
import json
import logging
from datetime import UTC, datetime

import requests
from django.conf import settings

from games.notify import endpoints
from games.notify.models import PushSubscription

log = logging.getLogger("games.notify")

GONE = {404, 410}  # the push service forgot the subscription: delete it
TIMEOUT = 10  # seconds per push service request


def enabled() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY)


def key_length(value: str) -> int | None:
    """How many bytes a base64url key holds (None: not base64url)."""
    try:
        return len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    except (binascii.Error, ValueError):
        return None


@functools.lru_cache(maxsize=2)
def _vapid(private_key: str):
    from py_vapid import Vapid  # with pywebpush: loaded only where a push is sent (see send)

    return Vapid.from_string(private_key)


def send(subscription: PushSubscription, payload: dict, *, ttl: int, urgency: str) -> bool:
    """Deliver one notification; True when the push service took it. Never raises: one bad
    subscription must not stop the reminders of the others.

    The endpoint is checked again (DNS may have changed since it was stored) and the request
    goes to the very address that passed. A subscription that the checks or the push library
    refuse is deleted (it can never work); one the push service reports gone too. A network
    failure or another answer of the push service is recorded on the subscription, which is kept.
    """
    # Slow to import, and only a worker sending reminders needs them: loaded where they are used.
    from py_vapid import VapidException
    from pywebpush import WebPushException, webpush

    try:
        endpoint = endpoints.check(subscription.endpoint)
        address = endpoints.resolve(endpoint)
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
            requests_session=endpoints.pinned_session(endpoint, address),
        )
    except endpoints.EndpointRefused as exc:
        _refused(subscription, f"endpoint refused: {exc}")
        return False
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status is None:  # pywebpush refused the subscription itself (its keys)
            _refused(subscription, f"rejected by the push library: {exc.message}")
        elif status in GONE:
            log.info("push subscription gone (%s): deleted", status)
            subscription.delete()
        else:
            _failed(subscription, f"{status} {exc.message}".strip())
        return False
    except (requests.RequestException, OSError) as exc:  # unreachable, or the name is unknown
        _failed(subscription, f"{type(exc).__name__}: {exc}")
        return False
    except (ValueError, TypeError, VapidException) as exc:  # malformed keys or endpoint
        _refused(subscription, f"rejected by the push library: {type(exc).__name__}: {exc}")
        return False
    except Exception as exc:  # anything else: logged, and the others still get theirs
        log.exception("push failed unexpectedly")
        _failed(subscription, f"{type(exc).__name__}: {exc}")
        return False
    return True


def _refused(subscription: PushSubscription, reason: str) -> None:
    log.warning("push subscription %s deleted: %s", subscription.pk, reason[:200])
    subscription.delete()


def _failed(subscription: PushSubscription, error: str) -> None:
    log.warning("push failed: %s", error[:200])
    subscription.last_error = error[:1000]
    subscription.last_error_at = datetime.now(UTC)
    subscription.save(update_fields=["last_error", "last_error_at"])
