"""Token authentication with a short cache, so a poll costs no database query for the token."""

from __future__ import annotations

from django.core.cache import cache
from rest_framework.authentication import TokenAuthentication

CACHE_SECONDS = 60  # a revoked token or a deactivated user is refused within this time


def token_cache_key(key: str) -> str:
    return f"token:{key}"


class CachedTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        cache_key = token_cache_key(key)
        user = cache.get(cache_key)
        if user is None:
            user, token = super().authenticate_credentials(key)
            cache.set(cache_key, user, timeout=CACHE_SECONDS)
            return user, token
        return user, key
