"""API tokens: issued once, stored hashed, revocable; checked with a short cache so that a poll
costs no database query for the token.

A token is 40 random hex characters (`secrets.token_hex(20)`, 160 bits), shown to its owner once
when it is issued (`POST /api/v1/auth/guest/`, `.../register/`, `.../token/`). The database keeps
only its SHA-256 digest (`games.models.ApiToken`): a fast hash is enough for a random secret that
long, and it keeps the check cheap. Nothing (admin, logs, cache keys) ever holds a token itself.
"""

from __future__ import annotations

import hashlib
import secrets

from django.core.cache import cache

from games.models import ApiToken

CACHE_SECONDS = 60  # a deactivated user is refused within this time; a revoked token at once
PREFIX_LENGTH = 6


def digest_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_cache_key(token: str) -> str:
    """The cache entry of a token's user: named by the digest, never by the token."""
    return cache_key(digest_of(token))


def cache_key(digest: str) -> str:
    return f"token:{digest}"


def issue_token(user) -> str:
    """A new token for `user`, returned this once (only its digest is kept)."""
    token = secrets.token_hex(20)
    ApiToken.objects.create(user=user, digest=digest_of(token), prefix=token[:PREFIX_LENGTH])
    return token


def revoke(user, digests: list[str] | None = None) -> int:
    """Revoke `user`'s tokens with these digests (all of them when None); how many went. The
    cached user of each goes too, so a revoked token is refused on its very next request."""
    rows = ApiToken.objects.filter(user=user)
    if digests is not None:
        rows = rows.filter(digest__in=digests)
    gone = list(rows.values_list("digest", flat=True))
    rows.delete()
    cache.delete_many([cache_key(d) for d in gone])
    return len(gone)
