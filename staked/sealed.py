"""Opaque tokens for links that carry what they name: a small JSON payload encrypted and
authenticated (AES-256-GCM) with a key made from SECRET_KEY and the token's purpose.

Django's signing (`TimestampSigner.sign_object`) only signs: its base64 is readable, so a seat
link showed the player's internal user id and an unsubscribe link the e-mail address to anyone
who saw the link (a forwarded e-mail, a screenshot of the QR code, a log). A sealed token reads
as random bytes; only the server opens it. It stays stateless (nothing is stored per link), and
it keeps Django's refusals: a token that does not open is `signing.BadSignature`, one older than
`max_age` is `signing.SignatureExpired`, so callers handle it as before.

Keys: `SECRET_KEY`, then each of `SECRET_KEY_FALLBACKS` when opening, as Django's signing does,
so a rotated key does not break the links already sent. The purpose is bound in twice (the key
and the associated data): a token made for one purpose never opens as another.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import time
from datetime import timedelta

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.conf import settings
from django.core import signing
from django.utils.crypto import salted_hmac

NONCE_BYTES = 12


def _key(purpose: str, secret: str) -> bytes:
    return salted_hmac(
        f"staked.sealed:{purpose}", "key", secret=secret, algorithm="sha256"
    ).digest()


def seal(data, purpose: str, *, now: float | None = None) -> str:
    """`data` (JSON-able) as an opaque, URL-safe token for `purpose`, stamped with the time."""
    moment = int(time.time() if now is None else now)
    plain = json.dumps({"t": moment, "d": data}, separators=(",", ":")).encode()
    nonce = os.urandom(NONCE_BYTES)
    sealed = AESGCM(_key(purpose, settings.SECRET_KEY)).encrypt(nonce, plain, purpose.encode())
    return base64.urlsafe_b64encode(nonce + sealed).decode().rstrip("=")


def unseal(token: str, purpose: str, *, max_age: timedelta, now: float | None = None):
    """What `seal` sealed for `purpose`: BadSignature when it does not open, SignatureExpired
    when it is older than `max_age`."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError, TypeError):
        raise signing.BadSignature("not a token") from None
    nonce, sealed = raw[:NONCE_BYTES], raw[NONCE_BYTES:]
    if len(nonce) != NONCE_BYTES or not sealed:
        raise signing.BadSignature("not a token")
    for secret in (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS):
        try:
            plain = AESGCM(_key(purpose, secret)).decrypt(nonce, sealed, purpose.encode())
        except InvalidTag:
            continue
        payload = json.loads(plain)
        age = (time.time() if now is None else now) - payload["t"]
        if age > max_age.total_seconds():
            raise signing.SignatureExpired(f"token age {age:.0f} > {max_age}")
        return payload["d"]
    raise signing.BadSignature("the token does not open")
